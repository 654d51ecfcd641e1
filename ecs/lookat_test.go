package sway_test

import (
	"errors"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	arche "github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/internal/mathx"
	"github.com/sway-anim/sway/internal/scene"
)

var lookZ = mgl32.Vec3{0, 0, 1}

// lookAngle is the angle in radians between two directions.
func lookAngle(a, b mgl32.Vec3) float64 {
	return math.Atan2(float64(mathx.Len(mathx.Cross(a, b))), float64(mathx.Dot(a, b)))
}

func lookAtWorld(t *testing.T, workers int) (*sway.World, *sway.Skeleton) {
	t.Helper()
	skel := procSkeleton(t)
	w, err := sway.NewWorld(sway.Options{Workers: workers})
	if err != nil {
		t.Fatal(err)
	}
	return w, skel
}

// TestLookAtReachesStillTarget: the head's world forward ends within 1e-3
// rad of the direction to a still target inside its limit, on a turned and
// moved character; with a spine share the head's world rotation is the
// same while the spine turned.
func TestLookAtReachesStillTarget(t *testing.T) {
	w, skel := lookAtWorld(t, 2)
	defer w.Close()
	root := sway.At(mgl32.Vec3{1, 0, 4})
	root.Rot = mgl32.QuatRotate(-0.7, mgl32.Vec3{0, 1, 0})
	plain, _ := w.AddCharacter(skel, root)
	shared, _ := w.AddCharacter(skel, root)
	head, chest := skel.Index("head"), skel.Index("chest")
	s := sway.LookAtFor(skel)
	if _, err := w.LookAt().Add(plain, s); err != nil {
		t.Fatal(err)
	}
	s.Spine[0] = sway.LookAtSpine{Bone: "chest", Share: 0.3}
	s.Spine[1] = sway.LookAtSpine{Bone: "spine", Share: 0.2}
	if _, err := w.LookAt().Add(shared, s); err != nil {
		t.Fatal(err)
	}
	// 40° to the character's left and a little up, 3 m away.
	h0, _ := w.BoneWorld(plain, head)
	dir := mathx.Rotate(root.Rot, mathx.Rotate(mgl32.QuatRotate(0.7, mgl32.Vec3{0, 1, 0}), mgl32.Vec3{0, 0.3, 3}))
	target := h0.Pos.Add(dir)
	for _, e := range []arche.Entity{plain, shared} {
		if err := w.LookAt().Of(e).SetTarget(target); err != nil {
			t.Fatal(err)
		}
	}
	for f := 0; f < 360; f++ {
		if err := w.Step(1.0 / 60); err != nil {
			t.Fatal(err)
		}
	}
	h, _ := w.BoneWorld(plain, head)
	if a := lookAngle(mathx.Rotate(h.Rot, lookZ), target.Sub(h.Pos)); a > 1e-3 {
		t.Errorf("head looks %.3g rad away from the target", a)
	}
	// The eyes turn after the head, under its new rotation: with the
	// target inside the head's limit they end up looking along the head.
	for _, name := range []string{"eye.L", "eye.R"} {
		eye, _ := w.BoneWorld(plain, skel.Index(name))
		if a := lookAngle(mathx.Rotate(eye.Rot, lookZ), target.Sub(h.Pos)); a > 1e-3 {
			t.Errorf("%s looks %.3g rad away from the target", name, a)
		}
	}
	if _, weight, lost, _ := w.LookAt().Of(plain).Target(); weight != 1 || lost {
		t.Errorf("weight %v lost %v", weight, lost)
	}
	hs, _ := w.BoneWorld(shared, head)
	if d := breathQuatDiff(hs.Rot, h.Rot); d > 2e-5 {
		t.Errorf("spine share changed the head's world rotation by %.3g rad", d)
	}
	c, _ := w.BoneWorld(shared, chest)
	if d := breathQuatDiff(c.Rot, mathx.Mul(root.Rot, skel.ModelRot()[chest])); d < 0.1 {
		t.Errorf("the chest took no share of the turn (%.3g rad)", d)
	}
}

