package mathx

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// Epsilon is the squared length below which a vector counts as zero.
const Epsilon = 1e-12

// IsFinite reports whether f is neither NaN nor ±Inf.
func IsFinite(f float32) bool {
	// f-f is 0 for finite f and NaN for NaN or ±Inf.
	return f-f == 0
}

// Vec3Finite reports whether all components of v are finite.
func Vec3Finite(v mgl32.Vec3) bool {
	return IsFinite(v[0]) && IsFinite(v[1]) && IsFinite(v[2])
}

// Vec3sFinite reports whether every vector of vs is finite: x*0 is 0 for
// a finite x and NaN otherwise, and a NaN anywhere makes its sum NaN. One
// sum per component, so that the adds do not wait on each other.
func Vec3sFinite(vs []mgl32.Vec3) bool {
	var s0, s1, s2 float32
	for _, v := range vs {
		s0 += float32(v[0] * 0)
		s1 += float32(v[1] * 0)
		s2 += float32(v[2] * 0)
	}
	return s0+s1+s2 == 0
}

// QuatFinite reports whether all components of q are finite.
func QuatFinite(q mgl32.Quat) bool {
	return IsFinite(q.W) && Vec3Finite(q.V)
}

// Clamp returns v limited to [lo, hi]; NaN maps to lo.
func Clamp(v, lo, hi float32) float32 {
	if v >= lo {
		if v <= hi {
			return v
		}
		return hi
	}
	return lo
}

// Clamp01 returns v limited to [0, 1]; NaN maps to 0.
func Clamp01(v float32) float32 { return Clamp(v, 0, 1) }

// Lerp interpolates linearly from a to b by t.
func Lerp(a, b, t float32) float32 { return a + float32((b-a)*t) }

// LerpVec3 interpolates linearly from a to b by t.
func LerpVec3(a, b mgl32.Vec3, t float32) mgl32.Vec3 {
	return mgl32.Vec3{a[0] + float32((b[0]-a[0])*t), a[1] + float32((b[1]-a[1])*t), a[2] + float32((b[2]-a[2])*t)}
}

// Dot returns a·b.
func Dot(a, b mgl32.Vec3) float32 {
	return float32(a[0]*b[0]) + float32(a[1]*b[1]) + float32(a[2]*b[2])
}

// Cross returns a×b.
func Cross(a, b mgl32.Vec3) mgl32.Vec3 {
	return mgl32.Vec3{
		float32(a[1]*b[2]) - float32(a[2]*b[1]),
		float32(a[2]*b[0]) - float32(a[0]*b[2]),
		float32(a[0]*b[1]) - float32(a[1]*b[0]),
	}
}

// Len returns |v|.
func Len(v mgl32.Vec3) float32 { return float32(math.Sqrt(float64(Dot(v, v)))) }

// SafeNormalize returns v/|v| and true, or the zero vector and false when v is
// (nearly) zero or not finite.
func SafeNormalize(v mgl32.Vec3) (mgl32.Vec3, bool) {
	l2 := Dot(v, v)
	if !(l2 > Epsilon) || !IsFinite(l2) {
		return mgl32.Vec3{}, false
	}
	inv := float32(1 / math.Sqrt(float64(l2)))
	return mgl32.Vec3{v[0] * inv, v[1] * inv, v[2] * inv}, true
}

// NormalizeOr returns v/|v|, or fallback when v cannot be normalised.
func NormalizeOr(v, fallback mgl32.Vec3) mgl32.Vec3 {
	if n, ok := SafeNormalize(v); ok {
		return n
	}
	return fallback
}

// NormalizeQuat returns q/|q| and true, or the identity and false when q is
// (nearly) zero or not finite.
func NormalizeQuat(q mgl32.Quat) (mgl32.Quat, bool) {
	l2 := float32(q.W*q.W) + Dot(q.V, q.V)
	if !(l2 > Epsilon) || !IsFinite(l2) {
		return mgl32.QuatIdent(), false
	}
	inv := float32(1 / math.Sqrt(float64(l2)))
	return mgl32.Quat{W: q.W * inv, V: mgl32.Vec3{q.V[0] * inv, q.V[1] * inv, q.V[2] * inv}}, true
}

// Rotate returns v rotated by the unit quaternion q, written out so that the
// compiler inlines it in kernels.
func Rotate(q mgl32.Quat, v mgl32.Vec3) mgl32.Vec3 {
	// t = 2 (q.V × v); v' = v + w t + q.V × t
	tx := 2 * (float32(q.V[1]*v[2]) - float32(q.V[2]*v[1]))
	ty := 2 * (float32(q.V[2]*v[0]) - float32(q.V[0]*v[2]))
	tz := 2 * (float32(q.V[0]*v[1]) - float32(q.V[1]*v[0]))
	return mgl32.Vec3{
		v[0] + float32(q.W*tx) + (float32(q.V[1]*tz) - float32(q.V[2]*ty)),
		v[1] + float32(q.W*ty) + (float32(q.V[2]*tx) - float32(q.V[0]*tz)),
		v[2] + float32(q.W*tz) + (float32(q.V[0]*ty) - float32(q.V[1]*tx)),
	}
}

// InvRotate returns v rotated by the inverse of the unit quaternion q.
func InvRotate(q mgl32.Quat, v mgl32.Vec3) mgl32.Vec3 {
	return Rotate(mgl32.Quat{W: q.W, V: mgl32.Vec3{-q.V[0], -q.V[1], -q.V[2]}}, v)
}

