package ik

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/internal/mathx"
)

// TwoBoneSettings configures one limb.
type TwoBoneSettings struct {
	// MidAxis is the middle joint's bend (hinge) axis in its local space.
	// It is only consulted when the limb is straight and no hint gives a
	// bend plane. Must be finite and non-zero.
	MidAxis mgl32.Vec3

	// Soften is the fraction of the chain length from which the end starts
	// to fall behind a far target, easing the lock into full extension.
	// 1 disables softening. Values outside 0..1 are clamped.
	Soften float32

	// Weight blends the correction in: 0 leaves the pose untouched, 1
	// applies it fully. Values outside 0..1 are clamped.
	Weight float32
}

// DefaultTwoBoneSettings returns a +Z middle joint axis, no softening and
// full weight.
func DefaultTwoBoneSettings() TwoBoneSettings {
	return TwoBoneSettings{MidAxis: mgl32.Vec3{0, 0, 1}, Soften: 1, Weight: 1}
}

// Validate reports the first invalid field as a *check.FieldError. Soften
// and Weight outside 0..1 are not errors: the solver clamps them, as
// ozz-animation and Unity's Animation Rigging do.
func (s *TwoBoneSettings) Validate() error {
	const typ = "TwoBoneSettings"
	if err := check.FiniteVec3(typ, "MidAxis", s.MidAxis); err != nil {
		return err
	}
	if _, ok := mathx.SafeNormalize(s.MidAxis); !ok {
		return check.Errorf(typ, "MidAxis", s.MidAxis, "must not be zero")
	}
	if err := check.Finite(typ, "Soften", s.Soften); err != nil {
		return err
	}
	return check.Finite(typ, "Weight", s.Weight)
}

// TwoBoneInput is one limb's pose in world space and its goal.
type TwoBoneInput struct {
	// World positions and rotations of the upper, middle and end joints.
	UpperPos, MiddlePos, EndPos mgl32.Vec3
	UpperRot, MiddleRot, EndRot mgl32.Quat

	// Target is where the end joint should go.
	Target mgl32.Vec3
	// TargetRot is the end joint's world rotation to take when
	// UseTargetRot is set; otherwise the end keeps its local rotation.
	TargetRot    mgl32.Quat
	UseTargetRot bool

	// Hint is a world position the middle joint bends toward (the pole)
	// when UseHint is set; otherwise the current bend plane is kept.
	Hint    mgl32.Vec3
	UseHint bool
}

// TwoBoneResult is the solved limb.
type TwoBoneResult struct {
	// New world rotations. EndRot is the inherited rotation (local
	// unchanged) unless a target rotation was used.
	UpperRot, MiddleRot, EndRot mgl32.Quat
	// New world positions of the middle and end joints.
	MiddlePos, EndPos mgl32.Vec3
	// Reached reports whether the end lies on the target: the target is
	// within the limb's reach and the soft zone, and the weight is 1.
	Reached bool
}

// reachTol is the relative slack (of the chain length) in Reached.
const reachTol = 1e-5

