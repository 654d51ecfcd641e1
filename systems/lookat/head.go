package lookat

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/internal/mathx"
)

// HeadSettings configures head look-at for one character. The defaults
// named below are DefaultHeadSettings'; the zero value is invalid (its
// axes are zero).
type HeadSettings struct {
	// Forward and Up are the head bone's look and up axes in its local
	// space (the source, and the default: +Z and +Y). They must be finite
	// and need not be unit length but must not be zero or parallel.
	Forward, Up mgl32.Vec3

	// MaxTurnDegrees limits the angle between the look direction and the
	// rest forward (the forward of HeadInput.RestLocalRot: the animated
	// pose in the systems), in degrees, finite and 0 or more (default
	// 60); 180 or more means no limit. Its sine and cosine are worked out
	// once, when the head is prepared.
	MaxTurnDegrees float32

	// Speed is the damping rate in 1/s of the rotation toward the clamped
	// look rotation (each frame covers 1 - exp(-Speed*dt) of the way),
	// finite and >= 0 (default 5); 0 holds the current rotation.
	Speed float32

	// WeightSpeed is the damping rate in 1/s of the blend weight toward the
	// requested weight, as Speed, finite and >= 0 (default 4); 0 holds the
	// current weight.
	WeightSpeed float32
}

// DefaultHeadSettings returns the source's conventions: +Z forward, +Y up,
// a 60 degree cone and moderate speeds.
func DefaultHeadSettings() HeadSettings {
	return HeadSettings{
		Forward:        mgl32.Vec3{0, 0, 1},
		Up:             mgl32.Vec3{0, 1, 0},
		MaxTurnDegrees: 60,
		Speed:          5,
		WeightSpeed:    4,
	}
}

// Validate reports the first invalid field as a *check.FieldError.
func (s *HeadSettings) Validate() error {
	const typ = "HeadSettings"
	if field, v, reason := validAxes(s.Forward, s.Up); field != "" {
		return &check.FieldError{Type: typ, Field: field, Value: v, Reason: reason}
	}
	if err := check.NonNegative(typ, "MaxTurnDegrees", s.MaxTurnDegrees); err != nil {
		return err
	}
	if err := check.NonNegative(typ, "Speed", s.Speed); err != nil {
		return err
	}
	return check.NonNegative(typ, "WeightSpeed", s.WeightSpeed)
}

// weightSnap is how close the smoothed weight must come to the requested
// weight to land on it.
const weightSnap = 1e-5

// Head is validated HeadSettings with the per-frame constants (unit axes,
// the cone's sine and cosine) worked out once. The zero value looks along
// +Z with +Y up, without limit, and never moves (speed 0).
type Head struct {
	settings       HeadSettings
	f, u, side     vec
	basis          quat // rotation with columns side, u, f
	cosMax, sinMax float32
	limited        bool
	prepared       bool // set by NewHead: the axes above are valid
	plainBasis     bool // basis is the identity (+Z forward, +Y up)
}

// NewHead validates s and prepares it for the per-frame kernels.
func NewHead(s HeadSettings) (Head, error) {
	if err := s.Validate(); err != nil {
		return Head{}, err
	}
	h := Head{settings: s, prepared: true}
	f, u, side := boneAxes(s.Forward, s.Up)
	h.f, h.u, h.side = asVec(&f), asVec(&u), asVec(&side)
	h.basis = basisQ(side[0], side[1], side[2], u[0], u[1], u[2], f[0], f[1], f[2])
	h.plainBasis = h.basis == identQ
	if h.limited = s.MaxTurnDegrees < 180; h.limited {
		sn, cs := math.Sincos(float64(s.MaxTurnDegrees) * degToRad)
		h.sinMax, h.cosMax = float32(sn), float32(cs)
	}
	return h, nil
}

// Settings returns the settings h was made from.
func (h *Head) Settings() HeadSettings { return h.settings }

// axes returns the prepared axes, or +Z, +Y, +X for the zero value.
func (h *Head) axes() (f, u, side vec, basis quat) {
	if !h.prepared {
		return vec{0, 0, 1}, vec{0, 1, 0}, vec{1, 0, 0}, identQ
	}
	return h.f, h.u, h.side, h.basis
}

