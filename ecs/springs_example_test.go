package sway_test

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/ecs"
)

// A fox's tail as a VRM spring: it sticks out backwards at rest and sags
// under gravity, kept up by its stiffness; an earring on the head is a
// simple tip spring.
func ExampleVRMSpringFeature_Add() {
	skel, _ := sway.NewSkeleton(sway.SkeletonDesc{Name: "fox", Bones: []sway.BoneDesc{
		sway.Bone("hips", "", mgl32.Vec3{0, 0.5, 0}),
		sway.Bone("tail.0", "hips", mgl32.Vec3{0, 0, -0.1}),
		sway.Bone("tail.1", "tail.0", mgl32.Vec3{0, 0, -0.1}),
		sway.Bone("tail.2", "tail.1", mgl32.Vec3{0, 0, -0.1}),
		sway.Bone("head", "hips", mgl32.Vec3{0, 0.2, 0.3}),
		sway.Bone("earring", "head", mgl32.Vec3{0.05, 0, 0}),
	}})
	w, err := sway.NewWorld(sway.Options{Workers: 1})
	if err != nil {
		panic(err)
	}
	defer w.Close()
	fox, _ := w.AddCharacter(skel, sway.Identity())

	tail := sway.DefaultVRMJointSettings() // stiffness 1, drag 0.5, gravity (0,-1,0) with power 0
	tail.GravityPower, tail.HitRadius = 1, 0.02
	_, err = w.VRMSprings().Add(fox, []sway.ColliderSpec{{Bone: "hips", Shape: sway.Sphere(mgl32.Vec3{0, -0.25, -0.2}, 0.05)}}, []sway.VRMSpringSpec{{Joints: []string{"tail.0", "tail.1", "tail.2"}, Settings: tail, Colliders: []int{0}}})
	if err != nil {
		panic(err)
	}
	_, err = w.SimpleSprings().Add(fox, []sway.SimpleSpringSpec{{
		Bones: []string{"earring"}, SpringEnd: mgl32.Vec3{0, -0.03, 0}, Settings: sway.DefaultSimpleSpringSettings(),
	}})
	if err != nil {
		panic(err)
	}
	for frame := 0; frame < 120; frame++ {
		_ = w.Step(1.0 / 60)
	}
	tip, _ := w.BoneWorld(fox, skel.Index("tail.2"))
	fmt.Printf("the tail tip sags below the hips: %v\n", tip.Pos[1] < 0.5-0.02)
	// Output: the tail tip sags below the hips: true
}