// Mul returns the Hamilton product a*b (apply b, then a).
func Mul(a, b mgl32.Quat) mgl32.Quat {
	return mgl32.Quat{
		W: float32(a.W*b.W) - float32(a.V[0]*b.V[0]) - float32(a.V[1]*b.V[1]) - float32(a.V[2]*b.V[2]),
		V: mgl32.Vec3{
			float32(a.W*b.V[0]) + float32(a.V[0]*b.W) + float32(a.V[1]*b.V[2]) - float32(a.V[2]*b.V[1]),
			float32(a.W*b.V[1]) + float32(a.V[1]*b.W) + float32(a.V[2]*b.V[0]) - float32(a.V[0]*b.V[2]),
			float32(a.W*b.V[2]) + float32(a.V[2]*b.W) + float32(a.V[0]*b.V[1]) - float32(a.V[1]*b.V[0]),
		},
	}
}

// Conjugate returns the inverse of the unit quaternion q.
func Conjugate(q mgl32.Quat) mgl32.Quat {
	return mgl32.Quat{W: q.W, V: mgl32.Vec3{-q.V[0], -q.V[1], -q.V[2]}}
}

// AnyPerpendicular returns a unit vector perpendicular to the unit vector v,
// built from the world axis least aligned with v.
func AnyPerpendicular(v mgl32.Vec3) mgl32.Vec3 {
	ax, ay, az := abs(v[0]), abs(v[1]), abs(v[2])
	var other mgl32.Vec3
	switch {
	case ax <= ay && ax <= az:
		other = mgl32.Vec3{1, 0, 0}
	case ay <= az:
		other = mgl32.Vec3{0, 1, 0}
	default:
		other = mgl32.Vec3{0, 0, 1}
	}
	return NormalizeOr(Cross(v, other), mgl32.Vec3{1, 0, 0})
}

// FromToRotation returns the shortest rotation that turns the direction of
// from onto the direction of to (Unity's Quaternion.FromToRotation). Either
// vector may have any length. A zero or non-finite vector gives the identity;
// opposite vectors give a half turn about an axis perpendicular to from.
func FromToRotation(from, to mgl32.Vec3) mgl32.Quat {
	// float64 inside: for nearly opposite vectors 1+a·b and a×b are tiny
	// differences that float32 cannot resolve.
	ax, ay, az := float64(from[0]), float64(from[1]), float64(from[2])
	bx, by, bz := float64(to[0]), float64(to[1]), float64(to[2])
	la := math.Sqrt(float64(ax*ax) + float64(ay*ay) + float64(az*az))
	lb := math.Sqrt(float64(bx*bx) + float64(by*by) + float64(bz*bz))
	if !(la > 1e-6) || !(lb > 1e-6) || math.IsInf(la, 0) || math.IsInf(lb, 0) {
		return mgl32.QuatIdent()
	}
	ax, ay, az = ax/la, ay/la, az/la
	bx, by, bz = bx/lb, by/lb, bz/lb
	d := float64(ax*bx) + float64(ay*by) + float64(az*bz)
	if d < -1+1e-12 {
		return mgl32.Quat{W: 0, V: AnyPerpendicular(mgl32.Vec3{float32(ax), float32(ay), float32(az)})}
	}
	// q = (1 + a·b, a×b) normalised: the half-angle construction.
	w := 1 + d
	cx, cy, cz := float64(ay*bz)-float64(az*by), float64(az*bx)-float64(ax*bz), float64(ax*by)-float64(ay*bx)
	n := math.Sqrt(float64(w*w) + float64(cx*cx) + float64(cy*cy) + float64(cz*cz))
	return mgl32.Quat{W: float32(w / n), V: mgl32.Vec3{float32(cx / n), float32(cy / n), float32(cz / n)}}
}

// Nlerp interpolates from a towards b by t along the shorter arc and
// normalises (hemisphere-corrected normalised lerp).
func Nlerp(a, b mgl32.Quat, t float32) mgl32.Quat {
	if float32(a.W*b.W)+Dot(a.V, b.V) < 0 {
		b = mgl32.Quat{W: -b.W, V: mgl32.Vec3{-b.V[0], -b.V[1], -b.V[2]}}
	}
	q := mgl32.Quat{
		W: a.W + float32((b.W-a.W)*t),
		V: LerpVec3(a.V, b.V, t),
	}
	n, _ := NormalizeQuat(q)
	return n
}

// Slerp interpolates from a towards b by t along the shorter great arc. It
// falls back to Nlerp for nearly equal rotations, where slerp loses precision.
func Slerp(a, b mgl32.Quat, t float32) mgl32.Quat {
	d := float32(a.W*b.W) + Dot(a.V, b.V)
	if d < 0 {
		b = mgl32.Quat{W: -b.W, V: mgl32.Vec3{-b.V[0], -b.V[1], -b.V[2]}}
		d = -d
	}
	if d > 0.9995 {
		return Nlerp(a, b, t)
	}
	theta := math.Acos(float64(d))
	sinTheta := math.Sin(theta)
	wa := float32(math.Sin((1-float64(t))*theta) / sinTheta)
	wb := float32(math.Sin(float64(t)*theta) / sinTheta)
	q := mgl32.Quat{
		W: float32(wa*a.W) + float32(wb*b.W),
		V: mgl32.Vec3{
			float32(wa*a.V[0]) + float32(wb*b.V[0]),
			float32(wa*a.V[1]) + float32(wb*b.V[1]),
			float32(wa*a.V[2]) + float32(wb*b.V[2]),
		},
	}
	n, _ := NormalizeQuat(q)
	return n
}

// AngleBetween returns the rotation angle in radians (0..pi) between two unit
// quaternions.
func AngleBetween(a, b mgl32.Quat) float32 {
	d := abs(float32(a.W*b.W) + Dot(a.V, b.V))
	if d > 1 {
		d = 1
	}
	return float32(2 * math.Acos(float64(d)))
}

func abs(f float32) float32 {
	if f < 0 {
		return -f
	}
	return f
}
