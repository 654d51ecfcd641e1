package lookat

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

func TestKernelsDoNotAllocate(t *testing.T) {
	h, err := NewHead(DefaultHeadSettings())
	if err != nil {
		t.Fatal(err)
	}
	e, err := NewEye(DefaultEyeSettings())
	if err != nil {
		t.Fatal(err)
	}
	hin := HeadInput{ParentWorldRot: yawQuat(20), RestLocalRot: mgl32.QuatIdent(), TargetPos: mgl32.Vec3{3, 1, -2}, Weight: 1}
	hst := NewHeadState(hin.RestLocalRot)
	ein := EyeInput{ParentWorldRot: yawQuat(20), RestLocalRot: mgl32.QuatIdent(), TargetPos: mgl32.Vec3{3, 1, -2}, Weight: 1}
	var est EyeState
	var hp HeadPose
	var eye mgl32.Quat
	shares := []float32{0.2, 0.3}
	dst := make([]mgl32.Quat, 2)
	cases := map[string]func(){
		"Head.Step":       func() { h.Step(&hp, &hst, &hin, 1.0/60) },
		"Head.Target":     func() { hp.Local = h.Target(&hin) },
		"Eye.Step":        func() { e.Step(&eye, &est, &ein, 1.0/60) },
		"SplitTurn":       func() { eye = SplitTurn(dst, yawQuat(40), shares) },
		"ApplyWorldTurn":  func() { eye = ApplyWorldTurn(hin.ParentWorldRot, eye, hp.Local) },
		"Eye.TargetYaw":   func() { est.Yaw = e.TargetYaw(&ein) },
		"Eye.TargetPitch": func() { est.Pitch = e.TargetPitch(&ein) },
		"Damping":         func() { hst.Weight = Damping(4, 1.0/60) },
	}
	for name, f := range cases {
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s allocates %v times per call", name, n)
		}
	}
}
