package anim

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

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
// polar gradient band interpolation in the form Unity's runtime evaluates
// (2D Freeform Directional; the package documentation gives the formula,
// its sources and its edge cases). With m_i = |p_i|, k_ij = 2/(m_i+m_j)
// and signed angles in [-pi, pi] (exactly opposite directions count +pi):
//
//	h_i = max(0, min(1 - |angle(p_i, x)|/pi,
//	                 min over j != i of 1 - (a_ij·a_ix + r_ij·r_ix)/(a_ij² + r_ij²)))
//	a_ij = angle(p_i, p_j), a_ix = angle(p_i, x)
//	r_ij = (m_j - m_i)·k_ij, r_ix = (|x| - m_i)·k_ij
//
// where a sample at the origin (the centre) takes the angle from the other
// sample of its pair: a_ij = angle(p_j, x), a_ix = 0 when p_i is the centre;
// a_ij = a_ix = angle(p_i, x) when p_j is; and a_ix = a_ij when the two
// samples share a direction or x is the origin. The weights are h_i/sum(h).
// Where the sum falls below DirectionalFadeTotal (far outside, opposite
// every sample) the weights fade continuously into equal weights, which
// Unity gives when the sum is zero. The weights are continuous in the input
// everywhere but at the origin of a layout without a centre sample. Same
// contract as FreeformCartesianWeights.
func FreeformDirectionalWeights(dst []float32, samples []mgl32.Vec2, input mgl32.Vec2) bool {
	n := len(samples)
	if n == 0 || n > MaxSamples || len(dst) < n {
		return false
	}
	x, y := input2(input)
	// Lengths by sqrt, not Hypot: float32 coordinates cannot overflow a
	// float64 square.
	xm := math.Sqrt(x*x + y*y)
	xZero := x*x+y*y < centreEpsSq
	xa := math.Atan2(y, x)

	// Per sample: position, length, direction, and the signed angle from
	// the sample to the input (0 for the centre or at the origin).
	var px, py, mag, ang, toX [MaxSamples]float64
	var zero [MaxSamples]bool
	for i := range n {
		px[i], py[i] = float64(samples[i][0]), float64(samples[i][1])
		l2 := px[i]*px[i] + py[i]*py[i]
		mag[i] = math.Sqrt(l2)
		ang[i] = math.Atan2(py[i], px[i])
		zero[i] = l2 < centreEpsSq
		if !zero[i] && !xZero {
			toX[i] = wrapPi(xa - ang[i])
		}
	}

	var h [MaxSamples]float64
	for i := range n {
		// Fade out over half a turn away from the sample; caps h_i at 1.
		v := 1 - math.Abs(toX[i])*(1/math.Pi)
		for j := 0; j < n && v > 0; j++ {
			if j == i {
				continue
			}
			// g = 1 - (a_ij·a_ix + r_ij·r_ix)/(a_ij² + r_ij²) with r = d·k,
			// k = 2/(m_i+m_j): multiplied through by 1/k² = q, one division.
			q := mag[i] + mag[j]
			q *= q / 4
			dj, dx := mag[j]-mag[i], xm-mag[i]
			var aij, aix float64
			switch {
			case zero[i]:
				aij, aix = toX[j], 0
			case zero[j]:
				aij, aix = toX[i], toX[i]
			default:
				aij = pairAngle(px[i], py[i], px[j], py[j], ang[j]-ang[i])
				aix = toX[i]
				if aij == 0 || xZero {
					aix = aij
				}
			}
			den := aij*aij*q + dj*dj
			if !(den > 0) {
				continue // coincident samples or two centres (rejected by validation)
			}
			// v = min(v, 1 - num/den), dividing only when the pair binds.
			if num := aij*aix*q + dj*dx; num > (1-v)*den {
				v = 1 - num/den
			}
		}
		h[i] = math.Max(v, 0)
	}
	normaliseFade(dst[:n], h[:n], DirectionalFadeTotal)
	return true
}

// DirectionalFadeTotal is the total influence below which Freeform
// Directional weights fade into equal weights: Unity normalises any
// positive total and gives equal weights at zero, which jumps where the
// total vanishes (only far outside, opposite every sample); normalising
// a small total is steep. At or above it the weights are Unity's.
const DirectionalFadeTotal = 0.1

// pairAngle returns the signed angle from p to q in [-pi, pi] given the
// difference of their directions d: its sign is the sign of the cross
// product, as in Unity, so exactly opposite samples give +pi and samples in
// one direction exactly 0.
func pairAngle(px, py, qx, qy, d float64) float64 {
	cross := px*qy - py*qx
	if cross == 0 {
		if px*qx+py*qy > 0 {
			return 0
		}
		return math.Pi
	}
	d = math.Abs(wrapPi(d))
	if cross < 0 {
		return -d
	}
	return d
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

// normaliseFade writes h/sum(h) into w where the sum is at least floor;
// below, (h + (floor-sum)/n)/floor, which reaches equal weights at a zero
// sum and is continuous in h.
func normaliseFade(w []float32, h []float64, floor float64) {
	var sum float64
	for _, v := range h {
		sum += v
	}
	if !(sum < floor) {
		if math.IsInf(sum, 1) {
			fillEqual(w)
			return
		}
		for i, v := range h {
			w[i] = float32(v / sum)
		}
		return
	}
	if !(sum >= 0) {
		fillEqual(w)
		return
	}
	e := (floor - sum) / float64(len(h))
	for i, v := range h {
		w[i] = float32((v + e) / floor)
	}
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
