package sway

import (
	"errors"
	"fmt"
	"strings"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"

	"github.com/sway-anim/sway/components"
	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/internal/mathx"
	"github.com/sway-anim/sway/internal/rig"
	"github.com/sway-anim/sway/systems"
	"github.com/sway-anim/sway/systems/breath"
)

// BreathMode says how a breath reaches the pose.
type BreathMode = breath.Mode

const (
	// BreathAbsolute puts the whole angle on the pose every frame. Use it
	// when something rewrites the local pose every frame before the
	// procedural phase: the default pipeline's pose reset, or an
	// animation layer.
	BreathAbsolute = breath.Absolute
	// BreathAdditive adds only the change of angle since the previous
	// frame. Use it when nothing resets the pose (a pipeline without pose
	// reset), or the bends would accumulate.
	BreathAdditive = breath.Additive
)

// BreathEasing names the inhale's easing curve (breath.OutSine, ...).
type BreathEasing = breath.Easing

// BreathAxis is a bone's local axis (breath.AxisX, AxisY, AxisZ).
type BreathAxis = breath.Axis

// BreathPhase is a part of the breath cycle (breath.Inhale, Exhale, Rest).
type BreathPhase = breath.Phase

// BreathSegment is one bone that bends with the breath.
type BreathSegment struct {
	// Bone names the bone; "" leaves the slot unused.
	Bone string
	// InhaleDegrees and ExhaleDegrees are the bend in degrees at the end of
	// an inhale and of an exhale (times EffectRate), each in ±180. A
	// positive angle bends the way the source's does: the bone's children
	// move toward the character's forward. BreathFor gives the source's
	// (breath.DefaultAngles: a few degrees).
	InhaleDegrees, ExhaleDegrees float32
	// Axis is the bone's local axis the bend turns about (AxisX, AxisY or
	// AxisZ), used only when Sign is +1 or -1.
	Axis BreathAxis
	// Sign 0 (the default) chooses the local axis from the rest pose: the
	// one most aligned with the character's left-right line. Sign +1 or -1
	// fixes Axis and its direction instead; other values are rejected.
	Sign float32
}

// BreathSettings is a character's breath, in bone names. BreathFor fills
// it for a humanoid; every field can be set by hand for any skeleton.
type BreathSettings struct {
	// Segments bend in turn: spine, chest, neck and head in the humanoid
	// mapping, any bones otherwise. At least one must name a bone, and no
	// bone may be in two slots.
	Segments [breath.MaxSegments]BreathSegment
	// Shoulders (left, right) keep their world rotations so that the arms
	// do not bob; "" for none. BreathFor falls back to the upper arms when
	// the skeleton has no shoulders. A shoulder must not be a segment.
	Shoulders [2]string
	// Right is the character's right in its root's (model) space, any
	// finite length, for choosing the segments' axes; zero (the default)
	// means -X, the glTF/VRM 1.0 convention (+Y up, +Z forward). The
	// source is left-handed (Unity, +X right), where a positive angle
	// about the right axis tips the forward axis down; in the right-handed
	// frame here that same bend is a positive angle about the character's
	// left, so axes are chosen against -Right.
	Right mgl32.Vec3

	// Phase durations in seconds, each 0..3600 (breath.MaxDuration; 0:
	// the phase ends on the frame it starts). BreathFor gives the
	// source's 1.2, 2.4 and 0.2.
	InhaleDuration, ExhaleDuration, RestDuration float32
	// DurationRate scales the durations (2 breathes half as fast),
	// EffectRate the angles; each 0..100 (breath.MaxRate), BreathFor
	// gives 1. Note that the zero value of both is 0: no time, no bend.
	DurationRate, EffectRate float32
	// InhaleEasing is the inhale's curve (breath.OutSine, the zero value
	// and BreathFor's, ...); the exhale always eases with InOutQuad.
	InhaleEasing BreathEasing
	// Mode is how the breath reaches the pose: BreathAbsolute (the zero
	// value and BreathFor's, for the default pipeline) or BreathAdditive.
	Mode BreathMode
	// Offset starts the character this many seconds (of scaled time) into
	// its cycle, taken modulo one cycle; give a crowd different offsets
	// (and rates) so that it does not breathe in step. Finite, >= 0;
	// default 0.
	Offset float32
}

// Bone names BreathFor looks for, in order, compared without case: the
// stress rig's and Blender's names, VRM 0.x (UniVRM J_Bip) and Mixamo.
var breathNames = struct {
	segments             [breath.MaxSegments][]string
	shoulders, upperArms [2][]string
}{
	segments: [breath.MaxSegments][]string{
		{"spine", "J_Bip_C_Spine", "mixamorig:Spine"},
		{"chest", "J_Bip_C_Chest", "mixamorig:Spine1"},
		{"neck", "J_Bip_C_Neck", "mixamorig:Neck"},
		{"head", "J_Bip_C_Head", "mixamorig:Head"},
	},
	shoulders: [2][]string{
		{"shoulder.L", "shoulder_L", "J_Bip_L_Shoulder", "mixamorig:LeftShoulder", "leftShoulder"},
		{"shoulder.R", "shoulder_R", "J_Bip_R_Shoulder", "mixamorig:RightShoulder", "rightShoulder"},
	},
	upperArms: [2][]string{
		{"upper_arm.L", "upper_arm_L", "J_Bip_L_UpperArm", "mixamorig:LeftArm", "leftUpperArm"},
		{"upper_arm.R", "upper_arm_R", "J_Bip_R_UpperArm", "mixamorig:RightArm", "rightUpperArm"},
	},
}

