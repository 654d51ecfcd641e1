package ik

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/mathx"
)

// The per-limb solver works on scalars: helpers small enough to inline
// (their arguments are plain float32s, which the inliner counts cheaper
// than struct fields), so that quaternions stay in registers instead of
// going through mgl32 values and calls.

// sqrt32 is the float32 square root (one SQRTSS).
func sqrt32(x float32) float32 { return float32(math.Sqrt(float64(x))) }

// quat is a quaternion in scalars, W first.
type quat struct{ w, x, y, z float32 }

func (q quat) mgl() mgl32.Quat { return mgl32.Quat{W: q.w, V: mgl32.Vec3{q.x, q.y, q.z}} }

// qmul is the Hamilton product a b (apply b, then a).
func qmul(aw, ax, ay, az, bw, bx, by, bz float32) quat {
	return quat{
		aw*bw - ax*bx - ay*by - az*bz,
		aw*bx + ax*bw + ay*bz - az*by,
		aw*by + ay*bw + az*bx - ax*bz,
		aw*bz + az*bw + ax*by - ay*bx,
	}
}

// rotate returns v rotated by the unit quaternion (w, x, y, z).
func rotate(w, x, y, z, v0, v1, v2 float32) (float32, float32, float32) {
	// t = 2 (q.V × v); v' = v + w t + q.V × t
	t0, t1, t2 := 2*(y*v2-z*v1), 2*(z*v0-x*v2), 2*(x*v1-y*v0)
	return v0 + w*t0 + y*t2 - z*t1, v1 + w*t1 + z*t0 - x*t2, v2 + w*t2 + x*t1 - y*t0
}

// asQuat returns q in scalars.
func asQuat(q *mgl32.Quat) quat { return quat{q.W, q.V[0], q.V[1], q.V[2]} }

// len2 is the squared length of q.
func (q quat) len2() float32 { return q.w*q.w + q.x*q.x + q.y*q.y + q.z*q.z }

// nearUnit reports whether the squared length l2 of a rotation is within
// rounding of 1, so that unitOr would return it as it is.
func nearUnit(l2 float32) bool { return l2 > 1-1e-5 && l2 < 1+1e-5 }

// unitQ is unitOr in scalars. Callers test nearUnit first, inline: pose
// rotations are unit already.
func unitQ(q *mgl32.Quat) quat {
	w, x, y, z := q.W, q.V[0], q.V[1], q.V[2]
	if nearUnit(w*w + x*x + y*y + z*z) {
		return quat{w, x, y, z}
	}
	n := unitOr(*q)
	return quat{n.W, n.V[0], n.V[1], n.V[2]}
}

// normQ normalises q, or returns the identity when it is (nearly) zero or
// not finite (mathx.NormalizeQuat).
func normQ(w, x, y, z float32) quat {
	l2 := w*w + x*x + y*y + z*z
	if !(l2 > mathx.Epsilon) || !(l2 <= math.MaxFloat32) {
		return quat{w: 1}
	}
	k := 1 / sqrt32(l2)
	return quat{w * k, x * k, y * k, z * k}
}

// nlerpIdent blends the identity toward q by t along the shorter arc
// (mathx.Nlerp(identity, q, t)).
func nlerpIdent(q quat, t float32) quat {
	if q.w < 0 {
		q = quat{-q.w, -q.x, -q.y, -q.z}
	}
	return normQ(1+(q.w-1)*t, q.x*t, q.y*t, q.z*t)
}

// fromTo is mathx.FromToRotation with a float32 fast path: (|v||u| + v·u,
// v×u) normalised. Near opposite directions, or for a tiny or huge
// vector, the robust float64 one.
func fromTo(v0, v1, v2, u0, u1, u2 float32) quat {
	la2, lb2 := v0*v0+v1*v1+v2*v2, u0*u0+u1*u1+u2*u2
	if m2 := la2 * lb2; la2 > 1e-12 && lb2 > 1e-12 && m2 < 1e30 {
		m := sqrt32(m2)
		if hw := m + v0*u0 + v1*u1 + v2*u2; hw > 1e-3*m {
			c0, c1, c2 := v1*u2-v2*u1, v2*u0-v0*u2, v0*u1-v1*u0
			k := 1 / sqrt32(hw*hw+c0*c0+c1*c1+c2*c2)
			return quat{hw * k, c0 * k, c1 * k, c2 * k}
		}
	}
	r := mathx.FromToRotation(mgl32.Vec3{v0, v1, v2}, mgl32.Vec3{u0, u1, u2})
	return quat{r.W, r.V[0], r.V[1], r.V[2]}
}
