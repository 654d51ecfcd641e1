package sway_test

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/ecs"
)

// A leg of two 0.42 m bones puts its foot on a step 0.3 m up and 0.2 m
// ahead, the knee bending toward a point in front of it; then it reaches
// for a point too far away.
func ExampleIKFeature_Add() {
	skel, err := sway.NewSkeleton(sway.SkeletonDesc{Name: "leg", Bones: []sway.BoneDesc{
		sway.Bone("hips", "", mgl32.Vec3{0, 1, 0}),
		sway.Bone("upper_leg.L", "hips", mgl32.Vec3{0.1, -0.05, 0}),
		sway.Bone("lower_leg.L", "upper_leg.L", mgl32.Vec3{0, -0.42, 0}),
		sway.Bone("foot.L", "lower_leg.L", mgl32.Vec3{0, -0.42, 0}),
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

	leg, err := sway.IKLimbFor(skel, "upper_leg.L", "lower_leg.L", "foot.L")
	if err != nil {
		panic(err)
	}
	leg.Hint, leg.HintSpace = mgl32.Vec3{0.1, 0.5, 1}, sway.IKHintRoot // in front of the knee
	if _, err := w.IK().Add(char, leg); err != nil {
		panic(err)
	}
	for _, target := range []mgl32.Vec3{{0.1, 0.41, 0.2}, {0.1, 0.5, 2}} {
		_ = w.IK().Of(char).SetTarget(0, target)
		_ = w.Step(1.0 / 60)
		reached, _ := w.IK().Of(char).Reached(0)
		foot, _ := w.BoneWorld(char, skel.Index("foot.L"))
		knee, _ := w.BoneWorld(char, skel.Index("lower_leg.L"))
		fmt.Printf("reached %-5v foot (%.3f, %.3f, %.3f) knee z %+.3f\n", reached, foot.Pos[0], foot.Pos[1], foot.Pos[2], knee.Pos[2])
	}
	// Output:
	// reached true  foot (0.100, 0.410, 0.200) knee z +0.387
	// reached false foot (0.100, 0.766, 0.820) knee z +0.410
}
