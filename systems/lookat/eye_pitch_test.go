package lookat

import (
	"math"
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/mathx"
)

// eyeAnglesOf returns the yaw about +Y and the pitch above the XZ plane,
// in radians, of the forward (+Z) of local.
func eyeAnglesOf(local mgl32.Quat) (yaw, pitch float64) {
	f := mathx.Rotate(local, mgl32.Vec3{0, 0, 1})
	return math.Atan2(float64(f[0]), float64(f[2])), math.Asin(math.Max(-1, math.Min(1, float64(f[1]))))
}

func eyePitch(s *EyeSettings, in *EyeInput) float32 {
	e, _ := NewEye(*s)
	return e.TargetPitch(in)
}

// Hand-worked with the defaults (pitch from -25 to 20 degrees): a target
// 0.3 up and 1 ahead is atan2(0.3, 1) = 0.2914568 rad up; 0.2 down is
// -0.1973956; steeper targets stop at 20 degrees (0.3490659) up and 25
// (-0.4363323) down, straight above included. A parent looking 10 degrees
// up leaves 0.2914568 - 10° = 0.1169235 rad.
func TestEyeTargetPitchHandWorked(t *testing.T) {
	s := DefaultEyeSettings()
	for _, c := range []struct {
		target, origin mgl32.Vec3
		parent         mgl32.Quat
		want           float64
	}{
		{mgl32.Vec3{0, 0.3, 1}, mgl32.Vec3{}, mgl32.QuatIdent(), 0.2914568},
		{mgl32.Vec3{0, -0.2, 1}, mgl32.Vec3{}, mgl32.QuatIdent(), -0.1973956},
		{mgl32.Vec3{0, 2, 1}, mgl32.Vec3{}, mgl32.QuatIdent(), 0.3490659},
		{mgl32.Vec3{0, -2, 1}, mgl32.Vec3{}, mgl32.QuatIdent(), -0.4363323},
		{mgl32.Vec3{0, 5, 0}, mgl32.Vec3{}, mgl32.QuatIdent(), 0.3490659},
		{mgl32.Vec3{0, -5, 0}, mgl32.Vec3{}, mgl32.QuatIdent(), -0.4363323},
		{mgl32.Vec3{2, 1.3, 1}, mgl32.Vec3{2, 1, 0}, mgl32.QuatIdent(), 0.2914568},
		{mgl32.Vec3{0, 0.3, 1}, mgl32.Vec3{}, axisAngle(mgl32.Vec3{1, 0, 0}, float32(-10*deg)), 0.1169235},
	} {
		in := EyeInput{ParentWorldRot: c.parent, RestLocalRot: mgl32.QuatIdent(), Origin: c.origin, TargetPos: c.target}
		if p := eyePitch(&s, &in); math.Abs(float64(p)-c.want) > 1e-6 {
			t.Errorf("target %v from %v: pitch %v, want %v", c.target, c.origin, p, c.want)
		}
	}
}

// Stepped long enough, the eye looks at a target inside its limits (yaw
// atan2(0.3, 1) = 16.70°, pitch atan2(0.2, sqrt(1.09)) = 10.84°) and
// stops at each pitch limit for targets beyond it, keeping the target's
// yaw.
func TestEyePitchesTowardTarget(t *testing.T) {
	s := DefaultEyeSettings()
	for _, c := range []struct {
		target     mgl32.Vec3
		yaw, pitch float64 // degrees
	}{
		{mgl32.Vec3{0.3, 0.2, 1}, 16.699244, 10.844500},
		{mgl32.Vec3{0.3, 2, 1}, 16.699244, 20},
		{mgl32.Vec3{0.3, -2, 1}, 16.699244, -25},
		{mgl32.Vec3{-0.3, -0.1, 1}, -16.699244, -5.471249},
	} {
		in := EyeInput{ParentWorldRot: mgl32.QuatIdent(), RestLocalRot: mgl32.QuatIdent(), TargetPos: c.target, Weight: 1}
		var st EyeState
		var q mgl32.Quat
		for range 120 {
			stepEye(&q, &st, &s, &in, 1.0/60)
		}
		quatOK(t, "eye", q)
		yaw, pitch := eyeAnglesOf(q)
		if math.Abs(yaw/deg-c.yaw) > 1e-3 || math.Abs(pitch/deg-c.pitch) > 1e-3 {
			t.Errorf("target %v: eye at yaw %.4f° pitch %.4f°, want %v° and %v°", c.target, yaw/deg, pitch/deg, c.yaw, c.pitch)
		}
	}
	// Inside the limits the forward is the target's direction.
	in := EyeInput{ParentWorldRot: mgl32.QuatIdent(), RestLocalRot: mgl32.QuatIdent(), TargetPos: mgl32.Vec3{0.3, 0.2, 1}, Weight: 1}
	st := EyeState{Yaw: float32(16.699244 * deg), Pitch: float32(10.8445 * deg)}
	var q mgl32.Quat
	stepEye(&q, &st, &s, &in, 1.0/60)
	if fwd := mathx.Rotate(q, mgl32.Vec3{0, 0, 1}); !vecNear(fwd, mathx.NormalizeOr(in.TargetPos, mgl32.Vec3{}), 1e-6) {
		t.Errorf("forward %v, want the target's direction", fwd)
	}
}

