package anim

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/internal/mathx"
)

// MaxSamples is the largest number of samples (clips) a blend space or a
// weight function takes; the per-frame functions keep their scratch in
// fixed arrays of this size.
const MaxSamples = 32

// Kind selects how a blend space turns its parameter into blend weights,
// after Unity's blend tree types.
type Kind uint8

const (
	// Kind1D blends the two neighbouring thresholds linearly (Weights1D).
	Kind1D Kind = iota
	// KindSimpleDirectional is Unity's 2D Simple Directional
	// (SimpleDirectionalWeights).
	KindSimpleDirectional
	// KindFreeformDirectional is polar gradient band interpolation
	// (FreeformDirectionalWeights).
	KindFreeformDirectional
	// KindFreeformCartesian is Cartesian gradient band interpolation
	// (FreeformCartesianWeights).
	KindFreeformCartesian
	// KindDirect takes one weight per sample from the caller (DirectWeights).
	KindDirect
	kindCount
)

var kindNames = [kindCount]string{"1D", "SimpleDirectional", "FreeformDirectional", "FreeformCartesian", "Direct"}

func (k Kind) String() string {
	if k < kindCount {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// centreEpsSq is the squared length below which a sample counts as being at
// the origin: Unity's Vector3 == tolerance, which the source's
// "nodePos == Vector3.zero" test uses.
const centreEpsSq = 1e-10

func isCentre(p mgl32.Vec2) bool {
	x, y := float64(p[0]), float64(p[1])
	return x*x+y*y < centreEpsSq
}

// coincidentEps is the distance below which two freeform samples are the
// same point.
const coincidentEps = 1e-5

// validateCount checks the number of samples.
func validateCount(typ, field string, n int) error {
	if n < 1 || n > MaxSamples {
		return check.Errorf(typ, field, n, "needs 1 to %d samples", MaxSamples)
	}
	return nil
}

// validatePoints checks count and finiteness of 2D sample positions.
func validatePoints(typ, field string, samples []mgl32.Vec2) error {
	if err := validateCount(typ, field, len(samples)); err != nil {
		return err
	}
	for i, p := range samples {
		if !mathx.IsFinite(p[0]) || !mathx.IsFinite(p[1]) {
			return check.Errorf(typ, fmt.Sprintf("%s[%d]", field, i), p, "must be finite")
		}
	}
	return nil
}

// validateDistinct rejects two samples at the same point.
func validateDistinct(typ, field string, samples []mgl32.Vec2) error {
	for j := range samples {
		for i := range j {
			dx := float64(samples[j][0]) - float64(samples[i][0])
			dy := float64(samples[j][1]) - float64(samples[i][1])
			if math.Hypot(dx, dy) < coincidentEps {
				return check.Errorf(typ, fmt.Sprintf("%s[%d]", field, j), samples[j], "same position as %s[%d]", field, i)
			}
		}
	}
	return nil
}

// finite64 reports whether f is neither NaN nor ±Inf.
func finite64(f float64) bool { return f-f == 0 }

// input2 converts a blend parameter to float64; a non-finite parameter
// counts as the origin so that no NaN reaches the weights.
func input2(p mgl32.Vec2) (float64, float64) {
	x, y := float64(p[0]), float64(p[1])
	if !finite64(x) || !finite64(y) {
		return 0, 0
	}
	return x, y
}

// fillEqual writes 1/n into w.
func fillEqual(w []float32) {
	e := 1 / float32(len(w))
	for i := range w {
		w[i] = e
	}
}
