package bench

import (
	"fmt"
	"testing"

	arche "github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/internal/scene"
	"github.com/sway-anim/sway/internal/store"
)

// newChainWorld builds chars stress-rig characters with the standard
// chains (62 moving particles, 3 colliders each).
func newChainWorld(b *testing.B, chars, workers int) (*sway.World, []arche.Entity, *scene.Scene) {
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
	if err := sc.AddChains(w, ents, 2); err != nil {
		b.Fatal(err)
	}
	if err := w.Trim(); err != nil { // as after any set-up (the stress run does)
		b.Fatal(err)
	}
	return w, ents, sc
}

// particleSteps counts the moving particles times the sub-steps each chain
// ran this frame.
func particleSteps(w *sway.World) int {
	st := arche.GetResource[store.ChainStore](w.ECS())
	n := 0
	for k, c := range st.Chains {
		if s := int(st.Steps[k]); s > 0 {
			n += (c.N - 1) * s // the root particle follows the animation
		}
	}
	return n
}

// BenchmarkChain times the dynamic-chain systems on the stress rig with
// the characters moving: step (integrate + constraints + 3 colliders) and
// frame (prepare + step + apply), in ns per particle per sub-step.
func BenchmarkChain(b *testing.B) {
	for _, chars := range []int{100, 10000} {
		for _, workers := range []int{1, 2} {
			name := fmt.Sprintf("particles=%d/chars=%d/workers=%d", scene.SecondaryBones, chars, workers)
			b.Run(name, func(b *testing.B) {
				w, ents, sc := newChainWorld(b, chars, workers)
				defer w.Close()
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
				for i := 0; i < 3; i++ {
					step() // warm up: particles leave the rest pose
				}
				t0 := map[string]float64{}
				for _, n := range []string{"chain.prepare", "chain.step", "chain.apply"} {
					t0[n] = systemTime(w, n)
				}
				steps := 0
				b.ReportAllocs()
				settle()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					step()
					steps += particleSteps(w)
				}
				b.StopTimer()
				d := func(n string) float64 { return systemTime(w, n) - t0[n] }
				if steps == 0 {
					b.Fatal("no particle steps ran")
				}
				b.ReportMetric(d("chain.step")/float64(steps), "ns/particle-step")
				b.ReportMetric((d("chain.prepare")+d("chain.step")+d("chain.apply"))/float64(steps), "ns/particle-frame")
				b.ReportMetric(d("chain.prepare")/float64(b.N*chars), "ns/char-prepare")
			})
		}
	}
}
