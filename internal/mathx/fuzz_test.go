package mathx

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// FuzzFromToRotation: for finite inputs the rotation is finite and unit,
// and it turns from onto to whenever both can be normalised.
func FuzzFromToRotation(f *testing.F) {
	f.Add(float32(1), float32(0), float32(0), float32(-1), float32(0), float32(0))
	f.Add(float32(0), float32(0), float32(0), float32(0), float32(1), float32(0))
	f.Add(float32(1e-20), float32(3e38), float32(-3e38), float32(1), float32(1e-30), float32(0))
	f.Fuzz(func(t *testing.T, ax, ay, az, bx, by, bz float32) {
		a, b := mgl32.Vec3{ax, ay, az}, mgl32.Vec3{bx, by, bz}
		if !Vec3Finite(a) || !Vec3Finite(b) {
			return
		}
		q := FromToRotation(a, b)
		if !QuatFinite(q) {
			t.Fatalf("FromTo(%v, %v) = %v", a, b, q)
		}
		if l := q.W*q.W + Dot(q.V, q.V); l < 0.999 || l > 1.001 {
			t.Fatalf("FromTo(%v, %v) not unit: |q|² = %v", a, b, l)
		}
		na, okA := SafeNormalize(a)
		nb, okB := SafeNormalize(b)
		if okA && okB {
			if got := Rotate(q, na); Len(got.Sub(nb)) > 1e-3 {
				t.Fatalf("FromTo(%v, %v) maps a to %v, want %v", a, b, got, nb)
			}
		}
	})
}
