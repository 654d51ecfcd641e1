package anim

import (
	"errors"
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/check"
)

const testBones = 21

// locomotion builds a Simple Directional space over the classic layout with
// one random 1 s, 30 keys/s looping clip per sample.
func locomotion(t testing.TB, seed int64, kind Kind) *BlendSpace {
	t.Helper()
	rng := rand.New(rand.NewSource(seed))
	clips := make([]*Clip, len(classic))
	for i := range clips {
		clips[i] = mustClip(t, randClipDesc(rng, testBones, 31, 30, true))
	}
	desc := BlendSpaceDesc{Kind: kind, Clips: clips, Positions: classic}
	if kind == Kind1D {
		desc.Positions, desc.Thresholds = nil, []float32{-2, -1, 0, 1, 2}
	}
	s, err := NewBlendSpace(desc)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

var testTimes = []float32{0.1, 0.35, 0.6, 0.85, 0.5}

// Evaluate equals sampling every clip and BlendPoses with the space's
// weights: (0.25,0.5) gives C 0.25, F 0.5, R 0.25.
func TestEvaluateMatchesSampleAndBlend(t *testing.T) {
	s := locomotion(t, 20, KindSimpleDirectional)
	rest := restPose(testBones)
	sc := new(Scratch)
	dst := MakePose(testBones)
	in := Input{Param: mgl32.Vec2{0.25, 0.5}, Times: testTimes}
	if !s.Evaluate(dst, sc, in, rest) {
		t.Fatal("Evaluate returned false")
	}
	assertWeights(t, "scratch weights", sc.Weights(), []float32{0.25, 0.5, 0, 0, 0.25}, 1e-6)
	poses := make([]Pose, s.Len())
	for i := range poses {
		poses[i] = MakePose(testBones)
		s.Clip(i).Sample(poses[i], rest, testTimes[i])
	}
	want := MakePose(testBones)
	BlendPoses(want, poses, sc.Weights(), rest)
	for b := range testBones {
		if !quatNear(dst.Rot[b], want.Rot[b], 1e-6) || !vecNear(dst.Pos[b], want.Pos[b], 1e-6) || !vecNear(dst.Scale[b], want.Scale[b], 1e-6) {
			t.Fatalf("bone %d: %v vs %v", b, dst.Rot[b], want.Rot[b])
		}
	}
}

// Far forward: only the forward clip has weight, sampled straight into dst.
func TestEvaluateSingleClipIsExact(t *testing.T) {
	s := locomotion(t, 21, KindSimpleDirectional)
	rest := restPose(testBones)
	dst, want := MakePose(testBones), MakePose(testBones)
	s.Evaluate(dst, new(Scratch), Input{Param: mgl32.Vec2{0, 3}, Times: testTimes}, rest)
	s.Clip(1).Sample(want, rest, testTimes[1])
	for b := range testBones {
		if dst.Rot[b] != want.Rot[b] || dst.Pos[b] != want.Pos[b] || dst.Scale[b] != want.Scale[b] {
			t.Fatalf("bone %d differs from the forward clip", b)
		}
	}
}

// Clips with zero weight are not sampled: break the back and left clips'
// key data (sampling them would panic) and blend between forward and right.
func TestEvaluateSamplesOnlyWeightedClips(t *testing.T) {
	s := locomotion(t, 22, KindSimpleDirectional)
	for _, i := range []int{2, 3} {
		broken := *s.clips[i]
		broken.rot, broken.pos, broken.scl = nil, nil, nil
		s.clips[i] = &broken
	}
	dst := MakePose(testBones)
	if !s.Evaluate(dst, new(Scratch), Input{Param: mgl32.Vec2{0.5, 0.5}, Times: testTimes}, restPose(testBones)) {
		t.Fatal("Evaluate returned false")
	}
}

func TestEvaluateKinds(t *testing.T) {
	rest := restPose(testBones)
	for _, kind := range []Kind{Kind1D, KindSimpleDirectional, KindFreeformDirectional, KindFreeformCartesian, KindDirect} {
		s := locomotion(t, 23, kind)
		sc := new(Scratch)
		dst := MakePose(testBones)
		in := Input{Param: mgl32.Vec2{0.3, -0.6}, Times: testTimes, Direct: []float32{0.5, 0.5, 0, 0, 0}}
		if !s.Evaluate(dst, sc, in, rest) {
			t.Fatalf("%v: Evaluate returned false", kind)
		}
		checkWeights(t, kind.String(), sc.Weights())
		for b := range testBones {
			if !near(dst.Rot[b].Len(), 1, 1e-5) {
				t.Fatalf("%v: bone %d not unit", kind, b)
			}
		}
	}
}

// Direct weights short of one: the rest pose takes the remainder. A lone
// weight of 0.5 on the centre clip is half that clip, half the rest pose.
func TestEvaluateDirectRemainderToRest(t *testing.T) {
	s := locomotion(t, 24, KindDirect)
	rest := restPose(testBones)
	dst, clip := MakePose(testBones), MakePose(testBones)
	s.Evaluate(dst, new(Scratch), Input{Direct: []float32{0.5, 0, 0, 0, 0}, Times: testTimes}, rest)
	s.Clip(0).Sample(clip, rest, testTimes[0])
	for b := range testBones {
		want := clip.Pos[b].Add(rest.Pos[b]).Mul(0.5)
		if !vecNear(dst.Pos[b], want, 1e-6) {
			t.Fatalf("bone %d: %v, want %v", b, dst.Pos[b], want)
		}
	}
}

func TestEvaluateShortInputs(t *testing.T) {
	s := locomotion(t, 25, KindSimpleDirectional)
	rest := restPose(testBones)
	sc := new(Scratch)
	in := Input{Times: testTimes}
	if s.Evaluate(MakePose(testBones-1), sc, in, rest) ||
		s.Evaluate(MakePose(testBones), sc, in, restPose(3)) ||
		s.Evaluate(MakePose(testBones), nil, in, rest) ||
		s.Evaluate(MakePose(testBones), sc, Input{Times: testTimes[:2]}, rest) {
		t.Fatal("short input accepted")
	}
	d := locomotion(t, 25, KindDirect)
	if d.Evaluate(MakePose(testBones), sc, Input{Times: testTimes, Direct: []float32{1}}, rest) {
		t.Fatal("short direct weights accepted")
	}
}

func TestBlendSpaceDescValidate(t *testing.T) {
	rng := rand.New(rand.NewSource(26))
	c3 := mustClip(t, randClipDesc(rng, 3, 2, 30, true))
	c4 := mustClip(t, randClipDesc(rng, 4, 2, 30, true))
	for _, c := range []struct {
		d     BlendSpaceDesc
		field string
	}{
		{BlendSpaceDesc{Kind: 9, Clips: []*Clip{c3}}, "Kind"},
		{BlendSpaceDesc{Kind: KindDirect}, "Clips"},
		{BlendSpaceDesc{Kind: KindDirect, Clips: []*Clip{c3, nil}}, "Clips[1]"},
		{BlendSpaceDesc{Kind: KindDirect, Clips: []*Clip{c3, c4}}, "Clips[1]"},
		{BlendSpaceDesc{Kind: Kind1D, Clips: []*Clip{c3, c3}, Thresholds: []float32{1}}, "Thresholds"},
		{BlendSpaceDesc{Kind: Kind1D, Clips: []*Clip{c3, c3}, Thresholds: []float32{1, 1}}, "Thresholds[1]"},
		{BlendSpaceDesc{Kind: KindFreeformCartesian, Clips: []*Clip{c3, c3}}, "Positions"},
		{BlendSpaceDesc{Kind: KindSimpleDirectional, Clips: []*Clip{c3, c3, c3}, Positions: []mgl32.Vec2{{0, 0}, {0, 1}, {0, 2}}}, "Positions[2]"},
		{BlendSpaceDesc{Kind: KindFreeformDirectional, Clips: []*Clip{c3, c3}, Positions: []mgl32.Vec2{{0, 1}, {0, 1}}}, "Positions[1]"},
	} {
		_, err := NewBlendSpace(c.d)
		var fe *check.FieldError
		if !errors.As(err, &fe) || fe.Field != c.field || fe.Type != "BlendSpaceDesc" {
			t.Fatalf("want a FieldError on %s, got %v", c.field, err)
		}
	}
	// The space copies the description: later edits do not leak in.
	pos := []mgl32.Vec2{{0, 0}, {0, 1}}
	s, err := NewBlendSpace(BlendSpaceDesc{Kind: KindSimpleDirectional, Clips: []*Clip{c3, c3}, Positions: pos})
	if err != nil {
		t.Fatal(err)
	}
	pos[1] = mgl32.Vec2{5, 5}
	if s.positions[1] != (mgl32.Vec2{0, 1}) || s.Kind() != KindSimpleDirectional || s.BoneCount() != 3 {
		t.Fatal("blend space shares the caller's slice")
	}
}
