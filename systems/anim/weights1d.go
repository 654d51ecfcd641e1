package anim

import (
	"fmt"

	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/internal/mathx"
)

// Validate1D checks 1D thresholds: 1 to MaxSamples finite values, strictly
// increasing (Unity sorts them; here the order is the caller's).
func Validate1D(thresholds []float32) error {
	return validate1D("Blend1D", "Thresholds", thresholds)
}

func validate1D(typ, field string, th []float32) error {
	if err := validateCount(typ, field, len(th)); err != nil {
		return err
	}
	for i, t := range th {
		if err := check.Finite(typ, fmt.Sprintf("%s[%d]", field, i), t); err != nil {
			return err
		}
		if i > 0 && !(t > th[i-1]) {
			return check.Errorf(typ, fmt.Sprintf("%s[%d]", field, i), t, "must be greater than %s[%d] (%g)", field, i-1, th[i-1])
		}
	}
	return nil
}

// Weights1D writes into dst one weight per threshold for the parameter x:
// linear between the two thresholds around x, all to the first or last
// threshold beyond the ends (and to the first for NaN). It returns false and
// writes nothing if there are no thresholds, more than MaxSamples, or dst is
// shorter than thresholds.
func Weights1D(dst []float32, thresholds []float32, x float32) bool {
	n := len(thresholds)
	if n == 0 || n > MaxSamples || len(dst) < n {
		return false
	}
	w := dst[:n]
	clear(w)
	switch {
	case !(x > thresholds[0]):
		w[0] = 1
	case x >= thresholds[n-1]:
		w[n-1] = 1
	default:
		for i := 0; i < n-1; i++ {
			lo, hi := thresholds[i], thresholds[i+1]
			if x >= hi {
				continue
			}
			d := hi - lo
			if !(d > 0) {
				// Unsorted thresholds (rejected by Validate1D): no NaN.
				w[i] = 1
				return true
			}
			a := mathx.Clamp01((x - lo) / d)
			w[i], w[i+1] = 1-a, a
			return true
		}
		w[n-1] = 1
	}
	return true
}
