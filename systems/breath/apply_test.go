package breath

import (
	"math"
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/mathx"
)

func TestAxisRotationByHand(t *testing.T) {
	for _, c := range []struct {
		axis Axis
		deg  float32
		want mgl32.Quat
	}{
		// Half angles: 45°: cos = sin = 0.70710678; 90°: cos 0, sin 1;
		// -30°: cos = 0.8660254, sin = -0.5.
		{AxisX, 90, mgl32.Quat{W: 0.70710678, V: mgl32.Vec3{0.70710678, 0, 0}}},
		{AxisY, 180, mgl32.Quat{W: 0, V: mgl32.Vec3{0, 1, 0}}},
		{AxisZ, -60, mgl32.Quat{W: 0.8660254, V: mgl32.Vec3{0, 0, -0.5}}},
		{AxisX, 0, mgl32.QuatIdent()},
		{Axis(7), 90, mgl32.Quat{W: 0.70710678}}, // unknown axis: no vector part, never a panic
	} {
		if d := quatDiff(AxisRotation(c.axis, c.deg), c.want); d > 1e-6 {
			t.Errorf("AxisRotation(%d, %v) = %v, want %v", c.axis, c.deg, AxisRotation(c.axis, c.deg), c.want)
		}
	}
	// The same quaternion as mgl32's axis-angle about the unit axis.
	if d := quatDiff(AxisRotation(AxisY, 33), mgl32.QuatRotate(mgl32.DegToRad(33), mgl32.Vec3{0, 1, 0})); d > 1e-6 {
		t.Errorf("AxisRotation disagrees with QuatRotate by %v", d)
	}
}

func TestShoulderLocal(t *testing.T) {
	parentNew := mgl32.QuatRotate(0.3, mathx.NormalizeOr(mgl32.Vec3{1, 2, 3}, mgl32.Vec3{}))
	old := mgl32.QuatRotate(-1.1, mathx.NormalizeOr(mgl32.Vec3{-2, 1, 0.5}, mgl32.Vec3{}))
	local := ShoulderLocal(old, parentNew)
	if d := quatDiff(mathx.Mul(parentNew, local), old); d > 1e-6 {
		t.Errorf("parentNew*local differs from the old world rotation by %v", d)
	}
}

// breathFrames runs the rig for frames Steps of dt, in the given mode, and
// returns the world rotations after each frame's FK and the states.
func breathFrames(t *testing.T, mode Mode, frames int, dt float32) (after [][]mgl32.Quat, states []State) {
	t.Helper()
	rest := testRig(1)
	s := rigSettings()
	s.Mode = mode
	s.EffectRate = 4 // large angles make mistakes visible
	s.ChooseAxes(rest.WorldRot, mgl32.Vec3{1, 0, 0})
	// Give the chest a different axis from the spine so that the order of
	// their corrections matters.
	s.Segments[Chest].Axis, s.Segments[Chest].Sign = AxisZ, -1
	s.Segments[Spine].Axis = AxisX
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	pose := newPose(rigBones)
	pose.copyLocals(rest)
	pose.fk(rigParents)
	var st State
	Init(&st, &s, 0)
	for k := 0; k < frames; k++ {
		if mode == Absolute {
			pose.copyLocals(rest) // the animation resets the pose
		}
		pose.fk(rigParents)
		Step(&st, &s, dt)
		Apply(pose.LocalRot, pose.WorldRot, rigParents, &st, &s)
		pose.fk(rigParents)
		after = append(after, append([]mgl32.Quat(nil), pose.WorldRot...))
		states = append(states, st)
	}
	return after, states
}

func TestShouldersKeepWorldRotation(t *testing.T) {
	for _, mode := range []Mode{Absolute, Additive} {
		after, _ := breathFrames(t, mode, 500, 0.01)
		rest := testRig(1)
		moved := float32(0)
		for k := range after {
			for _, b := range []int{rigLShoulder, rigLUpperArm, rigRShoulder, rigRUpperArm} {
				if d := quatDiff(after[k][b], rest.WorldRot[b]); d > 1e-5 {
					t.Fatalf("mode %d frame %d: bone %d turned by %v (component), want < 1e-5", mode, k, b, d)
				}
			}
			// The chest did turn away from its rest rotation.
			moved = max(moved, quatDiff(after[k][rigChest], rest.WorldRot[rigChest]))
		}
		if moved < 0.05 {
			t.Fatalf("mode %d: chest never turned (largest change %v): the test is vacuous", mode, moved)
		}
	}
}

func TestAbsoluteMatchesAdditive(t *testing.T) {
	abs, stA := breathFrames(t, Absolute, 800, 0.01)
	add, _ := breathFrames(t, Additive, 800, 0.01)
	for k := range abs {
		for b := range abs[k] {
			if d := quatDiff(abs[k][b], add[k][b]); d > 1e-5 {
				t.Fatalf("frame %d (%v) bone %d: absolute %v, additive %v", k, stA[k].Phase, b, abs[k][b], add[k][b])
			}
		}
	}
}

