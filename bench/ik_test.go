package bench

import (
	"fmt"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/internal/mathx"
	"github.com/sway-anim/sway/internal/scene"
)

// newIKWorld builds a world of chars stress-rig characters on the default
// pipeline, each with both legs on IK (knee hints in root space) and its
// feet on reachable targets.
func newIKWorld(b *testing.B, chars, workers int) *sway.World {
	b.Helper()
	sc, err := scene.New(scene.Config{Characters: chars, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	skel := sc.Skeleton
	w, err := sway.NewWorld(sway.Options{Workers: workers})
	if err != nil {
		b.Fatal(err)
	}
	ents, err := sc.Populate(w)
	if err != nil {
		b.Fatal(err)
	}
	left, err := sway.IKLimbFor(skel, "upper_leg.L", "lower_leg.L", "foot.L")
	if err != nil {
		b.Fatal(err)
	}
	right, err := sway.IKLimbFor(skel, "upper_leg.R", "lower_leg.R", "foot.R")
	if err != nil {
		b.Fatal(err)
	}
	left.Hint, left.HintSpace = mgl32.Vec3{0.1, 0.5, 1}, sway.IKHintRoot
	right.Hint, right.HintSpace = mgl32.Vec3{-0.1, 0.5, 1}, sway.IKHintRoot
	for i, e := range ents {
		if _, err := w.IK().Add(e, left, right); err != nil {
			b.Fatal(err)
		}
		r := sc.RootAt(i, 0)
		lift := float32(0.1 * math.Sin(float64(i)))
		_ = w.IK().Of(e).SetTarget(0, r.Pos.Add(mathx.Rotate(r.Rot, mgl32.Vec3{0.1, 0.2 + lift, 0.15})))
		_ = w.IK().Of(e).SetTarget(1, r.Pos.Add(mathx.Rotate(r.Rot, mgl32.Vec3{-0.1, 0.2 - lift, -0.05})))
	}
	return w
}

// BenchmarkIK times the IK system alone (ns/char from the pipeline's
// timing of "ik"): two legs per character, on poses the animation phase
// has just reset and brought up to date.
func BenchmarkIK(b *testing.B) {
	for _, chars := range []int{1000, 10000} {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("chars=%d/workers=%d", chars, workers), func(b *testing.B) {
				w := newIKWorld(b, chars, workers)
				defer w.Close()
				_ = w.Step(1.0 / 60) // warm up
				before := systemTime(w, "ik")
				b.ReportAllocs()
				settle()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if err := w.Step(1.0 / 60); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric((systemTime(w, "ik")-before)/float64(b.N*chars), "ns/char")
			})
		}
	}
}
