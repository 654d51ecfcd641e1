package spring

import (
	"math"
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

func TestMaxAbs(t *testing.T) {
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	negZero := float32(math.Copysign(0, -1))
	cases := []struct {
		v    v3
		want float32
	}{
		{v3{1, -3, 2}, 3}, {v3{-0.5, 0.25, -0.75}, 0.75}, {v3{negZero, 0, negZero}, 0},
		{v3{1, -inf, 2}, inf}, {v3{1e-40, -2e-40, 0}, 2e-40}, {v3{-7, 7, -7}, 7},
	}
	for _, c := range cases {
		if got := maxAbs(c.v); got != c.want {
			t.Errorf("maxAbs(%v) = %v, want %v", c.v, got, c.want)
		}
	}
	for _, v := range []v3{{nan, 1, 2}, {1, nan, -inf}, {-inf, 2, nan}} {
		if got := maxAbs(v); got == got {
			t.Errorf("maxAbs(%v) = %v, want NaN", v, got)
		}
	}
}