func TestApplySegmentLocals(t *testing.T) {
	rest := testRig(2)
	s := rigSettings()
	s.Segments[Neck].Axis, s.Segments[Neck].Sign = AxisY, -1
	var st State
	Init(&st, &s, 0)
	Step(&st, &s, 0.6)
	pose := newPose(rigBones)
	pose.copyLocals(rest)
	pose.fk(rigParents)
	Apply(pose.LocalRot, pose.WorldRot, rigParents, &st, &s)
	// Spine: OutSine to 2° at t = d/2: 2*sin(pi/4) = 1.41421356° about X.
	want := mathx.Mul(rest.LocalRot[rigSpine], mgl32.QuatRotate(mgl32.DegToRad(1.41421356), mgl32.Vec3{1, 0, 0}))
	if d := quatDiff(pose.LocalRot[rigSpine], want); d > 1e-6 {
		t.Errorf("spine local off by %v", d)
	}
	// Neck: 0.5 * -1 * sin(pi/4) = -0.35355339° about Y.
	want = mathx.Mul(rest.LocalRot[rigNeck], mgl32.QuatRotate(mgl32.DegToRad(-0.35355339), mgl32.Vec3{0, 1, 0}))
	if d := quatDiff(pose.LocalRot[rigNeck], want); d > 1e-6 {
		t.Errorf("neck local off by %v", d)
	}
	// Hips and the upper arms are untouched.
	for _, b := range []int{rigHips, rigLUpperArm, rigRUpperArm} {
		if pose.LocalRot[b] != rest.LocalRot[b] {
			t.Errorf("bone %d changed", b)
		}
	}
}

func TestApplyDegenerateInput(t *testing.T) {
	s := rigSettings()
	var st State
	Init(&st, &s, 0)
	Step(&st, &s, 0.5)
	rest := testRig(3)

	// Empty and short slices: nothing happens, nothing panics.
	Apply(nil, nil, nil, &st, &s)
	short := append([]mgl32.Quat(nil), rest.LocalRot[:3]...)
	Apply(short, rest.WorldRot[:3], rigParents[:3], &st, &s)
	if short[0] != rest.LocalRot[0] {
		t.Error("hips changed")
	}

	// Bone indices beyond the pose, shoulders without parents list entries,
	// a shoulder that is a root, a parent array that points forward.
	s.Segments[Head].Bone = 100
	s.Shoulders = [2]int32{0, 50}
	local := append([]mgl32.Quat(nil), rest.LocalRot...)
	broken := append([]int32(nil), rigParents...)
	broken[rigChest] = rigHead // forward: the walk stops there
	Apply(local, rest.WorldRot, broken, &st, &s)
	for _, q := range local {
		if !mathx.QuatFinite(q) {
			t.Fatalf("non-finite rotation %v", q)
		}
	}

	// Unit-length but zero world rotations (not a rotation at all) give a
	// finite shoulder local.
	s = rigSettings()
	world := append([]mgl32.Quat(nil), rest.WorldRot...)
	world[rigChest] = mgl32.Quat{}
	local = append([]mgl32.Quat(nil), rest.LocalRot...)
	Apply(local, world, rigParents, &st, &s)
	for _, q := range local {
		if !mathx.QuatFinite(q) {
			t.Fatalf("non-finite rotation %v", q)
		}
	}
}

func TestApplyAfterHugeAndZeroSteps(t *testing.T) {
	s := rigSettings()
	s.Mode = Additive
	rest := testRig(4)
	pose := newPose(rigBones)
	pose.copyLocals(rest)
	var st State
	Init(&st, &s, 0)
	for _, dt := range []float32{0, 1e30, float32(math.NaN()), 0, 1e-30} {
		pose.fk(rigParents)
		Step(&st, &s, dt)
		Apply(pose.LocalRot, pose.WorldRot, rigParents, &st, &s)
		for _, q := range pose.LocalRot {
			if !mathx.QuatFinite(q) {
				t.Fatalf("dt = %v: non-finite rotation %v", dt, q)
			}
		}
	}
}

func TestHalfSinCosMatchesMath(t *testing.T) {
	// The series branch (|deg| <= 90) and the math branch agree with
	// float64 sine and cosine of half the angle.
	for deg := float32(-400); deg <= 400; deg += 0.37 {
		s, c := halfSinCos(deg)
		ws, wc := math.Sincos(float64(deg) * math.Pi / 360)
		if abs(s-float32(ws)) > 2e-7 || abs(c-float32(wc)) > 2e-7 {
			t.Fatalf("halfSinCos(%v) = %v, %v, want %v, %v", deg, s, c, ws, wc)
		}
	}
	for _, deg := range []float32{90, -90, 90.0001} {
		s, c := halfSinCos(deg)
		near(t, "sin 45°", abs(s), 0.70710678, 1e-6)
		near(t, "cos 45°", c, 0.70710678, 1e-6)
	}
}

func TestMulAxisMatchesProduct(t *testing.T) {
	r := rand.New(rand.NewSource(11))
	for k := 0; k < 100; k++ {
		q := randomRot(r, 180)
		deg := float32(r.Float64()*40 - 20)
		s, c := halfSinCos(deg)
		for a := AxisX; a <= AxisZ; a++ {
			if d := quatDiff(mulAxis(q, a, s, c), mathx.Mul(q, AxisRotation(a, deg))); d > 1e-6 {
				t.Fatalf("axis %d: mulAxis differs by %v", a, d)
			}
		}
	}
	// An unknown axis scales by the cosine only, as AxisRotation does.
	q := mgl32.Quat{W: 1, V: mgl32.Vec3{2, 3, 4}}
	if got := mulAxis(q, 9, 0.6, 0.8); quatDiff(got, mathx.Mul(q, AxisRotation(9, 73.739795))) > 1e-5 {
		t.Errorf("unknown axis: %v", got)
	}
}

func TestRenormalize(t *testing.T) {
	q := mgl32.Quat{W: 0.6 * 1.0001, V: mgl32.Vec3{0.8 * 1.0001, 0, 0}}
	got := renormalize(q)
	near(t, "length", got.W*got.W+mathx.Dot(got.V, got.V), 1, 2e-7)
	if got := renormalize(mgl32.Quat{}); got != (mgl32.Quat{}) {
		t.Errorf("zero quaternion became %v", got)
	}
}
