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
	l2 := q.W*q.W + mathx.Dot(q.V, q.V)
	if l2 > 1-1e-5 && l2 < 1+1e-5 {
		return q
	}
	if n, ok := mathx.NormalizeQuat(q); ok {
		return n
	}
	return fallback
}

// quatFromBasis returns the rotation whose matrix has the orthonormal,
// right-handed columns x, y, z (Shepperd's method: the largest diagonal
// term picks the branch, so the square root never sees a tiny argument).
func quatFromBasis(x, y, z mgl32.Vec3) mgl32.Quat {
	m00, m11, m22 := x[0], y[1], z[2]
	var q mgl32.Quat
	switch tr := m00 + m11 + m22; {
	case tr > 0:
		s := 2 * float32(math.Sqrt(float64(tr+1)))
		q = mgl32.Quat{W: s / 4, V: mgl32.Vec3{(y[2] - z[1]) / s, (z[0] - x[2]) / s, (x[1] - y[0]) / s}}
	case m00 > m11 && m00 > m22:
		s := 2 * float32(math.Sqrt(float64(1+m00-m11-m22)))
		q = mgl32.Quat{W: (y[2] - z[1]) / s, V: mgl32.Vec3{s / 4, (y[0] + x[1]) / s, (z[0] + x[2]) / s}}
	case m11 > m22:
		s := 2 * float32(math.Sqrt(float64(1+m11-m00-m22)))
		q = mgl32.Quat{W: (z[0] - x[2]) / s, V: mgl32.Vec3{(y[0] + x[1]) / s, s / 4, (z[1] + y[2]) / s}}
	default:
		s := 2 * float32(math.Sqrt(float64(1+m22-m00-m11)))
		q = mgl32.Quat{W: (x[1] - y[0]) / s, V: mgl32.Vec3{(z[0] + x[2]) / s, (z[1] + y[2]) / s, s / 4}}
	}
	return unitOr(q, mgl32.QuatIdent())
}
