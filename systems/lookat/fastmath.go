package lookat

import "math"

// float32 kernels for the per-frame eye step: minimax polynomials
// (Cephes' atanf, sinf and cosf) accurate to about one float32 ulp, in
// place of the float64 math library calls and their conversions.

const (
	pi32       = float32(math.Pi)
	halfPi32   = float32(math.Pi / 2)
	quarterPi  = float32(math.Pi / 4)
	tan3PiBy8  = float32(2.414213562373095)
	tanPiBy8   = float32(0.4142135623730950)
	atanSlope0 = float32(8.05374449538e-2)
)

// atan32 is the arctangent of x.
func atan32(x float32) float32 {
	sign := float32(1)
	if x < 0 {
		sign, x = -1, -x
	}
	var y float32
	switch {
	case x > tan3PiBy8:
		y, x = halfPi32, -1/x
	case x > tanPiBy8:
		y, x = quarterPi, (x-1)/(x+1)
	}
	z := x * x
	// Horner's rule, each product rounded before its sum (the same bits
	// in every build: Go may fuse a multiply and an add, GOAMD64=v3).
	p := float32(atanSlope0*z) - 1.38776856032e-1
	p = float32(p*z) + 1.99777106478e-1
	p = float32(p*z) - 3.33329491539e-1
	y += float32(p*z*x) + x
	return sign * y
}

// atan2_32 is atan2(y, x) in -pi..pi; (0, 0) gives 0.
func atan2_32(y, x float32) float32 {
	switch {
	case x > 0:
		return atan32(y / x)
	case x < 0:
		if y < 0 {
			return atan32(y/x) - pi32
		}
		return atan32(y/x) + pi32
	case y > 0:
		return halfPi32
	case y < 0:
		return -halfPi32
	}
	return 0
}

// sinPoly and cosPoly hold on |x| <= pi/4.
func sinPoly(x float32) float32 {
	z := x * x
	p := float32(-1.9515295891e-4*z) + 8.3321608736e-3
	p = float32(p*z) - 1.6666654611e-1
	return float32(p*z*x) + x
}

func cosPoly(x float32) float32 {
	z := x * x
	p := float32(2.443315711809948e-5*z) - 1.388731625493765e-3
	p = float32(p*z) + 4.166664568298827e-2
	return float32(p*z*z) - float32(0.5*z) + 1
}

// sincosHalfTurn returns sin and cos of x for |x| <= pi/2 (larger values
// are clamped to ±pi/2).
func sincosHalfTurn(x float32) (s, c float32) {
	ax, sign := x, float32(1)
	if ax < 0 {
		ax, sign = -ax, -1
	}
	if ax <= quarterPi {
		return sinPoly(x), cosPoly(x)
	}
	r := halfPi32 - ax
	if r < 0 {
		r = 0
	}
	return sign * cosPoly(r), sinPoly(r)
}
