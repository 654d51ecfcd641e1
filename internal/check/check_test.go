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
