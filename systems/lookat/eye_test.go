package lookat

import (
	"errors"
	"math"
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/internal/mathx"
)

// eyeYawOf returns the yaw in radians of the eye's forward (+Z) about +Y.
func eyeYawOf(local mgl32.Quat) float64 {
	f := mathx.Rotate(local, mgl32.Vec3{0, 0, 1})
	return math.Atan2(float64(f[0]), float64(f[2]))
}

// Hand-worked: a target at +X is 90 degrees off, limited to 30 degrees
// (0.5235988 rad); a target 20 degrees off is followed exactly.
func TestEyeTargetYawHandWorked(t *testing.T) {
	s := DefaultEyeSettings()
	in := EyeInput{ParentWorldRot: mgl32.QuatIdent(), RestLocalRot: mgl32.QuatIdent(), TargetPos: mgl32.Vec3{4, 0, 0}}
	if y := eyeYaw(&s, &in); math.Abs(float64(y)-0.5235988) > 1e-6 {
		t.Fatalf("yaw %v, want 0.5235988", y)
	}
	in.TargetPos = mgl32.Vec3{float32(math.Sin(-20 * deg)), 0.3, float32(math.Cos(-20 * deg))}
	if y := eyeYaw(&s, &in); math.Abs(float64(y)+20*deg) > 1e-6 {
		t.Fatalf("yaw %v, want %v", y, -20*deg)
	}
}

// Targets all around, behind included, with asymmetric limits: the yaw and
// the output rotation stay within [min, max] every frame.
func TestEyeLimitsHoldBehind(t *testing.T) {
	s := DefaultEyeSettings()
	s.MinYawDegrees, s.MaxYawDegrees = -10, 35
	lo, hi := -10*deg-1e-5, 35*deg+1e-5
	r := rand.New(rand.NewSource(4))
	in := EyeInput{ParentWorldRot: mgl32.QuatIdent(), RestLocalRot: mgl32.QuatIdent(), Weight: 1}
	st := EyeState{}
	var q mgl32.Quat
	behind := []mgl32.Vec3{{0, 0, -1}, {1e-4, 0, -1}, {-1e-4, 0, -1}, {0.3, 0.5, -1}, {-0.3, -2, -1}}
	for f := 0; f < 3000; f++ {
		if f%5 == 0 {
			if f/5 < len(behind) {
				in.TargetPos = behind[f/5]
			} else {
				in.TargetPos = randDir(r).Mul(3)
			}
		}
		stepEye(&q, &st, &s, &in, 1.0/60)
		quatOK(t, "eye", q)
		if y := float64(st.Yaw); y < lo || y > hi {
			t.Fatalf("frame %d: state yaw %v deg outside limits", f, y/deg)
		}
		if y := eyeYawOf(q); y < lo || y > hi {
			t.Fatalf("frame %d: eye yaw %v deg outside limits", f, y/deg)
		}
	}
}

// A state left outside the limits (settings changed) is pulled in at once.
func TestEyeStateOutsideLimits(t *testing.T) {
	s := DefaultEyeSettings()
	in := EyeInput{ParentWorldRot: mgl32.QuatIdent(), RestLocalRot: mgl32.QuatIdent(), TargetPos: mgl32.Vec3{0, 0, 1}, Weight: 1}
	st := EyeState{Yaw: 2}
	var q mgl32.Quat
	stepEye(&q, &st, &s, &in, 1.0/60)
	if st.Yaw > 30*deg+1e-6 {
		t.Fatalf("yaw %v not limited", st.Yaw)
	}
}

func TestEyeDampingExact(t *testing.T) {
	s := DefaultEyeSettings()
	in := EyeInput{ParentWorldRot: yawQuat(10), RestLocalRot: mgl32.QuatIdent(), TargetPos: mgl32.Vec3{1, 0, 2}, Weight: 1}
	a, b := EyeState{Yaw: -0.2}, EyeState{Yaw: -0.2}
	var q mgl32.Quat
	stepEye(&q, &a, &s, &in, 1.0/30)
	stepEye(&q, &b, &s, &in, 1.0/60)
	stepEye(&q, &b, &s, &in, 1.0/60)
	if d := math.Abs(float64(a.Yaw - b.Yaw)); d > 1e-6 {
		t.Fatalf("1×1/30 and 2×1/60 differ by %v rad", d)
	}
	// Hand-worked: goal atan2(1, 2) - 10° = 0.2891147 rad, speed 20,
	// dt 1/30: -0.2 + (0.2891147 + 0.2) * (1 - exp(-2/3)) = 0.0379948.
	if math.Abs(float64(a.Yaw)-0.0379948) > 1e-6 {
		t.Fatalf("yaw %v, want 0.0379948", a.Yaw)
	}
}

