package anim

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// Every per-frame kernel runs without allocating.
func TestZeroAllocs(t *testing.T) {
	rest := restPose(testBones)
	dst := MakePose(testBones)
	sc := new(Scratch)
	space := locomotion(t, 30, KindSimpleDirectional)
	clip := space.Clip(1)
	poses := []Pose{MakePose(testBones), MakePose(testBones), MakePose(testBones)}
	weights := []float32{0.2, 0.3, 0.5}
	w := make([]float32, MaxSamples)
	th := []float32{-2, -1, 0, 1, 2}
	p := mgl32.Vec2{0.3, 0.4}
	in := Input{Param: p, Times: testTimes, Direct: []float32{0.1, 0.2, 0.3, 0.4, 0}}
	spaces := make([]*BlendSpace, 0, 5)
	for _, k := range []Kind{Kind1D, KindSimpleDirectional, KindFreeformDirectional, KindFreeformCartesian, KindDirect} {
		spaces = append(spaces, locomotion(t, 31, k))
	}
	for _, c := range []struct {
		name string
		fn   func()
	}{
		{"Clip.Sample", func() { clip.Sample(dst, rest, 0.4) }},
		{"Clip.Advance", func() { _ = clip.Advance(0.4, 1, 0.016) }},
		{"BlendPoses", func() { BlendPoses(dst, poses, weights, rest) }},
		{"Weights1D", func() { Weights1D(w, th, 0.3) }},
		{"SimpleDirectionalWeights", func() { SimpleDirectionalWeights(w, classic, p) }},
		{"FreeformCartesianWeights", func() { FreeformCartesianWeights(w, classic, p) }},
		{"FreeformDirectionalWeights", func() { FreeformDirectionalWeights(w, classic, p) }},
		{"DirectWeights", func() { DirectWeights(w, weights, true) }},
		{"SmoothParam", func() { p = SmoothParam(p, mgl32.Vec2{1, 0}, 4, 0.016) }},
		{"Evaluate", func() {
			for _, s := range spaces {
				s.Evaluate(dst, sc, in, rest)
			}
		}},
	} {
		if n := testing.AllocsPerRun(100, c.fn); n != 0 {
			t.Errorf("%s: %v allocations per run", c.name, n)
		}
	}
}
