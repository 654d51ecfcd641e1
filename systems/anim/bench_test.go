package anim

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// Product budget: under 1.5 µs per character for sampling and blending at
// most 3 active clips over 21 bones (30 keys/s, 1 s loops).

func BenchmarkSample(b *testing.B) {
	s := locomotion(b, 40, KindSimpleDirectional)
	rest, dst := restPose(testBones), MakePose(testBones)
	b.Run(fmt.Sprintf("joints=%d", testBones), func(b *testing.B) {
		b.ReportAllocs()
		t := float32(0)
		for b.Loop() {
			t += 0.0137
			s.Clip(1).Sample(dst, rest, t)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/testBones, "ns/joint")
	})
}

func BenchmarkBlendPoses(b *testing.B) {
	rest, dst := restPose(testBones), MakePose(testBones)
	poses := []Pose{restPose(testBones), restPose(testBones), restPose(testBones)}
	w := []float32{0.25, 0.5, 0.25}
	b.Run(fmt.Sprintf("joints=%d/poses=3", testBones), func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			BlendPoses(dst, poses, w, rest)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/testBones, "ns/joint")
	})
}

// BenchmarkEvaluate is the per-character kernel: weights, sampling of the
// active clips (3 for the Simple Directional input inside a sector with a
// centre), blending.
func BenchmarkEvaluate(b *testing.B) {
	for _, c := range []struct {
		kind  Kind
		param mgl32.Vec2
	}{
		{KindSimpleDirectional, mgl32.Vec2{0.25, 0.5}}, // C, F, R active
		{KindSimpleDirectional, mgl32.Vec2{0, 3}},      // F only
		{KindFreeformDirectional, mgl32.Vec2{0.3, 0.6}},
		{Kind1D, mgl32.Vec2{0.5, 0}},
	} {
		s := locomotion(b, 41, c.kind)
		rest, dst, sc := restPose(testBones), MakePose(testBones), new(Scratch)
		times := append([]float32(nil), testTimes...)
		s.Evaluate(dst, sc, Input{Param: c.param, Times: times}, rest)
		active := 0
		for _, w := range sc.Weights() {
			if w > 0 {
				active++
			}
		}
		b.Run(fmt.Sprintf("kind=%v/active=%d/joints=%d", c.kind, active, testBones), func(b *testing.B) {
			b.ReportAllocs()
			in := Input{Param: c.param, Times: times}
			cpu0 := cpuNanos()
			for b.Loop() {
				for i := range times {
					times[i] = s.Clip(i).Advance(times[i], 1, 1.0/60)
				}
				s.Evaluate(dst, sc, in, rest)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/char")
			b.ReportMetric(float64(cpuNanos()-cpu0)/float64(b.N), "cpu-ns/char")
		})
	}
}

func BenchmarkWeights(b *testing.B) {
	rng := rand.New(rand.NewSource(42))
	for _, n := range []int{5, 9, 17} {
		ring := ringLayout(rng)
		for len(ring) < n {
			ring = ringLayout(rng)
		}
		ring = ring[:n]
		th := make([]float32, n)
		for i := range th {
			th[i] = float32(i)
		}
		w := make([]float32, n)
		inputs := make([]mgl32.Vec2, 64)
		for i := range inputs {
			inputs[i] = mgl32.Vec2{rng.Float32()*4 - 2, rng.Float32()*4 - 2}
		}
		for _, c := range []struct {
			name string
			fn   func(mgl32.Vec2)
		}{
			{"1D", func(p mgl32.Vec2) { Weights1D(w, th, p[0]*4) }},
			{"SimpleDirectional", func(p mgl32.Vec2) { SimpleDirectionalWeights(w, ring, p) }},
			{"FreeformCartesian", func(p mgl32.Vec2) { FreeformCartesianWeights(w, ring, p) }},
			{"FreeformDirectional", func(p mgl32.Vec2) { FreeformDirectionalWeights(w, ring, p) }},
		} {
			b.Run(fmt.Sprintf("kind=%s/samples=%d", c.name, n), func(b *testing.B) {
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					c.fn(inputs[i&63])
					i++
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/call")
			})
		}
	}
}
