package gltfrig

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// The demo avatar carries a one-second "Walk": 31 keys at 30 per second;
// at its first key the left upper arm points 70 degrees below the T-pose's
// +X, (cos 70, -sin 70, 0), and the legs stand straight.
func TestDemoAvatarWalk(t *testing.T) {
	glb, err := DemoAvatar()
	if err != nil {
		t.Fatal(err)
	}
	r := decodeBytes(t, glb)
	if len(r.Animations) != 1 {
		t.Fatalf("%d animations, want 1", len(r.Animations))
	}
	a := &r.Animations[0]
	if a.Name != "Walk" || a.KeyCount != DemoWalkKeys || a.Duration != 1 || a.SampleRate != 30 {
		t.Fatalf("animation %q: %d keys over %v s at %v/s", a.Name, a.KeyCount, a.Duration, a.SampleRate)
	}
	arm := track(t, a, "J_Bip_L_UpperArm")
	got := arm.Rotations[0].Rotate(mgl32.Vec3{1, 0, 0})
	want := mgl32.Vec3{float32(math.Cos(70 * math.Pi / 180)), -float32(math.Sin(70 * math.Pi / 180)), 0}
	if !got.ApproxEqualThreshold(want, 1e-5) {
		t.Fatalf("the left arm at key 0 points %v, want %v", got, want)
	}
	if leg := track(t, a, "J_Bip_L_UpperLeg"); math.Abs(float64(leg.Rotations[0].W)-1) > 1e-6 {
		t.Fatalf("the left leg at key 0 is turned: %v", leg.Rotations[0])
	}
}