// The eye must see the head's new rotation: the head turns 60 degrees
// toward a target 90 degrees off, and the eye (limit 30) covers the rest
// only when its parent rotation is recomputed after the head step.
func TestEyeParentAfterHead(t *testing.T) {
	hs := DefaultHeadSettings()
	es := DefaultEyeSettings()
	target := mgl32.Vec3{100, 0, 0}
	head := HeadInput{ParentWorldRot: mgl32.QuatIdent(), RestLocalRot: mgl32.QuatIdent(), TargetPos: target, Weight: 1}
	hst := HeadState{Rotation: mgl32.QuatIdent(), Weight: 1}
	var est EyeState
	var hp HeadPose
	var eye mgl32.Quat
	for f := 0; f < 600; f++ {
		stepHead(&hp, &hst, &hs, &head, 1.0/60)
		in := EyeInput{ParentWorldRot: hp.World, RestLocalRot: mgl32.QuatIdent(), TargetPos: target, Weight: hst.Weight}
		stepEye(&eye, &est, &es, &in, 1.0/60)
	}
	world := mathx.Mul(hp.World, eye)
	if fwd := mathx.Rotate(world, mgl32.Vec3{0, 0, 1}); !vecNear(fwd, mgl32.Vec3{1, 0, 0}, 1e-4) {
		t.Fatalf("eye forward %v, want +X", fwd)
	}
}

func TestEyeTargetAboveOrAtOrigin(t *testing.T) {
	s := DefaultEyeSettings()
	for _, tgt := range []mgl32.Vec3{{0, 5, 0}, {0, -5, 0}, {0, 0, 0}} {
		in := EyeInput{ParentWorldRot: mgl32.QuatIdent(), RestLocalRot: mgl32.QuatIdent(), TargetPos: tgt, Weight: 1}
		if y := eyeYaw(&s, &in); y != 0 {
			t.Fatalf("target %v: yaw %v, want 0", tgt, y)
		}
		st := EyeState{Yaw: float32(math.NaN())}
		var q mgl32.Quat
		stepEye(&q, &st, &s, &in, 1.0/60)
		quatOK(t, "eye", q)
	}
}

func TestEyeWeightScalesYaw(t *testing.T) {
	s := DefaultEyeSettings()
	in := EyeInput{ParentWorldRot: mgl32.QuatIdent(), RestLocalRot: mgl32.QuatIdent(), TargetPos: mgl32.Vec3{4, 0, 0}, Weight: 0.5}
	st := EyeState{Yaw: float32(30 * deg)}
	var q mgl32.Quat
	stepEye(&q, &st, &s, &in, 1.0/60)
	if y := eyeYawOf(q); math.Abs(y-15*deg) > 1e-5 {
		t.Fatalf("half weight: yaw %v deg, want 15", y/deg)
	}
	in.Weight = 7 // clamped to 1
	stepEye(&q, &st, &s, &in, 1.0/60)
	if y := eyeYawOf(q); math.Abs(y-30*deg) > 1e-5 {
		t.Fatalf("weight 7: yaw %v deg, want 30", y/deg)
	}
}

func TestEyeSettingsValidate(t *testing.T) {
	good := DefaultEyeSettings()
	if err := good.Validate(); err != nil {
		t.Fatalf("defaults: %v", err)
	}
	cases := []struct {
		field string
		edit  func(*EyeSettings)
	}{
		{"Forward", func(s *EyeSettings) { s.Forward = mgl32.Vec3{} }},
		{"Up", func(s *EyeSettings) { s.Up = mgl32.Vec3{0, 0, 1} }},
		{"MinYawDegrees", func(s *EyeSettings) { s.MinYawDegrees = -181 }},
		{"MaxYawDegrees", func(s *EyeSettings) { s.MaxYawDegrees = float32(math.NaN()) }},
		{"MinYawDegrees", func(s *EyeSettings) { s.MinYawDegrees, s.MaxYawDegrees = 20, 10 }},
		{"MinPitchDegrees", func(s *EyeSettings) { s.MinPitchDegrees = -91 }},
		{"MaxPitchDegrees", func(s *EyeSettings) { s.MaxPitchDegrees = 90.5 }},
		{"MaxPitchDegrees", func(s *EyeSettings) { s.MaxPitchDegrees = float32(math.NaN()) }},
		{"MinPitchDegrees", func(s *EyeSettings) { s.MinPitchDegrees, s.MaxPitchDegrees = 5, -5 }},
		{"Speed", func(s *EyeSettings) { s.Speed = -1 }},
	}
	for _, c := range cases {
		s := good
		c.edit(&s)
		err := s.Validate()
		var fe *check.FieldError
		if !errors.As(err, &fe) || fe.Field != c.field || fe.Type != "EyeSettings" {
			t.Errorf("want FieldError on %s, got %v", c.field, err)
		}
	}
}
