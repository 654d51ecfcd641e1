package bench

import (
	"fmt"
	"testing"

	"github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/internal/scene"
)

// BenchmarkChainSkirtFeatures times the chain step of the stress rig with
// the features skirts need, against the plain step on the same particles:
// its eight hair chains linked into a ring (distance constraints between
// neighbours at each depth and diagonals, 2 iterations: 144 links per
// character; "links-light": no diagonals, 1 iteration, 48 links), and
// collision along segments on every chain (3 colliders).
// Linked characters and chains with segment collision take the scalar path,
// not the SIMD lanes; the metric is ns per moving particle per sub-step of
// the chain.step system, as BenchmarkChain's.
func BenchmarkChainSkirtFeatures(b *testing.B) {
	for _, chars := range []int{1000, 10000} {
		for _, v := range []struct {
			name          string
			links, segset bool
			light         bool // 1 iteration, no diagonals: 48 links
		}{{"plain", false, false, false}, {"links-light", true, false, true}, {"links", true, false, false},
			{"segments", false, true, false}, {"links-light+segments", true, true, true}, {"links+segments", true, true, false}} {
			b.Run(fmt.Sprintf("chars=%d/%s", chars, v.name), func(b *testing.B) {
				sc, err := scene.New(scene.Config{Characters: chars, Seed: 1})
				if err != nil {
					b.Fatal(err)
				}
				w, err := sway.NewWorld(sway.Options{Workers: 1})
				if err != nil {
					b.Fatal(err)
				}
				defer w.Close()
				ents, err := sc.Populate(w)
				if err != nil {
					b.Fatal(err)
				}
				if err := sc.AddChainsWith(w, ents, 2, func(s *sway.ChainSettings) { s.SegmentCollision = v.segset }); err != nil {
					b.Fatal(err)
				}
				if v.links {
					ring := sway.ChainLinks{Rings: [][]int{{0, 1, 2, 3, 4, 5, 6, 7}}, Diagonal: true,
						ChainLinkSettings: sway.ChainLinkSettings{Compliance: 1e-4, Iterations: 2, MaxStretch: 0.1}}
					if v.light {
						ring.Diagonal, ring.Iterations = false, 1
					}
					for _, e := range ents {
						if err := w.Chains().Of(e).SetLinks(ring); err != nil {
							b.Fatal(err)
						}
					}
				}
				if err := w.Trim(); err != nil {
					b.Fatal(err)
				}
				frame := 0
				step := func() {
					frame++
					if err := sc.MoveRoots(w, ents, float64(frame)/60); err != nil {
						b.Fatal(err)
					}
					if err := w.Step(1.0 / 60); err != nil {
						b.Fatal(err)
					}
				}
				for range 3 {
					step()
				}
				t0 := systemTime(w, "chain.step")
				steps := 0
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					step()
					steps += particleSteps(w)
				}
				b.StopTimer()
				if steps == 0 {
					b.Fatal("no particle steps ran")
				}
				b.ReportMetric((systemTime(w, "chain.step")-t0)/float64(steps), "ns/particle-step")
			})
		}
	}
}
