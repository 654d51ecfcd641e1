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
	if x <= dampPadeMax {
		return float32(dampPade(x))
	}
	// Long frames or fast speeds.
	return float32(-math.Expm1(-x))
}

// dampPadeMax bounds the x for which dampPade replaces -expm1(-x): up to
// speed 20 at 20 frames a second.
const dampPadeMax = 1

// dampPade is -expm1(-x) = 1 - exp(-x) = 2 tanh(x/2) / (1 + tanh(x/2)) for
// 0 < x <= 1, with tanh(y) = y P(y²)/Q(y²), the [7/6] Padé approximant
// from Lambert's continued fraction. For y <= 1/2 it is exact to float64
// rounding (measured: 7e-16 relative), so the float32 result is -expm1
// rounded to float32 but for near-ties, with one division and no
// cancellation (every term is positive), at about a third of -expm1's
// instructions.
func dampPade(x float64) float64 {
	y := 0.5 * x
	// float64(...) rounds each product before its sum: the same bits in
	// every build (Go may fuse a multiply and an add, GOAMD64=v3).
	z := float64(y * y)
	p := float64(y * (135135 + float64(z*(17325+float64(z*(378+z))))))
	q := 135135 + float64(z*(62370+float64(z*(3150+float64(z*28)))))
	return 2 * p / (q + p)
}

// damp moves current toward goal by the factor a (from Damping).
func damp(current, goal, a float32) float32 {
	return current + float32((goal-current)*a)
}
