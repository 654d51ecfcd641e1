package anim

import (
	"errors"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/check"
)

// Thresholds -1, 0, 2: x = -0.5 is halfway between the first two, x = 1
// halfway between the last two; beyond the ends all weight goes to the end.
func TestWeights1DHandWorked(t *testing.T) {
	th := []float32{-1, 0, 2}
	nan := float32(math.NaN())
	w := make([]float32, 3)
	for _, c := range []struct {
		x    float32
		want []float32
	}{
		{-5, []float32{1, 0, 0}},
		{-1, []float32{1, 0, 0}},
		{-0.5, []float32{0.5, 0.5, 0}},
		{0, []float32{0, 1, 0}},
		{1, []float32{0, 0.5, 0.5}},
		{1.5, []float32{0, 0.25, 0.75}},
		{2, []float32{0, 0, 1}},
		{9, []float32{0, 0, 1}},
		{nan, []float32{1, 0, 0}},
	} {
		if !Weights1D(w, th, c.x) {
			t.Fatal("returned false")
		}
		assertWeights(t, "x="+ftoa(c.x), w, c.want, 1e-6)
	}
	one := make([]float32, 1)
	Weights1D(one, th[:1], 7)
	assertWeights(t, "single threshold", one, []float32{1}, 0)
	if Weights1D(w[:2], th, 0) || Weights1D(w, nil, 0) {
		t.Fatal("bad slices accepted")
	}
}

func TestValidate1D(t *testing.T) {
	for _, c := range []struct {
		th    []float32
		field string
	}{
		{nil, "Thresholds"},
		{[]float32{0, 1, 1}, "Thresholds[2]"},
		{[]float32{0, -1}, "Thresholds[1]"},
		{[]float32{0, float32(math.Inf(1))}, "Thresholds[1]"},
	} {
		var fe *check.FieldError
		if err := Validate1D(c.th); !errors.As(err, &fe) || fe.Field != c.field {
			t.Fatalf("%v: got %v, want a FieldError on %s", c.th, err, c.field)
		}
	}
	if err := Validate1D([]float32{-1, 0, 2}); err != nil {
		t.Fatal(err)
	}
}

func TestDirectWeights(t *testing.T) {
	nan := float32(math.NaN())
	w := make([]float32, 4)
	DirectWeights(w, []float32{0.2, -1, nan, 0.3}, false)
	assertWeights(t, "as given", w, []float32{0.2, 0, 0, 0.3}, 0)
	DirectWeights(w, []float32{0.2, -1, nan, 0.3}, true)
	assertWeights(t, "normalised", w, []float32{0.4, 0, 0, 0.6}, 1e-6)
	DirectWeights(w, []float32{0, 0, 0, 0}, true)
	assertWeights(t, "all zero stays zero", w, []float32{0, 0, 0, 0}, 0)
	if DirectWeights(w[:1], []float32{1, 1}, true) || DirectWeights(w, nil, true) {
		t.Fatal("bad slices accepted")
	}
	if ValidateDirect(0) == nil || ValidateDirect(MaxSamples+1) == nil || ValidateDirect(3) != nil {
		t.Fatal("ValidateDirect")
	}
}

// Two samples (0,0), (1,0) at (0.25,0): h0 = 1 - 0.25 = 0.75,
// h1 = 1 - (x-p1)·(p0-p1) = 1 - (-0.75)(-1) = 0.25 -> 0.75, 0.25.
// Three samples (0,0), (1,0), (0,1) at (0.25,0.25):
// h0 = min(1-0.25, 1-0.25) = 0.75;
// h1: to p0 1 - (-0.75,0.25)·(-1,0) = 0.25, to p2 1 - (0.75+0.25)/2 = 0.5
// -> 0.25; h2 = 0.25 by symmetry; sum 1.25 -> 0.6, 0.2, 0.2.
func TestFreeformCartesianHandWorked(t *testing.T) {
	w := make([]float32, 3)
	FreeformCartesianWeights(w, []mgl32.Vec2{{0, 0}, {1, 0}}, mgl32.Vec2{0.25, 0})
	assertWeights(t, "two samples", w[:2], []float32{0.75, 0.25}, 1e-6)
	FreeformCartesianWeights(w, []mgl32.Vec2{{0, 0}, {1, 0}, {0, 1}}, mgl32.Vec2{0.25, 0.25})
	assertWeights(t, "three samples", w, []float32{0.6, 0.2, 0.2}, 1e-6)
	// Beyond the hull the nearest band wins: at (3,0) only p1 is inside.
	FreeformCartesianWeights(w, []mgl32.Vec2{{0, 0}, {1, 0}, {0, 1}}, mgl32.Vec2{3, 0})
	assertWeights(t, "outside", w, []float32{0, 1, 0}, 1e-6)
}

