package lookat

import (
	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/internal/mathx"
)

// EyeSettings configures one eye. Each eye turns about its local up axis
// only, as in the source.
type EyeSettings struct {
	// Forward and Up are the eye bone's look and turn axes in its local
	// space (the source: +Z and +Y).
	Forward, Up mgl32.Vec3

	// MinYawDegrees and MaxYawDegrees limit the signed yaw from the rest
	// forward, in -180..180 (positive turns forward toward up × forward).
	MinYawDegrees, MaxYawDegrees float32

	// Speed is the damping rate in 1/s of the yaw; 0 holds the current yaw.
	Speed float32
}

// DefaultEyeSettings returns +Z forward, +Y up, ±30 degrees and a fast
// speed.
func DefaultEyeSettings() EyeSettings {
	return EyeSettings{
		Forward:       mgl32.Vec3{0, 0, 1},
		Up:            mgl32.Vec3{0, 1, 0},
		MinYawDegrees: -30,
		MaxYawDegrees: 30,
		Speed:         20,
	}
}

// Validate reports the first invalid field as a *check.FieldError.
func (s *EyeSettings) Validate() error {
	const typ = "EyeSettings"
	if field, v, reason := validAxes(s.Forward, s.Up); field != "" {
		return &check.FieldError{Type: typ, Field: field, Value: v, Reason: reason}
	}
	if err := check.Range(typ, "MinYawDegrees", s.MinYawDegrees, -180, 180); err != nil {
		return err
	}
	if err := check.Range(typ, "MaxYawDegrees", s.MaxYawDegrees, -180, 180); err != nil {
		return err
	}
	if s.MinYawDegrees > s.MaxYawDegrees {
		return check.Errorf(typ, "MinYawDegrees", s.MinYawDegrees, "must not exceed MaxYawDegrees (%g)", s.MaxYawDegrees)
	}
	return check.NonNegative(typ, "Speed", s.Speed)
}

// Eye is validated EyeSettings with the unit axes and the yaw limits in
// radians worked out once. The zero value looks along +Z, turns about +Y,
// has limits [0, 0] and never moves.
type Eye struct {
	settings   EyeSettings
	f, u, side vec
	lo, hi     float32 // yaw limits in radians
	prepared   bool    // set by NewEye: the axes above are valid
}

// NewEye validates s and prepares it for the per-frame kernel.
func NewEye(s EyeSettings) (Eye, error) {
	if err := s.Validate(); err != nil {
		return Eye{}, err
	}
	e := Eye{settings: s, prepared: true, lo: s.MinYawDegrees * degToRad, hi: s.MaxYawDegrees * degToRad}
	f, u, side := boneAxes(s.Forward, s.Up)
	e.f, e.u, e.side = asVec(&f), asVec(&u), asVec(&side)
	return e, nil
}

// Settings returns the settings e was made from.
func (e *Eye) Settings() EyeSettings { return e.settings }

func (e *Eye) axes() (f, u, side vec) {
	if !e.prepared {
		return vec{0, 0, 1}, vec{0, 1, 0}, vec{1, 0, 0}
	}
	return e.f, e.u, e.side
}

// EyeInput is what the caller reads from the pose each frame, after the
// head has been stepped.
type EyeInput struct {
	// ParentWorldRot is the world rotation of the eye's parent recomputed
	// AFTER the head's new local rotation was applied (HeadPose.World when
	// the eye hangs directly under the head). Passing the value from before
	// the head step makes the eye lag one frame behind the head.
	ParentWorldRot mgl32.Quat
	// RestLocalRot is the eye's rest (or animated) local rotation.
	RestLocalRot mgl32.Quat
	// Origin is where the eye looks from: the head position keeps both eyes
	// parallel, as the source does; the eye's own position (recomputed
	// after the head step) makes them converge on near targets.
	Origin, TargetPos mgl32.Vec3
	// Weight scales the yaw (normally the head's smoothed HeadState.Weight);
	// clamped to 0..1.
	Weight float32
}

// EyeState is the smoothed yaw carried from frame to frame.
type EyeState struct {
	// Yaw is the smoothed, limited yaw in radians at full weight.
	Yaw float32
}

// TargetYaw returns the signed yaw in radians, in -pi..pi, from the rest
// forward to the target's direction projected on the plane perpendicular to
// the up axis, limited to the settings' range. A target straight above or
// below (or at the origin) gives 0 before limiting.
func (e *Eye) TargetYaw(in *EyeInput) float32 {
	rest := asQuat(&in.RestLocalRot)
	if !nearUnit(rest.dot(rest)) {
		rest = unitSlow(rest, identQ)
	}
	return e.targetYaw(in, rest)
}

// targetYaw is TargetYaw with the rest rotation made unit already, in
// float32 scalars.
func (e *Eye) targetYaw(in *EyeInput, rest quat) float32 {
	p := asQuat(&in.ParentWorldRot)
	if !nearUnit(p.dot(p)) {
		p = unitSlow(p, identQ)
	}
	f, _, side := e.axes()
	// d = (p rest)⁻¹ (target - origin)
	q := qmul(p.w, p.x, p.y, p.z, rest.w, rest.x, rest.y, rest.z)
	d0, d1, d2 := rotate(q.w, -q.x, -q.y, -q.z, in.TargetPos[0]-in.Origin[0], in.TargetPos[1]-in.Origin[1], in.TargetPos[2]-in.Origin[2])
	x := d0*f.x + d1*f.y + d2*f.z
	y := d0*side.x + d1*side.y + d2*side.z
	yaw := float32(0)
	if x*x+y*y > mathx.Epsilon {
		yaw = atan2_32(y, x)
	}
	return mathx.Clamp(yaw, e.lo, e.hi)
}

// Step advances one eye by dt seconds: the yaw moves toward the limited
// target yaw by Damping(Speed, dt) and dst receives the rest rotation turned
// about the up axis by the yaw times the weight. Damping a single angle
// about a fixed axis composes exactly across frames, and a convex blend of
// two yaws inside the limits stays inside them.
func (e *Eye) Step(dst *mgl32.Quat, st *EyeState, in *EyeInput, dt float32) {
	a := Damping(e.settings.Speed, dt) // first: nothing live across the call
	rest := asQuat(&in.RestLocalRot)
	if !nearUnit(rest.dot(rest)) {
		rest = unitSlow(rest, identQ)
	}
	goal := e.targetYaw(in, rest)
	y := st.Yaw
	if !mathx.IsFinite(y) {
		y = 0
	}
	// The clamp only bites when the state starts outside the limits (a
	// settings change); inside them the damped yaw is already in range.
	st.Yaw = mathx.Clamp(damp(y, goal, a), e.lo, e.hi)
	_, u, _ := e.axes()
	// The yaw is within ±pi, so its half within ±pi/2.
	sn, cs := sincosHalfTurn(st.Yaw * mathx.Clamp01(in.Weight) / 2)
	*dst = qmul(rest.w, rest.x, rest.y, rest.z, cs, u.x*sn, u.y*sn, u.z*sn).mgl()
}
