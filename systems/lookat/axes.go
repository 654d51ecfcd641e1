package lookat

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/mathx"
)

// minAxisSine is the smallest |forward × up| (of unit axes) accepted: below
// it the up axis cannot fix the roll about forward.
const minAxisSine = 1e-3

const degToRad = math.Pi / 180

// boneAxes returns unit forward, unit up made perpendicular to forward and
// side = up × forward (the direction a positive turn about up swings forward
// to). Degenerate axes fall back to +Z forward, +Y up, so per-frame code
// never sees a zero axis even with unvalidated settings.
func boneAxes(forward, up mgl32.Vec3) (f, u, side mgl32.Vec3) {
	f = mathx.NormalizeOr(forward, mgl32.Vec3{0, 0, 1})
	u0 := mathx.NormalizeOr(up, mgl32.Vec3{0, 1, 0})
	side, ok := mathx.SafeNormalize(mathx.Cross(u0, f))
	if !ok || mathx.Len(mathx.Cross(u0, f)) < minAxisSine {
		u0 = mathx.AnyPerpendicular(f)
		side = mathx.NormalizeOr(mathx.Cross(u0, f), mathx.AnyPerpendicular(f))
	}
	u = mathx.Cross(f, side)
	return f, u, side
}

// validAxes reports why forward/up cannot define a bone frame, or "".
func validAxes(forward, up mgl32.Vec3) (field string, value mgl32.Vec3, reason string) {
	if !mathx.Vec3Finite(forward) {
		return "Forward", forward, "must be finite"
	}
	if !mathx.Vec3Finite(up) {
		return "Up", up, "must be finite"
	}
	f, ok := mathx.SafeNormalize(forward)
	if !ok {
		return "Forward", forward, "must not be zero"
	}
	u, ok := mathx.SafeNormalize(up)
	if !ok {
		return "Up", up, "must not be zero"
	}
	if mathx.Len(mathx.Cross(f, u)) < minAxisSine {
		return "Up", up, "must not be parallel to Forward"
	}
	return "", mgl32.Vec3{}, ""
}

// axisAngle returns the rotation by angle radians about the unit axis n.
func axisAngle(n mgl32.Vec3, angle float32) mgl32.Quat {
	s, c := math.Sincos(float64(angle) / 2)
	fs := float32(s)
	return mgl32.Quat{W: float32(c), V: mgl32.Vec3{n[0] * fs, n[1] * fs, n[2] * fs}}
}

// unitOr normalises q, or returns fallback when q is zero or not finite.
// Pose rotations are unit already, so the square root is skipped when the
// squared length is within rounding of 1.
func unitOr(q, fallback mgl32.Quat) mgl32.Quat {
	l2 := float32(q.W*q.W) + mathx.Dot(q.V, q.V)
	if l2 > 1-1e-5 && l2 < 1+1e-5 {
		return q
	}
	if n, ok := mathx.NormalizeQuat(q); ok {
		return n
	}
	return fallback
}

// quatFromBasis returns the rotation whose matrix has the orthonormal,
// right-handed columns x, y, z.
func quatFromBasis(x, y, z mgl32.Vec3) mgl32.Quat {
	return basisQ(x[0], x[1], x[2], y[0], y[1], y[2], z[0], z[1], z[2]).mgl()
}

// basisQ is quatFromBasis with the columns (x0, x1, x2), (y0, y1, y2),
// (z0, z1, z2) in scalars (Shepperd's method: the largest diagonal term
// picks the branch, so the square root never sees a tiny argument).
func basisQ(x0, x1, x2, y0, y1, y2, z0, z1, z2 float32) quat {
	var q quat
	switch tr := x0 + y1 + z2; {
	case tr > 0:
		s := 2 * sqrt32(tr+1)
		q = quat{s / 4, (y2 - z1) / s, (z0 - x2) / s, (x1 - y0) / s}
	case x0 > y1 && x0 > z2:
		s := 2 * sqrt32(1+x0-y1-z2)
		q = quat{(y2 - z1) / s, s / 4, (y0 + x1) / s, (z0 + x2) / s}
	case y1 > z2:
		s := 2 * sqrt32(1+y1-x0-z2)
		q = quat{(z0 - x2) / s, (y0 + x1) / s, s / 4, (z1 + y2) / s}
	default:
		s := 2 * sqrt32(1+z2-x0-y1)
		q = quat{(x1 - y0) / s, (z0 + x2) / s, (z1 + y2) / s, s / 4}
	}
	if nearUnit(q.dot(q)) {
		return q
	}
	return normQ(q.w, q.x, q.y, q.z)
}