// TestLookAtLimits moves a target all around a character: the head never
// turns further than its limit from the rest forward, and the eyes, whose
// yaw and pitch limits differ, stay within theirs, targets behind included.
func TestLookAtLimits(t *testing.T) {
	w, skel := lookAtWorld(t, 1)
	defer w.Close()
	e, _ := w.AddCharacter(skel, sway.Identity())
	s := sway.LookAtFor(skel)
	s.Head.MaxTurnDegrees = 50
	s.Head.Speed = 30
	s.Eyes[0].Settings.MinYawDegrees, s.Eyes[0].Settings.MaxYawDegrees = -20, 35
	s.Eyes[1].Settings.MinYawDegrees, s.Eyes[1].Settings.MaxYawDegrees = -35, 20
	s.Eyes[0].Settings.MinPitchDegrees, s.Eyes[0].Settings.MaxPitchDegrees = -15, 10
	s.Eyes[1].Settings.MinPitchDegrees, s.Eyes[1].Settings.MaxPitchDegrees = -5, 25
	if _, err := w.LookAt().Add(e, s); err != nil {
		t.Fatal(err)
	}
	head := skel.Index("head")
	eyes := [2]int{skel.Index("eye.L"), skel.Index("eye.R")}
	h0, _ := w.BoneWorld(e, head)
	maxHead, maxEye, maxPitch := 0.0, [2][2]float64{}, [2][2]float64{}
	for f := 0; f < 1200; f++ {
		// Round and round, mostly behind, up and down, near and far.
		a := float64(f) * 0.021
		r := 0.5 + 2*math.Abs(math.Sin(a*0.37))
		p := h0.Pos.Add(mgl32.Vec3{float32(r * math.Sin(a)), float32(math.Sin(a * 1.3)), float32(-r * math.Abs(math.Cos(a)))})
		if err := w.LookAt().Of(e).SetTarget(p); err != nil {
			t.Fatal(err)
		}
		if err := w.Step(1.0 / 60); err != nil {
			t.Fatal(err)
		}
		h, _ := w.BoneWorld(e, head)
		turn := lookAngle(mathx.Rotate(h.Rot, lookZ), lookZ)
		if turn > 50*math.Pi/180+1e-4 {
			t.Fatalf("frame %d: head turned %.4f rad, limit %.4f", f, turn, 50*math.Pi/180)
		}
		maxHead = max(maxHead, turn)
		pose, _ := w.Pose(e)
		for k, b := range eyes {
			// The eye's turn from its rest local rotation: yaw about its up
			// axis, pitch above the plane perpendicular to it.
			d := mathx.Mul(mathx.Conjugate(skel.RestRot()[b]), pose.LocalRot[b])
			fwd := mathx.Rotate(d, lookZ)
			yaw := math.Atan2(float64(fwd[0]), float64(fwd[2])) * 180 / math.Pi
			pitch := math.Asin(math.Max(-1, math.Min(1, float64(fwd[1])))) * 180 / math.Pi
			lim := s.Eyes[k].Settings
			if yaw < float64(lim.MinYawDegrees)-1e-3 || yaw > float64(lim.MaxYawDegrees)+1e-3 {
				t.Fatalf("frame %d: eye %d yaw %.3f° outside [%v, %v]", f, k, yaw, lim.MinYawDegrees, lim.MaxYawDegrees)
			}
			if pitch < float64(lim.MinPitchDegrees)-1e-3 || pitch > float64(lim.MaxPitchDegrees)+1e-3 {
				t.Fatalf("frame %d: eye %d pitch %.3f° outside [%v, %v]", f, k, pitch, lim.MinPitchDegrees, lim.MaxPitchDegrees)
			}
			maxEye[k][0], maxEye[k][1] = min(maxEye[k][0], yaw), max(maxEye[k][1], yaw)
			maxPitch[k][0], maxPitch[k][1] = min(maxPitch[k][0], pitch), max(maxPitch[k][1], pitch)
		}
	}
	if maxHead < 50*math.Pi/180-1e-3 {
		t.Errorf("the head never reached its limit (%.3f rad): the test is vacuous", maxHead)
	}
	for k := range eyes {
		lim := s.Eyes[k].Settings
		if maxEye[k][0] > float64(lim.MinYawDegrees)+0.5 || maxEye[k][1] < float64(lim.MaxYawDegrees)-0.5 {
			t.Errorf("eye %d yaw only spanned %v: the test is vacuous", k, maxEye[k])
		}
		if maxPitch[k][0] > float64(lim.MinPitchDegrees)+0.5 || maxPitch[k][1] < float64(lim.MaxPitchDegrees)-0.5 {
			t.Errorf("eye %d pitch only spanned %v: the test is vacuous", k, maxPitch[k])
		}
	}
}