// yawOnlyStep is Eye.Step as it was before the pitch: the damped yaw about
// up, nothing else.
func yawOnlyStep(e *Eye, dst *mgl32.Quat, st *EyeState, in *EyeInput, dt float32) {
	a := Damping(e.settings.Speed, dt)
	rest := unitRest(in)
	goal, _ := e.targetAngles(in, rest)
	st.Yaw = mathx.Clamp(damp(finiteOr0(st.Yaw), goal, a), e.lo, e.hi)
	_, u, _ := e.axes()
	sn, cs := sincosHalfTurn(st.Yaw * mathx.Clamp01(in.Weight) / 2)
	*dst = qmul(rest.w, rest.x, rest.y, rest.z, cs, u.x*sn, u.y*sn, u.z*sn).mgl()
}

// A level target (in the eye's rest frame) gives the yaw-only rotation:
// the same bits with identity rotations, and to rounding (2e-6 rad) under
// random parents, rests, axes, weights and states. With both pitch limits
// 0 every target gives the yaw-only bits.
func TestEyeLevelTargetIsYawOnly(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	axes := [][2]mgl32.Vec3{{{0, 0, 1}, {0, 1, 0}}, {{1, 0, 0}, {0, 0, 1}}, {{-2, 0, 0.3}, {0, 3, 0}}}
	for i := range 3000 {
		s := DefaultEyeSettings()
		s.Forward, s.Up = axes[i%3][0], axes[i%3][1]
		flat := i%4 == 3
		if flat {
			s.MinPitchDegrees, s.MaxPitchDegrees = 0, 0
		}
		e, err := NewEye(s)
		if err != nil {
			t.Fatal(err)
		}
		in := EyeInput{ParentWorldRot: mgl32.QuatIdent(), RestLocalRot: mgl32.QuatIdent(), Weight: r.Float32()*1.4 - 0.2}
		exact := i%2 == 0 || flat
		if !exact {
			in.ParentWorldRot, in.RestLocalRot = randUnitQuat(r), randUnitQuat(r)
		}
		in.Origin = randDir(r)
		// A direction in the eye's rest frame with no up part, to world.
		d := e.f.mgl().Mul(r.Float32()*2 - 1).Add(e.side.mgl().Mul(r.Float32()*2 - 1))
		if flat {
			d = randDir(r)
		}
		in.TargetPos = in.Origin.Add(mathx.Rotate(mathx.Mul(in.ParentWorldRot, in.RestLocalRot), d.Mul(3)))
		st := EyeState{Yaw: r.Float32() - 0.5}
		ref := st
		var got, want mgl32.Quat
		e.Step(&got, &st, &in, 1.0/60)
		yawOnlyStep(&e, &want, &ref, &in, 1.0/60)
		if exact {
			if got != want || st.Yaw != ref.Yaw || st.Pitch != 0 {
				t.Fatalf("case %d: %v yaw %v pitch %v, want %v yaw %v pitch 0", i, got, st.Yaw, st.Pitch, want, ref.Yaw)
			}
			continue
		}
		if a := angleDiff(got, want); a > 2e-6 || math.Abs(float64(st.Pitch)) > 1e-6 {
			t.Fatalf("case %d: %v, yaw-only %v (%.3g rad), pitch %v", i, got, want, a, st.Pitch)
		}
	}
}

