package breath

import (
	"errors"
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/internal/mathx"
)

// A rig where the shoulders hang from different parents, one two bones
// below the topmost segment and one with no segment above it:
//
//	0 hips ─ 1 spine ─ 2 spine2 ─ 3 chest ─ 4 neck ─ 5 head
//	                               ├ 6 shoulder.L      (parent chest; top segment spine)
//	         7 tailbase ─ 8 shoulder.R                 (no segment above)
var planParents = []int32{-1, 0, 1, 2, 3, 4, 3, 0, 7}

func planRig(r *rand.Rand) *testPose {
	p := newPose(len(planParents))
	for i := range p.LocalPos {
		p.LocalPos[i] = mgl32.Vec3{0, 0.1, 0.02}
		p.LocalRot[i] = randomRot(r, 60)
		p.LocalScale[i] = mgl32.Vec3{1, 1, 1}
	}
	p.fk(planParents)
	return p
}

// TestPlanMatchesApply runs Apply and Plan.Apply side by side, in both
// modes, on the test rig and on planParents, with random axes, for many
// frames: the poses must agree to rounding. Plan.Apply keeps the shoulders
// from the local rotations, Apply from the world rotations, so in
// Additive mode, where each frame builds on the last, their rounding
// would walk apart (by about 1e-6 in 200 frames): there both start every
// frame from Apply's pose. TestPlanKeepsShoulders bounds the drift itself.
func TestPlanMatchesApply(t *testing.T) {
	r := rand.New(rand.NewSource(21))
	for _, mode := range []Mode{Absolute, Additive} {
		for trial := 0; trial < 20; trial++ {
			var rest *testPose
			var parents []int32
			var s Settings
			if trial%2 == 0 {
				rest, parents, s = testRig(int64(trial)), rigParents, rigSettings()
			} else {
				rest, parents = planRig(r), planParents
				// Spine2 is no segment: the chain from chest up to spine
				// crosses it.
				s = DefaultSettings(1, 3, 4, 5, 6, 8)
			}
			s.Mode = mode
			s.EffectRate = 1 + 5*r.Float32()
			for i := range s.Segments {
				s.Segments[i].Axis = Axis(r.Intn(3))
				s.Segments[i].Sign = float32(1 - 2*r.Intn(2))
			}
			if trial%5 == 4 {
				s.Segments[Spine].Bone = -1 // the chest becomes the top
			}
			plan, err := NewPlan(&s, parents)
			if err != nil {
				t.Fatal(err)
			}
			a, b := newPose(len(parents)), newPose(len(parents))
			a.copyLocals(rest)
			b.copyLocals(rest)
			var sa, sb State
			Init(&sa, &s, r.Float32()*4)
			sb = sa
			for frame := 0; frame < 200; frame++ {
				if mode == Absolute {
					a.copyLocals(rest)
					b.copyLocals(rest)
				} else {
					b.copyLocals(a)
				}
				a.fk(parents)
				b.fk(parents)
				Step(&sa, &s, 1.0/60)
				Step(&sb, &s, 1.0/60)
				Apply(a.LocalRot, a.WorldRot, parents, &sa, &s)
				plan.Apply(b.LocalRot, parents, &sb)
				for i := range a.LocalRot {
					if d := quatDiff(a.LocalRot[i], b.LocalRot[i]); d > 1e-6 {
						t.Fatalf("mode %d trial %d frame %d bone %d: Apply %v, Plan.Apply %v", mode, trial, frame, i, a.LocalRot[i], b.LocalRot[i])
					}
				}
			}
			// The test is not vacuous: the pose moved away from rest.
			if mode == Absolute {
				if d := quatDiff(b.LocalRot[s.Segments[Chest].Bone], rest.LocalRot[s.Segments[Chest].Bone]); d < 1e-4 {
					t.Fatalf("trial %d: chest did not turn (%v)", trial, d)
				}
			}
		}
	}
}

// TestPlanKeepsShoulders is TestShouldersKeepWorldRotation for Plan.Apply:
// over 500 frames of large bends in both modes the shoulders and upper
// arms keep their world rotations while the chest turns.
func TestPlanKeepsShoulders(t *testing.T) {
	for _, mode := range []Mode{Absolute, Additive} {
		rest := testRig(1)
		s := rigSettings()
		s.Mode = mode
		s.EffectRate = 4
		s.ChooseAxes(rest.WorldRot, mgl32.Vec3{1, 0, 0})
		s.Segments[Chest].Axis, s.Segments[Chest].Sign = AxisZ, -1
		plan, err := NewPlan(&s, rigParents)
		if err != nil {
			t.Fatal(err)
		}
		pose := newPose(rigBones)
		pose.copyLocals(rest)
		var st State
		Init(&st, &s, 0)
		moved := float32(0)
		for k := 0; k < 500; k++ {
			if mode == Absolute {
				pose.copyLocals(rest)
			}
			pose.fk(rigParents)
			Step(&st, &s, 0.01)
			plan.Apply(pose.LocalRot, rigParents, &st)
			pose.fk(rigParents)
			for _, b := range []int{rigLShoulder, rigLUpperArm, rigRShoulder, rigRUpperArm} {
				if d := quatDiff(pose.WorldRot[b], rest.WorldRot[b]); d > 1e-5 {
					t.Fatalf("mode %d frame %d: bone %d turned by %v (component), want < 1e-5", mode, k, b, d)
				}
			}
			moved = max(moved, quatDiff(pose.WorldRot[rigChest], rest.WorldRot[rigChest]))
		}
		if moved < 0.05 {
			t.Fatalf("mode %d: chest never turned (largest change %v): the test is vacuous", mode, moved)
		}
	}
}

