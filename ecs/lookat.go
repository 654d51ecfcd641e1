package sway

import (
	"errors"
	"fmt"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"

	"github.com/sway-anim/sway/components"
	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/internal/mathx"
	"github.com/sway-anim/sway/internal/rig"
	"github.com/sway-anim/sway/systems/lookat"
)

// HeadSettings configures the head's look-at: its look and up axes in the
// head bone's local space (+Z and +Y in the glTF/VRM 1.0 convention), the
// largest turn from the animated forward in degrees, and the damping
// rates of the turn and of the blend weight (1/s; the damping is exact: k
// frames of dt equal one of k*dt). Each field's range and default are in
// lookat.HeadSettings; LookAtFor starts from lookat.DefaultHeadSettings.
type HeadSettings = lookat.HeadSettings

// EyeSettings configures one eye: its look and turn axes in the eye
// bone's local space, its yaw limits in degrees (positive turns toward
// up × forward, the character's left with +Y up and +Z forward), its pitch
// limits in degrees (positive looks up; MinPitchDegrees is the down limit)
// and its damping rate. Each field's range and default are in
// lookat.EyeSettings; LookAtFor starts from lookat.DefaultEyeSettings.
type EyeSettings = lookat.EyeSettings

// LookAtEye is one eye of a look-at.
type LookAtEye struct {
	Bone     string      // the eye bone's name, "" for none; must be below the head
	Settings EyeSettings // unused when Bone is ""; the zero value is invalid (zero axes)
}

// LookAtSpine is a bone that takes a share of the head's turn.
type LookAtSpine struct {
	Bone  string  // the bone's name, "" for none; must be an ancestor of the head, listed once
	Share float32 // fraction of the head's turn, 0..1; the shares sum to at most 1
}

// LookAtSettings is a character's head and eye look-at, in bone names.
type LookAtSettings struct {
	HeadBone string       // the head bone's name; required
	Head     HeadSettings // the head's axes, limit and damping (the zero value is invalid: zero axes)
	// Eyes (left, right) turn after the head, each under the head's new
	// rotation. Default: none.
	Eyes [2]LookAtEye
	// EyesConverge makes each eye look from its own position, so that the
	// eyes converge on a near target; otherwise (the default) both look
	// from the head's position and stay parallel (the source's behaviour).
	EyesConverge bool
	// Spine bones take their share of the head's turn, so that the upper
	// body turns with the head; the head's final world rotation is the
	// same either way. Any order; default: none.
	Spine [components.MaxLookAtSpine]LookAtSpine
}

// Bone names LookAtFor looks for, compared without case.
var lookAtNames = struct {
	head []string
	eyes [2][]string
}{
	head: []string{"head", "J_Bip_C_Head", "mixamorig:Head"},
	eyes: [2][]string{
		{"eye.L", "eye_L", "J_Adj_L_FaceEye", "mixamorig:LeftEye", "leftEye"},
		{"eye.R", "eye_R", "J_Adj_R_FaceEye", "mixamorig:RightEye", "rightEye"},
	},
}

// LookAtFor returns a look-at for a humanoid skeleton, its head and eyes
// found by name, with the kernel's defaults: +Z forward and +Y up for the
// head and the eyes, a 60 degree head limit, eyes within ±30 degrees of
// yaw and from 25 degrees down to 20 up, and no spine share. A missing eye is left "".
func LookAtFor(skel *Skeleton) LookAtSettings {
	s := LookAtSettings{Head: lookat.DefaultHeadSettings()}
	for i := range s.Eyes {
		s.Eyes[i].Settings = lookat.DefaultEyeSettings()
	}
	if skel == nil {
		return s
	}
	s.HeadBone = boneByNames(skel.r, lookAtNames.head)
	for i := range s.Eyes {
		s.Eyes[i].Bone = boneByNames(skel.r, lookAtNames.eyes[i])
	}
	return s
}

const lookAtType = "LookAtSettings"

// relabelFieldError renames a kernel settings error to a field of typ.
func relabelFieldError(err error, typ, prefix string) error {
	var fe *check.FieldError
	if errors.As(err, &fe) {
		return &check.FieldError{Type: typ, Field: prefix + fe.Field, Value: fe.Value, Reason: fe.Reason}
	}
	return err
}

// isBoneAncestor reports whether a is a proper ancestor of b.
func isBoneAncestor(skel *rig.Skeleton, a, b int) bool {
	return a < b && b < int(skel.SubtreeEnd(a))
}

