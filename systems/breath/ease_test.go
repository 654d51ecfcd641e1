package breath

import (
	"math"
	"testing"
)

// Hand-worked values with b = 1, c = 2, d = 2 (so t/d = t/2).
func TestEasingsByHand(t *testing.T) {
	type row struct {
		name string
		f    func(t, b, c, d float32) float32
		e    Easing
		// at t = 0, d/4 = 0.5, d/2 = 1, d = 2 and beyond (t = 5)
		at0, atQuarter, atHalf, atEnd, beyond float32
	}
	rows := []row{
		// d/4: t/(d/2) = 0.5 < 1: c/2*0.25+b = 1.25. d/2: t = 1, not < 1,
		// t-- = 0: -c/2*(0*(0-2)-1)+b = 1+1 = 2.
		{"EaseInOutQuad", EaseInOutQuad, InOutQuad, 1, 1.25, 2, 3, 3},
		// d/4: t/d-1 = -0.75, (-0.421875+1)*2+1 = 2.15625.
		// d/2: -0.5, (-0.125+1)*2+1 = 2.75.
		{"EaseOutCubic", EaseOutCubic, OutCubic, 1, 2.15625, 2.75, 3, 3},
		// d/4: -0.75^4 = 0.31640625, -2*(0.31640625-1)+1 = 2.3671875.
		// d/2: 0.5^4 = 0.0625, -2*(0.0625-1)+1 = 2.875.
		{"EaseOutQuart", EaseOutQuart, OutQuart, 1, 2.3671875, 2.875, 3, 3},
		// d/4: 0.5^4 = 0.0625, 1*0.0625+1 = 1.0625.
		// d/2: t = 1, t-2 = -1: -1*(1-2)+1 = 2.
		{"EaseInOutQuart", EaseInOutQuart, InOutQuart, 1, 1.0625, 2, 3, 3},
		// d/4: 2*sin(pi/8)+1 = 2*0.38268343+1 = 1.76536686.
		// d/2: 2*sin(pi/4)+1 = 2*0.70710678+1 = 2.41421356.
		{"EaseOutSine", EaseOutSine, OutSine, 1, 1.76536686, 2.41421356, 3, 3},
		// d/4: -1*(cos(pi/4)-1)+1 = 2-0.70710678 = 1.29289322.
		// d/2: -1*(cos(pi/2)-1)+1 = 2.
		{"EaseInOutSine", EaseInOutSine, InOutSine, 1, 1.29289322, 2, 3, 3},
		// d/4: 2*(1-2^-2.5)+1 = 2*(1-0.17677670)+1 = 2.64644661.
		// d/2: 2*(1-2^-5)+1 = 2*0.96875+1 = 2.9375.
		{"EaseOutExpo", EaseOutExpo, OutExpo, 1, 2.64644661, 2.9375, 3, 3},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			for _, c := range []struct {
				t, want float32
			}{{0, r.at0}, {0.5, r.atQuarter}, {1, r.atHalf}, {2, r.atEnd}, {5, r.beyond}} {
				near(t, r.name+"(t)", r.f(c.t, 1, 2, 2), c.want, 1e-6)
				near(t, "Ease("+r.e.String()+")", Ease(r.e, c.t, 1, 2, 2), c.want, 1e-6)
			}
			// d == 0: b + c at once, no division by zero.
			if got := r.f(0, 1, 2, 0); got != 3 {
				t.Errorf("d = 0: got %v, want 3", got)
			}
			// A negative change mirrors the curve: b - (value - b).
			near(t, "c < 0", r.f(1, 1, -2, 2), 1-(r.atHalf-1), 1e-6)
		})
	}
}

func TestEaseOutExpoJumpsAtEnd(t *testing.T) {
	// Just before d the curve is 1 - 2^-10*... short of b + c; at d it is
	// exactly b + c, as in the source.
	near(t, "t = 0.999d", EaseOutExpo(0.999, 0, 1, 1), 1-float32(math.Pow(2, -9.99)), 1e-6)
	if got := EaseOutExpo(1, 0, 1, 1); got != 1 {
		t.Errorf("t = d: got %v, want 1", got)
	}
}

func TestEaseDegenerateTime(t *testing.T) {
	nan := float32(math.NaN())
	for e := Easing(0); e < numEasings; e++ {
		// A negative time (never produced by Step) gives the start value
		// rather than an overflow of EaseOutExpo.
		if got := Ease(e, -1e30, 1, 2, 2); got != 1 {
			t.Errorf("%v: t = -1e30 gave %v, want 1", e, got)
		}
		if got := Ease(e, nan, 1, 2, 2); got != 1 {
			t.Errorf("%v: t = NaN gave %v, want 1", e, got)
		}
		if got := Ease(e, 1, 1, 2, nan); got != 3 {
			t.Errorf("%v: d = NaN gave %v, want 3", e, got)
		}
		if got := Ease(e, 1, 1, 2, -1); got != 3 {
			t.Errorf("%v: d = -1 gave %v, want 3", e, got)
		}
		// Tiny duration, t just below it.
		if got := Ease(e, 1e-39, 1, 2, 2e-39); !(got >= 1 && got <= 3) {
			t.Errorf("%v: denormal duration gave %v", e, got)
		}
	}
	// An unknown easing behaves as InOutQuad (the source's else branch).
	near(t, "unknown easing", Ease(Easing(200), 0.5, 1, 2, 2), 1.25, 1e-6)
}

// Every curve runs monotonically from b to b + c.
func TestEasingsMonotone(t *testing.T) {
	for e := Easing(0); e < numEasings; e++ {
		prev := float32(0)
		for i := 0; i <= 1000; i++ {
			v := Ease(e, float32(i)/1000, 0, 1, 1)
			if v < prev-1e-7 || v > 1 {
				t.Fatalf("%v: value %v at t = %v after %v", e, v, float32(i)/1000, prev)
			}
			prev = v
		}
	}
}

func TestSinQuarterTurnMatchesMath(t *testing.T) {
	for i := 0; i <= 10000; i++ {
		x := float32(i) / 10000
		want := math.Sin(float64(x) * math.Pi / 2)
		if got := sinQuarterTurn(x); math.Abs(float64(got)-want) > 1.2e-7 {
			t.Fatalf("sinQuarterTurn(%v) = %v, want %v", x, got, want)
		}
	}
}
