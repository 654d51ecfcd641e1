package lookat

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/mathx"
)

// SplitTurn spreads a rotation over several bones: dst[i] receives the
// fraction shares[i] of turn (same axis, angle scaled), and the return value
// is the remaining fraction 1 - sum(shares), clamped to 0..1, for the head.
// Because every share is about the same axis the product of all of them
// (in any order) is turn when the shares sum to at most 1.
//
// Shares are clamped to 0..1 (NaN counts as 0); dst must be at least as long
// as shares (extra entries are left untouched). turn need not be unit
// length; a zero or non-finite turn gives identities.
func SplitTurn(dst []mgl32.Quat, turn mgl32.Quat, shares []float32) mgl32.Quat {
	axis, angle := toAxisAngle(turn)
	used := float32(0)
	for i, sh := range shares {
		if i >= len(dst) {
			break
		}
		sh = mathx.Clamp01(sh)
		if used+sh > 1 {
			sh = 1 - used
		}
		used += sh
		dst[i] = axisAngle(axis, angle*sh)
	}
	return axisAngle(axis, angle*(1-used))
}

// toAxisAngle returns the unit axis and the angle in 0..pi of the shortest
// form of q; the identity (or an invalid q) gives +Y and 0.
func toAxisAngle(q mgl32.Quat) (mgl32.Vec3, float32) {
	q = unitOr(q, mgl32.QuatIdent())
	if q.W < 0 {
		q = mgl32.Quat{W: -q.W, V: mgl32.Vec3{-q.V[0], -q.V[1], -q.V[2]}}
	}
	s := mathx.Len(q.V)
	axis, ok := mathx.SafeNormalize(q.V)
	if !ok {
		return mgl32.Vec3{0, 1, 0}, 0
	}
	// atan2 keeps precision for small angles, where acos(w) does not.
	return axis, float32(2 * math.Atan2(float64(s), float64(q.W)))
}

// ApplyWorldTurn returns the new local rotation of a bone whose world
// rotation parentWorldRot*localRot is turned by the world-space rotation
// turn about the bone's own position. Apply spine shares parents first, each
// with its parent world rotation recomputed after the previous bone.
func ApplyWorldTurn(parentWorldRot, localRot, turn mgl32.Quat) mgl32.Quat {
	p := unitOr(parentWorldRot, mgl32.QuatIdent())
	l := unitOr(localRot, mgl32.QuatIdent())
	t := unitOr(turn, mgl32.QuatIdent())
	// local' = p⁻¹ · turn · p · local
	return unitOr(mathx.Mul(mathx.Conjugate(p), mathx.Mul(t, mathx.Mul(p, l))), l)
}
