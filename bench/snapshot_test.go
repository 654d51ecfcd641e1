package bench

import (
	"fmt"
	"testing"

	"github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/internal/scene"
)

// newFullWorld builds chars stress-rig characters with every feature:
// locomotion, breathing, look-at, leg IK, earrings and the standard chains
// (or VRM springs), stepped a few frames.
func newFullWorld(b *testing.B, chars int, vrm bool) *sway.World {
	b.Helper()
	sc, err := scene.New(scene.Config{Characters: chars, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	w, err := sway.NewWorld(sway.Options{Workers: 1})
	if err != nil {
		b.Fatal(err)
	}
	ents, err := sc.Populate(w)
	if err != nil {
		b.Fatal(err)
	}
	if vrm {
		err = sc.AddVRMSprings(w, ents, 2)
	} else {
		err = sc.AddChains(w, ents, 2)
	}
	if err != nil {
		b.Fatal(err)
	}
	space, err := sc.AddLocomotion(w)
	for _, err := range []error{err, sc.AddEarrings(w, ents), sc.Animate(w, ents, space), sc.AddProcedural(w, ents, 3)} {
		if err != nil {
			b.Fatal(err)
		}
	}
	for f := 1; f <= 5; f++ {
		if err := sc.MoveRoots(w, ents, float64(f)/60); err != nil {
			b.Fatal(err)
		}
		if err := w.Step(1.0 / 60); err != nil {
			b.Fatal(err)
		}
	}
	return w
}

// BenchmarkSnapshot times World.Snapshot into a reused buffer and
// World.Restore of it, on the stress rig with every feature, in ns and
// bytes per character.
func BenchmarkSnapshot(b *testing.B) {
	for _, chains := range []string{"dynamic", "vrm"} {
		for _, chars := range []int{100, 1000} {
			w := newFullWorld(b, chars, chains == "vrm")
			snap, err := w.Snapshot(nil)
			if err != nil {
				b.Fatal(err)
			}
			buf := make([]byte, 0, len(snap))
			b.Run(fmt.Sprintf("op=snapshot/chains=%s/chars=%d", chains, chars), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(snap)))
				for i := 0; i < b.N; i++ {
					buf, _ = w.Snapshot(buf[:0])
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*chars), "ns/char")
				b.ReportMetric(float64(len(snap))/float64(chars), "bytes/char")
			})
			b.Run(fmt.Sprintf("op=restore/chains=%s/chars=%d", chains, chars), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(snap)))
				for i := 0; i < b.N; i++ {
					if err := w.Restore(snap); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*chars), "ns/char")
			})
			w.Close()
		}
	}
}
