package anim

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/check"
)

// SameDirectionTol is the smallest angle (radians) between two directional
// samples of a Simple Directional space: the source sorts by
// (int)((a-b)*31830), so closer angles compare as equal and their order is
// undefined.
const SameDirectionTol = 1.0 / 31830

// ValidateSimpleDirectional checks Simple Directional samples: 1 to
// MaxSamples finite positions, at most one at the origin (the centre
// sample), and no two in the same direction (closer than SameDirectionTol),
// which Unity warns about: one direction cannot hold two speeds here; that is
// what Freeform Directional is for.
func ValidateSimpleDirectional(samples []mgl32.Vec2) error {
	return validateSimpleDirectional("SimpleDirectional", "Samples", samples)
}

func validateSimpleDirectional(typ, field string, samples []mgl32.Vec2) error {
	if err := validatePoints(typ, field, samples); err != nil {
		return err
	}
	centre := -1
	for j, q := range samples {
		if isCentre(q) {
			if centre >= 0 {
				return check.Errorf(typ, fmt.Sprintf("%s[%d]", field, j), q, "second sample at the origin (%s[%d] is the centre sample)", field, centre)
			}
			centre = j
			continue
		}
		for i, p := range samples[:j] {
			if isCentre(p) {
				continue
			}
			px, py, qx, qy := float64(p[0]), float64(p[1]), float64(q[0]), float64(q[1])
			if math.Abs(math.Atan2(px*qy-py*qx, px*qx+py*qy)) < SameDirectionTol {
				return check.Errorf(typ, fmt.Sprintf("%s[%d]", field, j), q, "same direction as %s[%d] %v: Simple Directional takes one sample per direction", field, i, p)
			}
		}
	}
	return nil
}

// SimpleDirectionalWeights writes into dst one weight per sample for the
// input point, as Unity's 2D Simple Directional blend (reverse-engineered in
// the source document):
//
//  1. A sample at the origin is the centre sample; it takes no part in the
//     angle search.
//  2. Every other sample gets its angle from the input's angle,
//     atan2(sample) - atan2(input) wrapped into [0, 2pi]
//     by Mathf.Repeat's rule. The smallest
//     (first) and the largest (last) are the two samples angularly nearest
//     on either side; a sample exactly in the input's direction has angle 0
//     and is the first.
//  3. Solve input = t0*p0 + t1*p1. If t0 and t1 are both >= 0 the node
//     influences are t0/(t0+t1) and t1/(t0+t1), else 0.5 each (the input
//     is outside the sector, which happens when the gap between the two
//     samples exceeds 180 degrees).
//  4. The node total clamp01(t0+t1) is shared by the node influences; the
//     rest, 1 - total, goes to the centre sample, or is spread evenly over
//     all samples when there is none.
//
// Input at the origin gives all weight to the centre sample, or equal
// weights without one. Cases the source leaves open (where it would divide
// by zero): with only a centre sample it gets everything; with a single
// directional sample p, t0 is the projection dot(input,p)/|p|² (clamped at
// 0) and t1 = 0; with the two samples exactly opposite, each t is the
// clamped projection on its own sample. Samples that
// ValidateSimpleDirectional rejects still give finite weights: of tied
// angles the higher index wins; of several centres the lowest index (the
// source scans from the last sample down).
//
// Weights are finite, non-negative and sum to one. It returns false and
// writes nothing if there are no samples, more than MaxSamples, or dst is
// shorter than samples. A non-finite input counts as the origin.
func SimpleDirectionalWeights(dst []float32, samples []mgl32.Vec2, input mgl32.Vec2) bool {
	n := len(samples)
	if n == 0 || n > MaxSamples || len(dst) < n {
		return false
	}
	w := dst[:n]
	clear(w)
	x, y := input2(input)
	phi := math.Atan2(y, x)

	centre, first, last := -1, -1, -1
	var minAng, maxAng float64
	for i := n - 1; i >= 0; i-- {
		p := samples[i]
		if isCentre(p) {
			centre = i
			continue
		}
		a := repeat2Pi(math.Atan2(float64(p[1]), float64(p[0])) - phi)
		if first < 0 || a < minAng {
			first, minAng = i, a
		}
		if last < 0 || a > maxAng {
			last, maxAng = i, a
		}
	}

	if x == 0 && y == 0 {
		if centre >= 0 {
			w[centre] = 1
		} else {
			fillEqual(w)
		}
		return true
	}
	if first < 0 {
		w[centre] = 1 // only a centre sample
		return true
	}

	t0, t1 := solveSector(samples[first], samples[last], first == last, x, y)
	in0, in1 := 0.5, 0.5
	if s := t0 + t1; t0 >= 0 && t1 >= 0 && s > 0 {
		in0, in1 = t0/s, t1/s
	}
	total := clamp01f64(t0 + t1)
	w[first] += float32(total * in0)
	w[last] += float32(total * in1)
	if rest := 1 - total; rest > 0 {
		if centre >= 0 {
			w[centre] += float32(rest)
		} else {
			e := float32(rest / float64(n))
			for i := range w {
				w[i] += e
			}
		}
	}
	return true
}

// solveSector solves (x, y) = t0*p0 + t1*p1 in float64.
func solveSector(p0, p1 mgl32.Vec2, same bool, x, y float64) (t0, t1 float64) {
	ax, ay := float64(p0[0]), float64(p0[1])
	bx, by := float64(p1[0]), float64(p1[1])
	la, lb := ax*ax+ay*ay, bx*bx+by*by
	if same {
		return math.Max(0, x*ax+y*ay) / la, 0
	}
	det := ax*by - ay*bx
	if math.Abs(det) <= 1e-9*math.Sqrt(la*lb) {
		// Opposite samples span no triangle: project on each instead.
		return math.Max(0, x*ax+y*ay) / la, math.Max(0, x*bx+y*by) / lb
	}
	t0 = (x*by - y*bx) / det
	t1 = (ax*y - ay*x) / det
	// On a sector's edge the angle search and the solve may disagree by a
	// rounding error in the sign of the other t; that must not switch to
	// the 0.5/0.5 rule.
	tol := 1e-9 * (math.Abs(t0) + math.Abs(t1))
	if t0 < 0 && t0 >= -tol {
		t0 = 0
	}
	if t1 < 0 && t1 >= -tol {
		t1 = 0
	}
	return t0, t1
}

// repeat2Pi wraps a into [0, 2pi] like Unity's Mathf.Repeat(a, 2pi), which
// clamps: a hair below a multiple of 2pi may round up to 2pi and then sorts
// last, as in the source.
func repeat2Pi(a float64) float64 {
	const twoPi = 2 * math.Pi
	r := a - math.Floor(a/twoPi)*twoPi
	return math.Min(math.Max(r, 0), twoPi)
}

func clamp01f64(v float64) float64 {
	if v >= 0 {
		return math.Min(v, 1)
	}
	return 0
}
