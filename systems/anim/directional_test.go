package anim

import (
	"errors"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/check"
)

// Hand-worked from the source's algorithm on the classic layout
// C(0,0) F(0,1) B(0,-1) L(-1,0) R(1,0); weights listed as [C F B L R].
// Angles are atan2(sample) - atan2(input) wrapped into [0, 360).
//
//	(0.5,0.5): input 45°. F 45, L 135, B 225, R 315 -> first F, last R.
//	           (0.5,0.5) = t0*(0,1) + t1*(1,0): t0 = 0.5, t1 = 0.5.
//	           influences 0.5/0.5, total clamp01(1) = 1 -> F 0.5, R 0.5.
//	(0,0.5):   input 90°. F 0, L 90, B 180, R 270 -> first F, last R.
//	           t0 = 0.5, t1 = 0 -> influences 1/0, total 0.5
//	           -> F 0.5, centre 1 - 0.5 = 0.5.
//	(0,2):     first F, last R; t0 = 2, t1 = 0 -> total clamp01(2) = 1 -> F 1.
//	(-0.3,-0.3): input -135°. B 45, R 135, F 225, L 315 -> first B, last L.
//	           (-0.3,-0.3) = t0*(0,-1) + t1*(-1,0): t0 = 0.3, t1 = 0.3.
//	           influences 0.5/0.5, total 0.6 -> B 0.3, L 0.3, centre 0.4.
//	(0,0):     at the origin: all to the centre sample.
//	(0.25,0.5): input 63.43°. F 26.57, L 116.57, B 206.57, R 296.57.
//	           t0 (F) = 0.5, t1 (R) = 0.25; influences 2/3, 1/3; total 0.75
//	           -> F 0.5, R 0.25, centre 0.25.
func TestSimpleDirectionalHandWorked(t *testing.T) {
	cases := []struct {
		in   mgl32.Vec2
		want []float32
	}{
		{mgl32.Vec2{0.5, 0.5}, []float32{0, 0.5, 0, 0, 0.5}},
		{mgl32.Vec2{0, 0.5}, []float32{0.5, 0.5, 0, 0, 0}},
		{mgl32.Vec2{0, 2}, []float32{0, 1, 0, 0, 0}},
		{mgl32.Vec2{-0.3, -0.3}, []float32{0.4, 0, 0.3, 0.3, 0}},
		{mgl32.Vec2{0, 0}, []float32{1, 0, 0, 0, 0}},
		{mgl32.Vec2{0.25, 0.5}, []float32{0.25, 0.5, 0, 0, 0.25}},
	}
	w := make([]float32, len(classic))
	for _, c := range cases {
		if !SimpleDirectionalWeights(w, classic, c.in) {
			t.Fatalf("%v: returned false", c.in)
		}
		assertWeights(t, "input "+vec2String(c.in), w, c.want, 1e-6)
	}
}

// Without a centre sample the centre share is spread over all samples.
// [F B L R] at (0,0.5): F 0.5 + 0.5/4 = 0.625, the others 0.125.
func TestSimpleDirectionalNoCentreSpreadsEvenly(t *testing.T) {
	four := classic[1:]
	w := make([]float32, 4)
	SimpleDirectionalWeights(w, four, mgl32.Vec2{0, 0.5})
	assertWeights(t, "(0,0.5)", w, []float32{0.625, 0.125, 0.125, 0.125}, 1e-6)
	SimpleDirectionalWeights(w, four, mgl32.Vec2{})
	assertWeights(t, "origin", w, []float32{0.25, 0.25, 0.25, 0.25}, 1e-6)
}

