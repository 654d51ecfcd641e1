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
	f, u, side mgl32.Vec3
	lo, hi     float32 // yaw limits in radians
}

// NewEye validates s and prepares it for the per-frame kernel.
func NewEye(s EyeSettings) (Eye, error) {
	if err := s.Validate(); err != nil {
		return Eye{}, err
	}
	e := Eye{settings: s, lo: s.MinYawDegrees * degToRad, hi: s.MaxYawDegrees * degToRad}
	e.f, e.u, e.side = boneAxes(s.Forward, s.Up)
	return e, nil
}

// Settings returns the settings e was made from.
func (e *Eye) Settings() EyeSettings { return e.settings }

func (e *Eye) axes() (f, u, side mgl32.Vec3) {
	if e.f == (mgl32.Vec3{}) {
		return mgl32.Vec3{0, 0, 1}, mgl32.Vec3{0, 1, 0}, mgl32.Vec3{1, 0, 0}
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
	return e.targetYaw(in, unitOr(in.RestLocalRot, mgl32.QuatIdent()))
}

// targetYaw is TargetYaw with the rest rotation made unit already, in
// float32 scalars.
func (e *Eye) targetYaw(in *EyeInput, rest mgl32.Quat) float32 {
	p := unitOr(in.ParentWorldRot, mgl32.QuatIdent())
	f, _, side := e.axes()
	// d = (p rest)⁻¹ (target - origin)
	qw, qx, qy, qz := qmul(p.W, p.V[0], p.V[1], p.V[2], rest.W, rest.V[0], rest.V[1], rest.V[2])
	v := in.TargetPos.Sub(in.Origin)
	d0, d1, d2 := rotate(qw, -qx, -qy, -qz, v[0], v[1], v[2])
	x := d0*f[0] + d1*f[1] + d2*f[2]
	y := d0*side[0] + d1*side[1] + d2*side[2]
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
	rest := unitOr(in.RestLocalRot, mgl32.QuatIdent())
	goal := e.targetYaw(in, rest)
	y := st.Yaw
	if !mathx.IsFinite(y) {
		y = 0
	}
	// The clamp only bites when the state starts outside the limits (a
	// settings change); inside them the damped yaw is already in range.
	st.Yaw = mathx.Clamp(damp(y, goal, Damping(e.settings.Speed, dt)), e.lo, e.hi)
	_, u, _ := e.axes()
	// The yaw is within ±pi, so its half within ±pi/2.
	sn, cs := sincosHalfTurn(st.Yaw * mathx.Clamp01(in.Weight) / 2)
	w, x, yy, z := qmul(rest.W, rest.V[0], rest.V[1], rest.V[2], cs, u[0]*sn, u[1]*sn, u[2]*sn)
	*dst = mgl32.Quat{W: w, V: mgl32.Vec3{x, yy, z}}
}

// qmul is the Hamilton product a b (apply b, then a) in scalars, W first,
// so that it inlines.
func qmul(aw, ax, ay, az, bw, bx, by, bz float32) (float32, float32, float32, float32) {
	return aw*bw - ax*bx - ay*by - az*bz,
		aw*bx + ax*bw + ay*bz - az*by,
		aw*by + ay*bw + az*bx - ax*bz,
		aw*bz + az*bw + ax*by - ay*bx
}

// rotate returns v rotated by the unit quaternion (w, x, y, z), in
// scalars so that it inlines.
func rotate(w, x, y, z, v0, v1, v2 float32) (float32, float32, float32) {
	// t = 2 (q.V × v); v' = v + w t + q.V × t
	t0, t1, t2 := 2*(y*v2-z*v1), 2*(z*v0-x*v2), 2*(x*v1-y*v0)
	return v0 + w*t0 + y*t2 - z*t1, v1 + w*t1 + z*t0 - x*t2, v2 + w*t2 + x*t1 - y*t0
}
