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

func TestDampingValues(t *testing.T) {
	cases := []struct {
		speed, dt float32
		want      float64
	}{
		{5, 0.1, 1 - math.Exp(-0.5)}, // 0.39346934
		{5, 1.0 / 30, 0.15351828},
		{0, 1, 0},
		{5, 0, 0},
		{5, -1, 0},
		{float32(math.NaN()), 1, 0},
		{5, float32(math.NaN()), 0},
		{1e30, 1, 1},
	}
	for _, c := range cases {
		got := Damping(c.speed, c.dt)
		if math.Abs(float64(got)-c.want) > 1e-7 {
			t.Errorf("Damping(%v, %v) = %v, want %v", c.speed, c.dt, got, c.want)
		}
	}
}

// A target 90 degrees to the right with a 60 degree cone: the clamped look
// rotation is a 60 degree yaw, quaternion (cos 30°, 0, sin 30°, 0), and the
// forward becomes (sin 60°, 0, cos 60°).
func TestHeadTargetRotationHandWorked(t *testing.T) {
	s := DefaultHeadSettings()
	in := HeadInput{ParentWorldRot: mgl32.QuatIdent(), RestLocalRot: mgl32.QuatIdent(), TargetPos: mgl32.Vec3{5, 0, 0}}
	q := headTarget(&s, &in)
	want := mgl32.Quat{W: 0.8660254, V: mgl32.Vec3{0, 0.5, 0}}
	if !quatNear(q, want, 1e-6) {
		t.Fatalf("rotation %v, want %v", q, want)
	}
	fwd := mathx.Rotate(q, mgl32.Vec3{0, 0, 1})
	if !vecNear(fwd, mgl32.Vec3{0.8660254, 0, 0.5}, 1e-6) {
		t.Fatalf("forward %v", fwd)
	}
	// Inside the cone the head looks straight at the target.
	in.TargetPos = mgl32.Vec3{1, 1, 2}
	fwd = mathx.Rotate(headTarget(&s, &in), mgl32.Vec3{0, 0, 1})
	if a := vecAngle(fwd, in.TargetPos); a > 1e-6 {
		t.Fatalf("in-cone target missed by %v rad", a)
	}
}

// The rotated up axis stays in the plane of forward and the reference up,
// as Quaternion.LookRotation does: no roll.
func TestHeadTargetRotationKeepsUpright(t *testing.T) {
	s := DefaultHeadSettings()
	s.MaxTurnDegrees = 180
	r := rand.New(rand.NewSource(3))
	for i := 0; i < 200; i++ {
		in := HeadInput{ParentWorldRot: mgl32.QuatIdent(), RestLocalRot: mgl32.QuatIdent(), TargetPos: randDir(r)}
		q := headTarget(&s, &in)
		up := mathx.Rotate(q, mgl32.Vec3{0, 1, 0})
		fwd := mathx.Rotate(q, mgl32.Vec3{0, 0, 1})
		side := mathx.Cross(mgl32.Vec3{0, 1, 0}, fwd)
		if mathx.Len(side) < 1e-2 {
			continue
		}
		if d := mathx.Dot(up, mathx.NormalizeOr(side, mgl32.Vec3{})); math.Abs(float64(d)) > 1e-5 {
			t.Fatalf("target %v: up %v rolled (dot with side %v)", in.TargetPos, up, d)
		}
		if up[1] < 0 {
			t.Fatalf("target %v: head upside down, up %v", in.TargetPos, up)
		}
	}
}