// TestLookAtDegenerateTargets puts the target on the head, on an eye and at
// a huge distance: nothing is NaN.
func TestLookAtDegenerateTargets(t *testing.T) {
	w, skel := lookAtWorld(t, 1)
	defer w.Close()
	e, _ := w.AddCharacter(skel, sway.Identity())
	s := sway.LookAtFor(skel)
	s.EyesConverge = true
	s.Spine[0] = sway.LookAtSpine{Bone: "neck", Share: 0.5}
	if _, err := w.LookAt().Add(e, s); err != nil {
		t.Fatal(err)
	}
	head, eye := skel.Index("head"), skel.Index("eye.L")
	for _, at := range []func() mgl32.Vec3{
		func() mgl32.Vec3 { h, _ := w.BoneWorld(e, head); return h.Pos },
		func() mgl32.Vec3 { h, _ := w.BoneWorld(e, eye); return h.Pos },
		func() mgl32.Vec3 { return mgl32.Vec3{0, 1e30, -1e30} },
		func() mgl32.Vec3 { h, _ := w.BoneWorld(e, head); return h.Pos.Add(mgl32.Vec3{0, 0, -1e-20}) },
	} {
		for f := 0; f < 30; f++ {
			if err := w.LookAt().Of(e).SetTarget(at()); err != nil {
				t.Fatal(err)
			}
			if err := w.Step(1.0 / 60); err != nil {
				t.Fatal(err)
			}
			p, _ := w.Pose(e)
			for b := range p.LocalRot {
				if !mathx.QuatFinite(p.LocalRot[b]) || !mathx.Vec3Finite(p.WorldPos[b]) {
					t.Fatalf("bone %s: %v %v", skel.BoneName(b), p.LocalRot[b], p.WorldPos[b])
				}
			}
		}
	}
	var fe *sway.FieldError
	if err := w.LookAt().Of(e).SetTarget(mgl32.Vec3{float32(math.NaN()), 0, 0}); !errors.As(err, &fe) {
		t.Fatalf("NaN target: %v", err)
	}
}

// TestLookAtFollowsBoneAndSurvivesRemoval: a character looks at another's
// head while it walks; removing the target leaves the look on its last
// position.
func TestLookAtFollowsBoneAndSurvivesRemoval(t *testing.T) {
	w, skel := lookAtWorld(t, 2)
	defer w.Close()
	looker, _ := w.AddCharacter(skel, sway.Identity())
	other, _ := w.AddCharacter(skel, sway.At(mgl32.Vec3{-1, 0, 3}))
	s := sway.LookAtFor(skel)
	s.Head.MaxTurnDegrees = 180
	s.Head.Speed = 40
	if _, err := w.LookAt().Add(looker, s); err != nil {
		t.Fatal(err)
	}
	head := skel.Index("head")
	if err := w.LookAt().Of(looker).SetTargetBone(other, head); err != nil {
		t.Fatal(err)
	}
	for f := 0; f < 120; f++ {
		_ = w.SetRoot(other, sway.At(mgl32.Vec3{-1 + float32(f)*0.02, 0, 3}))
		if err := w.Step(1.0 / 60); err != nil {
			t.Fatal(err)
		}
	}
	oh, _ := w.BoneWorld(other, head)
	lh, _ := w.BoneWorld(looker, head)
	if a := lookAngle(mathx.Rotate(lh.Rot, lookZ), oh.Pos.Sub(lh.Pos)); a > 0.02 {
		t.Errorf("the looker is %.3g rad off the moving head", a)
	}
	if err := w.RemoveCharacter(other); err != nil {
		t.Fatal(err)
	}
	for f := 0; f < 60; f++ {
		if err := w.Step(1.0 / 60); err != nil {
			t.Fatal(err)
		}
	}
	point, _, lost, err := w.LookAt().Of(looker).Target()
	if err != nil || !lost || point != oh.Pos {
		t.Fatalf("after removal: point %v (want %v) lost %v err %v", point, oh.Pos, lost, err)
	}
	lh, _ = w.BoneWorld(looker, head)
	if a := lookAngle(mathx.Rotate(lh.Rot, lookZ), point.Sub(lh.Pos)); a > 1e-3 {
		t.Errorf("the looker is %.3g rad off the last position", a)
	}
	// Reusing the removed entity's slot does not revive the target.
	reborn, _ := w.AddCharacter(skel, sway.At(mgl32.Vec3{5, 0, 5}))
	_ = w.Step(1.0 / 60)
	if p, _, lost, _ := w.LookAt().Of(looker).Target(); !lost || p != oh.Pos {
		t.Fatalf("a new character %v became the target", reborn)
	}
}