// HeadInput is what the caller reads from the pose each frame.
type HeadInput struct {
	// ParentWorldRot is the world rotation of the head's parent, after any
	// spine bones have been turned this frame.
	ParentWorldRot mgl32.Quat
	// RestLocalRot is the head's local rotation to turn from: the rest pose,
	// or the animated pose to layer the look-at on top of. The clamp cone
	// is centred on its forward and the weight blends back to it.
	RestLocalRot mgl32.Quat
	// HeadPos and TargetPos are world positions.
	HeadPos, TargetPos mgl32.Vec3
	// Weight is the requested blend weight; values outside 0..1 are
	// clamped (NaN counts as 0).
	Weight float32
}

// HeadState is the smoothed state carried from frame to frame.
type HeadState struct {
	// Rotation is the smoothed look rotation at full weight, in the head's
	// local space. A zero or non-finite value restarts from the rest pose.
	Rotation mgl32.Quat
	// Weight is the smoothed blend weight.
	Weight float32
}

// NewHeadState returns a state at rest with weight 0, so that the look-at
// fades in.
func NewHeadState(restLocalRot mgl32.Quat) HeadState {
	return HeadState{Rotation: unitOr(restLocalRot, mgl32.QuatIdent())}
}

// HeadPose is the result of one head step.
type HeadPose struct {
	// Local is the head's new local rotation, to write back to the pose.
	Local mgl32.Quat
	// World is ParentWorldRot * Local: the parent world rotation of eyes
	// that hang directly under the head.
	World mgl32.Quat
}

// Target returns the head's local rotation that looks at the target,
// clamped to the cone of MaxTurnDegrees around the rest forward and with the
// up axis kept as close as possible to the rest up (like Unity's
// Quaternion.LookRotation). A target at the head's position gives the rest
// rotation; a target straight behind turns toward the side (up × forward).
func (h *Head) Target(in *HeadInput) mgl32.Quat {
	parent, rest := asQuat(&in.ParentWorldRot), asQuat(&in.RestLocalRot)
	if !nearUnit(parent.dot(parent)) {
		parent = unitSlow(parent, identQ)
	}
	if !nearUnit(rest.dot(rest)) {
		rest = unitSlow(rest, identQ)
	}
	return h.goal(parent, rest, &in.HeadPos, &in.TargetPos).mgl()
}

func (h *Head) goal(p, rest quat, headPos, targetPos *mgl32.Vec3) quat {
	// Direction to the target in the head's rest space: the look rotation
	// is found there and then applied on top of the rest rotation.
	q := qmul(p.w, p.x, p.y, p.z, rest.w, rest.x, rest.y, rest.z)
	d0, d1, d2 := rotate(q.w, -q.x, -q.y, -q.z, targetPos[0]-headPos[0], targetPos[1]-headPos[1], targetPos[2]-headPos[2])
	dir, ok := vec{d0, d1, d2}.normalize()
	if !ok {
		return rest
	}
	f, u, side, basis := h.axes()
	if h.limited && f.dot(dir) < h.cosMax {
		dir = h.clamp(f, side, dir)
	}
	l := lookRotation(f, u, basis, !h.prepared || h.plainBasis, dir)
	return qmul(rest.w, rest.x, rest.y, rest.z, l.w, l.x, l.y, l.z)
}

// clamp turns the unit dir back toward f until it is at most the max angle
// away, the RotateTowards clamp of the source. Exactly behind, it turns
// toward side. Only for a limited head.
func (h *Head) clamp(f, side, dir vec) vec {
	d := f.dot(dir)
	if d >= h.cosMax {
		return dir
	}
	perp, ok := dir.sub(f.scale(d)).normalize()
	if !ok {
		perp = side
	}
	return f.scale(h.cosMax).add(perp.scale(h.sinMax))
}

// lookRotation returns the rotation that turns the unit axis f onto the unit
// direction dir and keeps the rotated up axis as close to u as possible,
// like Quaternion.LookRotation: the frame (u × dir, dir × that, dir) over
// the rest frame basis = (side, u, f), the identity when plainBasis. When
// dir is parallel to u the roll is undefined and the shortest arc is used.
func lookRotation(f, u vec, basis quat, plainBasis bool, dir vec) quat {
	x, ok := u.cross(dir).normalize()
	if !ok {
		return fromTo(f, dir)
	}
	y := dir.cross(x)
	q := basisQ(x.x, x.y, x.z, y.x, y.y, y.z, dir.x, dir.y, dir.z)
	if plainBasis {
		// +Z forward, +Y up: q times the identity is q.
		return q
	}
	return qmul(q.w, q.x, q.y, q.z, basis.w, -basis.x, -basis.y, -basis.z)
}

