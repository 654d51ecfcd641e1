package anim

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/mathx"
)

// SmoothFactor returns 1 - exp(-speed*dt): the fraction of the remaining
// distance an exponential approach covers in dt, the same whether a second
// is taken in one step or in many. Zero for speed or dt <= 0 or NaN; one for
// an infinite speed (snap).
func SmoothFactor(speed, dt float32) float32 {
	if !(speed > 0) || !(dt > 0) {
		return 0
	}
	return float32(-math.Expm1(-float64(speed) * float64(dt)))
}

// SmoothParam moves the blend parameter current toward target by
// SmoothFactor(speed, dt). A non-finite target leaves current unchanged; a
// non-finite current snaps to target.
func SmoothParam(current, target mgl32.Vec2, speed, dt float32) mgl32.Vec2 {
	if !mathx.IsFinite(target[0]) || !mathx.IsFinite(target[1]) {
		return current
	}
	if !mathx.IsFinite(current[0]) || !mathx.IsFinite(current[1]) {
		return target
	}
	f := float64(SmoothFactor(speed, dt))
	// float64 so that target-current cannot overflow; the result lies
	// between current and target.
	return mgl32.Vec2{
		float32(float64(current[0]) + (float64(target[0])-float64(current[0]))*f),
		float32(float64(current[1]) + (float64(target[1])-float64(current[1]))*f),
	}
}