// TestLookAtWeightFadesOut: weight 0 brings the head back to its rest pose.
func TestLookAtWeightFadesOut(t *testing.T) {
	w, skel := lookAtWorld(t, 1)
	defer w.Close()
	e, _ := w.AddCharacter(skel, sway.Identity())
	if _, err := w.LookAt().Add(e, sway.LookAtFor(skel)); err != nil {
		t.Fatal(err)
	}
	head := skel.Index("head")
	_ = w.LookAt().Of(e).SetTarget(mgl32.Vec3{2, 1.6, 1})
	for f := 0; f < 120; f++ {
		_ = w.Step(1.0 / 60)
	}
	h, _ := w.BoneWorld(e, head)
	if lookAngle(mathx.Rotate(h.Rot, lookZ), lookZ) < 0.5 {
		t.Fatal("the head did not turn")
	}
	if err := w.LookAt().Of(e).SetWeight(0); err != nil {
		t.Fatal(err)
	}
	for f := 0; f < 300; f++ {
		_ = w.Step(1.0 / 60)
	}
	h, _ = w.BoneWorld(e, head)
	if a := lookAngle(mathx.Rotate(h.Rot, lookZ), lookZ); a > 1e-4 {
		t.Errorf("weight 0: the head is still %.3g rad turned", a)
	}
	if _, weight, _, _ := w.LookAt().Of(e).Target(); weight != 0 {
		t.Errorf("applied weight %v", weight)
	}
}

