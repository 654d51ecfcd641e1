package check

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

func TestFieldErrorNamesFieldAndValue(t *testing.T) {
	err := Range("ChainSettings", "Damping", 1.5, 0, 1)
	if err == nil {
		t.Fatal("1.5 accepted in [0,1]")
	}
	var fe *FieldError
	if !errors.As(err, &fe) || fe.Field != "Damping" || fe.Value != float32(1.5) {
		t.Fatalf("errors.As: %#v", err)
	}
	if !errors.Is(err, ErrInvalid) {
		t.Fatal("not ErrInvalid")
	}
	if msg := err.Error(); !strings.Contains(msg, "ChainSettings.Damping = 1.5") {
		t.Fatalf("message %q", msg)
	}
}

func TestFiniteChecks(t *testing.T) {
	nan := float32(math.NaN())
	if Finite("T", "F", nan) == nil || FiniteVec3("T", "F", mgl32.Vec3{0, nan, 0}) == nil ||
		FiniteQuat("T", "F", mgl32.Quat{W: float32(math.Inf(1))}) == nil || NonNegative("T", "F", -1) == nil {
		t.Fatal("bad value accepted")
	}
	if Finite("T", "F", 2) != nil || NonNegative("T", "F", 0) != nil {
		t.Fatal("good value rejected")
	}
}

func TestUnitQuat(t *testing.T) {
	q, err := UnitQuat("T", "Rot", mgl32.Quat{W: 1.0005}, 1e-3)
	if err != nil || q.W != 1 {
		t.Fatalf("near-unit: %v %v", q, err)
	}
	if _, err := UnitQuat("T", "Rot", mgl32.Quat{}, 1e-3); err == nil {
		t.Fatal("zero quaternion accepted")
	}
	if _, err := UnitQuat("T", "Rot", mgl32.Quat{W: 2}, 1e-3); err == nil {
		t.Fatal("length-2 quaternion accepted")
	}
}

// The size checks accept their limits and reject what lies beyond them,
// NaN and ±Inf.
func TestSizeLimits(t *testing.T) {
	nan := float32(math.NaN())
	inf := float32(math.Inf(1))
	for _, c := range []struct {
		name string
		err  error
		ok   bool
	}{
		{"translation at the limit", Translation("T", "Pos", mgl32.Vec3{MaxTranslation, -MaxTranslation, 0}), true},
		{"translation beyond", Translation("T", "Pos", mgl32.Vec3{0, 0, 1.0001 * MaxTranslation}), false},
		{"translation NaN", Translation("T", "Pos", mgl32.Vec3{nan, 0, 0}), false},
		{"position at the limit", Position("T", "Pos", mgl32.Vec3{-MaxPosition, 0, MaxPosition}), true},
		{"position beyond", Position("T", "Pos", mgl32.Vec3{0, 1.0001 * MaxPosition, 0}), false},
		{"position -Inf", Position("T", "Pos", mgl32.Vec3{0, -inf, 0}), false},
		{"scale at the limits", Scale("T", "Scale", mgl32.Vec3{MinScale, -MaxScale, -MinScale}), true},
		{"scale below", Scale("T", "Scale", mgl32.Vec3{1, 0.99 * MinScale, 1}), false},
		{"scale zero", Scale("T", "Scale", mgl32.Vec3{1, 1, 0}), false},
		{"scale above", Scale("T", "Scale", mgl32.Vec3{-1.0001 * MaxScale, 1, 1}), false},
		{"scale NaN", Scale("T", "Scale", mgl32.Vec3{1, 1, nan}), false},
		{"scale key zero", ScaleKey("T", "Scale", mgl32.Vec3{0, 0, 0}), true},
		{"scale key at the limit", ScaleKey("T", "Scale", mgl32.Vec3{MaxScale, -MaxScale, 1}), true},
		{"scale key above", ScaleKey("T", "Scale", mgl32.Vec3{1, 1.0001 * MaxScale, 1}), false},
		{"scale key Inf", ScaleKey("T", "Scale", mgl32.Vec3{inf, 1, 1}), false},
	} {
		var fe *FieldError
		switch {
		case c.ok && c.err != nil:
			t.Errorf("%s: %v", c.name, c.err)
		case !c.ok && !errors.As(c.err, &fe):
			t.Errorf("%s: %v, want a *FieldError", c.name, c.err)
		}
	}
	if got := MaxAbs(mgl32.Vec3{-3, 2, 1}); got != 3 {
		t.Errorf("MaxAbs = %g, want 3", got)
	}
}