// The pitch is damped as the yaw is: one frame of 1/30 s equals two of
// 1/60 s, and both angles close the same fraction of their gap each frame.
func TestEyePitchDampingExact(t *testing.T) {
	s := DefaultEyeSettings()
	in := EyeInput{ParentWorldRot: mgl32.QuatIdent(), RestLocalRot: mgl32.QuatIdent(), TargetPos: mgl32.Vec3{0, 0.3, 1}, Weight: 1}
	a, b := EyeState{Pitch: -0.2}, EyeState{Pitch: -0.2}
	var q mgl32.Quat
	stepEye(&q, &a, &s, &in, 1.0/30)
	stepEye(&q, &b, &s, &in, 1.0/60)
	stepEye(&q, &b, &s, &in, 1.0/60)
	if d := math.Abs(float64(a.Pitch - b.Pitch)); d > 1e-6 {
		t.Fatalf("1×1/30 and 2×1/60 differ by %v rad", d)
	}
	// Hand-worked: goal atan2(0.3, 1) = 0.2914568 rad, speed 20, dt 1/30:
	// -0.2 + (0.2914568 + 0.2) * (1 - exp(-2/3)) = 0.0391345.
	if math.Abs(float64(a.Pitch)-0.0391345) > 1e-6 {
		t.Fatalf("pitch %v, want 0.0391345", a.Pitch)
	}
	// Target 0.2 right and 0.1 up: goals atan2(0.2, 1) and
	// atan2(0.1, sqrt(1.04)), both inside the limits.
	in.TargetPos = mgl32.Vec3{0.2, 0.1, 1}
	gy, gp := math.Atan2(0.2, 1), math.Atan2(0.1, math.Sqrt(1.04))
	st := EyeState{Yaw: -0.3, Pitch: 0.2}
	for f := 1; f <= 30; f++ {
		stepEye(&q, &st, &s, &in, 1.0/60)
		ry, rp := (gy-float64(st.Yaw))/(gy+0.3), (gp-float64(st.Pitch))/(gp-0.2)
		want := math.Exp(-20 * float64(f) / 60)
		if math.Abs(ry-want) > 1e-5 || math.Abs(rp-want) > 1e-5 {
			t.Fatalf("frame %d: gaps left %v (yaw) and %v (pitch), want %v", f, ry, rp, want)
		}
	}
}

// Half the weight gives half the pitch.
func TestEyeWeightScalesPitch(t *testing.T) {
	s := DefaultEyeSettings()
	in := EyeInput{ParentWorldRot: mgl32.QuatIdent(), RestLocalRot: mgl32.QuatIdent(), TargetPos: mgl32.Vec3{0, -4, 1}, Weight: 0.5}
	st := EyeState{Pitch: float32(-25 * deg)}
	var q mgl32.Quat
	stepEye(&q, &st, &s, &in, 1.0/60)
	if _, p := eyeAnglesOf(q); math.Abs(p-(-12.5*deg)) > 1e-5 {
		t.Fatalf("half weight: pitch %v deg, want -12.5", p/deg)
	}
}

// Degenerate targets give finite unit rotations and angles within the
// limits: on the eye (no direction: yaw and pitch 0), behind the head
// (yaw at its limit, pitch the target's elevation, atan2(-0.2, sqrt(1.01))
// = -0.196441, or its limit), straight up and down, and 1e20 away (its
// squared distance overflows float32); a NaN state starts again from 0.
func TestEyePitchDegenerateTargets(t *testing.T) {
	s := DefaultEyeSettings()
	up, down := float32(20*deg), float32(-25*deg)
	for _, c := range []struct {
		target, origin mgl32.Vec3
		yaw, pitch     float32
	}{
		{mgl32.Vec3{0, 0, 0}, mgl32.Vec3{}, 0, 0},
		{mgl32.Vec3{1, 2, 3}, mgl32.Vec3{1, 2, 3}, 0, 0},
		{mgl32.Vec3{0, 0, -1}, mgl32.Vec3{}, float32(30 * deg), 0},
		{mgl32.Vec3{0, 0.5, -1}, mgl32.Vec3{}, float32(30 * deg), up},
		{mgl32.Vec3{-0.1, -0.2, -1}, mgl32.Vec3{}, float32(-30 * deg), -0.196441},
		{mgl32.Vec3{0, 3, 0}, mgl32.Vec3{}, 0, up},
		{mgl32.Vec3{0, -3, 0}, mgl32.Vec3{}, 0, down},
		{mgl32.Vec3{0, 1e20, 1e20}, mgl32.Vec3{}, 0, up},
		{mgl32.Vec3{0, 1e-30, 1e-30}, mgl32.Vec3{}, 0, 0},
	} {
		in := EyeInput{ParentWorldRot: mgl32.QuatIdent(), RestLocalRot: mgl32.QuatIdent(), Origin: c.origin, TargetPos: c.target, Weight: 1}
		e, _ := NewEye(s)
		yaw, pitch := e.TargetYaw(&in), e.TargetPitch(&in)
		if math.Abs(float64(yaw-c.yaw)) > 1e-5 || math.Abs(float64(pitch-c.pitch)) > 1e-5 {
			t.Errorf("target %v from %v: yaw %v pitch %v, want %v and %v", c.target, c.origin, yaw, pitch, c.yaw, c.pitch)
		}
		st := EyeState{Yaw: float32(math.NaN()), Pitch: float32(math.Inf(1))}
		var q mgl32.Quat
		for range 3 {
			e.Step(&q, &st, &in, 1.0/60)
			quatOK(t, "eye", q)
			if !mathx.IsFinite(st.Yaw) || !(st.Pitch >= down && st.Pitch <= up) {
				t.Fatalf("target %v: state %+v", c.target, st)
			}
		}
	}
}
