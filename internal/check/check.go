// Package check is sway's one validation layer: every set-up entry point and
// every runtime edit reports bad input as a *FieldError that names the
// settings type, the field and the offending value. The facade re-exports
// the type (field.Error) as sway.FieldError so users can match it with errors.As, and every
// FieldError wraps ErrInvalid for errors.Is.
package check

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/components/field"
	"github.com/sway-anim/sway/internal/mathx"
)

// ErrInvalid is wrapped by every *FieldError.
var ErrInvalid = field.ErrInvalid

// FieldError reports one bad value handed in by the user (field.Error, the
// public type).
type FieldError = field.Error

// Errorf returns a *FieldError with a formatted reason.
func Errorf(typ, field string, value any, format string, args ...any) *FieldError {
	return &FieldError{Type: typ, Field: field, Value: value, Reason: fmt.Sprintf(format, args...)}
}

// Finite rejects NaN and ±Inf.
func Finite(typ, field string, v float32) error {
	if !mathx.IsFinite(v) {
		return &FieldError{Type: typ, Field: field, Value: v, Reason: "must be finite"}
	}
	return nil
}

// FiniteVec3 rejects a vector with a NaN or ±Inf component.
func FiniteVec3(typ, field string, v mgl32.Vec3) error {
	if !mathx.Vec3Finite(v) {
		return &FieldError{Type: typ, Field: field, Value: v, Reason: "must be finite"}
	}
	return nil
}

// FiniteQuat rejects a quaternion with a NaN or ±Inf component.
func FiniteQuat(typ, field string, q mgl32.Quat) error {
	if !mathx.QuatFinite(q) {
		return &FieldError{Type: typ, Field: field, Value: q, Reason: "must be finite"}
	}
	return nil
}

// NonNegative rejects NaN, ±Inf and negative values.
func NonNegative(typ, field string, v float32) error {
	if !mathx.IsFinite(v) || v < 0 {
		return &FieldError{Type: typ, Field: field, Value: v, Reason: "must be finite and >= 0"}
	}
	return nil
}

// Range rejects values outside [lo, hi] (and non-finite values).
func Range(typ, field string, v, lo, hi float32) error {
	if !mathx.IsFinite(v) || v < lo || v > hi {
		return &FieldError{Type: typ, Field: field, Value: v, Reason: fmt.Sprintf("must be in [%g, %g]", lo, hi)}
	}
	return nil
}

// UnitQuat accepts a quaternion whose length is within tol of 1 and returns
// it normalised; it rejects non-finite quaternions and those further from
// unit length, which are more likely a mistake than rounding.
func UnitQuat(typ, field string, q mgl32.Quat, tol float32) (mgl32.Quat, error) {
	if !mathx.QuatFinite(q) {
		return q, &FieldError{Type: typ, Field: field, Value: q, Reason: "must be finite"}
	}
	l2 := q.W*q.W + mathx.Dot(q.V, q.V)
	if l2 < (1-tol)*(1-tol) || l2 > (1+tol)*(1+tol) {
		return q, &FieldError{Type: typ, Field: field, Value: q, Reason: fmt.Sprintf("must be a unit quaternion (length within %g of 1)", tol)}
	}
	n, _ := mathx.NormalizeQuat(q)
	return n, nil
}
