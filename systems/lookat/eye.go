package lookat

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/internal/mathx"
)

// EyeSettings configures one eye. Each eye turns about its local up axis
// (yaw), as in the source, and then up or down toward the target (pitch),
// as the source's look rotation does, each within its own limits. The
// defaults named below are DefaultEyeSettings'; the zero value is invalid
// (its axes are zero).
type EyeSettings struct {
	// Forward and Up are the eye bone's look and turn axes in its local
	// space (the source, and the default: +Z and +Y). As the head's, they
	// must be finite, not zero and not parallel, of any length.
	Forward, Up mgl32.Vec3

	// MinYawDegrees and MaxYawDegrees limit the signed yaw from the rest
	// forward, in degrees, each in -180..180, Min <= Max (positive turns
	// forward toward up × forward). Defaults -30 and 30.
	MinYawDegrees, MaxYawDegrees float32

	// MinPitchDegrees and MaxPitchDegrees limit the signed pitch, the
	// angle of the look above the plane perpendicular to Up, in degrees,
	// each in -90..90, Min <= Max: positive looks up, so MinPitchDegrees
	// is the down limit and MaxPitchDegrees the up limit. Defaults -25
	// and 20; both 0 keep the eye level (yaw only).
	MinPitchDegrees, MaxPitchDegrees float32

	// Speed is the damping rate in 1/s of the yaw and the pitch (each frame
	// covers 1 - exp(-Speed*dt) of the way), finite and 0 or more; 0 holds
	// the current angles. Default 20.
	Speed float32
}