// BreathFor returns the source's default breath for a humanoid skeleton,
// its bones found by name: spine, chest, neck and head with their default
// angles, the shoulders (else the upper arms), axes chosen from the rest
// pose, durations 1.2, 2.4 and 0.2 s, rates 1, OutSine inhale, absolute
// mode (for the default pipeline), no offset. A bone the skeleton lacks is
// left "" and its slot unused; BreathFeature.Add rejects settings with no segment
// bone at all.
func BreathFor(skel *Skeleton) BreathSettings {
	s := BreathSettings{
		InhaleDuration: breath.DefaultInhaleDuration,
		ExhaleDuration: breath.DefaultExhaleDuration,
		RestDuration:   breath.DefaultRestDuration,
		DurationRate:   1,
		EffectRate:     1,
		InhaleEasing:   breath.OutSine,
		Mode:           BreathAbsolute,
	}
	if skel == nil {
		return s
	}
	for i := range s.Segments {
		s.Segments[i] = BreathSegment{
			Bone:          boneByNames(skel.r, breathNames.segments[i]),
			InhaleDegrees: breath.DefaultAngles[i][0],
			ExhaleDegrees: breath.DefaultAngles[i][1],
		}
	}
	for side := range s.Shoulders {
		if s.Shoulders[side] = boneByNames(skel.r, breathNames.shoulders[side]); s.Shoulders[side] == "" {
			s.Shoulders[side] = boneByNames(skel.r, breathNames.upperArms[side])
		}
	}
	return s
}

// boneByNames returns the skeleton's name of the first candidate it has,
// compared without case, or "".
func boneByNames(skel *rig.Skeleton, candidates []string) string {
	for _, c := range candidates {
		for i := 0; i < skel.NumBones(); i++ {
			if name := skel.BoneName(i); strings.EqualFold(name, c) {
				return name
			}
		}
	}
	return ""
}

const breathType = "BreathSettings"

// breathSettings resolves s against skel: bone names to indices, axes
// chosen from the rest pose. Field errors name BreathSettings' fields.
func breathSettings(skel *rig.Skeleton, s *BreathSettings) (breath.Settings, error) {
	out := breath.Settings{
		Shoulders:      [2]int32{-1, -1},
		InhaleDuration: s.InhaleDuration,
		ExhaleDuration: s.ExhaleDuration,
		RestDuration:   s.RestDuration,
		DurationRate:   s.DurationRate,
		EffectRate:     s.EffectRate,
		InhaleEasing:   s.InhaleEasing,
		Mode:           s.Mode,
	}
	if err := check.FiniteVec3(breathType, "Right", s.Right); err != nil {
		return out, err
	}
	right := s.Right
	if right == (mgl32.Vec3{}) {
		right = mgl32.Vec3{-1, 0, 0}
	}
	if _, ok := mathx.SafeNormalize(right); !ok {
		return out, check.Errorf(breathType, "Right", s.Right, "must be zero (for -X) or a direction")
	}
	left := right.Mul(-1)
	used := 0
	for i, sg := range s.Segments {
		field := fmt.Sprintf("Segments[%d]", i)
		out.Segments[i] = breath.Segment{Bone: -1, Axis: sg.Axis, Sign: sg.Sign, InhaleDegrees: sg.InhaleDegrees, ExhaleDegrees: sg.ExhaleDegrees}
		if sg.Bone == "" {
			out.Segments[i].Axis, out.Segments[i].Sign = breath.AxisX, 1 // unused
			continue
		}
		b := skel.Index(sg.Bone)
		if b < 0 {
			return out, check.Errorf(breathType, field+".Bone", sg.Bone, "no bone of skeleton %q has this name", skel.Name())
		}
		out.Segments[i].Bone = int32(b)
		used++
		switch sg.Sign {
		case 0:
			out.Segments[i].Axis, out.Segments[i].Sign = breath.ChooseAxis(skel.ModelRot()[b], left)
		case 1, -1:
		default:
			return out, check.Errorf(breathType, field+".Sign", sg.Sign, "must be 0 (choose the axis from the rest pose), 1 or -1")
		}
	}
	if used == 0 {
		return out, check.Errorf(breathType, "Segments", "", "a breath needs at least one segment bone")
	}
	for i, name := range s.Shoulders {
		if name == "" {
			continue
		}
		b := skel.Index(name)
		if b < 0 {
			return out, check.Errorf(breathType, fmt.Sprintf("Shoulders[%d]", i), name, "no bone of skeleton %q has this name", skel.Name())
		}
		out.Shoulders[i] = int32(b)
	}
	// The kernel's checks (angles, durations, rates, easing, mode, bones
	// used twice), renamed to this type's fields.
	if err := out.Validate(); err != nil {
		var fe *check.FieldError
		if errors.As(err, &fe) {
			return out, &check.FieldError{Type: breathType, Field: fe.Field, Value: fe.Value, Reason: fe.Reason}
		}
		return out, err
	}
	return out, nil
}

