package bench

import (
	"fmt"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/internal/scene"
)

// newLookAtWorld builds a world of chars stress-rig characters on the
// default pipeline, each looking with head and both eyes at a point of its
// own (boneTargets: at the next character's head instead).
func newLookAtWorld(b *testing.B, chars, workers int, boneTargets bool) *sway.World {
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
	head := sc.Skeleton.Index("head")
	for i, e := range ents {
		if _, err := w.LookAt().Add(e, sway.LookAtFor(sc.Skeleton)); err != nil {
			b.Fatal(err)
		}
		if boneTargets {
			err = w.LookAt().Of(e).SetTargetBone(ents[(i+1)%len(ents)], head)
		} else {
			home := sc.Chars[i].Home
			err = w.LookAt().Of(e).SetTarget(home.Add(mgl32.Vec3{float32(i%7) - 3, 1.5, 2}))
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	return w
}

// BenchmarkLookAt times the look-at system alone (ns/char from the
// pipeline's timing of "lookat"): head, then both eyes under the head's new
// rotation, point targets.
func BenchmarkLookAt(b *testing.B) {
	benchLookAt(b, false)
}

// BenchmarkLookAtBoneTarget is BenchmarkLookAt with every character looking
// at another character's head (resolved on the calling goroutine).
func BenchmarkLookAtBoneTarget(b *testing.B) {
	benchLookAt(b, true)
}

func benchLookAt(b *testing.B, boneTargets bool) {
	for _, chars := range []int{1000, 10000} {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("chars=%d/workers=%d", chars, workers), func(b *testing.B) {
				w := newLookAtWorld(b, chars, workers, boneTargets)
				defer w.Close()
				_ = w.Step(1.0 / 60) // warm up
				before := systemTime(w, "lookat")
				b.ReportAllocs()
				settle()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if err := w.Step(1.0 / 60); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric((systemTime(w, "lookat")-before)/float64(b.N*chars), "ns/char")
			})
		}
	}
}