// A gap wider than 180 degrees: [C F(0,1) R(1,0)].
//
//	(-0.2,0.8): input 104.04°. R 255.96, F 345.96 -> first R, last F.
//	            (-0.2,0.8) = t0*(1,0) + t1*(0,1): t0 = -0.2, t1 = 0.8.
//	            t0 < 0 -> influences 0.5 each; total clamp01(0.6) = 0.6
//	            -> R 0.3, F 0.3, centre 0.4 (the source's rule, kept).
//	(-1,-1):    t0 = t1 = -1 -> total 0 -> centre 1.
func TestSimpleDirectionalOutsideSectorHalfRule(t *testing.T) {
	s := []mgl32.Vec2{{0, 0}, {0, 1}, {1, 0}}
	w := make([]float32, 3)
	SimpleDirectionalWeights(w, s, mgl32.Vec2{-0.2, 0.8})
	assertWeights(t, "(-0.2,0.8)", w, []float32{0.4, 0.3, 0.3}, 1e-6)
	SimpleDirectionalWeights(w, s, mgl32.Vec2{-1, -1})
	assertWeights(t, "(-1,-1)", w, []float32{1, 0, 0}, 1e-6)
}

// With one directional sample the source's matrix is singular; here t0 is
// the clamped projection on it. [C F]: (0,0.5) -> F 0.5, C 0.5; (0,3) -> F 1;
// (1,0) and (0,-1) project to 0 -> C 1. A lone F gets everything.
func TestSimpleDirectionalOneDirectionalSample(t *testing.T) {
	s := []mgl32.Vec2{{0, 0}, {0, 1}}
	w := make([]float32, 2)
	for _, c := range []struct {
		in   mgl32.Vec2
		want []float32
	}{
		{mgl32.Vec2{0, 0.5}, []float32{0.5, 0.5}},
		{mgl32.Vec2{0, 3}, []float32{0, 1}},
		{mgl32.Vec2{1, 0}, []float32{1, 0}},
		{mgl32.Vec2{0, -1}, []float32{1, 0}},
		{mgl32.Vec2{0.5, 0.25}, []float32{0.75, 0.25}},
	} {
		SimpleDirectionalWeights(w, s, c.in)
		assertWeights(t, vec2String(c.in), w, c.want, 1e-6)
	}
	one := make([]float32, 1)
	SimpleDirectionalWeights(one, s[1:], mgl32.Vec2{5, -3})
	assertWeights(t, "lone sample", one, []float32{1}, 0)
	SimpleDirectionalWeights(one, s[:1], mgl32.Vec2{5, -3})
	assertWeights(t, "lone centre", one, []float32{1}, 0)
}

// Two opposite samples span no triangle: each t is the clamped projection.
// [C F B]: (0.5,0.5) -> first F (45°), last B (225°); t0 = 0.5, t1 = 0
// -> F 0.5, C 0.5. (1,0) is perpendicular -> t0 = t1 = 0 -> C 1.
func TestSimpleDirectionalOppositeSamples(t *testing.T) {
	s := []mgl32.Vec2{{0, 0}, {0, 1}, {0, -1}}
	w := make([]float32, 3)
	SimpleDirectionalWeights(w, s, mgl32.Vec2{0.5, 0.5})
	assertWeights(t, "(0.5,0.5)", w, []float32{0.5, 0.5, 0}, 1e-6)
	SimpleDirectionalWeights(w, s, mgl32.Vec2{1, 0})
	assertWeights(t, "(1,0)", w, []float32{1, 0, 0}, 1e-6)
	SimpleDirectionalWeights(w, s, mgl32.Vec2{-0.1, -2})
	assertWeights(t, "(-0.1,-2)", w, []float32{0, 0, 1}, 1e-6)
}

// The source's angle rules: Mathf.Repeat into [0, 2pi] with its clamp (a
// hair below 0 rounds up to 2pi and sorts last), and a comparator that
// cannot order angles closer than 1/31830 rad, which validation turns into
// the "same direction" error.
func TestSimpleDirectionalTieRules(t *testing.T) {
	twoPi := 2 * math.Pi
	for _, c := range []struct{ in, want float64 }{
		{0, 0}, {-1e-17, twoPi}, {-math.Pi / 2, 1.5 * math.Pi}, {twoPi, 0}, {math.Pi, math.Pi}, {-1.5 * twoPi, math.Pi},
	} {
		if got := repeat2Pi(c.in); math.Abs(got-c.want) > 1e-12 {
			t.Fatalf("repeat2Pi(%v) = %v, want %v", c.in, got, c.want)
		}
	}
	at := func(a float64) mgl32.Vec2 { return mgl32.Vec2{float32(math.Cos(a)), float32(math.Sin(a))} }
	if err := ValidateSimpleDirectional([]mgl32.Vec2{at(1), at(1 + 0.8*SameDirectionTol)}); err == nil {
		t.Fatal("samples 0.8/31830 rad apart accepted")
	}
	if err := ValidateSimpleDirectional([]mgl32.Vec2{at(1), at(1 + 1.5*SameDirectionTol)}); err != nil {
		t.Fatalf("samples 1.5/31830 rad apart rejected: %v", err)
	}
	// An input exactly along a sample has angle 0 to it: that sample is the
	// first and takes the whole node share, whichever side the other is on.
	w := make([]float32, len(classic))
	for i := 1; i < len(classic); i++ {
		SimpleDirectionalWeights(w, classic, classic[i].Mul(0.7))
		want := make([]float32, len(classic))
		want[0], want[i] = 0.3, 0.7
		assertWeights(t, "along "+vec2String(classic[i]), w, want, 1e-6)
	}
}