// Still targets in all directions, including straight and obliquely behind:
// every frame stays within the cone and the head settles on the clamped
// direction.
func TestHeadReachesStillTargetWithinCone(t *testing.T) {
	s := DefaultHeadSettings()
	s.MaxTurnDegrees = 50
	maxRad := float64(s.MaxTurnDegrees) * deg
	r := rand.New(rand.NewSource(1))
	targets := []mgl32.Vec3{{0, 0, -3}, {0.1, 0.2, -3}, {3, 0, 0}, {0, 3, 0.1}, {0, -3, 0}, {0.5, 0.2, 3}}
	for i := 0; i < 40; i++ {
		targets = append(targets, randDir(r).Mul(2+r.Float32()*5))
	}
	for ti, tgt := range targets {
		parent, rest := randUnitQuat(r), randUnitQuat(r)
		head := mgl32.Vec3{r.Float32(), 1.6, r.Float32()}
		in := HeadInput{ParentWorldRot: parent, RestLocalRot: rest, HeadPos: head, TargetPos: head.Add(mathx.Rotate(parent, tgt)), Weight: 1}
		restFwd := mathx.Rotate(mathx.Mul(parent, rest), s.Forward)
		st := NewHeadState(rest)
		var pose HeadPose
		for f := 0; f < 240; f++ {
			stepHead(&pose, &st, &s, &in, 1.0/60)
			quatOK(t, "Local", pose.Local)
			fwd := mathx.Rotate(pose.World, s.Forward)
			if a := vecAngle(fwd, restFwd); a > maxRad+1e-4 {
				t.Fatalf("target %d frame %d: turned %v deg, max %v", ti, f, a/deg, s.MaxTurnDegrees)
			}
		}
		goal := headTarget(&s, &in)
		if a := angleDiff(st.Rotation, goal); a > 1e-3 {
			t.Fatalf("target %d: %v rad from goal after 4 s", ti, a)
		}
		fwd := mathx.Rotate(pose.World, s.Forward)
		want := math.Min(vecAngle(in.TargetPos.Sub(head), restFwd), maxRad)
		if a := vecAngle(fwd, restFwd); math.Abs(a-want) > 1e-3 {
			t.Fatalf("target %d: settled at %v deg from rest forward, want %v", ti, a/deg, want/deg)
		}
	}
}

// One frame of 1/30 s equals two frames of 1/60 s toward a still target.
// Hand-worked: speed 5, dt 1/30 gives 1 - exp(-1/6) = 0.15351828, so a 40
// degree yaw goal is reached by 6.1407 degrees after the first frame.
func TestHeadDampingExact(t *testing.T) {
	s := DefaultHeadSettings()
	in := HeadInput{ParentWorldRot: mgl32.QuatIdent(), RestLocalRot: mgl32.QuatIdent(),
		TargetPos: mgl32.Vec3{float32(math.Sin(40 * deg)), 0, float32(math.Cos(40 * deg))}, Weight: 1}
	one := HeadState{Rotation: mgl32.QuatIdent(), Weight: 1}
	var pose HeadPose
	stepHead(&pose, &one, &s, &in, 1.0/30)
	if a := float64(mathx.AngleBetween(one.Rotation, mgl32.QuatIdent())) / deg; math.Abs(a-6.1407) > 1e-3 {
		t.Fatalf("first frame turned %v deg, want 6.1407", a)
	}

	r := rand.New(rand.NewSource(2))
	for i := 0; i < 50; i++ {
		in := HeadInput{ParentWorldRot: randUnitQuat(r), RestLocalRot: randUnitQuat(r), TargetPos: randDir(r).Mul(3), Weight: 1}
		start := HeadState{Rotation: randUnitQuat(r), Weight: 0.3}
		a, b := start, start
		var pa, pb HeadPose
		stepHead(&pa, &a, &s, &in, 1.0/30)
		stepHead(&pb, &b, &s, &in, 1.0/60)
		stepHead(&pb, &b, &s, &in, 1.0/60)
		if d := angleDiff(a.Rotation, b.Rotation); d > 1e-5 {
			t.Fatalf("case %d: 1×1/30 and 2×1/60 differ by %v rad", i, d)
		}
		if d := math.Abs(float64(a.Weight - b.Weight)); d > 1e-6 {
			t.Fatalf("case %d: weights differ by %v", i, d)
		}
	}
}

func TestHeadWeightFades(t *testing.T) {
	s := DefaultHeadSettings()
	in := HeadInput{ParentWorldRot: mgl32.QuatIdent(), RestLocalRot: mgl32.QuatIdent(), TargetPos: mgl32.Vec3{1, 0, 1}, Weight: 1}
	st := NewHeadState(in.RestLocalRot)
	var pose HeadPose
	stepHead(&pose, &st, &s, &in, 0.25) // WeightSpeed 4: 1 - exp(-1)
	if math.Abs(float64(st.Weight)-0.63212056) > 1e-6 {
		t.Fatalf("weight %v, want 0.63212056", st.Weight)
	}
	for i := 0; i < 100; i++ {
		stepHead(&pose, &st, &s, &in, 0.1)
	}
	if st.Weight < 0.9999 {
		t.Fatalf("weight did not fade in: %v", st.Weight)
	}
	in.Weight = 0
	for i := 0; i < 200; i++ {
		stepHead(&pose, &st, &s, &in, 0.1)
	}
	if st.Weight > 1e-6 || mathx.AngleBetween(pose.Local, in.RestLocalRot) > 1e-3 {
		t.Fatalf("did not fade out: weight %v, local %v", st.Weight, pose.Local)
	}
	// Out-of-range requests are clamped.
	for _, w := range []float32{2, -1, float32(math.NaN()), float32(math.Inf(1))} {
		in.Weight = w
		st := HeadState{Rotation: mgl32.QuatIdent(), Weight: 0.5}
		stepHead(&pose, &st, &s, &in, 100)
		if st.Weight < 0 || st.Weight > 1 || !mathx.IsFinite(st.Weight) {
			t.Fatalf("weight %v -> state %v", w, st.Weight)
		}
	}
}

