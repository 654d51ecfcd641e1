package lookat

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/mathx"
)

// The head and eye steps work on quaternions and vectors in scalars:
// helpers small enough to inline (their arguments are plain float32s, which
// the inliner counts cheaper than struct fields), so that values stay in
// registers instead of going through mgl32 arrays, calls and spills. Each
// computes what the mathx function of the same role does, with the same
// operations in the same order, so the results are the same float32s.

// quat is a quaternion in scalars, W first.
type quat struct{ w, x, y, z float32 }

// vec is a vector in scalars.
type vec struct{ x, y, z float32 }

var identQ = quat{w: 1}

func asQuat(q *mgl32.Quat) quat { return quat{q.W, q.V[0], q.V[1], q.V[2]} }

func (q quat) mgl() mgl32.Quat { return mgl32.Quat{W: q.w, V: mgl32.Vec3{q.x, q.y, q.z}} }

func asVec(v *mgl32.Vec3) vec { return vec{v[0], v[1], v[2]} }

func (v vec) mgl() mgl32.Vec3 { return mgl32.Vec3{v.x, v.y, v.z} }

// sqrt32 is the float32 square root (one SQRTSS).
func sqrt32(x float32) float32 { return float32(math.Sqrt(float64(x))) }

// qmul is the Hamilton product a b (apply b, then a): mathx.Mul.
func qmul(aw, ax, ay, az, bw, bx, by, bz float32) quat {
	return quat{
		float32(aw*bw) - float32(ax*bx) - float32(ay*by) - float32(az*bz),
		float32(aw*bx) + float32(ax*bw) + float32(ay*bz) - float32(az*by),
		float32(aw*by) + float32(ay*bw) + float32(az*bx) - float32(ax*bz),
		float32(aw*bz) + float32(az*bw) + float32(ax*by) - float32(ay*bx),
	}
}

// rotate returns v turned by the unit quaternion (w, x, y, z): mathx.Rotate
// (mathx.InvRotate with x, y, z negated).
func rotate(w, x, y, z, v0, v1, v2 float32) (float32, float32, float32) {
	// t = 2 (q.V × v); v' = v + w t + q.V × t
	t0, t1, t2 := 2*(float32(y*v2)-float32(z*v1)), 2*(float32(z*v0)-float32(x*v2)), 2*(float32(x*v1)-float32(y*v0))
	return v0 + float32(w*t0) + (float32(y*t2) - float32(z*t1)),
		v1 + float32(w*t1) + (float32(z*t0) - float32(x*t2)),
		v2 + float32(w*t2) + (float32(x*t1) - float32(y*t0))
}

func (a quat) dot(b quat) float32 {
	return float32(a.w*b.w) + float32(a.x*b.x) + float32(a.y*b.y) + float32(a.z*b.z)
}

func (a vec) dot(b vec) float32 { return float32(a.x*b.x) + float32(a.y*b.y) + float32(a.z*b.z) }

func (a vec) cross(b vec) vec {
	return vec{float32(a.y*b.z) - float32(a.z*b.y), float32(a.z*b.x) - float32(a.x*b.z), float32(a.x*b.y) - float32(a.y*b.x)}
}

func (a vec) sub(b vec) vec { return vec{a.x - b.x, a.y - b.y, a.z - b.z} }

func (a vec) add(b vec) vec { return vec{a.x + b.x, a.y + b.y, a.z + b.z} }

func (a vec) scale(k float32) vec { return vec{float32(a.x * k), float32(a.y * k), float32(a.z * k)} }

// normalize is mathx.SafeNormalize.
func (a vec) normalize() (vec, bool) {
	l2 := a.dot(a)
	if !(l2 > mathx.Epsilon) || !mathx.IsFinite(l2) {
		return vec{}, false
	}
	inv := float32(1 / math.Sqrt(float64(l2)))
	return vec{a.x * inv, a.y * inv, a.z * inv}, true
}

// nearUnit reports whether the squared length l2 of a rotation is within
// rounding of 1, so that unitOr returns it as it is. Callers test it inline
// and call unitSlow otherwise: pose rotations are unit already.
func nearUnit(l2 float32) bool { return l2 > 1-1e-5 && l2 < 1+1e-5 }

// unitSlow is unitOr for q that is not near unit length.
func unitSlow(q, fallback quat) quat {
	if n, ok := mathx.NormalizeQuat(q.mgl()); ok {
		return asQuat(&n)
	}
	return fallback
}

// normQ is mathx.NormalizeQuat: q made unit, or the identity when it is
// (nearly) zero or not finite.
func normQ(w, x, y, z float32) quat {
	// l2 > Epsilon and finite; NaN fails both tests.
	if l2 := float32(w*w) + float32(x*x) + float32(y*y) + float32(z*z); l2 > mathx.Epsilon && l2 <= math.MaxFloat32 {
		inv := float32(1 / math.Sqrt(float64(l2)))
		return quat{w * inv, x * inv, y * inv, z * inv}
	}
	return identQ
}

// nlerpQ is mathx.Nlerp: a toward b by t along the shorter arc, normalised.
func nlerpQ(a, b quat, t float32) quat {
	if a.dot(b) < 0 {
		b = quat{-b.w, -b.x, -b.y, -b.z}
	}
	return normQ(a.w+float32((b.w-a.w)*t), a.x+float32((b.x-a.x)*t), a.y+float32((b.y-a.y)*t), a.z+float32((b.z-a.z)*t))
}

// slerpQ moves the unit a toward the unit b by the fraction t in 0..1 of
// the shorter great arc, as mathx.Slerp does, in float32: with e the unit
// quaternion in the plane of a and b orthogonal to a, and θ the half angle
// between them, the result is a cos(tθ) + e sin(tθ). θ = atan2(|b - (a·b)a|,
// a·b) and sin, cos by polynomials (fastmath.go), all within a few float32
// ulps, where mathx.Slerp spends acos and three sines in float64. Nearly
// equal rotations take nlerp, as in mathx.Slerp; t <= 0 (or NaN) returns a.
func slerpQ(a, b quat, t float32) quat {
	if !(t > 0) {
		return a
	}
	d := a.dot(b)
	if d < 0 {
		b = quat{-b.w, -b.x, -b.y, -b.z}
		d = -d
	}
	if d > 0.9995 {
		return nlerpQ(a, b, t)
	}
	ew, ex, ey, ez := b.w-float32(d*a.w), b.x-float32(d*a.x), b.y-float32(d*a.y), b.z-float32(d*a.z)
	s := sqrt32(float32(ew*ew) + float32(ex*ex) + float32(ey*ey) + float32(ez*ez)) // sin θ, at least 0.03 here
	// 0 <= d < 1 and s > 0, so θ is in (0, pi/2] and tθ (t <= 1) within
	// the range of sincosHalfTurn.
	sn, cs := sincosHalfTurn(t * atan2_32(s, d))
	k := sn / s
	return normQ(float32(a.w*cs)+float32(ew*k), float32(a.x*cs)+float32(ex*k), float32(a.y*cs)+float32(ey*k), float32(a.z*cs)+float32(ez*k))
}