func lookScene(t testing.TB, workers, chars, frames int) *sway.World {
	t.Helper()
	sc, err := scene.New(scene.Config{Characters: chars, Seed: 5})
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
	head, hand := sc.Skeleton.Index("head"), sc.Skeleton.Index("hand.L")
	for i, e := range ents {
		s := sway.LookAtFor(sc.Skeleton)
		s.Spine[0] = sway.LookAtSpine{Bone: "chest", Share: 0.25}
		s.EyesConverge = i%2 == 0
		if _, err := w.Breath().Add(e, sway.BreathFor(sc.Skeleton)); err != nil {
			t.Fatal(err)
		}
		if _, err := w.LookAt().Add(e, s); err != nil {
			t.Fatal(err)
		}
		// Each character looks at its neighbour's head or its own hand.
		if i%3 == 2 {
			err = w.LookAt().Of(e).SetTargetBone(e, hand)
		} else {
			err = w.LookAt().Of(e).SetTargetBone(ents[(i+1)%len(ents)], head)
		}
		if err != nil {
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

func TestLookAtBitIdenticalForAnyWorkerCount(t *testing.T) {
	ref := lookScene(t, 1, 120, 60)
	defer ref.Close()
	w := lookScene(t, 3, 120, 60)
	defer w.Close()
	if ref.Checksum() != w.Checksum() {
		t.Fatal("poses differ between 1 and 3 workers")
	}
}

func TestLookAtStepDoesNotAllocate(t *testing.T) {
	w := lookScene(t, 2, 64, 2)
	defer w.Close()
	if n := testing.AllocsPerRun(50, func() { _ = w.Step(1.0 / 60) }); n != 0 {
		t.Fatalf("%v allocations per Step with look-at on", n)
	}
}

func TestLookAtRejectsBadSettings(t *testing.T) {
	w, skel := lookAtWorld(t, 1)
	defer w.Close()
	e, _ := w.AddCharacter(skel, sway.Identity())
	nan := float32(math.NaN())
	for _, c := range []struct {
		field string
		edit  func(s *sway.LookAtSettings)
	}{
		{"HeadBone", func(s *sway.LookAtSettings) { s.HeadBone = "skull" }},
		{"Head.Forward", func(s *sway.LookAtSettings) { s.Head.Forward = mgl32.Vec3{nan, 0, 1} }},
		{"Head.Up", func(s *sway.LookAtSettings) { s.Head.Up = mgl32.Vec3{0, 0, 2} }},
		{"Head.Speed", func(s *sway.LookAtSettings) { s.Head.Speed = -1 }},
		{"Eyes[1].Bone", func(s *sway.LookAtSettings) { s.Eyes[1].Bone = "hand.R" }},
		{"Eyes[1].Bone", func(s *sway.LookAtSettings) { s.Eyes[1].Bone = s.Eyes[0].Bone }},
		{"Eyes[0].Settings.MinYawDegrees", func(s *sway.LookAtSettings) { s.Eyes[0].Settings.MinYawDegrees = 40 }},
		{"Spine[0].Bone", func(s *sway.LookAtSettings) { s.Spine[0] = sway.LookAtSpine{Bone: "hand.L", Share: 0.2} }},
		{"Spine[1].Share", func(s *sway.LookAtSettings) {
			s.Spine[0] = sway.LookAtSpine{Bone: "chest", Share: 0.7}
			s.Spine[1] = sway.LookAtSpine{Bone: "spine", Share: 0.4}
		}},
		{"Spine[0].Share", func(s *sway.LookAtSettings) { s.Spine[0] = sway.LookAtSpine{Bone: "chest", Share: nan} }},
		{"Spine[2].Bone", func(s *sway.LookAtSettings) {
			s.Spine[0] = sway.LookAtSpine{Bone: "chest", Share: 0.1}
			s.Spine[2] = sway.LookAtSpine{Bone: "chest", Share: 0.1}
		}},
	} {
		s := sway.LookAtFor(skel)
		c.edit(&s)
		var fe *sway.FieldError
		if _, err := w.LookAt().Add(e, s); !errors.As(err, &fe) || fe.Field != c.field || fe.Type != "LookAtSettings" {
			t.Errorf("%s: LookAt.Add = %v", c.field, err)
		}
	}
	if err := w.LookAt().Of(e).SetTarget(mgl32.Vec3{}); !errors.Is(err, sway.ErrNoFeature) {
		t.Errorf("no look-at: %v", err)
	}
	if _, err := w.LookAt().Add(arche.Entity{}, sway.LookAtFor(skel)); !errors.Is(err, sway.ErrNotCharacter) {
		t.Errorf("non-character: %v", err)
	}
	if _, err := w.LookAt().Add(e, sway.LookAtFor(skel)); err != nil {
		t.Fatal(err)
	}
	if err := w.LookAt().Of(e).SetTargetBone(e, 500); !errors.Is(err, sway.ErrBone) {
		t.Errorf("bone 500: %v", err)
	}
	if err := w.LookAt().Of(e).SetTargetBone(arche.Entity{}, 1); !errors.Is(err, sway.ErrNotCharacter) {
		t.Errorf("target not a character: %v", err)
	}
	var fe *sway.FieldError
	if err := w.LookAt().Of(e).SetWeight(1.5); !errors.As(err, &fe) {
		t.Errorf("weight 1.5: %v", err)
	}
}

// TestLookAtDampingIndependentOfFrameRate: stepping at 120 Hz or at 30 Hz
// gives the same head rotation at the same simulated times (the damping is
// exact for a still goal), while the look is still on its way. (The eyes'
// goal moves with the head, so they agree only to O(dt).)
func TestLookAtDampingIndependentOfFrameRate(t *testing.T) {
	skel := procSkeleton(t)
	run := func(hz int) [][]mgl32.Quat {
		w, err := sway.NewWorld(sway.Options{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		e, _ := w.AddCharacter(skel, sway.Identity())
		s := sway.LookAtFor(skel)
		s.Head.Speed, s.Head.WeightSpeed = 3, 2
		if _, err := w.LookAt().Add(e, s); err != nil {
			t.Fatal(err)
		}
		_ = w.LookAt().Of(e).SetTarget(mgl32.Vec3{-1.5, 2, 1.5})
		var out [][]mgl32.Quat
		for f := 1; f <= hz; f++ { // one second
			_ = w.Step(1 / float32(hz))
			if f%(hz/10) == 0 {
				p, _ := w.Pose(e)
				out = append(out, []mgl32.Quat{p.WorldRot[skel.Index("head")]})
			}
		}
		return out
	}
	fast, slow := run(120), run(30)
	moved := 0.0
	for k := range fast {
		for b := range fast[k] {
			if d := breathQuatDiff(fast[k][b], slow[k][b]); d > 1e-4 {
				t.Fatalf("at %.1f s bone %d: 120 Hz and 30 Hz differ by %.3g rad", float64(k+1)/10, b, d)
			}
		}
		moved = max(moved, breathQuatDiff(fast[k][0], fast[len(fast)-1][0]))
	}
	if moved < 0.1 {
		t.Fatalf("the head hardly moved during the second (%.3g rad): the test is vacuous", moved)
	}
}
