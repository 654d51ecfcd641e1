package sway_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	arche "github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/ecs"
)

// twinRig is a character with VRM hair (colliding with a head sphere and a
// back capsule) and a dynamic tail, written in one of three authoring
// frames with the same geometry in metres:
//
//   - units 1, strandScale 1: plain;
//   - units 0.01: an "Armature" root scaled 0.01 above translations and
//     collider offsets ×100 (a file exported in centimetres);
//   - strandScale 0.25: the hair's first joint scaled 0.25 above its
//     children's translations ×4 (a node scale on a spring root).
//
// Radii and hit radii are the same numbers in every frame: metres at rest.
func twinRig(t *testing.T, units, strandScale float32) (*sway.Skeleton, []sway.ColliderSpec, []sway.VRMSpringSpec, []sway.ChainSpec) {
	t.Helper()
	u := 1 / units // translations below the Armature
	bone := func(name, parent string, pos mgl32.Vec3) sway.BoneDesc { return sway.Bone(name, parent, pos.Mul(u)) }
	arm := sway.Bone("Armature", "", mgl32.Vec3{})
	arm.Scale = mgl32.Vec3{units, units, units}
	bones := []sway.BoneDesc{arm,
		bone("hips", "Armature", mgl32.Vec3{0, 1, 0}),
		bone("head", "hips", mgl32.Vec3{0, 0.5, 0}),
	}
	var hair []string
	for s, x := range []float32{-0.06, 0.06} {
		parent := "head"
		for j := range 5 {
			name := fmt.Sprintf("hair.%d.%d", s, j)
			off := mgl32.Vec3{0, -0.07, -0.02}
			if j == 0 {
				off = mgl32.Vec3{x, 0.02, -0.09}
			} else if s == 0 {
				off = off.Mul(1 / strandScale) // under hair.0.0's scale
			}
			b := bone(name, parent, off)
			if j == 0 && s == 0 {
				b.Scale = mgl32.Vec3{strandScale, strandScale, strandScale}
			}
			bones = append(bones, b)
			if j < 4 {
				hair = append(hair, name)
			}
			parent = name
		}
	}
	parent := "hips"
	for j := range 5 {
		name := fmt.Sprintf("tail.%d", j)
		bones = append(bones, bone(name, parent, mgl32.Vec3{0, -0.02, -0.1}))
		parent = name
	}
	skel, err := sway.NewSkeleton(sway.SkeletonDesc{Name: "twin", Bones: bones})
	if err != nil {
		t.Fatal(err)
	}
	cols := []sway.ColliderSpec{
		{Bone: "head", Shape: sway.Sphere(mgl32.Vec3{0, 0, 0}.Mul(u), 0.1)},
		{Bone: "hips", Shape: sway.Capsule(mgl32.Vec3{0, 0.05, -0.14}.Mul(u), mgl32.Vec3{0, 0.4, -0.12}.Mul(u), 0.05, 0.05)},
	}
	set := sway.DefaultVRMJointSettings()
	set.Stiffness, set.GravityPower, set.DragForce, set.HitRadius = 0.6, 0.8, 0.3, 0.015
	springs := []sway.VRMSpringSpec{
		{Joints: hair[:4], Settings: set, Colliders: []int{0, 1}},
		{Joints: hair[4:], Settings: set, Colliders: []int{0, 1}},
	}
	tail := sway.DefaultChainSettings()
	tail.Damping, tail.Elasticity, tail.Stiffness = 0.1, 0.05, 0.1
	tail.Radius = 0.02
	tail.Gravity = mgl32.Vec3{0, -10.8, 0} // m/s²: 0.003 m per 60 Hz step
	chains := []sway.ChainSpec{{Root: "tail.0", EndLength: 1, Colliders: []int{1}, Settings: tail}}
	return skel, cols, springs, chains
}

// twinPath walks at 1.2 m/s, turning 90° every 2 s (the body over 0.5
// s), then stands still
// from frame 480.
func twinPath(f int) sway.Transform {
	t := float64(min(f, 480)) / 60
	leg, into := math.Floor(t/2), math.Mod(t, 2)
	yaw := leg * math.Pi / 2
	var p mgl32.Vec3
	for k := 0.0; k < leg; k++ {
		p = p.Add(mgl32.Vec3{float32(2.4 * math.Sin(k*math.Pi/2)), 0, float32(2.4 * math.Cos(k*math.Pi/2))})
	}
	p = p.Add(mgl32.Vec3{float32(1.2 * into * math.Sin(yaw)), 0, float32(1.2 * into * math.Cos(yaw))})
	turn := yaw // the body turns into each new leg over its first 0.5 s
	if leg > 0 {
		turn = yaw - (1-math.Min(into/0.5, 1))*math.Pi/2
	}
	return sway.Transform{Pos: p, Rot: mgl32.QuatRotate(float32(turn), mgl32.Vec3{0, 1, 0}), Scale: mgl32.Vec3{1, 1, 1}}
}