// SolveTwoBone solves the limb in and writes the result to dst. See the
// package documentation for the method and the degenerate cases.
func SolveTwoBone(dst *TwoBoneResult, s *TwoBoneSettings, in *TwoBoneInput) {
	upperRot := unitOr(in.UpperRot)
	midRot := unitOr(in.MiddleRot)
	endRot := unitOr(in.EndRot)
	a, b, c := in.UpperPos, in.MiddlePos, in.EndPos
	ab, bc := b.Sub(a), c.Sub(b)
	lab, lbc := mathx.Len(ab), mathx.Len(bc)
	chain := lab + lbc
	at := in.Target.Sub(a)
	lat := mathx.Len(at)
	w := mathx.Clamp01(s.Weight)

	// 1. Soften and clamp the distance the end will be from the upper joint.
	soft := mathx.Clamp01(s.Soften)
	if !mathx.IsFinite(s.Soften) {
		soft = 1
	}
	da := chain * soft
	dist := softDistance(lat, da, chain-da)
	minReach := lab - lbc
	if minReach < 0 {
		minReach = -minReach
	}
	tol := reachTol*chain + 1e-7
	dst.Reached = w >= 1 && lat <= da+tol && lat >= minReach-tol
	dist = mathx.Clamp(dist, minReach, chain)

	// 2. Bend the middle joint as a hinge about the bend plane's normal.
	bend := mgl32.QuatIdent()
	if lab > 1e-6 && lbc > 1e-6 {
		n := bendNormal(ab, bc, lbc, midRot, s.MidAxis, a, in.Hint, in.UseHint)
		// Bend angle: 0 straight, pi fully folded.
		now := math.Atan2(float64(mathx.Len(mathx.Cross(ab, bc))), float64(mathx.Dot(ab, bc)))
		l1, l2, d := float64(lab), float64(lbc), float64(dist)
		cosInner := (l1*l1 + l2*l2 - d*d) / (2 * l1 * l2)
		want := math.Pi - math.Acos(math.Max(-1, math.Min(1, cosInner)))
		bend = axisAngle(n, want-now)
	}
	bentEnd := b.Add(mathx.Rotate(bend, bc))

	// 3. Aim the end at the target. A target at the upper joint has no
	// direction: FromToRotation gives the identity.
	aim := mathx.FromToRotation(bentEnd.Sub(a), at)

	// 4. Turn about the upper–target line toward the hint.
	if in.UseHint {
		if k, ok := mathx.SafeNormalize(at); ok {
			mid := mathx.Rotate(aim, ab)
			midPerp := mid.Sub(k.Mul(mathx.Dot(mid, k)))
			h := in.Hint.Sub(a)
			hintPerp, ok := mathx.SafeNormalize(h.Sub(k.Mul(mathx.Dot(h, k))))
			// A middle joint almost on the line (nearly straight limb) has
			// no reliable side; turning it would spin the limb.
			if l := mathx.Len(midPerp); ok && l > 1e-3*chain {
				aim = mathx.Mul(twistAbout(k, midPerp.Mul(1/l), hintPerp), aim)
			}
		}
	}

	// 5. Weight the world-space corrections and apply them.
	upperDelta := aim
	midDelta := mathx.Mul(aim, bend)
	if w < 1 {
		id := mgl32.QuatIdent()
		upperDelta = mathx.Nlerp(id, upperDelta, w)
		midDelta = mathx.Nlerp(id, midDelta, w)
	}
	dst.UpperRot = mathx.Mul(upperDelta, upperRot)
	dst.MiddleRot = mathx.Mul(midDelta, midRot)
	dst.MiddlePos = a.Add(mathx.Rotate(upperDelta, ab))
	dst.EndPos = dst.MiddlePos.Add(mathx.Rotate(midDelta, bc))
	dst.EndRot = mathx.Mul(midDelta, endRot)
	if in.UseTargetRot {
		dst.EndRot = mathx.Nlerp(dst.EndRot, unitOr(in.TargetRot), w)
	}
}

// softDistance eases a target distance lat beyond da toward da+ds with
// 1 - 3⁴/(α+3)⁴, whose slope is 1 where softening starts and which never
// exceeds the chain length (ozz-animation's curve).
func softDistance(lat, da, ds float32) float32 {
	if !(lat > da) || !(ds > 0) {
		return lat
	}
	op := 3 + (lat-da)/ds
	op2 := op * op
	return da + ds - ds*81/(op2*op2)
}

// bendNormal returns the unit axis the middle joint bends about: the
// current bend plane's normal, or for a straight or folded limb the normal
// of the plane through the hint, the middle joint's axis, or any axis
// perpendicular to the lower bone, in that order. Bending about the hint
// plane's normal moves the middle joint toward the hint.
func bendNormal(ab, bc mgl32.Vec3, lbc float32, midRot mgl32.Quat, midAxis, a, hint mgl32.Vec3, useHint bool) mgl32.Vec3 {
	// Relative threshold: sin of the bend angle above about 1e-4.
	scale := mathx.Len(ab) * lbc * 1e-4
	if n := mathx.Cross(ab, bc); mathx.Len(n) > scale {
		return mathx.NormalizeOr(n, mgl32.Vec3{0, 0, 1})
	}
	dir := bc.Mul(1 / lbc)
	if useHint {
		if n := mathx.Cross(hint.Sub(a), dir); mathx.Len(n) > 1e-4*mathx.Len(hint.Sub(a)) {
			return mathx.NormalizeOr(n, mgl32.Vec3{0, 0, 1})
		}
	}
	m := mathx.Rotate(midRot, midAxis)
	if n, ok := mathx.SafeNormalize(m.Sub(dir.Mul(mathx.Dot(m, dir)))); ok {
		return n
	}
	return mathx.AnyPerpendicular(dir)
}

// LocalRotation returns the local rotation that gives a bone the world
// rotation worldRot under a parent with world rotation parentWorldRot.
// Convert parents first: a child's parent world rotation is the parent's new
// world rotation.
func LocalRotation(parentWorldRot, worldRot mgl32.Quat) mgl32.Quat {
	return unitOr(mathx.Mul(mathx.Conjugate(unitOr(parentWorldRot)), unitOr(worldRot)))
}
