package sway_test

import (
	"errors"
	"math"
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	arche "github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/internal/mathx"
	"github.com/sway-anim/sway/internal/scene"
)

func ikLegs(t testing.TB, skel *sway.Skeleton) (left, right sway.IKLimb) {
	t.Helper()
	var err error
	if left, err = sway.IKLimbFor(skel, "upper_leg.L", "lower_leg.L", "foot.L"); err != nil {
		t.Fatal(err)
	}
	if right, err = sway.IKLimbFor(skel, "upper_leg.R", "lower_leg.R", "foot.R"); err != nil {
		t.Fatal(err)
	}
	// Knees bend toward a point in front of them, in root space.
	left.Hint, left.HintSpace = mgl32.Vec3{0.1, 0.5, 1}, sway.IKHintRoot
	right.Hint, right.HintSpace = mgl32.Vec3{-0.1, 0.5, 1}, sway.IKHintRoot
	return left, right
}

// TestIKReachesTargets: on a turned, moved character, both feet reach
// random reachable targets in the world pose after one Step (1e-4), the
// knees bend toward their hints, and Reached is true; unreachable targets
// are reported and the leg points at them at full stretch.
func TestIKReachesTargets(t *testing.T) {
	skel := procSkeleton(t)
	w, err := sway.NewWorld(sway.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	root := sway.At(mgl32.Vec3{-2, 0.3, 5})
	root.Rot = mgl32.QuatRotate(2.5, mgl32.Vec3{0, 1, 0})
	e, _ := w.AddCharacter(skel, root)
	left, right := ikLegs(t, skel)
	if _, err := w.IK().Add(e, left, right); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewSource(4))
	const reach = 0.84 // two bones of 0.42
	for trial := 0; trial < 200; trial++ {
		var targets [2]mgl32.Vec3
		for k, l := range []sway.IKLimb{left, right} {
			hip, _ := w.BoneWorld(e, l.Bones[0])
			// Below and in front of the hip, 0.1 .. 0.8 m away.
			dir := mathx.NormalizeOr(mgl32.Vec3{float32(r.NormFloat64()) * 0.5, -1, float32(r.NormFloat64())*0.5 + 0.3}, mgl32.Vec3{0, -1, 0})
			targets[k] = hip.Pos.Add(mathx.Rotate(root.Rot, dir).Mul(0.1 + 0.7*r.Float32()))
			if err := w.IK().Of(e).SetTarget(k, targets[k]); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Step(1.0 / 60); err != nil {
			t.Fatal(err)
		}
		for k, l := range []sway.IKLimb{left, right} {
			foot, _ := w.BoneWorld(e, l.Bones[2])
			if d := mathx.Len(foot.Pos.Sub(targets[k])); d > 1e-4 {
				t.Fatalf("trial %d limb %d: foot %.3g from the target", trial, k, d)
			}
			if ok, _ := w.IK().Of(e).Reached(k); !ok {
				t.Fatalf("trial %d limb %d: a reachable target reported unreached", trial, k)
			}
			// The knee lies on the hint's side of the hip-target line.
			hip, _ := w.BoneWorld(e, l.Bones[0])
			knee, _ := w.BoneWorld(e, l.Bones[1])
			line := mathx.NormalizeOr(targets[k].Sub(hip.Pos), mgl32.Vec3{})
			off := knee.Pos.Sub(hip.Pos)
			off = off.Sub(line.Mul(mathx.Dot(off, line)))
			hint := root.Pos.Add(mathx.Rotate(root.Rot, l.Hint)).Sub(hip.Pos)
			hint = hint.Sub(line.Mul(mathx.Dot(hint, line)))
			if mathx.Len(off) > 1e-3 && mathx.Dot(off, hint) <= 0 {
				t.Fatalf("trial %d limb %d: the knee bends away from the hint", trial, k)
			}
		}
	}
	// Out of reach: 2 m ahead of the left hip.
	hip, _ := w.BoneWorld(e, left.Bones[0])
	far := hip.Pos.Add(mathx.Rotate(root.Rot, mgl32.Vec3{0, -1, 1.7}))
	_ = w.IK().Of(e).SetTarget(0, far)
	if err := w.Step(1.0 / 60); err != nil {
		t.Fatal(err)
	}
	foot, _ := w.BoneWorld(e, left.Bones[2])
	if ok, _ := w.IK().Of(e).Reached(0); ok {
		t.Fatal("a target 2 m away reported reached")
	}
	want := hip.Pos.Add(mathx.NormalizeOr(far.Sub(hip.Pos), mgl32.Vec3{}).Mul(reach))
	if d := mathx.Len(foot.Pos.Sub(want)); d > 1e-4 {
		t.Fatalf("out of reach: foot %.3g from full stretch toward the target", d)
	}
}

// TestIKWeightSoftenAndDegenerate: weight 0 leaves the pose alone, a
// target in the soft zone is not reached, and targets on the hip, on the
// knee and straight up give finite poses.
func TestIKWeightSoftenAndDegenerate(t *testing.T) {
	skel := procSkeleton(t)
	w, err := sway.NewWorld(sway.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	e, _ := w.AddCharacter(skel, sway.Identity())
	left, _ := ikLegs(t, skel)
	left.Soften = 0.8
	if _, err := w.IK().Add(e, left); err != nil {
		t.Fatal(err)
	}
	hip, _ := w.BoneWorld(e, left.Bones[0])
	rest, _ := w.BoneWorld(e, left.Bones[2])
	// 0.9 of the reach, inside the soft zone (beyond 0.8).
	soft := hip.Pos.Add(mgl32.Vec3{0, -0.6, 0.4637})
	_ = w.IK().Of(e).SetTarget(0, soft)
	_ = w.Step(1.0 / 60)
	if ok, _ := w.IK().Of(e).Reached(0); ok {
		t.Error("a target in the soft zone reported reached")
	}
	_ = w.IK().Of(e).SetLimbWeight(0, 0)
	_ = w.Step(1.0 / 60)
	if foot, _ := w.BoneWorld(e, left.Bones[2]); foot.Pos != rest.Pos {
		t.Errorf("weight 0 moved the foot: %v -> %v", rest.Pos, foot.Pos)
	}
	_ = w.IK().Of(e).SetLimbWeight(0, 1)
	knee, _ := w.BoneWorld(e, left.Bones[1])
	for _, target := range []mgl32.Vec3{hip.Pos, knee.Pos, hip.Pos.Add(mgl32.Vec3{0, 0.5, 0}), hip.Pos.Add(mgl32.Vec3{0, 1e-9, 0})} {
		_ = w.IK().Of(e).SetTarget(0, target)
		for f := 0; f < 3; f++ {
			if err := w.Step(1.0 / 60); err != nil {
				t.Fatal(err)
			}
		}
		p, _ := w.Pose(e)
		for b := range p.LocalRot {
			if !mathx.QuatFinite(p.LocalRot[b]) || !mathx.Vec3Finite(p.WorldPos[b]) {
				t.Fatalf("target %v: bone %s %v %v", target, skel.BoneName(b), p.LocalRot[b], p.WorldPos[b])
			}
		}
	}
}

// TestIKFollowsBoneAndSurvivesRemoval: a hand reaches for another
// character's head; removing that character leaves the target at its last
// position.
func TestIKFollowsBoneAndSurvivesRemoval(t *testing.T) {
	skel := procSkeleton(t)
	w, err := sway.NewWorld(sway.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	e, _ := w.AddCharacter(skel, sway.Identity())
	other, _ := w.AddCharacter(skel, sway.At(mgl32.Vec3{0.4, -0.2, 0.2}))
	arm, err := sway.IKLimbFor(skel, "upper_arm.L", "lower_arm.L", "hand.L")
	if err != nil {
		t.Fatal(err)
	}
	arm.Hint, arm.HintSpace = mgl32.Vec3{0.5, 1.4, -1}, sway.IKHintRoot
	if _, err := w.IK().Add(e, arm); err != nil {
		t.Fatal(err)
	}
	head := skel.Index("head")
	if err := w.IK().Of(e).SetTargetBone(0, other, head); err != nil {
		t.Fatal(err)
	}
	for f := 0; f < 30; f++ {
		_ = w.SetRoot(other, sway.At(mgl32.Vec3{0.4, -0.2, 0.2 - 0.005*float32(f)}))
		if err := w.Step(1.0 / 60); err != nil {
			t.Fatal(err)
		}
		oh, _ := w.BoneWorld(other, head)
		hand, _ := w.BoneWorld(e, arm.Bones[2])
		if d := mathx.Len(hand.Pos.Sub(oh.Pos)); d > 1e-4 {
			t.Fatalf("frame %d: hand %.3g from the other head", f, d)
		}
	}
	last, _ := w.BoneWorld(other, head)
	_ = w.RemoveCharacter(other)
	if err := w.Step(1.0 / 60); err != nil {
		t.Fatal(err)
	}
	point, lost, err := w.IK().Of(e).Target(0)
	if err != nil || !lost || point != last.Pos {
		t.Fatalf("after removal: %v (want %v) lost %v err %v", point, last.Pos, lost, err)
	}
	hand, _ := w.BoneWorld(e, arm.Bones[2])
	if d := mathx.Len(hand.Pos.Sub(last.Pos)); d > 1e-4 {
		t.Fatalf("after removal: hand %.3g from the last position", d)
	}
}

// ikProcScene is the full procedural phase on a crowd: breathing, look-at at
// the neighbour's head, both feet on moving targets and the left hand on
// the neighbour's hand.
func ikProcScene(t testing.TB, workers, chars, frames int) *sway.World {
	t.Helper()
	sc, err := scene.New(scene.Config{Characters: chars, Seed: 13})
	if err != nil {
		t.Fatal(err)
	}
	skel := sc.Skeleton
	w, err := sway.NewWorld(sway.Options{Workers: workers})
	if err != nil {
		t.Fatal(err)
	}
	ents, err := sc.Populate(w)
	if err != nil {
		t.Fatal(err)
	}
	left, right := ikLegs(t, skel)
	arm, _ := sway.IKLimbFor(skel, "upper_arm.L", "lower_arm.L", "hand.L")
	arm.Hint, arm.HintSpace = mgl32.Vec3{0.5, 1.4, -1}, sway.IKHintRoot
	head, hand := skel.Index("head"), skel.Index("hand.R")
	for i, e := range ents {
		s := sway.BreathFor(skel)
		s.Offset = float32(i%11) * 0.3
		if _, err := w.Breath().Add(e, s); err != nil {
			t.Fatal(err)
		}
		if _, err := w.LookAt().Add(e, sway.LookAtFor(skel)); err != nil {
			t.Fatal(err)
		}
		next := ents[(i+1)%len(ents)]
		if err := w.LookAt().Of(e).SetTargetBone(next, head); err != nil {
			t.Fatal(err)
		}
		if _, err := w.IK().Add(e, left, right, arm); err != nil {
			t.Fatal(err)
		}
		if err := w.IK().Of(e).SetTargetBone(2, next, hand); err != nil {
			t.Fatal(err)
		}
	}
	for f := 0; f < frames; f++ {
		tm := float64(f+1) / 60
		if err := sc.MoveRoots(w, ents, tm); err != nil {
			t.Fatal(err)
		}
		for i, e := range ents {
			r := sc.RootAt(i, tm)
			lift := float32(0.05 * math.Sin(tm*4+float64(i)))
			_ = w.IK().Of(e).SetTarget(0, r.Pos.Add(mathx.Rotate(r.Rot, mgl32.Vec3{0.1, 0.15 + lift, 0.1})))
			_ = w.IK().Of(e).SetTarget(1, r.Pos.Add(mathx.Rotate(r.Rot, mgl32.Vec3{-0.1, 0.15 - lift, 0})))
		}
		if err := w.Step(1.0 / 60); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

func TestProceduralPhaseBitIdenticalForAnyWorkerCount(t *testing.T) {
	ref := ikProcScene(t, 1, 100, 40)
	defer ref.Close()
	w := ikProcScene(t, 3, 100, 40)
	defer w.Close()
	if ref.Checksum() != w.Checksum() {
		t.Fatal("poses differ between 1 and 3 workers")
	}
}

func TestIKStepDoesNotAllocate(t *testing.T) {
	w := ikProcScene(t, 2, 64, 2)
	defer w.Close()
	if n := testing.AllocsPerRun(50, func() { _ = w.Step(1.0 / 60) }); n != 0 {
		t.Fatalf("%v allocations per Step with breath, look-at and IK on", n)
	}
}

func TestIKRejectsBadLimbs(t *testing.T) {
	skel := procSkeleton(t)
	w, err := sway.NewWorld(sway.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	e, _ := w.AddCharacter(skel, sway.Identity())
	nan := float32(math.NaN())
	good, _ := ikLegs(t, skel)
	for _, c := range []struct {
		field string
		edit  func(l *sway.IKLimb)
	}{
		{"limbs[0].Bones[2]", func(l *sway.IKLimb) { l.Bones[2] = 1000 }},
		{"limbs[0].Bones[1]", func(l *sway.IKLimb) { l.Bones[1] = skel.Index("lower_leg.R") }},
		{"limbs[0].Bones[2]", func(l *sway.IKLimb) { l.Bones[2] = l.Bones[0] }},
		{"limbs[0].MidAxis", func(l *sway.IKLimb) { l.MidAxis = mgl32.Vec3{} }},
		{"limbs[0].Soften", func(l *sway.IKLimb) { l.Soften = 1.5 }},
		{"limbs[0].Weight", func(l *sway.IKLimb) { l.Weight = nan }},
		{"limbs[0].Hint", func(l *sway.IKLimb) { l.Hint[2] = nan }},
		{"limbs[0].HintSpace", func(l *sway.IKLimb) { l.HintSpace = 9 }},
	} {
		l := good
		c.edit(&l)
		var fe *sway.FieldError
		if _, err := w.IK().Add(e, l); !errors.As(err, &fe) || fe.Field != c.field || fe.Type != "IKLimb" {
			t.Errorf("%s: IK.Add = %v", c.field, err)
		}
	}
	var fe *sway.FieldError
	if _, err := w.IK().Add(e); !errors.As(err, &fe) || fe.Field != "limbs" {
		t.Errorf("no limbs: %v", err)
	}
	if _, err := w.IK().Add(e, good, good, good, good, good); !errors.As(err, &fe) || fe.Field != "limbs" {
		t.Errorf("five limbs: %v", err)
	}
	if _, err := sway.IKLimbFor(skel, "thigh", "lower_leg.L", "foot.L"); !errors.As(err, &fe) || fe.Field != "upper" {
		t.Errorf("IKLimbFor with a bad name: %v", err)
	}
	if err := w.IK().Of(e).SetTarget(0, mgl32.Vec3{}); !errors.Is(err, sway.ErrNoFeature) {
		t.Errorf("no IK: %v", err)
	}
	if _, err := w.IK().Add(arche.Entity{}, good); !errors.Is(err, sway.ErrNotCharacter) {
		t.Errorf("non-character: %v", err)
	}
	if _, err := w.IK().Add(e, good); err != nil {
		t.Fatal(err)
	}
	if _, err := w.IK().Of(e).Reached(1); !errors.As(err, &fe) || fe.Field != "Limb" {
		t.Errorf("limb 1 of 1: %v", err)
	}
	if err := w.IK().Of(e).SetLimbWeight(0, -0.1); !errors.As(err, &fe) {
		t.Errorf("weight -0.1: %v", err)
	}
	if err := w.IK().Of(e).SetTargetRotation(0, mgl32.Quat{W: 2}, true); !errors.As(err, &fe) {
		t.Errorf("non-unit rotation: %v", err)
	}
	if err := w.IK().Of(e).SetTargetBone(0, e, -1); !errors.Is(err, sway.ErrBone) {
		t.Errorf("bone -1: %v", err)
	}
}
