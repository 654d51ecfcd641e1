package sway_test

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl32"
	arche "github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/ecs"
)

// A two-bone arm on a character standing at x = 2, turned a quarter turn
// about Y; one frame later the hand is read back in world space.
func Example() {
	skel, err := sway.NewSkeleton(sway.SkeletonDesc{Name: "arm", Bones: []sway.BoneDesc{
		sway.Bone("shoulder", "", mgl32.Vec3{0, 1.5, 0}),
		sway.Bone("elbow", "shoulder", mgl32.Vec3{0.3, 0, 0}),
		sway.Bone("hand", "elbow", mgl32.Vec3{0.25, 0, 0}),
	}})
	if err != nil {
		panic(err)
	}
	w, err := sway.NewWorld(sway.Options{Workers: 2})
	if err != nil {
		panic(err)
	}
	defer w.Close()

	root := sway.At(mgl32.Vec3{2, 0, 0})
	root.Rot = mgl32.QuatRotate(math.Pi/2, mgl32.Vec3{0, 1, 0})
	char, err := w.AddCharacter(skel, root)
	if err != nil {
		panic(err)
	}
	if err := w.Step(1.0 / 60); err != nil {
		panic(err)
	}
	hand, _ := w.BoneWorld(char, skel.Index("hand"))
	fmt.Printf("hand at (%.2f, %.2f, %.2f)\n", hand.Pos[0], hand.Pos[1], hand.Pos[2])
	// Output: hand at (2.00, 1.50, -0.55)
}

// Bad input is reported at set-up with the field and the value.
func ExampleNewSkeleton_error() {
	_, err := sway.NewSkeleton(sway.SkeletonDesc{Bones: []sway.BoneDesc{
		sway.Bone("hips", "", mgl32.Vec3{}),
		sway.Bone("tail", "pelvis", mgl32.Vec3{0, 0, -0.1}),
	}})
	fmt.Println(err)
	// Output: sway: SkeletonDesc.Bones[1].Parent = pelvis: no bone has this name
}

// A crowd: the world is told how many characters to expect, so that its
// storage is sized for them, and trimmed once they are built, which packs
// the pools and gathers each chain's records next to its neighbours'.
// Neither changes a pose.
func ExampleOptions_characters() {
	skel, err := sway.NewSkeleton(sway.SkeletonDesc{Name: "fox", Bones: []sway.BoneDesc{
		sway.Bone("hips", "", mgl32.Vec3{0, 0.5, 0}),
		sway.Bone("tail.0", "hips", mgl32.Vec3{0, 0, -0.1}),
		sway.Bone("tail.1", "tail.0", mgl32.Vec3{0, 0, -0.1}),
	}})
	if err != nil {
		panic(err)
	}
	const n = 1000
	crowd := func(opts sway.Options, trim bool) uint64 {
		w, err := sway.NewWorld(opts)
		if err != nil {
			panic(err)
		}
		defer w.Close()
		chains := []sway.ChainSpec{{Root: "tail.0", EndLength: 1, Settings: sway.DefaultChainSettings()}}
		foxes := make([]arche.Entity, n)
		for i := range foxes {
			fox, err := w.AddCharacter(skel, sway.At(mgl32.Vec3{float32(i % 40), 0, float32(i / 40)}))
			if err != nil {
				panic(err)
			}
			if _, err := w.Chains().Add(fox, nil, chains); err != nil {
				panic(err)
			}
			foxes[i] = fox
		}
		if trim {
			if err := w.Trim(); err != nil {
				panic(err)
			}
		}
		for f := range 60 {
			for i, fox := range foxes {
				_ = w.SetRoot(fox, sway.At(mgl32.Vec3{float32(i%40) + 0.3*float32(f%7), 0, float32(i / 40)}))
			}
			if err := w.Step(1.0 / 60); err != nil {
				panic(err)
			}
		}
		return w.Checksum()
	}
	sized := crowd(sway.Options{Characters: n}, true)
	plain := crowd(sway.Options{}, false)
	fmt.Println("same poses:", sized == plain)
	// Output: same poses: true
}
