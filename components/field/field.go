// Package field defines the error sway returns for a bad input value at
// set-up: every constructor, Add and setter of the library, and the
// kernels' Validate methods, report one as a *Error naming the settings
// type, the field and the value. The facade calls it sway.FieldError.
//
// It has no dependencies, so that every layer of sway can return it.
package field

import (
	"errors"
	"fmt"
)

// ErrInvalid is wrapped by every *Error: errors.Is(err, ErrInvalid) tells
// bad input from other failures.
var ErrInvalid = errors.New("sway: invalid input")

// Error reports one bad value handed in by the user. Nothing was changed.
type Error struct {
	// Type is the settings or description type, or the method, that
	// holds the field: "SkeletonDesc", "ChainSettings", "Chains.Add".
	Type string
	// Field is the field's path within it: "Bones[3].Parent",
	// "[2].Settings.Damping", "Teleport.AngleDegrees".
	Field string
	// Value is the value that was rejected, as given.
	Value any
	// Reason says why, and what the valid range is.
	Reason string
}

func (e *Error) Error() string {
	return fmt.Sprintf("sway: %s.%s = %v: %s", e.Type, e.Field, e.Value, e.Reason)
}

// Unwrap returns ErrInvalid.
func (e *Error) Unwrap() error { return ErrInvalid }