// [C F(0,1) R(1,0)] at (0,0.5), angle factor 2; m is the average length:
//
//	h_C: to F: v_CF = ((1-0)/0.5, 2·angle(F,x)=0) = (2,0), v_Cx = (0.5/0.5, 0) = (1,0)
//	     -> 1 - 2/4 = 0.5; to R: v_CR = (2, 2·angle(R,x) = pi), v_Cx = (1,0)
//	     -> 1 - 2/(4+pi²) = 0.856; h_C = 0.5.
//	h_F: to C: v_FC = ((0-1)/0.5, 0) = (-2,0), v_Fx = ((0.5-1)/0.5, 0) = (-1,0)
//	     -> 0.5; to R: v_FR = (0, -pi), v_Fx = (-0.5, 0) -> 1; h_F = 0.5.
//	h_R: to F: v_RF = (0, pi), v_Rx = (-0.5, pi) -> 1 - pi²/pi² = 0; h_R = 0.
//
// Weights [0.5 0.5 0].
func TestFreeformDirectionalHandWorked(t *testing.T) {
	s := []mgl32.Vec2{{0, 0}, {0, 1}, {1, 0}}
	w := make([]float32, 3)
	FreeformDirectionalWeights(w, s, mgl32.Vec2{0, 0.5})
	assertWeights(t, "(0,0.5)", w, []float32{0.5, 0.5, 0}, 1e-6)
	FreeformDirectionalWeights(w, s, mgl32.Vec2{})
	assertWeights(t, "origin", w, []float32{1, 0, 0}, 1e-6)
	// Without a centre the origin has no influence anywhere: equal weights.
	FreeformDirectionalWeights(w[:2], s[1:], mgl32.Vec2{})
	assertWeights(t, "origin without centre", w[:2], []float32{0.5, 0.5}, 1e-6)
}

// Several speeds in one direction are what Freeform Directional is for:
// walk (0,1) and run (0,2) with a centre; at (0,1.5) half walk, half run.
func TestFreeformDirectionalSpeedsInOneDirection(t *testing.T) {
	s := []mgl32.Vec2{{0, 0}, {0, 1}, {0, 2}, {1, 0}, {-1, 0}}
	if err := ValidateFreeformDirectional(s); err != nil {
		t.Fatal(err)
	}
	w := make([]float32, len(s))
	FreeformDirectionalWeights(w, s, mgl32.Vec2{0, 1.5})
	assertWeights(t, "(0,1.5)", w, []float32{0, 0.5, 0.5, 0, 0}, 1e-6)
}

func TestValidateFreeform(t *testing.T) {
	nan := float32(math.NaN())
	for _, c := range []struct {
		s     []mgl32.Vec2
		field string
	}{
		{nil, "Samples"},
		{[]mgl32.Vec2{{0, 0}, {1, 0}, {1, 1e-6}}, "Samples[2]"},
		{[]mgl32.Vec2{{0, 0}, {0, nan}}, "Samples[1]"},
	} {
		for _, v := range []func([]mgl32.Vec2) error{ValidateFreeformCartesian, ValidateFreeformDirectional} {
			var fe *check.FieldError
			if err := v(c.s); !errors.As(err, &fe) || fe.Field != c.field {
				t.Fatalf("%v: got %v, want a FieldError on %s", c.s, err, c.field)
			}
		}
	}
}

func TestFreeformDegenerate(t *testing.T) {
	w := make([]float32, 3)
	dup := []mgl32.Vec2{{1, 1}, {1, 1}, {0, 0}}
	for _, fn := range []weightFunc{FreeformCartesianWeights, FreeformDirectionalWeights} {
		fn(w, dup, mgl32.Vec2{0.5, 0.5})
		checkWeights(t, "coincident samples", w)
		fn(w, dup, mgl32.Vec2{float32(math.NaN()), 1})
		checkWeights(t, "NaN input", w)
		fn(w[:1], dup[:1], mgl32.Vec2{4, 4})
		assertWeights(t, "one sample", w[:1], []float32{1}, 0)
		if fn(w[:2], dup, mgl32.Vec2{}) || fn(w, nil, mgl32.Vec2{}) {
			t.Fatal("bad slices accepted")
		}
	}
}

func TestSmoothParam(t *testing.T) {
	// Exact in dt: one step of 0.1 s equals ten steps of 0.01 s.
	a := SmoothParam(mgl32.Vec2{}, mgl32.Vec2{1, -2}, 5, 0.1)
	b := mgl32.Vec2{}
	for range 10 {
		b = SmoothParam(b, mgl32.Vec2{1, -2}, 5, 0.01)
	}
	want := float32(1 - math.Exp(-0.5)) // 0.393469
	if !near(a[0], want, 1e-6) || !near(b[0], want, 1e-5) || !near(a[1], -2*want, 1e-6) {
		t.Fatalf("one step %v, ten steps %v, want x = %v", a, b, want)
	}
	if SmoothFactor(0, 1) != 0 || SmoothFactor(5, 0) != 0 || SmoothFactor(5, -1) != 0 || SmoothFactor(float32(math.Inf(1)), 1) != 1 {
		t.Fatal("SmoothFactor edge cases")
	}
	nan := float32(math.NaN())
	if got := SmoothParam(mgl32.Vec2{1, 1}, mgl32.Vec2{nan, 0}, 5, 0.1); got != (mgl32.Vec2{1, 1}) {
		t.Fatalf("NaN target: %v", got)
	}
	if got := SmoothParam(mgl32.Vec2{nan, 1}, mgl32.Vec2{2, 0}, 5, 0.1); got != (mgl32.Vec2{2, 0}) {
		t.Fatalf("NaN current: %v", got)
	}
	if got := SmoothParam(mgl32.Vec2{-3e38, 3e38}, mgl32.Vec2{3e38, -3e38}, 1, 0.5); !(got[0] > -3e38 && got[0] < 3e38) {
		t.Fatalf("huge range: %v", got)
	}
}