// DefaultEyeSettings returns +Z forward, +Y up, yaw within ±30 degrees,
// pitch from 25 degrees down to 20 up, and a fast speed.
func DefaultEyeSettings() EyeSettings {
	return EyeSettings{
		Forward:         mgl32.Vec3{0, 0, 1},
		Up:              mgl32.Vec3{0, 1, 0},
		MinYawDegrees:   -30,
		MaxYawDegrees:   30,
		MinPitchDegrees: -25,
		MaxPitchDegrees: 20,
		Speed:           20,
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
	if err := check.Range(typ, "MinPitchDegrees", s.MinPitchDegrees, -90, 90); err != nil {
		return err
	}
	if err := check.Range(typ, "MaxPitchDegrees", s.MaxPitchDegrees, -90, 90); err != nil {
		return err
	}
	if s.MinPitchDegrees > s.MaxPitchDegrees {
		return check.Errorf(typ, "MinPitchDegrees", s.MinPitchDegrees, "must not exceed MaxPitchDegrees (%g)", s.MaxPitchDegrees)
	}
	return check.NonNegative(typ, "Speed", s.Speed)
}

// Eye is validated EyeSettings with the unit axes and the limits in
// radians worked out once. The zero value looks along +Z, turns about +Y,
// has limits [0, 0] and never moves.
type Eye struct {
	settings   EyeSettings
	f, u, side vec
	lo, hi     float32 // yaw limits in radians
	down, up   float32 // pitch limits in radians
	prepared   bool    // set by NewEye: the axes above are valid
	pitched    bool    // the pitch limits are not both 0
}

// NewEye validates s and prepares it for the per-frame kernel.
func NewEye(s EyeSettings) (Eye, error) {
	if err := s.Validate(); err != nil {
		return Eye{}, err
	}
	e := Eye{settings: s, prepared: true, lo: s.MinYawDegrees * degToRad, hi: s.MaxYawDegrees * degToRad,
		down: s.MinPitchDegrees * degToRad, up: s.MaxPitchDegrees * degToRad,
		pitched: s.MinPitchDegrees != 0 || s.MaxPitchDegrees != 0}
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
	// Weight scales the yaw and pitch (normally the head's smoothed
	// HeadState.Weight); clamped to 0..1.
	Weight float32
}

// EyeState is the smoothed yaw and pitch carried from frame to frame.
type EyeState struct {
	// Yaw is the smoothed, limited yaw in radians at full weight.
	Yaw float32
	// Pitch is the smoothed, limited pitch in radians at full weight,
	// positive up.
	Pitch float32
}

// TargetYaw returns the signed yaw in radians, in -pi..pi, from the rest
// forward to the target's direction projected on the plane perpendicular to
// the up axis, limited to the settings' range. A target straight above or
// below (or at the origin) gives 0 before limiting.
func (e *Eye) TargetYaw(in *EyeInput) float32 {
	yaw, _ := e.targetAngles(in, unitRest(in))
	return yaw
}

// TargetPitch returns the signed pitch in radians, in -pi/2..pi/2, of the
// target's direction above the plane perpendicular to the up axis (positive
// up), limited to the settings' range. A target at the origin gives 0
// before limiting.
func (e *Eye) TargetPitch(in *EyeInput) float32 {
	_, pitch := e.targetAngles(in, unitRest(in))
	return pitch
}

// unitRest returns the input's rest rotation made unit (the identity when
// it cannot be).
func unitRest(in *EyeInput) quat {
	rest := asQuat(&in.RestLocalRot)
	if !nearUnit(rest.dot(rest)) {
		rest = unitSlow(rest, identQ)
	}
	return rest
}

// targetAngles is TargetYaw and TargetPitch with the rest rotation made
// unit already, in float32 scalars.
func (e *Eye) targetAngles(in *EyeInput, rest quat) (yaw, pitch float32) {
	p := asQuat(&in.ParentWorldRot)
	if !nearUnit(p.dot(p)) {
		p = unitSlow(p, identQ)
	}
	f, u, side := e.axes()
	// d = (p rest)⁻¹ (target - origin)
	q := qmul(p.w, p.x, p.y, p.z, rest.w, rest.x, rest.y, rest.z)
	d0, d1, d2 := rotate(q.w, -q.x, -q.y, -q.z, in.TargetPos[0]-in.Origin[0], in.TargetPos[1]-in.Origin[1], in.TargetPos[2]-in.Origin[2])
	x := float32(d0*f.x) + float32(d1*f.y) + float32(d2*f.z)
	y := float32(d0*side.x) + float32(d1*side.y) + float32(d2*side.z)
	h := float32(x*x) + float32(y*y)
	// The pitch's inputs first: little is live across the calls below.
	z := float32(d0*u.x) + float32(d1*u.y) + float32(d2*u.z)
	// hz is the pitch's h, scaled down for a target beyond 1e19 (where h
	// overflows).
	hz := h
	if h+float32(z*z) > math.MaxFloat32 {
		k := 1 / max(x, -x, y, -y, z, -z)
		hz, z = float32((x*k)*(x*k))+float32((y*k)*(y*k)), z*k
	}
	if h > mathx.Epsilon {
		yaw = atan2_32(y, x)
	}
	// The pitch is skipped when its limits pin it to 0 (yaw only).
	if e.pitched && hz+float32(z*z) > mathx.Epsilon {
		pitch = atan2_32(z, sqrt32(hz)) // hz >= 0: within ±pi/2
	}
	return mathx.Clamp(yaw, e.lo, e.hi), mathx.Clamp(pitch, e.down, e.up)
}

// Step advances one eye by dt seconds: the yaw and the pitch each move
// toward their limited target by Damping(Speed, dt), and dst receives the
// rest rotation turned about the up axis by the yaw and then up by the
// pitch, both times the weight: the forward ends at the yaw about up and
// the pitch above the plane perpendicular to it. Damping a single angle
// composes exactly across frames, and a convex blend of two angles inside
// the limits stays inside them.
func (e *Eye) Step(dst *mgl32.Quat, st *EyeState, in *EyeInput, dt float32) {
	a := Damping(e.settings.Speed, dt) // first: nothing live across the call
	rest := unitRest(in)
	yaw, pitch := e.targetAngles(in, rest)
	// The clamps only bite when the state starts outside the limits (a
	// settings change); inside them the damped angles are already in range.
	st.Yaw = mathx.Clamp(damp(finiteOr0(st.Yaw), yaw, a), e.lo, e.hi)
	st.Pitch = mathx.Clamp(damp(finiteOr0(st.Pitch), pitch, a), e.down, e.up)
	w := mathx.Clamp01(in.Weight) / 2
	// The yaw is within ±pi and the pitch within ±pi/2, so their halves
	// within ±pi/2.
	sy, cy := sincosHalfTurn(st.Yaw * w)
	sp, cp := float32(0), float32(1) // level: no second call
	if st.Pitch != 0 {
		sp, cp = sincosHalfTurn(st.Pitch * w)
	}
	f, u, side := e.axes() // after the calls, so as not to spill them
	// (cy, u sy)(cp, -side sp): u × -side = f, and u·side = 0.
	tw := cy * cp
	ss, ff := cy*sp, sy*sp
	tx := float32(u.x*sy*cp) - float32(side.x*ss) + float32(f.x*ff)
	ty := float32(u.y*sy*cp) - float32(side.y*ss) + float32(f.y*ff)
	tz := float32(u.z*sy*cp) - float32(side.z*ss) + float32(f.z*ff)
	*dst = qmul(rest.w, rest.x, rest.y, rest.z, tw, tx, ty, tz).mgl()
}

// finiteOr0 returns v, or 0 when v is NaN or infinite.
func finiteOr0(v float32) float32 {
	if !mathx.IsFinite(v) {
		return 0
	}
	return v
}
