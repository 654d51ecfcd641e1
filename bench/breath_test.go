package bench

import (
	"fmt"
	"testing"

	"github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/internal/scene"
)

// newBreathWorld builds a world of chars stress-rig characters on the
// default pipeline, every one breathing with the humanoid defaults, out of
// step (offsets and rates vary).
func newBreathWorld(b *testing.B, chars, workers int) *sway.World {
	b.Helper()
	sc, err := scene.New(scene.Config{Characters: chars, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	w, err := sway.NewWorld(sway.Options{Workers: workers})
	if err != nil {
		b.Fatal(err)
	}
	ents, err := sc.Populate(w)
	if err != nil {
		b.Fatal(err)
	}
	for i, e := range ents {
		s := sway.BreathFor(sc.Skeleton)
		s.Offset = float32(i%37) * 0.1
		s.DurationRate = 0.8 + 0.02*float32(i%21)
		if _, err := w.Breath().Add(e, s); err != nil {
			b.Fatal(err)
		}
	}
	return w
}

// BenchmarkBreath times the breath system alone (ns/char from the
// pipeline's timing of "breath"): gather, clock, Plan.Apply and the dirty
// marks, on poses the animation phase has just reset.
func BenchmarkBreath(b *testing.B) {
	for _, chars := range []int{100, 1000, 10000} {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("chars=%d/workers=%d", chars, workers), func(b *testing.B) {
				w := newBreathWorld(b, chars, workers)
				defer w.Close()
				_ = w.Step(1.0 / 60) // warm up
				before := systemTime(w, "breath")
				b.ReportAllocs()
				settle()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if err := w.Step(1.0 / 60); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric((systemTime(w, "breath")-before)/float64(b.N*chars), "ns/char")
			})
		}
	}
}