func TestValidateSimpleDirectional(t *testing.T) {
	nan := float32(math.NaN())
	many := make([]mgl32.Vec2, MaxSamples+1)
	for i := range many {
		a := float64(i) / float64(len(many)) * 2 * math.Pi
		many[i] = mgl32.Vec2{float32(math.Cos(a)), float32(math.Sin(a))}
	}
	for _, c := range []struct {
		name    string
		samples []mgl32.Vec2
		field   string
	}{
		{"empty", nil, "Samples"},
		{"too many", many, "Samples"},
		{"NaN", []mgl32.Vec2{{0, 0}, {nan, 1}}, "Samples[1]"},
		{"two centres", []mgl32.Vec2{{0, 0}, {0, 1}, {1e-6, 0}}, "Samples[2]"},
		{"walk and run forward", []mgl32.Vec2{{0, 0}, {0, 0.5}, {1, 0}, {0, 1}}, "Samples[3]"},
	} {
		err := ValidateSimpleDirectional(c.samples)
		var fe *check.FieldError
		if !errors.As(err, &fe) || fe.Field != c.field || fe.Type != "SimpleDirectional" {
			t.Fatalf("%s: got %v, want a FieldError on %s", c.name, err, c.field)
		}
		if !errors.Is(err, check.ErrInvalid) {
			t.Fatalf("%s: not ErrInvalid", c.name)
		}
	}
	if err := ValidateSimpleDirectional(classic); err != nil {
		t.Fatalf("classic layout rejected: %v", err)
	}
	if err := ValidateSimpleDirectional(classic[1:]); err != nil {
		t.Fatalf("layout without centre rejected: %v", err)
	}
}

func TestSimpleDirectionalDegenerateInputs(t *testing.T) {
	w := make([]float32, len(classic))
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	for _, in := range []mgl32.Vec2{{nan, 0}, {0, inf}} {
		SimpleDirectionalWeights(w, classic, in)
		assertWeights(t, "non-finite input counts as origin", w, []float32{1, 0, 0, 0, 0}, 0)
	}
	SimpleDirectionalWeights(w, classic, mgl32.Vec2{math.MaxFloat32, -math.MaxFloat32})
	checkWeights(t, "huge input", w)
	SimpleDirectionalWeights(w, classic, mgl32.Vec2{1e-30, 1e-30})
	checkWeights(t, "tiny input", w)
	if w[0] < 0.999999 {
		t.Fatalf("tiny input: centre weight %v", w[0])
	}
	if SimpleDirectionalWeights(w[:4], classic, mgl32.Vec2{1, 0}) {
		t.Fatal("short dst accepted")
	}
	if SimpleDirectionalWeights(w, nil, mgl32.Vec2{1, 0}) {
		t.Fatal("no samples accepted")
	}
	// Unvalidated: two samples in one direction still give sane weights.
	dup := []mgl32.Vec2{{0, 0}, {0, 1}, {0, 1}, {1, 0}}
	SimpleDirectionalWeights(w[:4], dup, mgl32.Vec2{0.3, 0.6})
	checkWeights(t, "duplicate directions", w[:4])
}

func vec2String(v mgl32.Vec2) string {
	return "(" + ftoa(v[0]) + "," + ftoa(v[1]) + ")"
}
