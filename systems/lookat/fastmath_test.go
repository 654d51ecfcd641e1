package lookat

import (
	"math"
	"math/rand"
	"testing"
)

// Damping's series is -expm1 to about 1e-16, so its float32 result is
// within half a float32 ulp (relative 2⁻²⁴ = 6.0e-8) of the float64
// -expm1, and the same float32 as -expm1 rounded but for near-ties (fewer
// than one in 10,000), over speeds and frame times that use the series and
// on both sides of the switch to -expm1.
func TestDampingSeriesMatchesExpm1(t *testing.T) {
	r := rand.New(rand.NewSource(11))
	differ := 0
	check := func(speed, dt float32) {
		t.Helper()
		x := float64(speed) * float64(dt)
		want := -math.Expm1(-x)
		got := Damping(speed, dt)
		if d := math.Abs(float64(got)-want) / want; d > 0x1p-24 {
			t.Fatalf("Damping(%v, %v) = %v, want %v (relative error %.3g)", speed, dt, got, want, d)
		}
		if got != float32(want) {
			differ++
		}
	}
	const n = 200000
	for i := 0; i < n; i++ {
		speed := float32(math.Exp(r.Float64()*12 - 6)) // 0.0025 .. 400
		dt := float32(math.Exp(r.Float64()*8 - 9))     // 0.00012 .. 0.37
		check(speed, dt)
	}
	for _, x := range []float32{1e-30, 1e-7, 0.5, 0.999999, 1, 1.000001, 2} {
		check(x, 1)
	}
	if differ > n/10000 {
		t.Fatalf("%d of %d differ from -expm1 rounded to float32", differ, n)
	}
}