// lookAtComponent resolves s against skel.
func lookAtComponent(skel *rig.Skeleton, s *LookAtSettings) (components.LookAt, error) {
	c := components.LookAt{EyeBones: [2]int32{-1, -1}, EyesConverge: s.EyesConverge, Control: components.Control{Weight: 1}}
	head := skel.Index(s.HeadBone)
	if head < 0 {
		return c, check.Errorf(lookAtType, "HeadBone", s.HeadBone, "no bone of skeleton %q has this name", skel.Name())
	}
	c.HeadBone = int32(head)
	var err error
	if c.Head, err = lookat.NewHead(s.Head); err != nil {
		return c, relabelFieldError(err, lookAtType, "Head.")
	}
	c.HeadState = lookat.NewHeadState(skel.RestRot()[head])
	for i, e := range s.Eyes {
		if e.Bone == "" {
			continue
		}
		field := fmt.Sprintf("Eyes[%d]", i)
		b := skel.Index(e.Bone)
		if b < 0 {
			return c, check.Errorf(lookAtType, field+".Bone", e.Bone, "no bone of skeleton %q has this name", skel.Name())
		}
		if !isBoneAncestor(skel, head, b) {
			return c, check.Errorf(lookAtType, field+".Bone", e.Bone, "must be below the head %q", s.HeadBone)
		}
		if i == 1 && int32(b) == c.EyeBones[0] {
			return c, check.Errorf(lookAtType, field+".Bone", e.Bone, "already Eyes[0]")
		}
		if c.Eyes[i], err = lookat.NewEye(e.Settings); err != nil {
			return c, relabelFieldError(err, lookAtType, field+".Settings.")
		}
		c.EyeBones[i] = int32(b)
	}
	// Spine bones parent-first, whatever order they are listed in.
	total := float32(0)
	for i, sp := range s.Spine {
		if sp.Bone == "" {
			continue
		}
		field := fmt.Sprintf("Spine[%d]", i)
		b := skel.Index(sp.Bone)
		if b < 0 {
			return c, check.Errorf(lookAtType, field+".Bone", sp.Bone, "no bone of skeleton %q has this name", skel.Name())
		}
		if !isBoneAncestor(skel, b, head) {
			return c, check.Errorf(lookAtType, field+".Bone", sp.Bone, "must be an ancestor of the head %q", s.HeadBone)
		}
		if err := check.Range(lookAtType, field+".Share", sp.Share, 0, 1); err != nil {
			return c, err
		}
		if total += sp.Share; total > 1+1e-6 {
			return c, check.Errorf(lookAtType, field+".Share", sp.Share, "the shares sum to %g, more than 1", total)
		}
		k := int(c.NumSpine)
		for k > 0 && c.Spine[k-1] > int32(b) {
			c.Spine[k], c.SpineShares[k] = c.Spine[k-1], c.SpineShares[k-1]
			k--
		}
		if k > 0 && c.Spine[k-1] == int32(b) {
			return c, check.Errorf(lookAtType, field+".Bone", sp.Bone, "listed twice")
		}
		c.Spine[k], c.SpineShares[k] = int32(b), sp.Share
		c.NumSpine++
	}
	return c, nil
}

// LookAtFeature adds look-at to characters and finds it again
// (World.LookAt).
type LookAtFeature struct{ w *World }

// LookAt returns the world's look-at feature.
func (w *World) LookAt() LookAtFeature { return LookAtFeature{w} }

// LookAt is a handle on a character's look-at (head, spine share, eyes):
// the verbs every feature has (Pause, Resume, Reset, SetWeight, Remove;
// see "Features as handles") and its target. Its weight is approached
// with the head's WeightSpeed damping, so SetWeight(0) fades it out and
// SetWeight(1) back in.
type LookAt struct{ feature }

var lookAtKind = featureKind{
	name: "LookAt",
	control: func(w *World, e ecs.Entity) *components.Control {
		if m := &w.maps.lookAt; m.Has(e) {
			return &m.Get(e).Control
		}
		return nil
	},
	reset: func(w *World, e ecs.Entity) {
		// Back to the state Add gives: the damped head turn and applied
		// weight at zero (it fades in again), the eyes centred.
		la := w.maps.lookAt.Get(e)
		var fresh components.LookAt
		la.HeadState, la.EyeStates = fresh.HeadState, fresh.EyeStates
	},
	remove: func(w *World, e ecs.Entity) {
		m := generic.NewMap1[components.LookAt](w.ecs)
		m.Remove(e)
	},
}

