package bench

import (
	"fmt"
	"testing"

	"github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/internal/scene"
)

// BenchmarkVRM times the VRM spring system on the stress rig with the
// characters moving: 62 joints in 11 springs and 3 colliders each, in ns
// per joint-step from the system's own timing (spring.vrm: colliders
// placed, springs stepped, rotations written). The earrings' simple
// springs run too and are reported per character.
func BenchmarkVRM(b *testing.B) {
	for _, chars := range []int{100, 10000} {
		for _, workers := range []int{1, 2} {
			name := fmt.Sprintf("joints=%d/chars=%d/workers=%d", scene.SecondaryBones, chars, workers)
			b.Run(name, func(b *testing.B) {
				sc, err := scene.New(scene.Config{Characters: chars, Seed: 1})
				if err != nil {
					b.Fatal(err)
				}
				w, err := sway.NewWorld(sway.Options{Workers: workers})
				if err != nil {
					b.Fatal(err)
				}
				defer w.Close()
				ents, err := sc.Populate(w)
				if err != nil {
					b.Fatal(err)
				}
				if err := sc.AddVRMSprings(w, ents, 2); err != nil {
					b.Fatal(err)
				}
				if err := sc.AddEarrings(w, ents); err != nil {
					b.Fatal(err)
				}
				if err := w.Trim(); err != nil { // as after any set-up (the stress run does)
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
				for i := 0; i < 3; i++ {
					step() // warm up: springs leave the rest pose
				}
				vrm0, simple0 := systemTime(w, "spring.vrm"), systemTime(w, "spring.simple")
				b.ReportAllocs()
				settle()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					step()
				}
				b.StopTimer()
				b.ReportMetric((systemTime(w, "spring.vrm")-vrm0)/float64(b.N*chars*scene.SecondaryBones), "ns/joint-step")
				b.ReportMetric((systemTime(w, "spring.simple")-simple0)/float64(b.N*chars), "ns/char-earrings")
			})
		}
	}
}
