package collide

import (
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

func BenchmarkCollide(b *testing.B) {
	kinds := []struct {
		name string
		s    Shape
	}{
		{"sphere", sphereShape(mgl32.Vec3{}, 0.1, Outside)},
		{"capsule", capsuleShape(mgl32.Vec3{}, mgl32.Vec3{0, 0.3, 0}, 0.05, 0.05, Outside)},
		{"tapered", capsuleShape(mgl32.Vec3{}, mgl32.Vec3{0, 0.3, 0}, 0.06, 0.04, Outside)},
		{"plane", Shape{Kind: Plane, N: mgl32.Vec3{0, 1, 0}}},
		{"inside-sphere", sphereShape(mgl32.Vec3{}, 0.1, Inside)},
	}
	const n = 1024
	rng := rand.New(rand.NewSource(3))
	pts := make([]mgl32.Vec3, n)
	for i := range pts {
		pts[i] = randVec(rng, 0.2)
	}
	for _, k := range kinds {
		b.Run("kind="+k.name, func(b *testing.B) {
			b.ReportAllocs()
			s := k.s
			var sink float32
			for b.Loop() {
				for i := range pts {
					p, _ := Collide(pts[i], 0.02, &s)
					sink += p[0]
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/particle")
			_ = sink
		})
	}
}
