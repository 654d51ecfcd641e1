package breath

import "math"

// Easing names one of the source's easing curves. Every curve maps the time t
// since the ease began, the start value b, the change in value c and the
// duration d to a value that is b at t = 0 and b + c once t >= d.
type Easing uint8

// The easing curves of the source, in its order. OutSine is the zero
// value because it is the default inhale curve.
const (
	OutSine Easing = iota
	InOutQuad
	OutCubic
	OutQuart
	InOutQuart
	InOutSine
	OutExpo
	numEasings
)

var easingNames = [numEasings]string{
	"OutSine", "InOutQuad", "OutCubic", "OutQuart",
	"InOutQuart", "InOutSine", "OutExpo",
}

func (e Easing) String() string {
	if e < numEasings {
		return easingNames[e]
	}
	return "Easing(invalid)"
}

// Ease evaluates the curve e; an unknown curve evaluates as InOutQuad,
// which is what the source does for any inhale method but OutSine.
func Ease(e Easing, t, b, c, d float32) float32 {
	return b + c*progress(e, t, d)
}

// progress returns the curve e at t normalised to b = 0, c = 1. Every curve
// of the source is linear in b and c, so one progress value serves all
// segments of a character: one sine per frame instead of four.
func progress(e Easing, t, d float32) float32 {
	// t >= d first, as the source does; !(d > 0) also catches d == 0 and a
	// NaN duration, so nothing below divides by zero. t <= 0 gives the start
	// value: every curve is 0 there, and a negative t would make OutExpo
	// overflow.
	if t >= d || !(d > 0) {
		return 1
	}
	if !(t > 0) {
		return 0
	}
	x := t / d // in (0, 1)
	switch e {
	case OutSine:
		return sinQuarterTurn(x)
	case OutCubic:
		x--
		return x*x*x + 1
	case OutQuart:
		x--
		return -(x*x*x*x - 1)
	case InOutQuart:
		x *= 2
		if x < 1 {
			return 0.5 * x * x * x * x
		}
		x -= 2
		return -0.5 * (x*x*x*x - 2)
	case InOutSine:
		return -0.5 * (float32(math.Cos(math.Pi*float64(x))) - 1)
	case OutExpo:
		return float32(-math.Pow(2, -10*float64(x)) + 1)
	default: // InOutQuad
		x *= 2
		if x < 1 {
			return 0.5 * x * x
		}
		x--
		return -0.5 * (x*(x-2) - 1)
	}
}

// sinQuarterTurn returns sin(x*pi/2) for x in [0, 1] from the short series
// (the default inhale runs it every frame; math.Sin costs several times
// more): the sine below pi/4 and the cosine of the rest above it, so that
// the series' argument stays within pi/4. Error below 3e-8.
func sinQuarterTurn(x float32) float32 {
	a := x * (math.Pi / 2)
	if a <= math.Pi/4 {
		s, _ := sinCosSeries(a)
		return s
	}
	_, c := sinCosSeries(math.Pi/2 - a)
	return c
}

// EaseInOutQuad accelerates quadratically to the midpoint, then decelerates
// (the source's exhale curve).
func EaseInOutQuad(t, b, c, d float32) float32 { return Ease(InOutQuad, t, b, c, d) }

// EaseOutCubic decelerates cubically.
func EaseOutCubic(t, b, c, d float32) float32 { return Ease(OutCubic, t, b, c, d) }

// EaseOutQuart decelerates with a quartic.
func EaseOutQuart(t, b, c, d float32) float32 { return Ease(OutQuart, t, b, c, d) }

// EaseInOutQuart accelerates to the midpoint with a quartic, then decelerates.
func EaseInOutQuart(t, b, c, d float32) float32 { return Ease(InOutQuart, t, b, c, d) }

// EaseOutSine decelerates along a quarter sine (the source's default inhale
// curve: a deep breath fills fast, then slows).
func EaseOutSine(t, b, c, d float32) float32 { return Ease(OutSine, t, b, c, d) }

// EaseInOutSine follows half a cosine: slow, fast, slow.
func EaseInOutSine(t, b, c, d float32) float32 { return Ease(InOutSine, t, b, c, d) }

// EaseOutExpo decelerates exponentially. Like the source it jumps the last
// 2^-10 of c when t reaches d.
func EaseOutExpo(t, b, c, d float32) float32 { return Ease(OutExpo, t, b, c, d) }
