package spring

import (
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/mathx"
)

func TestFromToMatchesMathx(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	check := func(a, b mgl32.Vec3) {
		t.Helper()
		want := mathx.FromToRotation(a, b)
		got := fromTo(ld(&a), ld(&b)).quat()
		if d := want.Sub(got).Len(); d > 1e-6 {
			t.Fatalf("fromTo(%v, %v) = %v, mathx gives %v", a, b, got, want)
		}
	}
	for range 100000 {
		a := mathx.NormalizeOr(mgl32.Vec3{rng.Float32()*2 - 1, rng.Float32()*2 - 1, rng.Float32()*2 - 1}, mgl32.Vec3{0, 1, 0})
		b := mgl32.Vec3{rng.Float32()*2 - 1, rng.Float32()*2 - 1, rng.Float32()*2 - 1}.Mul(0.1)
		check(a, b)
		check(a, a.Mul(-0.3).Add(b.Mul(0.01))) // nearly opposite
	}
	a := mgl32.Vec3{0, 1, 0}
	check(a, mgl32.Vec3{0, -2, 0}) // opposite
	check(a, mgl32.Vec3{})         // zero
	check(a, a)                    // same
}