func TestPlanBonesAndShoulders(t *testing.T) {
	s := DefaultSettings(1, 3, 4, 5, 6, 8)
	p, err := NewPlan(&s, planParents)
	if err != nil {
		t.Fatal(err)
	}
	// shoulder.R (8) has no segment above it: not touched, not counted.
	if lo, hi := p.Bones(); lo != 1 || hi != 6 {
		t.Errorf("Bones() = %d, %d, want 1, 6", lo, hi)
	}
	r := rand.New(rand.NewSource(3))
	rest := planRig(r)
	pose := newPose(len(planParents))
	pose.copyLocals(rest)
	pose.fk(planParents)
	var st State
	Init(&st, &s, 0)
	Step(&st, &s, 0.6)
	p.Apply(pose.LocalRot, planParents, &st)
	if pose.LocalRot[8] != rest.LocalRot[8] || pose.LocalRot[2] != rest.LocalRot[2] || pose.LocalRot[0] != rest.LocalRot[0] {
		t.Error("a bone outside the plan changed")
	}
	pose.fk(planParents)
	if d := quatDiff(pose.WorldRot[6], rest.WorldRot[6]); d > 1e-6 {
		t.Errorf("shoulder.L world rotation moved by %v", d)
	}
	if d := quatDiff(pose.WorldRot[3], rest.WorldRot[3]); d < 1e-4 {
		t.Errorf("chest did not turn (%v): the shoulder check is vacuous", d)
	}

	none := DefaultSettings(-1, -1, -1, -1, -1, -1)
	if p, _ := NewPlan(&none, planParents); func() bool { lo, hi := p.Bones(); return lo != -1 || hi != -1 }() {
		t.Errorf("empty plan touches bones %v", p)
	}
}

func TestNewPlanRejects(t *testing.T) {
	for _, c := range []struct {
		field   string
		edit    func(s *Settings)
		parents []int32
	}{
		{"Segments[0].Sign", func(s *Settings) { s.Segments[0].Sign = 2 }, rigParents},
		{"Segments[3].Bone", func(s *Settings) { s.Segments[3].Bone = 9 }, rigParents},
		{"Shoulders[1]", func(s *Settings) {}, rigParents[:rigRShoulder]},
		{"parents[2]", func(s *Settings) {}, []int32{-1, 0, 2, 2, 3, 2, 5, 2, 7}},
	} {
		s := rigSettings()
		c.edit(&s)
		_, err := NewPlan(&s, c.parents)
		var fe *check.FieldError
		if !errors.As(err, &fe) || fe.Field != c.field {
			t.Errorf("%s: NewPlan = %v", c.field, err)
		}
	}
}

func TestPlanApplyDegenerate(t *testing.T) {
	s := rigSettings()
	p, err := NewPlan(&s, rigParents)
	if err != nil {
		t.Fatal(err)
	}
	var st State
	Init(&st, &s, 0)
	Step(&st, &s, 0.5)
	rest := testRig(3)
	// Short slices or a short parent array: nothing is written.
	p.Apply(nil, nil, &st)
	short := append([]mgl32.Quat(nil), rest.LocalRot[:3]...)
	p.Apply(short, rigParents, &st)
	if short[1] != rest.LocalRot[1] {
		t.Error("wrote into a pose shorter than the plan")
	}
	local := append([]mgl32.Quat(nil), rest.LocalRot...)
	p.Apply(local, rigParents[:4], &st)
	if local[rigSpine] != rest.LocalRot[rigSpine] {
		t.Error("wrote with a parent array shorter than the plan")
	}
	// A parent array that loops does not hang or panic.
	loop := append([]int32(nil), rigParents...)
	loop[rigChest] = rigChest
	p.Apply(local, loop, &st)
	// Huge angles, and then zero local rotations, stay finite.
	st.Angle = [MaxSegments]float32{1e30, -1e30, 3e5, 0}
	for range 2 {
		p.Apply(local, rigParents, &st)
		for _, q := range local {
			if !mathx.QuatFinite(q) {
				t.Fatalf("non-finite rotation %v", q)
			}
		}
		clear(local)
	}
}
