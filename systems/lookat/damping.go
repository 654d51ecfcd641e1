package lookat

import "math"

// Damping returns the blend factor 1 - exp(-speed*dt) for moving a value a
// fraction of the way toward its goal in one frame. Two frames of dt/2 give
// exactly the same result as one frame of dt, which a plain speed*dt factor
// does not. dt <= 0, NaN or speed <= 0 give 0 (hold); the result is never
// above 1.
func Damping(speed, dt float32) float32 {
	x := float64(speed) * float64(dt)
	if !(x > 0) {
		return 0
	}
	if x <= dampSeriesMax {
		return float32(dampSeries(x))
	}
	// -expm1 keeps precision for the tiny x of high frame rates.
	return float32(-math.Expm1(-x))
}

// dampSeriesMax bounds the x for which dampSeries replaces -expm1(-x):
// speed 30 at 60 frames a second, speed 15 at 30.
const dampSeriesMax = 0.5

// dampSeries is -expm1(-x) = x - x²/2! + x³/3! - ... for 0 < x <= 0.5, by
// Horner to the x¹¹ term: the first term left out is below x·0.5¹¹/12! =
// 1.0e-12 x, far under float32's half ulp (6e-8 x), so the float32 result
// is -expm1 rounded to float32 but for near-ties (a few in a million), at
// half its cost.
func dampSeries(x float64) float64 {
	const (
		c2  = -1.0 / 2
		c3  = 1.0 / 6
		c4  = -1.0 / 24
		c5  = 1.0 / 120
		c6  = -1.0 / 720
		c7  = 1.0 / 5040
		c8  = -1.0 / 40320
		c9  = 1.0 / 362880
		c10 = -1.0 / 3628800
		c11 = 1.0 / 39916800
	)
	return x * (1 + x*(c2+x*(c3+x*(c4+x*(c5+x*(c6+x*(c7+x*(c8+x*(c9+x*(c10+x*c11))))))))))
}

// damp moves current toward goal by the factor a (from Damping).
func damp(current, goal, a float32) float32 {
	return current + (goal-current)*a
}
