package anim

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// PolarAngleFactor weighs angle against relative speed in the polar
// gradient band (Johansen 2009, section 6.3, alpha): 2 makes a quarter turn
// count about as much as a speed change of pi/2 of the average speed.
const PolarAngleFactor = 2

// ValidateFreeformCartesian checks Freeform Cartesian samples: 1 to
// MaxSamples finite positions, no two closer than 1e-5.
func ValidateFreeformCartesian(samples []mgl32.Vec2) error {
	return validateFreeform("FreeformCartesian", "Samples", samples)
}

// ValidateFreeformDirectional checks Freeform Directional samples: 1 to
// MaxSamples finite positions, no two closer than 1e-5 (so at most one at
// the origin). Unlike Simple Directional, one direction may hold several
// speeds. A sample at the origin is recommended (as Unity does): without
// one, inputs near the origin have no sample that dominates.
func ValidateFreeformDirectional(samples []mgl32.Vec2) error {
	return validateFreeform("FreeformDirectional", "Samples", samples)
}

func validateFreeform(typ, field string, samples []mgl32.Vec2) error {
	if err := validatePoints(typ, field, samples); err != nil {
		return err
	}
	return validateDistinct(typ, field, samples)
}

// FreeformCartesianWeights writes into dst one weight per sample by
// gradient band interpolation in Cartesian space (Johansen 2009, Unity's 2D
// Freeform Cartesian): the influence of sample i is
//
//	h_i(x) = max(0, min over j != i of 1 - (x-p_i)·(p_j-p_i) / |p_j-p_i|²)
//
// and the weights are the influences normalised to sum to one. The input at
// a sample gives that sample weight 1. Coincident samples (rejected by
// ValidateFreeformCartesian) do not bound each other. Returns false and
// writes nothing for 0 or more than MaxSamples samples or a short dst.
func FreeformCartesianWeights(dst []float32, samples []mgl32.Vec2, input mgl32.Vec2) bool {
	n := len(samples)
	if n == 0 || n > MaxSamples || len(dst) < n {
		return false
	}
	x, y := input2(input)
	var h [MaxSamples]float64
	for i := range n {
		pix, piy := float64(samples[i][0]), float64(samples[i][1])
		dx, dy := x-pix, y-piy
		m := math.Inf(1)
		for j := range n {
			if j == i {
				continue
			}
			ex, ey := float64(samples[j][0])-pix, float64(samples[j][1])-piy
			l2 := ex*ex + ey*ey
			if !(l2 > 0) {
				continue
			}
			m = math.Min(m, 1-(dx*ex+dy*ey)/l2)
			if m <= 0 {
				break // outside this sample's bands
			}
		}
		if math.IsInf(m, 1) {
			m = 1 // no other distinct sample
		}
		h[i] = math.Max(m, 0)
	}
	normalise(dst[:n], h[:n])
	return true
}

// FreeformDirectionalWeights writes into dst one weight per sample by
// gradient band interpolation in polar space (Johansen 2009, section 6.3;
// Unity's 2D Freeform Directional): the band between samples i and j is
// measured in (relative speed, angle) coordinates,
//
//	v_ij = ((|p_j|-|p_i|)/m, PolarAngleFactor*angle(p_i, p_j))
//	v_ix = ((|x|-|p_i|)/m, PolarAngleFactor*angle(p_i, x)),  m = (|p_i|+|p_j|)/2
//
// with signed angles in (-pi, pi], and h_i = max(0, min over j of
// 1 - v_ix·v_ij/|v_ij|²), normalised. An angle involving a zero vector is
// borrowed from the other pair: with p_i at the origin angle(p_i, p_j) is
// angle(p_j, x) and angle(p_i, x) is 0; with p_j at the origin
// angle(p_i, p_j) is angle(p_i, x); with x at the origin angle(p_i, x) is
// angle(p_i, p_j). If every influence is zero (the origin without a centre
// sample) the weights are equal. Same contract as FreeformCartesianWeights.
func FreeformDirectionalWeights(dst []float32, samples []mgl32.Vec2, input mgl32.Vec2) bool {
	n := len(samples)
	if n == 0 || n > MaxSamples || len(dst) < n {
		return false
	}
	x, y := input2(input)
	xm := math.Hypot(x, y)
	xZero := x*x+y*y < centreEpsSq
	xa := math.Atan2(y, x)

	var mag, ang, angX [MaxSamples]float64
	var zero [MaxSamples]bool
	for i := range n {
		px, py := float64(samples[i][0]), float64(samples[i][1])
		mag[i] = math.Hypot(px, py)
		ang[i] = math.Atan2(py, px)
		zero[i] = px*px+py*py < centreEpsSq
		if !zero[i] && !xZero {
			angX[i] = PolarAngleFactor * wrapPi(xa-ang[i])
		}
	}

	var h [MaxSamples]float64
	for i := range n {
		m := math.Inf(1)
		for j := range n {
			if j == i {
				continue
			}
			avg := (mag[i] + mag[j]) / 2
			if !(avg > 0) {
				continue
			}
			var aij, aix float64
			switch {
			case zero[i]:
				aij, aix = angX[j], 0
			case zero[j]:
				aij, aix = angX[i], angX[i]
			case xZero:
				aij = PolarAngleFactor * wrapPi(ang[j]-ang[i])
				aix = aij
			default:
				aij, aix = PolarAngleFactor*wrapPi(ang[j]-ang[i]), angX[i]
			}
			rij := (mag[j] - mag[i]) / avg
			rix := (xm - mag[i]) / avg
			l2 := rij*rij + aij*aij
			if !(l2 > 0) {
				continue
			}
			m = math.Min(m, 1-(rix*rij+aix*aij)/l2)
			if m <= 0 {
				break
			}
		}
		if math.IsInf(m, 1) {
			m = 1
		}
		h[i] = math.Max(m, 0)
	}
	normalise(dst[:n], h[:n])
	return true
}

// wrapPi wraps an angle difference in (-2pi, 2pi) into (-pi, pi].
func wrapPi(a float64) float64 {
	switch {
	case a > math.Pi:
		return a - 2*math.Pi
	case a <= -math.Pi:
		return a + 2*math.Pi
	}
	return a
}

// normalise writes h/sum(h) into w, or equal weights if the sum is zero.
func normalise(w []float32, h []float64) {
	var sum float64
	for _, v := range h {
		sum += v
	}
	if !(sum > 0) || math.IsInf(sum, 1) {
		fillEqual(w)
		return
	}
	for i, v := range h {
		w[i] = float32(v / sum)
	}
}