// Of returns the handle on character e's look-at. It does not check that
// e has one: its methods do.
func (f LookAtFeature) Of(e ecs.Entity) LookAt { return LookAt{feature{f.w, e, &lookAtKind}} }

// Add makes a character look at a target and returns the handle. The
// settings are validated now (a *FieldError names the bad field); a
// character has one look-at (Remove it first to replace it). The target
// starts 1 m ahead of the head along its look axis; set it with
// SetTarget or SetTargetBone. The look-at fades in from weight 0 toward
// the requested weight 1 at Head.WeightSpeed.
func (f LookAtFeature) Add(e ecs.Entity, s LookAtSettings) (LookAt, error) {
	w := f.w
	if err := w.enter("LookAt.Add"); err != nil {
		return LookAt{}, err
	}
	defer w.leave()
	p, err := w.pose(e)
	if err != nil {
		return LookAt{}, err
	}
	if w.maps.lookAt.Has(e) {
		return LookAt{}, check.Errorf("LookAt.Add", "Entity", e, "already has a look-at (Remove it first)")
	}
	skel := w.reg.Skeletons[p.Skeleton]
	c, err := lookAtComponent(skel, &s)
	if err != nil {
		return LookAt{}, err
	}
	head, _ := w.boneWorld(e, int(c.HeadBone))
	fwd := mathx.NormalizeOr(s.Head.Forward, mgl32.Vec3{0, 0, 1})
	c.Target.Point = head.Pos.Add(mathx.Rotate(head.Rot, fwd))
	m := generic.NewMap1[components.LookAt](w.ecs)
	m.Assign(e, &c)
	return f.Of(e), nil
}

// lookAt returns a character's look-at component, or an error.
func (w *World) lookAt(e ecs.Entity) (*components.LookAt, error) {
	if _, err := w.pose(e); err != nil {
		return nil, err
	}
	m := &w.maps.lookAt
	if !m.Has(e) {
		return nil, &FeatureError{Feature: lookAtKind.name, Entity: e}
	}
	return m.Get(e), nil
}

// SetTarget aims the look-at at a point in world space (metres).
func (l LookAt) SetTarget(point mgl32.Vec3) error {
	if err := l.enter("SetTarget"); err != nil {
		return err
	}
	defer l.w.leave()
	la, err := l.w.lookAt(l.e)
	if err != nil {
		return err
	}
	if err := check.FiniteVec3("LookAt", "Target", point); err != nil {
		return err
	}
	la.Target = components.Target{Point: point}
	return nil
}

// SetTargetBone aims the look-at at a bone of a character (itself
// included), followed every frame. If the target character is removed
// later, the look-at keeps looking at the bone's last position (Target
// reports it lost); a target character whose root is not finite holds its
// last position for those frames.
func (l LookAt) SetTargetBone(target ecs.Entity, bone int) error {
	if err := l.enter("SetTargetBone"); err != nil {
		return err
	}
	defer l.w.leave()
	la, err := l.w.lookAt(l.e)
	if err != nil {
		return err
	}
	t, err := l.w.boneTarget(target, bone)
	if err != nil {
		return err
	}
	la.Target = t
	return nil
}

// boneTarget returns a target following a bone of a live character, its
// point current.
func (w *World) boneTarget(target ecs.Entity, bone int) (components.Target, error) {
	tp, err := w.pose(target)
	if err != nil {
		return components.Target{}, err
	}
	if bone < 0 || bone >= int(tp.Count) {
		return components.Target{}, ErrBone
	}
	at, _ := w.boneWorld(target, bone)
	return components.Target{Point: at.Pos, Entity: target, Bone: int32(bone)}, nil
}

// Target returns where the look-at aims (world space; for a bone target,
// its position as of the last Step), the weight applied in the last Step
// (Weight returns the requested one), and whether a bone target's
// character is gone (the point is then its last position).
func (l LookAt) Target() (point mgl32.Vec3, applied float32, lost bool, err error) {
	if err = l.enter("Target"); err != nil {
		return
	}
	defer l.w.leave()
	la, err := l.w.lookAt(l.e)
	if err != nil {
		return point, 0, false, err
	}
	return la.Target.Point, la.HeadState.Weight, la.Target.Lost, nil
}