func TestHeadTargetAtHead(t *testing.T) {
	s := DefaultHeadSettings()
	rest := yawQuat(10)
	in := HeadInput{ParentWorldRot: mgl32.QuatIdent(), RestLocalRot: rest, HeadPos: mgl32.Vec3{1, 2, 3}, TargetPos: mgl32.Vec3{1, 2, 3}, Weight: 1}
	if q := headTarget(&s, &in); !quatNear(q, rest, 1e-6) {
		t.Fatalf("target at head: %v, want rest %v", q, rest)
	}
	st := HeadState{Rotation: rest, Weight: 1}
	var pose HeadPose
	stepHead(&pose, &st, &s, &in, 1.0/60)
	quatOK(t, "Local", pose.Local)
}

// Straight behind, the turn goes toward up × forward (+X here) by the max
// angle.
func TestHeadTargetStraightBehind(t *testing.T) {
	s := DefaultHeadSettings()
	in := HeadInput{ParentWorldRot: mgl32.QuatIdent(), RestLocalRot: mgl32.QuatIdent(), TargetPos: mgl32.Vec3{0, 0, -4}}
	q := headTarget(&s, &in)
	want := mgl32.Quat{W: 0.8660254, V: mgl32.Vec3{0, 0.5, 0}}
	if !quatNear(q, want, 1e-6) {
		t.Fatalf("behind: %v, want %v", q, want)
	}
	s.MaxTurnDegrees = 180
	q = headTarget(&s, &in)
	quatOK(t, "unclamped behind", q)
	if fwd := mathx.Rotate(q, s.Forward); !vecNear(fwd, mgl32.Vec3{0, 0, -1}, 1e-5) {
		t.Fatalf("unclamped behind: forward %v", fwd)
	}
}

// Looking along the up axis leaves the roll undefined; the swing alone is
// used.
func TestHeadTargetStraightUp(t *testing.T) {
	s := DefaultHeadSettings()
	s.MaxTurnDegrees = 180
	in := HeadInput{ParentWorldRot: mgl32.QuatIdent(), RestLocalRot: mgl32.QuatIdent(), TargetPos: mgl32.Vec3{0, 5, 0}}
	q := headTarget(&s, &in)
	quatOK(t, "up", q)
	if fwd := mathx.Rotate(q, s.Forward); !vecNear(fwd, mgl32.Vec3{0, 1, 0}, 1e-5) {
		t.Fatalf("forward %v", fwd)
	}
}

func TestHeadZeroDt(t *testing.T) {
	s := DefaultHeadSettings()
	in := HeadInput{ParentWorldRot: mgl32.QuatIdent(), RestLocalRot: mgl32.QuatIdent(), TargetPos: mgl32.Vec3{1, 0, 0}, Weight: 1}
	st := HeadState{Rotation: yawQuat(5), Weight: 0.5}
	before := st
	var pose HeadPose
	for _, dt := range []float32{0, -1, float32(math.NaN())} {
		stepHead(&pose, &st, &s, &in, dt)
		if st != before {
			t.Fatalf("dt %v changed the state: %v -> %v", dt, before, st)
		}
	}
}

// Zero quaternions, NaN state and degenerate axes (unvalidated settings)
// still give unit rotations.
func TestHeadDegenerateInputs(t *testing.T) {
	s := HeadSettings{Forward: mgl32.Vec3{}, Up: mgl32.Vec3{0, 0, 2}, MaxTurnDegrees: -5, Speed: 3, WeightSpeed: 3}
	nan := float32(math.NaN())
	in := HeadInput{TargetPos: mgl32.Vec3{1, 1, 1}, Weight: 1}
	st := HeadState{Rotation: mgl32.Quat{W: nan}, Weight: nan}
	var pose HeadPose
	for i := 0; i < 10; i++ {
		stepHead(&pose, &st, &s, &in, 1.0/60)
		quatOK(t, "Local", pose.Local)
		quatOK(t, "World", pose.World)
	}
	if !mathx.IsFinite(st.Weight) {
		t.Fatalf("weight %v", st.Weight)
	}
}

