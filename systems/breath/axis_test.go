package breath

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

func deg(d float32) float32 { return mgl32.DegToRad(d) }

func TestChooseAxisSpineXPointsLeft(t *testing.T) {
	// Half a turn about up: the spine's X axis points to -X, the
	// character's left (right is +X); its forward points back.
	rot := mgl32.QuatRotate(deg(180), mgl32.Vec3{0, 1, 0})
	axis, sign := ChooseAxis(rot, mgl32.Vec3{1, 0, 0})
	if axis != AxisX || sign != -1 {
		t.Errorf("got axis %d sign %v, want AxisX and -1", axis, sign)
	}
	// The segment then bends the other way round: its inhale angle is
	// negated, so the world motion matches an unflipped bone.
	s := rigSettings()
	rest := make([]mgl32.Quat, rigBones)
	for i := range rest {
		rest[i] = mgl32.QuatIdent()
	}
	rest[rigSpine] = rot
	s.ChooseAxes(rest, mgl32.Vec3{1, 0, 0})
	if s.Segments[Spine].Axis != AxisX || s.Segments[Spine].Sign != -1 || s.Segments[Chest].Sign != 1 {
		t.Errorf("ChooseAxes gave %+v", s.Segments)
	}
	var st State
	Init(&st, &s, 0)
	Step(&st, &s, 1.2)
	near(t, "spine at end of inhale", st.Angle[Spine], -2, 1e-6)
}

func TestChooseAxis(t *testing.T) {
	right := mgl32.Vec3{1, 0, 0}
	for _, c := range []struct {
		name  string
		rot   mgl32.Quat
		right mgl32.Vec3
		axis  Axis
		sign  float32
	}{
		{"identity", mgl32.QuatIdent(), right, AxisX, 1},
		// 90° about Y turns +Z onto +X: forward carries the angle.
		{"forward along right", mgl32.QuatRotate(deg(90), mgl32.Vec3{0, 1, 0}), right, AxisZ, 1},
		// -90° about Z turns +Y onto (1, 0, 0): up carries the angle.
		{"up along right", mgl32.QuatRotate(deg(-90), mgl32.Vec3{0, 0, 1}), right, AxisY, 1},
		// +90° about Z turns +Y onto -X.
		{"up along left", mgl32.QuatRotate(deg(90), mgl32.Vec3{0, 0, 1}), right, AxisY, -1},
		// 30° about Z: X·right = cos 30 = 0.866 beats |Y·right| = 0.5.
		{"tilted", mgl32.QuatRotate(deg(30), mgl32.Vec3{0, 0, 1}), right, AxisX, 1},
		// A character turned 90° about Y has its right along -Z; an
		// identity bone's forward (+Z) points to its left.
		{"turned character", mgl32.QuatIdent(), mgl32.Vec3{0, 0, -1}, AxisZ, -1},
		// Length does not matter.
		{"long right", mgl32.QuatIdent(), mgl32.Vec3{0, 0, -40}, AxisZ, -1},
		// A zero right counts as +X.
		{"zero right", mgl32.QuatRotate(deg(180), mgl32.Vec3{0, 1, 0}), mgl32.Vec3{}, AxisX, -1},
		{"NaN right", mgl32.QuatIdent(), mgl32.Vec3{float32(math.NaN()), 0, 0}, AxisX, 1},
		// Right halfway between X and Z: |Z·right| = |X·right| = 0.7071
		// exactly; forward wins the tie as in the source.
		{"tie", mgl32.QuatIdent(), mgl32.Vec3{1, 0, 1}, AxisZ, 1},
	} {
		axis, sign := ChooseAxis(c.rot, c.right)
		if axis != c.axis || sign != c.sign {
			t.Errorf("%s: got axis %d sign %v, want %d %v", c.name, axis, sign, c.axis, c.sign)
		}
	}
}

func TestShoulderBoneFallback(t *testing.T) {
	for _, c := range []struct{ shoulder, upperArm, generic, want int32 }{
		{5, 6, 9, 5},
		{-1, 6, 9, 6},
		{-1, -1, 9, 9},
		{-1, -1, -1, -1},
		{-7, -1, -1, -1},
	} {
		if got := ShoulderBone(c.shoulder, c.upperArm, c.generic); got != c.want {
			t.Errorf("ShoulderBone(%d, %d, %d) = %d, want %d", c.shoulder, c.upperArm, c.generic, got, c.want)
		}
	}
	for _, c := range []struct{ humanoid, generic, want int32 }{{3, 8, 3}, {-1, 8, 8}, {-1, -1, -1}} {
		if got := SegmentBone(c.humanoid, c.generic); got != c.want {
			t.Errorf("SegmentBone(%d, %d) = %d, want %d", c.humanoid, c.generic, got, c.want)
		}
	}
}