// twinRun steps a twin rig along twinPath under a root scale and returns
// every bone's world position at every frame.
func twinRun(t *testing.T, units, strandScale, rootScale float32, frames int) ([][]mgl32.Vec3, []mgl32.Vec3) {
	t.Helper()
	skel, cols, springs, chains := twinRig(t, units, strandScale)
	w, err := sway.NewWorld(sway.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	root := func(f int) sway.Transform {
		r := twinPath(f) // the scaled copy walks the scaled path
		r.Pos, r.Scale = r.Pos.Mul(rootScale), mgl32.Vec3{rootScale, rootScale, rootScale}
		return r
	}
	e, err := w.AddCharacter(skel, root(0))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.VRMSprings().Add(e, cols, springs); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Chains().Add(e, cols, chains); err != nil {
		t.Fatal(err)
	}
	out := make([][]mgl32.Vec3, frames)
	roots := make([]mgl32.Vec3, frames)
	for f := range frames {
		if err := w.SetRoot(e, root(f+1)); err != nil {
			t.Fatal(err)
		}
		if err := w.Step(1.0 / 60); err != nil {
			t.Fatal(err)
		}
		out[f] = make([]mgl32.Vec3, skel.NumBones())
		for b := range out[f] {
			out[f][b] = worldOf(t, w, e, b)
		}
		roots[f] = root(f + 1).Pos
	}
	return out, roots
}

func worldOf(t *testing.T, w *sway.World, e arche.Entity, b int) mgl32.Vec3 {
	tr, err := w.BoneWorld(e, b)
	if err != nil {
		t.Fatal(err)
	}
	return tr.Pos
}

// TestAuthoringScaleChangesNothing: the scale a rig has at rest is the
// frame it was authored in, so a rig exported in centimetres under a 0.01
// root, or with a node scale on a spring's first joint, moves as the
// plain one does (VRM springs, their colliders and a dynamic chain), to
// 1e-4 m over 600 frames of walking, turning and stopping.
func TestAuthoringScaleChangesNothing(t *testing.T) {
	plain, _ := twinRun(t, 1, 1, 1, 600)
	moved := false
	for b := range plain[0] {
		moved = moved || plain[100][b].Sub(plain[99][b]).Len() > 1e-3
	}
	if !moved {
		t.Fatal("the plain rig does not move: the comparison would be of rest poses")
	}
	for _, c := range []struct {
		name          string
		units, strand float32
	}{{"centimetres", 0.01, 1}, {"spring root scale 0.25", 1, 0.25}, {"both", 0.01, 0.25}} {
		twin, _ := twinRun(t, c.units, c.strand, 1, 600)
		var worst float32
		for f := range plain {
			for b := range plain[f] {
				worst = max(worst, twin[f][b].Sub(plain[f][b]).Len())
			}
		}
		t.Logf("%s: largest distance from the plain rig %.2g m", c.name, worst)
		if worst > 1e-4 {
			t.Errorf("%s: a bone is %.2g m from the plain rig's (want <= 1e-4)", c.name, worst)
		}
	}
}

// TestRuntimeScaleIsGeometric: a character whose root is scaled by 2 at
// run time, walking the path scaled by 2, moves as the twice-as-large
// copy of the unscaled one: every bone's position relative to the root is
// twice the unscaled one's (VRM springs on both paths, colliders and a
// dynamic chain).
func TestRuntimeScaleIsGeometric(t *testing.T) {
	one, r1 := twinRun(t, 1, 0.25, 1, 600)
	for _, k := range []float32{2, 1.5} {
		two, r2 := twinRun(t, 1, 0.25, k, 600)
		var worst float32
		for f := range one {
			for b := range one[f] {
				want := one[f][b].Sub(r1[f]).Mul(k)
				worst = max(worst, two[f][b].Sub(r2[f]).Sub(want).Len())
			}
		}
		t.Logf("scale %g: largest distance from the scaled copy %.2g m", k, worst)
		if worst > 1e-4*k {
			t.Errorf("scale %g: a bone is %.2g m from the scaled copy (want <= %.2g)", k, worst, 1e-4*k)
		}
	}
}