// fromTo is mathx.FromToRotation, out of line: only degenerate look
// directions and cone corrections need it.
func fromTo(from, to vec) quat {
	q := mathx.FromToRotation(from.mgl(), to.mgl())
	return asQuat(&q)
}

// limit returns the local rotation q, swung back by the shortest arc when
// its forward has left the cone around the forward of rest. Beyond 90
// degrees the cone is not convex and the shortest arc between two
// rotations inside it can pass behind the head; this keeps the output
// inside without touching the smoothed state. Only for a limited head.
func (h *Head) limit(rest, q quat) quat {
	f, _, side, _ := h.axes()
	// q in rest space, r = (w, v); the cosine of the angle its forward
	// makes with f is f·(r f r⁻¹) = w² - v·v + 2 (v·f)² for unit r.
	r := qmul(rest.w, -rest.x, -rest.y, -rest.z, q.w, q.x, q.y, q.z)
	vf := float32(r.x*f.x) + float32(r.y*f.y) + float32(r.z*f.z)
	// The tolerance absorbs float32 rounding of a state resting on the
	// cone's edge (about 1e-5 rad), so that the correction runs only when
	// the arc really leaves the cone.
	if float32(r.w*r.w)-(float32(r.x*r.x)+float32(r.y*r.y)+float32(r.z*r.z))+float32(2*vf*vf) >= h.cosMax-1e-5 {
		return q
	}
	f0, f1, f2 := rotate(r.w, r.x, r.y, r.z, f.x, f.y, f.z)
	fwd := vec{f0, f1, f2}
	c := fromTo(fwd, h.clamp(f, side, fwd))
	r = qmul(c.w, c.x, c.y, c.z, r.w, r.x, r.y, r.z)
	return qmul(rest.w, rest.x, rest.y, rest.z, r.w, r.x, r.y, r.z)
}

// Step advances the head look-at by dt seconds: the smoothed rotation moves
// toward the clamped look rotation by Damping(Speed, dt) along the shortest
// arc, the weight moves toward the requested weight by
// Damping(WeightSpeed, dt), and dst receives the rest rotation blended
// toward the smoothed rotation by the smoothed weight.
//
// Because the clamp is applied to the target and not to each step, k frames
// toward a still target equal one frame of the summed dt. The output (not
// the state) is also kept inside the cone: with MaxTurnDegrees above 90 the
// shortest arc toward a target that jumped can cut behind the head.
func (h *Head) Step(dst *HeadPose, st *HeadState, in *HeadInput, dt float32) {
	// The weight and the damping factors first, while no rotation is live
	// across their calls.
	w, want := st.Weight, mathx.Clamp01(in.Weight)
	if !mathx.IsFinite(w) {
		w = 0
	}
	if w != want {
		w = mathx.Clamp01(damp(w, want, Damping(h.settings.WeightSpeed, dt)))
		// Land exactly on the requested weight once within float32 noise of
		// it: in float32 the damped value would otherwise stop one ulp
		// short and keep the blend below on the slow path forever.
		if d := w - want; d < weightSnap && d > -weightSnap {
			w = want
		}
	}
	st.Weight = w
	a := Damping(h.settings.Speed, dt)

	parent, rest, cur := asQuat(&in.ParentWorldRot), asQuat(&in.RestLocalRot), asQuat(&st.Rotation)
	if !nearUnit(parent.dot(parent)) {
		parent = unitSlow(parent, identQ)
	}
	if !nearUnit(rest.dot(rest)) {
		rest = unitSlow(rest, identQ)
	}
	if !nearUnit(cur.dot(cur)) {
		cur = unitSlow(cur, rest)
	}
	goal := h.goal(parent, rest, &in.HeadPos, &in.TargetPos)
	rot := slerpQ(cur, goal, a)
	st.Rotation = rot.mgl()

	var local quat
	switch {
	case w >= 1:
		local = rot
	case w <= 0:
		local = rest
	default:
		// The weight is a blend, not a damped quantity: nlerp follows the
		// same arc as slerp (so it stays inside the cone) at lower cost.
		local = nlerpQ(rest, rot, w)
	}
	if h.limited && w > 0 {
		local = h.limit(rest, local)
	}
	dst.Local = local.mgl()
	dst.World = qmul(parent.w, parent.x, parent.y, parent.z, local.w, local.x, local.y, local.z).mgl()
}
