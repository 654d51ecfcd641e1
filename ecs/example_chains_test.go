package sway_test

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/ecs"
)

// A fox's tail as a dynamic chain: the character runs to the right and the
// tail lags behind. (Gravity acts only as far as the root turns away from
// its rest orientation: DynamicBone takes the rest pose as already hanging.)
func ExampleChainFeature_Add() {
	skel, _ := sway.NewSkeleton(sway.SkeletonDesc{Name: "fox", Bones: []sway.BoneDesc{
		sway.Bone("hips", "", mgl32.Vec3{0, 0.5, 0}),
		sway.Bone("tail.0", "hips", mgl32.Vec3{0, 0, -0.1}),
		sway.Bone("tail.1", "tail.0", mgl32.Vec3{0, 0, -0.1}),
		sway.Bone("tail.2", "tail.1", mgl32.Vec3{0, 0, -0.1}),
	}})
	w, err := sway.NewWorld(sway.Options{Workers: 1})
	if err != nil {
		panic(err)
	}
	defer w.Close()
	fox, _ := w.AddCharacter(skel, sway.Identity())

	tail := sway.DefaultChainSettings()
	tail.Damping, tail.Elasticity, tail.Stiffness = 0.1, 0.05, 0.2
	tail.Gravity = mgl32.Vec3{0, -9.81, 0} // m/s²
	_, err = w.Chains().Add(fox,
		[]sway.ColliderSpec{{Bone: "hips", Shape: sway.Sphere(mgl32.Vec3{0, -0.05, -0.15}, 0.05)}},
		[]sway.ChainSpec{{Root: "tail.0", EndLength: 1, Colliders: []int{0}, Settings: tail}})
	if err != nil {
		panic(err)
	}
	for frame := 1; frame <= 30; frame++ {
		_ = w.SetRoot(fox, sway.At(mgl32.Vec3{float32(frame) * 0.02, 0, 0}))
		_ = w.Step(1.0 / 60)
	}
	root, _ := w.Root(fox)
	tip, _ := w.BoneWorld(fox, skel.Index("tail.2"))
	rest := root.Pos.Add(mgl32.Vec3{0, 0.5, -0.3})
	fmt.Printf("tail tip lags behind the rest pose: %v\n", tip.Pos[0] < rest[0]-0.01)
	// Output: tail tip lags behind the rest pose: true
}
