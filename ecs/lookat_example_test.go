package sway_test

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/ecs"
)

// A head limited to 60 degrees and eyes limited to ±30 follow a point 90
// degrees to the character's left (+X with +Y up and +Z forward): the head
// turns 60 degrees, the eyes the last 30.
func ExampleLookAtFeature_Add() {
	skel, err := sway.NewSkeleton(sway.SkeletonDesc{Name: "bust", Bones: []sway.BoneDesc{
		sway.Bone("chest", "", mgl32.Vec3{0, 1.3, 0}),
		sway.Bone("neck", "chest", mgl32.Vec3{0, 0.2, 0}),
		sway.Bone("head", "neck", mgl32.Vec3{0, 0.1, 0}),
		sway.Bone("eye.L", "head", mgl32.Vec3{0.03, 0.07, 0.08}),
		sway.Bone("eye.R", "head", mgl32.Vec3{-0.03, 0.07, 0.08}),
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

	s := sway.LookAtFor(skel) // head and eyes by name, 60° head limit, eyes ±30°
	if _, err := w.LookAt().Add(char, s); err != nil {
		panic(err)
	}
	if err := w.LookAt().Of(char).SetTarget(mgl32.Vec3{10, 1.6, 0}); err != nil {
		panic(err)
	}
	for frame := 0; frame < 300; frame++ { // 5 s at 60 Hz
		_ = w.Step(1.0 / 60)
	}
	yaw := func(bone string) float64 {
		t, _ := w.BoneWorld(char, skel.Index(bone))
		f := t.Rot.Rotate(mgl32.Vec3{0, 0, 1})
		return math.Atan2(float64(f[0]), float64(f[2])) * 180 / math.Pi
	}
	fmt.Printf("head yaw %.1f°, eyes %.1f° and %.1f°\n", yaw("head"), yaw("eye.L"), yaw("eye.R"))
	// Output: head yaw 60.0°, eyes 90.0° and 90.0°
}
