package sway_test

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/ecs"
)

// A small humanoid breathes with the default settings found by bone name.
// The example prints each phase change and how far the chest has moved
// toward the character's forward (+Z).
func ExampleBreathFeature_Add() {
	skel, err := sway.NewSkeleton(sway.SkeletonDesc{Name: "torso", Bones: []sway.BoneDesc{
		sway.Bone("hips", "", mgl32.Vec3{0, 1, 0}),
		sway.Bone("spine", "hips", mgl32.Vec3{0, 0.1, 0}),
		sway.Bone("chest", "spine", mgl32.Vec3{0, 0.15, 0}),
		sway.Bone("neck", "chest", mgl32.Vec3{0, 0.2, 0}),
		sway.Bone("head", "neck", mgl32.Vec3{0, 0.1, 0}),
		sway.Bone("shoulder.L", "chest", mgl32.Vec3{0.05, 0.15, 0}),
		sway.Bone("shoulder.R", "chest", mgl32.Vec3{-0.05, 0.15, 0}),
	}})
	if err != nil {
		panic(err)
	}
	w, err := sway.NewWorld(sway.Options{Workers: 1})
	if err != nil {
		panic(err)
	}
	defer w.Close()
	char, _ := w.AddCharacter(skel, sway.Identity())

	s := sway.BreathFor(skel) // spine, chest, neck, head; both shoulders
	s.EffectRate = 2
	if _, err := w.Breath().Add(char, s); err != nil {
		panic(err)
	}
	chest := skel.Index("chest")
	phase := sway.BreathPhase(0)
	for frame := 1; frame <= 240; frame++ { // 4 s at 60 Hz
		_ = w.Step(1.0 / 60)
		st, _ := w.Breath().Of(char).State()
		if st.Phase != phase {
			phase = st.Phase
			c, _ := w.BoneWorld(char, chest)
			fmt.Printf("frame %3d: %-7v chest forward %+.2f mm\n", frame, phase, 1000*c.Pos[2])
		}
	}
	// Output:
	// frame  72: Exhale  chest forward +10.46 mm
	// frame 216: Rest    chest forward -10.46 mm
	// frame 228: Inhale  chest forward -10.46 mm
}
