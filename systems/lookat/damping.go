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
	// -expm1 keeps precision for the tiny x of high frame rates.
	return float32(-math.Expm1(-x))
}

// damp moves current toward goal by the factor a (from Damping).
func damp(current, goal, a float32) float32 {
	return current + (goal-current)*a
}
