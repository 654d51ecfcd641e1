package spring

import "math"

// RefStep is the step the VRM settings are tuned for: one frame at 60 Hz.
const RefStep = 1.0 / 60

// DragPerStep converts a drag given per 1/60 s to the drag of a step of h
// seconds, so that the velocity decays by the same factor per second:
// 1 - (1-drag)^(h*60).
func DragPerStep(drag, h float32) float32 {
	keep := 1 - float64(drag)
	if keep <= 0 {
		return 1
	}
	return float32(1 - math.Pow(keep, float64(h)/RefStep))
}

// ForcePerStep returns the factor that replaces dt in the force terms
// (stiffness and gravity) for a step of h seconds with a drag given per
// 1/60 s, such that a constant force changes the velocity over 1/60 s
// exactly as one reference step does.
//
// Why this factor: the model's per-step displacement v follows
// v' = keep*v + a. Measured per 1/60 s (v60 = v/r with r = 60h), n = 1/r
// steps with drag dₕ = DragPerStep(d, h) give
// v60' = (1-d)·v60 + (a/r)·d/dₕ, so a = a60·r·dₕ/d with a60 = F/60,
// which tends to a60·r² as d → 0.
func ForcePerStep(drag, h float32) float32 {
	r := float64(h) / RefStep
	d := float64(drag)
	if d < 1e-6 {
		return float32(RefStep * r * r)
	}
	dh := 1.0
	if d < 1 {
		dh = 1 - math.Pow(1-d, r)
	}
	return float32(RefStep * r * dh / d)
}
