package bench

import (
	"fmt"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/internal/scene"
)

// BenchmarkSkin writes every character's skin matrices through the
// facade, one call per character on the calling goroutine, after one
// Step: each call checks the character, finds its pose current and runs
// the kernel over a skin of all the stress rig's bones (inverse binds
// from the rest pose). ns/joint is the whole call's time per joint.
func BenchmarkSkin(b *testing.B) {
	for _, chars := range []int{1, 10000} {
		for _, form := range []string{"mat4", "floats"} {
			name := fmt.Sprintf("joints=%d/chars=%d/form=%s", scene.BonesPerChar, chars, form)
			b.Run(name, func(b *testing.B) {
				sc, err := scene.New(scene.Config{Characters: chars, Seed: 1})
				if err != nil {
					b.Fatal(err)
				}
				w, err := sway.NewWorld(sway.Options{Workers: 1})
				if err != nil {
					b.Fatal(err)
				}
				defer w.Close()
				es, err := sc.Populate(w)
				if err != nil {
					b.Fatal(err)
				}
				joints := make([]string, sc.Skeleton.NumBones())
				for i := range joints {
					joints[i] = sc.Skeleton.BoneName(i)
				}
				sk, err := sway.NewSkin(sc.Skeleton, sway.SkinDesc{Name: "body", Joints: joints})
				if err != nil {
					b.Fatal(err)
				}
				if err := w.Step(1.0 / 60); err != nil {
					b.Fatal(err)
				}
				mats := make([]mgl32.Mat4, 0, sk.NumJoints())
				flat := make([]float32, 0, 16*sk.NumJoints())
				b.ReportAllocs()
				settle()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					for _, e := range es {
						if form == "mat4" {
							mats, err = w.SkinMatrices(e, sk, mats[:0])
						} else {
							flat, err = w.SkinFloats(e, sk, flat[:0])
						}
						if err != nil {
							b.Fatal(err)
						}
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*chars*sk.NumJoints()), "ns/joint")
			})
		}
	}
}
