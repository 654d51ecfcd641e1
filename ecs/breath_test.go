package sway_test

import (
	"errors"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	arche "github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/components"
	"github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/internal/mathx"
	"github.com/sway-anim/sway/internal/scene"
	"github.com/sway-anim/sway/systems"
	"github.com/sway-anim/sway/systems/breath"
)

// breathQuatDiff is the angle in radians between two rotations.
func breathQuatDiff(a, b mgl32.Quat) float64 {
	d := mathx.Mul(mathx.Conjugate(a), b)
	return 2 * math.Atan2(float64(mathx.Len(d.V)), math.Abs(float64(d.W)))
}

func procSkeleton(t testing.TB) *sway.Skeleton {
	t.Helper()
	sc, err := scene.New(scene.Config{Characters: 0})
	if err != nil {
		t.Fatal(err)
	}
	return sc.Skeleton
}

// TestBreathBendsAndKeepsShoulders steps a breathing and a still character
// of the stress rig, turned and moved, through a whole inhale: the chest
// moves toward the character's forward as in the source, the shoulders keep
// their rest world rotations every frame, and the still character does not
// move.
func TestBreathBendsAndKeepsShoulders(t *testing.T) {
	skel := procSkeleton(t)
	w, err := sway.NewWorld(sway.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	root := sway.At(mgl32.Vec3{3, 0, -2})
	root.Rot = mgl32.QuatRotate(2.2, mgl32.Vec3{0, 1, 0})
	breather, _ := w.AddCharacter(skel, root)
	still, _ := w.AddCharacter(skel, root)
	s := sway.BreathFor(skel)
	s.EffectRate = 3 // bends large enough to see
	if _, err := w.Breath().Add(breather, s); err != nil {
		t.Fatal(err)
	}
	chest := skel.Index("chest")
	shoulders := []int{skel.Index("shoulder.L"), skel.Index("shoulder.R")}
	restChest := skel.ModelPos()[chest]
	maxTurn := 0.0
	for frame := 0; frame < 73; frame++ { // the 1.2 s inhale, rounded up to frames
		if err := w.Step(1.0 / 60); err != nil {
			t.Fatal(err)
		}
		for _, b := range shoulders {
			got, _ := w.BoneWorld(breather, b)
			want := mathx.Mul(root.Rot, skel.ModelRot()[b])
			if d := breathQuatDiff(got.Rot, want); d > 2e-5 {
				t.Fatalf("frame %d: shoulder %s turned %.3g rad", frame, skel.BoneName(b), d)
			}
		}
		c, _ := w.BoneWorld(breather, chest)
		maxTurn = max(maxTurn, breathQuatDiff(c.Rot, mathx.Mul(root.Rot, skel.ModelRot()[chest])))
	}
	if maxTurn < 0.01 {
		t.Fatalf("the chest turned at most %.3g rad: the shoulder check is vacuous", maxTurn)
	}
	st, err := w.Breath().Of(breather).State()
	if err != nil || st.Phase != breath.Exhale {
		t.Fatalf("after the inhale: %+v %v", st, err)
	}
	// At the end of the inhale the spine is bent +2°*3 about the
	// left-right line as in the source: the chest, 0.15 above it, has moved
	// toward the character's forward (+Z in root space) by 0.15*sin 6°.
	c, _ := w.BoneWorld(breather, chest)
	local := mathx.InvRotate(root.Rot, c.Pos.Sub(root.Pos))
	if dz, want := local[2]-restChest[2], 0.15*float32(math.Sin(6*math.Pi/180)); math.Abs(float64(dz-want)) > 1e-4 {
		t.Errorf("chest moved %.5f along the character's forward, want %.5f", dz, want)
	}
	for b := 0; b < skel.NumBones(); b++ {
		got, _ := w.BoneWorld(still, b)
		if d := breathQuatDiff(got.Rot, mathx.Mul(root.Rot, skel.ModelRot()[b])); d > 1e-6 {
			t.Fatalf("the character without breath moved: bone %s by %.3g", skel.BoneName(b), d)
		}
	}
}

// TestBreathFollowsSimulationClock checks that the system steps each
// character's breath by World.Step's dt, from its own offset and rate: the
// states equal the kernel stepped by hand with the same dts, bit for bit.
func TestBreathFollowsSimulationClock(t *testing.T) {
	skel := procSkeleton(t)
	w, err := sway.NewWorld(sway.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	type char struct {
		e      arche.Entity
		s      breath.Settings
		st     breath.State
		offset float32
	}
	var chars []*char
	for i, cfg := range []struct{ offset, rate float32 }{{0, 1}, {1.5, 1}, {0.3, 1.7}} {
		e, _ := w.AddCharacter(skel, sway.At(mgl32.Vec3{float32(i), 0, 0}))
		s := sway.BreathFor(skel)
		s.Offset, s.DurationRate = cfg.offset, cfg.rate
		if _, err := w.Breath().Add(e, s); err != nil {
			t.Fatal(err)
		}
		ks := breath.DefaultSettings(int32(skel.Index("spine")), int32(skel.Index("chest")), int32(skel.Index("neck")), int32(skel.Index("head")), int32(skel.Index("shoulder.L")), int32(skel.Index("shoulder.R")))
		ks.DurationRate = cfg.rate
		c := &char{e: e, s: ks, offset: cfg.offset}
		breath.Init(&c.st, &c.s, c.offset)
		chars = append(chars, c)
	}
	dts := []float32{1.0 / 60, 1.0 / 30, 0, 0.1, 1.0 / 144, 5 /* clamped to MaxDt */}
	phases := map[breath.Phase]bool{}
	for frame := 0; frame < 600; frame++ {
		dt := dts[frame%len(dts)]
		if err := w.Step(dt); err != nil {
			t.Fatal(err)
		}
		for i, c := range chars {
			breath.Step(&c.st, &c.s, min(dt, sway.MaxDt))
			got, err := w.Breath().Of(c.e).State()
			if err != nil {
				t.Fatal(err)
			}
			if got.Phase != c.st.Phase || got.Time != c.st.Time || got.Angle != c.st.Angle {
				t.Fatalf("frame %d character %d: system %+v, kernel %+v", frame, i, got, c.st)
			}
		}
		phases[chars[0].st.Phase] = true
	}
	if len(phases) != 3 {
		t.Fatalf("phases seen %v: the run is too short to be a test", phases)
	}
	a, _ := w.Breath().Of(chars[0].e).State()
	b, _ := w.Breath().Of(chars[1].e).State()
	if a.Angle == b.Angle {
		t.Fatal("characters with different offsets breathe in step")
	}
}

// TestBreathAdditiveWithoutPoseReset runs a pipeline with no pose reset:
// additive mode gives the same poses as absolute mode on the default
// pipeline.
func TestBreathAdditiveWithoutPoseReset(t *testing.T) {
	skel := procSkeleton(t)
	p := &systems.Pipeline{}
	p.Add(systems.PhaseProcedural, "breath", systems.NewBreathSystem())
	p.Add(systems.PhaseFinal, "fk", systems.NewForwardKinematics("fk"))
	add, err := sway.NewWorld(sway.Options{Workers: 1, Pipeline: p})
	if err != nil {
		t.Fatal(err)
	}
	defer add.Close()
	abs, err := sway.NewWorld(sway.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer abs.Close()
	root := sway.At(mgl32.Vec3{0, 0, 1})
	ea, _ := add.AddCharacter(skel, root)
	eb, _ := abs.AddCharacter(skel, root)
	s := sway.BreathFor(skel)
	s.EffectRate = 4
	s.Offset = 0.7
	if _, err := abs.Breath().Add(eb, s); err != nil {
		t.Fatal(err)
	}
	s.Mode = sway.BreathAdditive
	if _, err := add.Breath().Add(ea, s); err != nil {
		t.Fatal(err)
	}
	worst := 0.0
	for frame := 0; frame < 500; frame++ {
		_ = add.Step(1.0 / 60)
		_ = abs.Step(1.0 / 60)
		pa, _ := add.Pose(ea)
		pb, _ := abs.Pose(eb)
		for b := range pa.WorldRot {
			worst = max(worst, breathQuatDiff(pa.WorldRot[b], pb.WorldRot[b]))
		}
	}
	if worst > 5e-5 {
		t.Fatalf("additive without reset differs from absolute with reset by %.3g rad", worst)
	}
}

func breathScene(t testing.TB, workers, chars, frames int) *sway.World {
	t.Helper()
	sc, err := scene.New(scene.Config{Characters: chars, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	w, err := sway.NewWorld(sway.Options{Workers: workers})
	if err != nil {
		t.Fatal(err)
	}
	ents, err := sc.Populate(w)
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range ents {
		s := sway.BreathFor(sc.Skeleton)
		s.Offset = float32(i%17) * 0.23
		s.DurationRate = 0.8 + 0.05*float32(i%9)
		if i%3 == 0 {
			s.EffectRate = 2
		}
		if _, err := w.Breath().Add(e, s); err != nil {
			t.Fatal(err)
		}
	}
	for f := 0; f < frames; f++ {
		if err := sc.MoveRoots(w, ents, float64(f+1)/60); err != nil {
			t.Fatal(err)
		}
		if err := w.Step(1.0 / 60); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

func TestBreathBitIdenticalForAnyWorkerCount(t *testing.T) {
	ref := breathScene(t, 1, 150, 90)
	defer ref.Close()
	w := breathScene(t, 3, 150, 90)
	defer w.Close()
	if ref.Checksum() != w.Checksum() {
		t.Fatal("poses differ between 1 and 3 workers")
	}
}

func TestBreathStepDoesNotAllocate(t *testing.T) {
	w := breathScene(t, 2, 100, 2)
	defer w.Close()
	if n := testing.AllocsPerRun(50, func() { _ = w.Step(1.0 / 60) }); n != 0 {
		t.Fatalf("%v allocations per Step with breath on", n)
	}
}

func TestBreathRejectsBadSettings(t *testing.T) {
	skel := procSkeleton(t)
	w, err := sway.NewWorld(sway.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	e, _ := w.AddCharacter(skel, sway.Identity())
	nan := float32(math.NaN())
	for _, c := range []struct {
		field string
		edit  func(s *sway.BreathSettings)
	}{
		{"Segments[1].Bone", func(s *sway.BreathSettings) { s.Segments[1].Bone = "ribcage" }},
		{"Segments[2].Sign", func(s *sway.BreathSettings) { s.Segments[2].Sign = 0.5 }},
		{"Segments[0].InhaleDegrees", func(s *sway.BreathSettings) { s.Segments[0].InhaleDegrees = nan }},
		{"Segments[3].Bone", func(s *sway.BreathSettings) { s.Segments[3].Bone = "spine" }},
		{"Segments", func(s *sway.BreathSettings) { s.Segments = [4]sway.BreathSegment{} }},
		{"Shoulders[1]", func(s *sway.BreathSettings) { s.Shoulders[1] = "clavicle.R" }},
		{"Shoulders[0]", func(s *sway.BreathSettings) { s.Shoulders[0] = "chest" }},
		{"Right", func(s *sway.BreathSettings) { s.Right = mgl32.Vec3{nan, 0, 0} }},
		{"Right", func(s *sway.BreathSettings) { s.Right = mgl32.Vec3{1e-30, 0, 0} }},
		{"ExhaleDuration", func(s *sway.BreathSettings) { s.ExhaleDuration = -1 }},
		{"EffectRate", func(s *sway.BreathSettings) { s.EffectRate = float32(math.Inf(1)) }},
		{"Mode", func(s *sway.BreathSettings) { s.Mode = 7 }},
		{"Offset", func(s *sway.BreathSettings) { s.Offset = -1 }},
	} {
		s := sway.BreathFor(skel)
		c.edit(&s)
		var fe *sway.FieldError
		if _, err := w.Breath().Add(e, s); !errors.As(err, &fe) || fe.Field != c.field || fe.Type != "BreathSettings" || !errors.Is(err, sway.ErrInvalid) {
			t.Errorf("%s: Breath.Add = %v", c.field, err)
		}
	}
	if _, err := w.Breath().Of(e).State(); err == nil {
		t.Fatal("a rejected breath was added")
	}
	if _, err := w.Breath().Add(arche.Entity{}, sway.BreathFor(skel)); !errors.Is(err, sway.ErrNotCharacter) {
		t.Fatalf("Breath.Add on a non-character: %v", err)
	}
	if err := w.Breath().Of(arche.Entity{}).Remove(); !errors.Is(err, sway.ErrNotCharacter) {
		t.Fatalf("Breath.Remove on a non-character: %v", err)
	}
}

func TestBreathForFindsBones(t *testing.T) {
	skel := procSkeleton(t)
	s := sway.BreathFor(skel)
	want := [4]string{"spine", "chest", "neck", "head"}
	for i, sg := range s.Segments {
		if sg.Bone != want[i] || sg.InhaleDegrees != breath.DefaultAngles[i][0] || sg.ExhaleDegrees != breath.DefaultAngles[i][1] || sg.Sign != 0 {
			t.Errorf("segment %d: %+v", i, sg)
		}
	}
	if s.Shoulders != [2]string{"shoulder.L", "shoulder.R"} {
		t.Errorf("shoulders %v", s.Shoulders)
	}
	// A Mixamo-style skeleton without shoulder bones: the upper arms
	// stand in, names are matched without case, and a missing chest
	// leaves its slot unused.
	mixamo, err := sway.NewSkeleton(sway.SkeletonDesc{Bones: []sway.BoneDesc{
		sway.Bone("mixamorig:Hips", "", mgl32.Vec3{0, 1, 0}),
		sway.Bone("mixamorig:Spine", "mixamorig:Hips", mgl32.Vec3{0, 0.1, 0}),
		sway.Bone("mixamorig:Neck", "mixamorig:Spine", mgl32.Vec3{0, 0.3, 0}),
		sway.Bone("MIXAMORIG:HEAD", "mixamorig:Neck", mgl32.Vec3{0, 0.1, 0}),
		sway.Bone("mixamorig:LeftArm", "mixamorig:Spine", mgl32.Vec3{0.15, 0.25, 0}),
		sway.Bone("mixamorig:RightArm", "mixamorig:Spine", mgl32.Vec3{-0.15, 0.25, 0}),
	}})
	if err != nil {
		t.Fatal(err)
	}
	s = sway.BreathFor(mixamo)
	if s.Segments[0].Bone != "mixamorig:Spine" || s.Segments[1].Bone != "" || s.Segments[3].Bone != "MIXAMORIG:HEAD" {
		t.Errorf("segments %+v", s.Segments)
	}
	if s.Shoulders != [2]string{"mixamorig:LeftArm", "mixamorig:RightArm"} {
		t.Errorf("shoulders %v", s.Shoulders)
	}
	w, err := sway.NewWorld(sway.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	e, _ := w.AddCharacter(mixamo, sway.Identity())
	if _, err := w.Breath().Add(e, s); err != nil {
		t.Fatal(err)
	}
	for f := 0; f < 100; f++ {
		_ = w.Step(1.0 / 60)
		arm, _ := w.BoneWorld(e, mixamo.Index("mixamorig:LeftArm"))
		if d := breathQuatDiff(arm.Rot, mgl32.QuatIdent()); d > 1e-5 {
			t.Fatalf("frame %d: the upper arm standing in for the shoulder turned %.3g", f, d)
		}
	}
}

// TestBreathRemovedAndBadRoot: a non-finite root neither crashes nor spreads
// NaN and pauses the breath, and removing a breath returns the pose to rest
// at the next Step.
func TestBreathRemovedAndBadRoot(t *testing.T) {
	skel := procSkeleton(t)
	w, err := sway.NewWorld(sway.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	e, _ := w.AddCharacter(skel, sway.Identity())
	if _, err := w.Breath().Add(e, sway.BreathFor(skel)); err != nil {
		t.Fatal(err)
	}
	for f := 0; f < 30; f++ {
		_ = w.Step(1.0 / 60)
	}
	spine := skel.Index("spine")
	if p, _ := w.Pose(e); p.LocalRot[spine] == skel.RestRot()[spine] {
		t.Fatal("the spine does not breathe")
	}
	// The game writes a NaN root straight into the component.
	before, _ := w.Breath().Of(e).State()
	root := (*components.Root)(w.ECS().Get(e, arche.ComponentID[components.Root](w.ECS())))
	good := root.Transform
	root.Pos[1] = float32(math.NaN())
	for f := 0; f < 3; f++ {
		if err := w.Step(1.0 / 60); err != nil {
			t.Fatal(err)
		}
	}
	if after, _ := w.Breath().Of(e).State(); after != before {
		t.Fatalf("the breath advanced under a NaN root: %+v -> %+v", before, after)
	}
	p, _ := w.Pose(e)
	for b := range p.LocalRot {
		if !mathx.QuatFinite(p.LocalRot[b]) {
			t.Fatalf("bone %d: %v", b, p.LocalRot[b])
		}
	}
	root.Transform = good
	_ = w.Step(1.0 / 60)
	if after, _ := w.Breath().Of(e).State(); after.Time == before.Time && after.Phase == before.Phase {
		t.Fatal("the breath did not resume")
	}
	if err := w.Breath().Of(e).Remove(); err != nil {
		t.Fatal(err)
	}
	if err := w.Breath().Of(e).Remove(); !errors.Is(err, sway.ErrNoFeature) {
		t.Fatalf("removing twice: %v, want ErrNoFeature", err)
	}
	_ = w.Step(1.0 / 60)
	if p, _ := w.Pose(e); p.LocalRot[spine] != skel.RestRot()[spine] {
		t.Fatal("the bend stayed after Remove")
	}
}
