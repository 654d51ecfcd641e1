package ik

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/internal/mathx"
)

// TwoBoneSettings configures one limb. The defaults named below are
// DefaultTwoBoneSettings'.
type TwoBoneSettings struct {
	// MidAxis is the middle joint's bend (hinge) axis in its local space.
	// It is only consulted when the limb is straight and no hint gives a
	// bend plane. Must be finite and non-zero; any length. Default +Z.
	MidAxis mgl32.Vec3

	// Soften is the fraction of the chain length (upper plus lower bone)
	// from which the end starts to fall behind a far target, easing the
	// lock into full extension. 1, the default, disables softening.
	// Finite; values outside 0..1 are clamped.
	Soften float32

	// Weight blends the correction in: 0 leaves the pose untouched, 1
	// (the default) applies it fully. Finite; values outside 0..1 are
	// clamped.
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
//
// It works in float32 scalars without trigonometry: the middle joint's
// bend comes from the half-angle cosines and sines of the current and the
// wanted bend (law of cosines in factored form), the aim and the hint turn
// from half-angle constructions.
func SolveTwoBone(dst *TwoBoneResult, s *TwoBoneSettings, in *TwoBoneInput) {
	upperRot, midRot, endRot := asQuat(&in.UpperRot), asQuat(&in.MiddleRot), asQuat(&in.EndRot)
	if !nearUnit(upperRot.len2()) || !nearUnit(midRot.len2()) || !nearUnit(endRot.len2()) {
		upperRot, midRot, endRot = unitQ(&in.UpperRot), unitQ(&in.MiddleRot), unitQ(&in.EndRot)
	}
	a, b, c := in.UpperPos, in.MiddlePos, in.EndPos
	ab0, ab1, ab2 := b[0]-a[0], b[1]-a[1], b[2]-a[2]
	bc0, bc1, bc2 := c[0]-b[0], c[1]-b[1], c[2]-b[2]
	lab, lbc := sqrt32(ab0*ab0+ab1*ab1+ab2*ab2), sqrt32(bc0*bc0+bc1*bc1+bc2*bc2)
	chain := lab + lbc
	at0, at1, at2 := in.Target[0]-a[0], in.Target[1]-a[1], in.Target[2]-a[2]
	lat2 := at0*at0 + at1*at1 + at2*at2
	lat := sqrt32(lat2)
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
	bend := quat{w: 1}
	if lab > 1e-6 && lbc > 1e-6 {
		bend = bendRotation(s, in, ab0, ab1, ab2, bc0, bc1, bc2, lab, lbc, dist, minReach, chain, midRot)
	}
	// The bent end relative to the upper joint.
	e0, e1, e2 := rotate(bend.w, bend.x, bend.y, bend.z, bc0, bc1, bc2)
	e0, e1, e2 = ab0+e0, ab1+e1, ab2+e2

	// 3. Aim the end at the target. A target at the upper joint has no
	// direction: fromTo gives the identity.
	aim := fromTo(e0, e1, e2, at0, at1, at2)

	// 4. Turn about the upper–target line toward the hint.
	if in.UseHint && lat2 > mathx.Epsilon && lat2 <= math.MaxFloat32 {
		aim = hintTurn(aim, in, ab0, ab1, ab2, at0, at1, at2, lat2, chain)
	}

	// 5. Weight the world-space corrections and apply them.
	upperDelta := aim
	midDelta := qmul(aim.w, aim.x, aim.y, aim.z, bend.w, bend.x, bend.y, bend.z)
	if w < 1 {
		upperDelta = nlerpIdent(upperDelta, w)
		midDelta = nlerpIdent(midDelta, w)
	}
	u, m := upperDelta, midDelta
	dst.UpperRot = qmul(u.w, u.x, u.y, u.z, upperRot.w, upperRot.x, upperRot.y, upperRot.z).mgl()
	dst.MiddleRot = qmul(m.w, m.x, m.y, m.z, midRot.w, midRot.x, midRot.y, midRot.z).mgl()
	m0, m1, m2 := rotate(u.w, u.x, u.y, u.z, ab0, ab1, ab2)
	mid := mgl32.Vec3{a[0] + m0, a[1] + m1, a[2] + m2}
	dst.MiddlePos = mid
	l0, l1, l2 := rotate(m.w, m.x, m.y, m.z, bc0, bc1, bc2)
	dst.EndPos = mgl32.Vec3{mid[0] + l0, mid[1] + l1, mid[2] + l2}
	dst.EndRot = qmul(m.w, m.x, m.y, m.z, endRot.w, endRot.x, endRot.y, endRot.z).mgl()
	if in.UseTargetRot {
		dst.EndRot = mathx.Nlerp(dst.EndRot, unitOr(in.TargetRot), w)
	}
}

// bendRotation returns the middle joint's hinge turn that brings the end
// to dist from the upper joint: about the bend plane's normal n, by the
// wanted bend angle (0 straight, pi folded) minus the current one. Both
// angles are kept as half-angle cosines and sines, so the turn's
// quaternion (cos, sin n) of their half difference needs square roots
// only.
func bendRotation(s *TwoBoneSettings, in *TwoBoneInput, ab0, ab1, ab2, bc0, bc1, bc2, lab, lbc, dist, minReach, chain float32, midRot quat) quat {
	// The bend plane's normal ab × bc; its length and ab·bc give the
	// current angle.
	n0, n1, n2 := ab1*bc2-ab2*bc1, ab2*bc0-ab0*bc2, ab0*bc1-ab1*bc0
	y2 := n0*n0 + n1*n1 + n2*n2
	y := sqrt32(y2)
	x := ab0*bc0 + ab1*bc1 + ab2*bc2
	// Relative threshold: sin of the bend angle above about 1e-4.
	if y > lab*lbc*1e-4 {
		if y2 > mathx.Epsilon && y2 <= math.MaxFloat32 {
			k := 1 / y
			n0, n1, n2 = n0*k, n1*k, n2*k
		} else {
			n0, n1, n2 = 0, 0, 1
		}
	} else if h, ok := hintPlaneNormal(in, bc0, bc1, bc2, lbc); ok {
		n0, n1, n2 = h[0], h[1], h[2]
	} else {
		n := bendNormalDegenerate(mgl32.Vec3{bc0, bc1, bc2}, lbc, midRot.mgl(), s.MidAxis)
		n0, n1, n2 = n[0], n[1], n[2]
	}
	// Current half angle: (1 + cos, sin) and (sin, 1 - cos) both point
	// along (cos, sin) of the half angle; the first is accurate for angles
	// up to a right angle, the second beyond.
	r := sqrt32(x*x + y2)
	cn, sn := r+x, y
	if x < 0 {
		cn, sn = y, r-x
	}
	if l2 := cn*cn + sn*sn; l2 > 0 {
		k := 1 / sqrt32(l2)
		cn, sn = cn*k, sn*k
	} else {
		cn, sn = 1, 0
	}
	// Wanted half angle, pi/2 minus half the inner angle: cos² ∝
	// 1 - cosInner ∝ d² - (l1-l2)², sin² ∝ 1 + cosInner ∝ (l1+l2)² - d²,
	// factored so that neither loses precision near its zero. dist lies in
	// [minReach, chain], so neither is negative.
	p := (dist - minReach) * (dist + minReach)
	q := (chain - dist) * (chain + dist)
	cw, sw := float32(1), float32(0)
	if t := p + q; t > 0 {
		cw, sw = sqrt32(p/t), sqrt32(q/t)
	}
	hc, hs := cw*cn+sw*sn, sw*cn-cw*sn
	return quat{hc, hs * n0, hs * n1, hs * n2}
}

// hintTurn turns aim about the upper–target line at so that the middle
// joint lies on the hint's side (step 4). A middle joint almost on the
// line (nearly straight limb) has no reliable side; turning it would spin
// the limb, so aim is returned as it is.
func hintTurn(aim quat, in *TwoBoneInput, ab0, ab1, ab2, at0, at1, at2, lat2, chain float32) quat {
	kl := 1 / sqrt32(lat2)
	k0, k1, k2 := at0*kl, at1*kl, at2*kl
	m0, m1, m2 := rotate(aim.w, aim.x, aim.y, aim.z, ab0, ab1, ab2)
	md := m0*k0 + m1*k1 + m2*k2
	m0, m1, m2 = m0-k0*md, m1-k1*md, m2-k2*md
	a := in.UpperPos
	h0, h1, h2 := in.Hint[0]-a[0], in.Hint[1]-a[1], in.Hint[2]-a[2]
	hd := h0*k0 + h1*k1 + h2*k2
	h0, h1, h2 = h0-k0*hd, h1-k1*hd, h2-k2*hd
	hl2 := h0*h0 + h1*h1 + h2*h2
	if !(hl2 > mathx.Epsilon) || !(hl2 <= math.MaxFloat32) {
		return aim
	}
	ml := sqrt32(m0*m0 + m1*m1 + m2*m2)
	if !(ml > 1e-3*chain) {
		return aim
	}
	// Both unit and perpendicular to k: the twist about k from m to h is
	// (1 + cos, sin k) normalised; a half turn is (0, k).
	mk, hk := 1/ml, 1/sqrt32(hl2)
	m0, m1, m2 = m0*mk, m1*mk, m2*mk
	h0, h1, h2 = h0*hk, h1*hk, h2*hk
	cs := m0*h0 + m1*h1 + m2*h2
	sn := (m1*h2-m2*h1)*k0 + (m2*h0-m0*h2)*k1 + (m0*h1-m1*h0)*k2
	tw := 1 + cs
	var twist quat
	if tw < 1e-6 && sn < 1e-3 && sn > -1e-3 {
		twist = quat{0, k0, k1, k2}
	} else {
		twist = normQ(tw, sn*k0, sn*k1, sn*k2)
	}
	return qmul(twist.w, twist.x, twist.y, twist.z, aim.w, aim.x, aim.y, aim.z)
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

// hintPlaneNormal returns, for a straight or folded limb (the current
// bend plane undefined), the unit normal of the plane through the hint and
// the lower bone bc: bending about it moves the middle joint toward the
// hint. ok is false without a hint or for a hint on the limb's line.
func hintPlaneNormal(in *TwoBoneInput, bc0, bc1, bc2, lbc float32) (n mgl32.Vec3, ok bool) {
	if !in.UseHint {
		return n, false
	}
	k := 1 / lbc
	d0, d1, d2 := bc0*k, bc1*k, bc2*k
	a := in.UpperPos
	h0, h1, h2 := in.Hint[0]-a[0], in.Hint[1]-a[1], in.Hint[2]-a[2]
	c0, c1, c2 := h1*d2-h2*d1, h2*d0-h0*d2, h0*d1-h1*d0
	c2l := c0*c0 + c1*c1 + c2*c2
	if !(sqrt32(c2l) > 1e-4*sqrt32(h0*h0+h1*h1+h2*h2)) {
		return n, false
	}
	if !(c2l > mathx.Epsilon) || !(c2l <= math.MaxFloat32) {
		return mgl32.Vec3{0, 0, 1}, true
	}
	k = 1 / sqrt32(c2l)
	return mgl32.Vec3{c0 * k, c1 * k, c2 * k}, true
}

// bendNormalDegenerate returns the unit axis a straight or folded limb
// without a usable hint bends about: the middle joint's axis made
// perpendicular to the lower bone, or any axis perpendicular to it.
func bendNormalDegenerate(bc mgl32.Vec3, lbc float32, midRot mgl32.Quat, midAxis mgl32.Vec3) mgl32.Vec3 {
	dir := bc.Mul(1 / lbc)
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
	p, w := asQuat(&parentWorldRot), asQuat(&worldRot)
	if !nearUnit(p.len2()) || !nearUnit(w.len2()) {
		p, w = unitQ(&parentWorldRot), unitQ(&worldRot)
	}
	l := qmul(p.w, -p.x, -p.y, -p.z, w.w, w.x, w.y, w.z)
	if !nearUnit(l.len2()) {
		return unitOr(l.mgl())
	}
	return l.mgl()
}
