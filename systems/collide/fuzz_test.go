package collide

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/mathx"
)

// FuzzPush: for finite input every shape gives a finite position.
func FuzzPush(f *testing.F) {
	f.Add(uint8(0), uint8(0), float32(0), float32(0.05), float32(0), float32(0.01), float32(0), float32(0), float32(0), float32(0), float32(1), float32(0), float32(0.1), float32(0.05))
	f.Add(uint8(1), uint8(1), float32(1), float32(1), float32(1), float32(0), float32(0), float32(0), float32(0), float32(0), float32(0), float32(0), float32(0.1), float32(0.2))
	f.Add(uint8(2), uint8(0), float32(0), float32(-1), float32(0), float32(0.1), float32(0), float32(0), float32(0), float32(0), float32(1e-30), float32(0), float32(0), float32(0))
	f.Fuzz(func(t *testing.T, kind, bound uint8, px, py, pz, r, ax, ay, az, bx, by, bz, ra, rb float32) {
		p := mgl32.Vec3{px, py, pz}
		s := Shape{Kind: Kind(kind % 3), Bound: Bound(bound % 2), A: mgl32.Vec3{ax, ay, az}, B: mgl32.Vec3{bx, by, bz}, RA: ra, RB: rb}
		if s.Kind == Plane {
			n, ok := mathx.SafeNormalize(s.B)
			if !ok {
				return
			}
			s.N = n
		}
		for _, v := range []float32{px, py, pz, r, ax, ay, az, bx, by, bz, ra, rb} {
			// Finite and within the range where squared distances stay finite.
			if !mathx.IsFinite(v) || v > 1e15 || v < -1e15 {
				return
			}
		}
		got, _ := Collide(p, r, &s)
		if !mathx.Vec3Finite(got) {
			t.Fatalf("Collide(%v, %v, %+v) = %v", p, r, s, got)
		}
	})
}