func TestHeadSettingsValidate(t *testing.T) {
	good := DefaultHeadSettings()
	if err := good.Validate(); err != nil {
		t.Fatalf("defaults: %v", err)
	}
	nan := float32(math.NaN())
	cases := []struct {
		field string
		edit  func(*HeadSettings)
	}{
		{"Forward", func(s *HeadSettings) { s.Forward = mgl32.Vec3{} }},
		{"Forward", func(s *HeadSettings) { s.Forward[0] = nan }},
		{"Up", func(s *HeadSettings) { s.Up = mgl32.Vec3{0, 0, -3} }},
		{"Up", func(s *HeadSettings) { s.Up = mgl32.Vec3{} }},
		{"MaxTurnDegrees", func(s *HeadSettings) { s.MaxTurnDegrees = -1 }},
		{"MaxTurnDegrees", func(s *HeadSettings) { s.MaxTurnDegrees = float32(math.Inf(1)) }},
		{"Speed", func(s *HeadSettings) { s.Speed = -0.5 }},
		{"WeightSpeed", func(s *HeadSettings) { s.WeightSpeed = nan }},
	}
	for _, c := range cases {
		s := good
		c.edit(&s)
		err := s.Validate()
		var fe *check.FieldError
		if !errors.As(err, &fe) || fe.Field != c.field || fe.Type != "HeadSettings" {
			t.Errorf("want FieldError on %s, got %v", c.field, err)
		}
		if !errors.Is(err, check.ErrInvalid) {
			t.Errorf("%s: error does not wrap ErrInvalid", c.field)
		}
	}
	big := good
	big.MaxTurnDegrees = 720 // documented: 180 or more means no limit
	if err := big.Validate(); err != nil {
		t.Fatalf("MaxTurnDegrees 720: %v", err)
	}
}

// Targets that jump every few frames, with cones narrower and wider than 90
// degrees: the output never leaves the cone. Above 90 degrees the shortest
// arc alone would cut behind the head by up to about 60 degrees.
func TestHeadConeHoldsForJumpingTargets(t *testing.T) {
	for _, maxDeg := range []float32{30, 60, 89, 120, 170} {
		s := DefaultHeadSettings()
		s.MaxTurnDegrees = maxDeg
		r := rand.New(rand.NewSource(9))
		in := HeadInput{ParentWorldRot: mgl32.QuatIdent(), RestLocalRot: mgl32.QuatIdent(), Weight: 1}
		st := HeadState{Rotation: mgl32.QuatIdent(), Weight: 1}
		var pose HeadPose
		for f := 0; f < 20000; f++ {
			if f%7 == 0 {
				in.TargetPos = randDir(r)
			}
			stepHead(&pose, &st, &s, &in, 1.0/60)
			if a := vecAngle(mathx.Rotate(pose.World, s.Forward), s.Forward); a > float64(maxDeg)*deg+1e-4 {
				t.Fatalf("max %v frame %d: turned %v deg", maxDeg, f, a/deg)
			}
		}
	}
}

// Other bone conventions (forward along +Y with up -Z, as bones often point
// along their length; forward -X with a non-unit up): the look rotation
// still puts forward on the target and keeps up free of roll.
func TestHeadCustomAxes(t *testing.T) {
	r := rand.New(rand.NewSource(12))
	for _, ax := range [][2]mgl32.Vec3{{{0, 1, 0}, {0, 0, -1}}, {{-2, 0, 0}, {0, 3, 0.5}}} {
		s := DefaultHeadSettings()
		s.Forward, s.Up, s.MaxTurnDegrees = ax[0], ax[1], 180
		h, err := NewHead(s)
		if err != nil {
			t.Fatal(err)
		}
		f := mathx.NormalizeOr(s.Forward, mgl32.Vec3{})
		u := mathx.NormalizeOr(s.Up.Sub(f.Mul(mathx.Dot(s.Up, f))), mgl32.Vec3{})
		for i := 0; i < 100; i++ {
			in := HeadInput{ParentWorldRot: mgl32.QuatIdent(), RestLocalRot: mgl32.QuatIdent(), TargetPos: randDir(r)}
			q := h.Target(&in)
			if a := vecAngle(mathx.Rotate(q, f), in.TargetPos); a > 1e-5 {
				t.Fatalf("axes %v: forward misses target by %v rad", ax, a)
			}
			side := mathx.Cross(u, in.TargetPos)
			if mathx.Len(side) < 1e-2 {
				continue
			}
			if d := mathx.Dot(mathx.Rotate(q, u), mathx.NormalizeOr(side, mgl32.Vec3{})); math.Abs(float64(d)) > 1e-5 {
				t.Fatalf("axes %v: up rolled by %v", ax, d)
			}
		}
	}
}
