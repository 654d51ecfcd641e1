package lookat

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/internal/mathx"
)

// HeadSettings configures head look-at for one character.
type HeadSettings struct {
	// Forward and Up are the head bone's look and up axes in its local
	// space (the source: +Z and +Y). They need not be unit length but must
	// not be zero or parallel.
	Forward, Up mgl32.Vec3

	// MaxTurnDegrees limits the angle between the look direction and the
	// rest forward. Values of 180 or more mean no limit.
	MaxTurnDegrees float32

	// Speed is the damping rate in 1/s of the rotation toward the clamped
	// look rotation; 0 holds the current rotation.
	Speed float32

	// WeightSpeed is the damping rate in 1/s of the blend weight toward the
	// requested weight; 0 holds the current weight.
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
	f, u, side     mgl32.Vec3
	basis          mgl32.Quat // rotation with columns side, u, f
	cosMax, sinMax float32
	limited        bool
}

// NewHead validates s and prepares it for the per-frame kernels.
func NewHead(s HeadSettings) (Head, error) {
	if err := s.Validate(); err != nil {
		return Head{}, err
	}
	h := Head{settings: s}
	h.f, h.u, h.side = boneAxes(s.Forward, s.Up)
	h.basis = quatFromBasis(h.side, h.u, h.f)
	if h.limited = s.MaxTurnDegrees < 180; h.limited {
		sn, cs := math.Sincos(float64(s.MaxTurnDegrees) * degToRad)
		h.sinMax, h.cosMax = float32(sn), float32(cs)
	}
	return h, nil
}

// Settings returns the settings h was made from.
func (h *Head) Settings() HeadSettings { return h.settings }

// axes returns the prepared axes, or +Z, +Y, +X for the zero value.
func (h *Head) axes() (f, u, side mgl32.Vec3, basis mgl32.Quat) {
	if h.f == (mgl32.Vec3{}) {
		return mgl32.Vec3{0, 0, 1}, mgl32.Vec3{0, 1, 0}, mgl32.Vec3{1, 0, 0}, mgl32.QuatIdent()
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
	return h.goal(unitOr(in.ParentWorldRot, mgl32.QuatIdent()), unitOr(in.RestLocalRot, mgl32.QuatIdent()), in.HeadPos, in.TargetPos)
}

func (h *Head) goal(parent, rest mgl32.Quat, headPos, targetPos mgl32.Vec3) mgl32.Quat {
	// Direction to the target in the head's rest space: the look rotation
	// is found there and then applied on top of the rest rotation.
	dir, ok := mathx.SafeNormalize(mathx.InvRotate(mathx.Mul(parent, rest), targetPos.Sub(headPos)))
	if !ok {
		return rest
	}
	f, u, side, basis := h.axes()
	return mathx.Mul(rest, lookRotation(f, u, basis, h.clamp(f, side, dir)))
}

// clamp turns the unit dir back toward f until it is at most the max angle
// away, the RotateTowards clamp of the source. Exactly behind, it turns
// toward side.
func (h *Head) clamp(f, side, dir mgl32.Vec3) mgl32.Vec3 {
	d := mathx.Dot(f, dir)
	if !h.limited || d >= h.cosMax {
		return dir
	}
	perp := mathx.NormalizeOr(dir.Sub(f.Mul(d)), side)
	return f.Mul(h.cosMax).Add(perp.Mul(h.sinMax))
}

// lookRotation returns the rotation that turns the unit axis f onto the unit
// direction dir and keeps the rotated up axis as close to u as possible,
// like Quaternion.LookRotation: the frame (u × dir, dir × that, dir) over
// the rest frame basis = (side, u, f). When dir is parallel to u the roll is
// undefined and the shortest arc is used.
func lookRotation(f, u mgl32.Vec3, basis mgl32.Quat, dir mgl32.Vec3) mgl32.Quat {
	x, ok := mathx.SafeNormalize(mathx.Cross(u, dir))
	if !ok {
		return mathx.FromToRotation(f, dir)
	}
	y := mathx.Cross(dir, x)
	return mathx.Mul(quatFromBasis(x, y, dir), mathx.Conjugate(basis))
}

// limit returns the rest-space rotation q, swung back by the shortest arc
// when its forward has left the cone. Beyond 90 degrees the cone is not
// convex and the shortest arc between two rotations inside it can pass
// behind the head; this keeps the output inside without touching the
// smoothed state.
func (h *Head) limit(f, side mgl32.Vec3, q mgl32.Quat) mgl32.Quat {
	fwd := mathx.Rotate(q, f)
	// The tolerance absorbs float32 rounding of a state resting on the
	// cone's edge (about 1e-5 rad), so that the correction runs only when
	// the arc really leaves the cone.
	if mathx.Dot(fwd, f) >= h.cosMax-1e-5 {
		return q
	}
	return mathx.Mul(mathx.FromToRotation(fwd, h.clamp(f, side, fwd)), q)
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
	parent := unitOr(in.ParentWorldRot, mgl32.QuatIdent())
	rest := unitOr(in.RestLocalRot, mgl32.QuatIdent())
	goal := h.goal(parent, rest, in.HeadPos, in.TargetPos)

	cur := unitOr(st.Rotation, rest)
	st.Rotation = mathx.Slerp(cur, goal, Damping(h.settings.Speed, dt))

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

	switch {
	case w >= 1:
		dst.Local = st.Rotation
	case w <= 0:
		dst.Local = rest
	default:
		// The weight is a blend, not a damped quantity: nlerp follows the
		// same arc as slerp (so it stays inside the cone) at lower cost.
		dst.Local = mathx.Nlerp(rest, st.Rotation, w)
	}
	if h.limited {
		f, _, side, _ := h.axes()
		dst.Local = mathx.Mul(rest, h.limit(f, side, mathx.Mul(mathx.Conjugate(rest), dst.Local)))
	}
	dst.World = mathx.Mul(parent, dst.Local)
}