// BreathFeature adds breathing to characters and finds it again
// (World.Breath).
type BreathFeature struct{ w *World }

// Breath returns the world's breath feature.
func (w *World) Breath() BreathFeature { return BreathFeature{w} }

// Breath is a handle on a character's breathing: the verbs every feature
// has (Pause, Resume, Reset, SetWeight, Remove; see "Features as
// handles") and its state. Its weight scales the bend: each bone it turns
// ends at the normalised lerp from its rotation before the breath towards
// the breathed one.
type Breath struct{ feature }

var breathKind = featureKind{
	name: "Breath",
	control: func(w *World, e ecs.Entity) *components.Control {
		if m := &w.maps.breath; m.Has(e) {
			return &m.Get(e).Control
		}
		return nil
	},
	reset: func(w *World, e ecs.Entity) {
		// The cycle starts over (at its beginning, whatever Offset was
		// given); Prev keeps the angle applied last, so that Additive mode
		// takes it off at the next Step.
		b := w.maps.breath.Get(e)
		prev := b.State.Angle
		if ms := generic.NewMap[components.BreathSettings](w.ecs); ms.Has(e) {
			breath.Init(&b.State, &ms.Get(e).Settings, 0)
		}
		b.State.Prev = prev
	},
	remove: func(w *World, e ecs.Entity) {
		m := generic.NewMap2[components.Breath, components.BreathSettings](w.ecs)
		m.Remove(e)
	},
}

// Of returns the handle on character e's breath. It does not check that e
// breathes: its methods do.
func (f BreathFeature) Of(e ecs.Entity) Breath { return Breath{feature{f.w, e, &breathKind}} }

// Add makes a character breathe and returns the handle; a character has
// one breath (Remove it first to replace it). The settings are validated
// and resolved now (a *FieldError names the bad field); the breath runs
// in the procedural phase of every Step from then on, on the world's
// simulation clock.
func (f BreathFeature) Add(e ecs.Entity, s BreathSettings) (Breath, error) {
	w := f.w
	if err := w.enter("Breath.Add"); err != nil {
		return Breath{}, err
	}
	defer w.leave()
	p, err := w.pose(e)
	if err != nil {
		return Breath{}, err
	}
	if w.maps.breath.Has(e) {
		return Breath{}, check.Errorf("Breath.Add", "Entity", e, "already breathes (Remove the breath first)")
	}
	comp, settings, err := resolveBreath(w.reg.Skeletons[p.Skeleton], &s)
	if err != nil {
		return Breath{}, err
	}
	m := generic.NewMap2[components.Breath, components.BreathSettings](w.ecs)
	m.Assign(e, &comp, &settings)
	return f.Of(e), nil
}

// resolveBreath validates s and resolves it against skel.
func resolveBreath(skel *rig.Skeleton, s *BreathSettings) (components.Breath, components.BreathSettings, error) {
	ks, err := breathSettings(skel, s)
	if err != nil {
		return components.Breath{}, components.BreathSettings{}, err
	}
	comp, settings, err := systems.NewBreathComponent(skel, ks, s.Offset)
	if err != nil {
		var fe *check.FieldError
		if errors.As(err, &fe) && fe.Field == "Offset" {
			err = &check.FieldError{Type: breathType, Field: fe.Field, Value: fe.Value, Reason: fe.Reason}
		}
		return components.Breath{}, components.BreathSettings{}, err
	}
	return comp, settings, nil
}

// SetSettings replaces the breath's settings, as a new Add would (the
// cycle starts over, Offset seconds in), keeping its pause state and
// weight. Bad settings are a *FieldError and change nothing.
func (b Breath) SetSettings(s BreathSettings) error {
	if err := b.enter("SetSettings"); err != nil {
		return err
	}
	defer b.w.leave()
	ctl, err := b.control()
	if err != nil {
		return err
	}
	p, _ := b.w.pose(b.e)
	comp, settings, err := resolveBreath(b.w.reg.Skeletons[p.Skeleton], &s)
	if err != nil {
		return err
	}
	comp.Control = *ctl
	m := generic.NewMap2[components.Breath, components.BreathSettings](b.w.ecs)
	old, oldSettings := m.Get(b.e)
	*old, *oldSettings = comp, settings
	return nil
}

// State returns the character's place in its breath: the phase, the time
// into it and each segment's angle in degrees this frame.
func (b Breath) State() (breath.State, error) {
	if err := b.enter("State"); err != nil {
		return breath.State{}, err
	}
	defer b.w.leave()
	if _, err := b.control(); err != nil {
		return breath.State{}, err
	}
	return b.w.maps.breath.Get(b.e).State, nil
}
