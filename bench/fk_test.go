package bench

import (
	"fmt"
	"runtime"
	"testing"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"

	"github.com/sway-anim/sway/components"
	"github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/internal/scene"
	"github.com/sway-anim/sway/systems"
)

// markAll marks every character's whole pose stale, so the FK system after
// it does a full pass, as after the animation phase.
type markAll struct {
	filter *generic.Filter1[components.Pose]
}

func (s *markAll) Initialize(w *arche.World) { s.filter = generic.NewFilter1[components.Pose]() }
func (s *markAll) Finalize(w *arche.World)   {}
func (s *markAll) Update(w *arche.World) {
	q := s.filter.Query(w)
	for q.Next() {
		q.Get().MarkAllDirty()
	}
}

// newFKWorld builds a world of chars stress-rig characters whose pipeline
// is just markAll and one FK system.
func newFKWorld(b *testing.B, chars, workers int) *sway.World {
	b.Helper()
	sc, err := scene.New(scene.Config{Characters: chars, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	p := &systems.Pipeline{}
	p.Add(systems.PhaseAnimation, "mark", &markAll{})
	p.Add(systems.PhaseFinal, "fk", systems.NewForwardKinematics("fk"))
	w, err := sway.NewWorld(sway.Options{Workers: workers, Pipeline: p})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := sc.Populate(w); err != nil {
		b.Fatal(err)
	}
	return w
}

// settle collects the garbage set-up left before the timed frames: a
// collection running during them takes a core from the second worker, and
// the 2-worker figures then depend on when set-up happened to trigger one.
func settle() { runtime.GC() }

// systemTime returns the total time the named system has spent.
func systemTime(w *sway.World, name string) float64 {
	for _, s := range w.Pipeline().Stats(nil) {
		if s.Name == name {
			return float64(s.Total.Nanoseconds())
		}
	}
	return 0
}

func BenchmarkFK(b *testing.B) {
	for _, chars := range []int{100, 1000, 10000} {
		for _, workers := range []int{1, 2} {
			name := fmt.Sprintf("bones=%d/chars=%d/workers=%d", scene.BonesPerChar, chars, workers)
			b.Run(name, func(b *testing.B) {
				w := newFKWorld(b, chars, workers)
				defer w.Close()
				_ = w.Step(1.0 / 60) // warm up
				before := systemTime(w, "fk")
				b.ReportAllocs()
				settle()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if err := w.Step(1.0 / 60); err != nil {
						b.Fatal(err)
					}
				}
				fk := systemTime(w, "fk") - before
				b.ReportMetric(fk/float64(b.N*chars*scene.BonesPerChar), "ns/bone")
				b.ReportMetric(fk/float64(b.N*chars), "ns/char")
			})
		}
	}
}
