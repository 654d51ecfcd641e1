package sway_test

import (
	"fmt"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	arche "github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/ecs"
)

// orderSkeleton is a hips bone with four three-bone strands (hair.0..3):
// room for four springs, each with or without colliders.
func orderSkeleton(t *testing.T) *sway.Skeleton {
	t.Helper()
	bones := []sway.BoneDesc{sway.Bone("hips", "", mgl32.Vec3{0, 1, 0})}
	for s := range 4 {
		x := float32(s)*0.1 - 0.15
		parent := "hips"
		for j := range 3 {
			name := fmt.Sprintf("hair.%d.%d", s, j)
			off := mgl32.Vec3{0, -0.1, 0}
			if j == 0 {
				off = mgl32.Vec3{x, 0.5, 0}
			}
			bones = append(bones, sway.Bone(name, parent, off))
			parent = name
		}
	}
	skel, err := sway.NewSkeleton(sway.SkeletonDesc{Name: "order", Bones: bones})
	if err != nil {
		t.Fatal(err)
	}
	return skel
}

// orderSprings returns four springs, spring s with the one collider when
// bit s of withCols is set.
func orderSprings(withCols int) []sway.VRMSpringSpec {
	var specs []sway.VRMSpringSpec
	for s := range 4 {
		sp := sway.VRMSpringSpec{Settings: sway.DefaultVRMJointSettings()}
		sp.Settings.GravityPower = 1
		sp.Settings.HitRadius = 0.02
		for j := range 3 {
			sp.Joints = append(sp.Joints, fmt.Sprintf("hair.%d.%d", s, j))
		}
		if withCols&(1<<s) != 0 {
			sp.Colliders = []int{0}
		}
		specs = append(specs, sp)
	}
	return specs
}

// TestVRMSpringsWithAndWithoutCollidersInEveryOrder steps four springs,
// each with or without colliders, in all 16 layouts, for one character
// alone and for eight characters batched together (each with its own
// layout): every Step must succeed and the springs must fall under
// gravity. A spring without colliders after one with them used to make
// every Step fail (the SIMD collider table kept the previous spring's
// length).
func TestVRMSpringsWithAndWithoutCollidersInEveryOrder(t *testing.T) {
	skel := orderSkeleton(t)
	cols := []sway.ColliderSpec{{Bone: "hips", Shape: sway.Sphere(mgl32.Vec3{0, 0.3, 0.2}, 0.05)}}
	run := func(t *testing.T, layouts []int) {
		w, err := sway.NewWorld(sway.Options{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		var ents []arche.Entity
		for _, l := range layouts {
			e, err := w.AddCharacter(skel, sway.Identity())
			if err != nil {
				t.Fatal(err)
			}
			if _, err := w.VRMSprings().Add(e, cols, orderSprings(l)); err != nil {
				t.Fatal(err)
			}
			ents = append(ents, e)
		}
		// Tilt every character so that gravity swings the strands.
		for f := range 30 {
			for _, e := range ents {
				w.SetRoot(e, sway.At(mgl32.Vec3{float32(f) * 0.01, 0, 0}))
			}
			if err := w.Step(1.0 / 60); err != nil {
				t.Fatalf("frame %d: %v", f, err)
			}
		}
		for k, e := range ents {
			for s := range 4 {
				tip, _ := w.BoneWorld(e, skel.Index(fmt.Sprintf("hair.%d.2", s)))
				rest := mgl32.Vec3{0.29 + float32(s)*0.1 - 0.15, 1.3, 0}
				if !finite3(tip.Pos) || tip.Pos.Sub(rest).Len() < 1e-4 {
					t.Fatalf("character %d (layout %04b) spring %d: tip %v has not moved from rest %v", k, layouts[k], s, tip.Pos, rest)
				}
			}
		}
	}
	for l := range 16 {
		t.Run(fmt.Sprintf("alone/%04b", l), func(t *testing.T) { run(t, []int{l}) })
	}
	for start := 0; start < 16; start += 8 {
		var ls []int
		for l := start; l < start+8; l++ {
			ls = append(ls, l)
		}
		t.Run(fmt.Sprintf("batched/%d-%d", start, start+7), func(t *testing.T) { run(t, ls) })
	}
}
