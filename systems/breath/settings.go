package breath

import (
	"fmt"

	"github.com/sway-anim/sway/internal/check"
)

// MaxSegments is the number of segment bones a breath moves: spine, chest,
// neck and head in the source.
const MaxSegments = 4

// Segment slots of the default humanoid mapping.
const (
	Spine = iota
	Chest
	Neck
	Head
)

// Shoulder slots.
const (
	LeftShoulder = iota
	RightShoulder
)

// The source's defaults (durations in seconds, angles in degrees).
const (
	DefaultInhaleDuration = 1.2
	DefaultExhaleDuration = 2.4
	DefaultRestDuration   = 0.2
)

// DefaultAngles holds the source's inhale and exhale angles per segment slot,
// in degrees: spine 2 / -2, chest -3 / 3, neck 0.5 / -0.5, head 0.5 / -0.5.
var DefaultAngles = [MaxSegments][2]float32{
	Spine: {2, -2},
	Chest: {-3, 3},
	Neck:  {0.5, -0.5},
	Head:  {0.5, -0.5},
}

// Limits that keep every product of settings finite. The source has none;
// they are far beyond any breath.
const (
	MaxDuration = 3600 // seconds, for each phase
	MaxRate     = 100  // for DurationRate and EffectRate
	MaxAngle    = 180  // degrees, for inhale and exhale angles
)

// Mode says how the breath reaches the pose (the source's hasController).
type Mode uint8

const (
	// Absolute: an animation rewrites the local rotations every frame, so
	// the whole eased angle is applied on top of them.
	Absolute Mode = iota
	// Additive: nothing resets the pose, so only the change of angle since
	// the previous frame is applied.
	Additive
)

// Axis is a bone's local axis.
type Axis uint8

// The three local axes, named as the source names them.
const (
	AxisX Axis = iota // right
	AxisY             // up
	AxisZ             // forward
)

// Segment is one bone that bends with the breath: about one local axis, by
// Sign*InhaleDegrees*EffectRate degrees at the end of an inhale and by
// Sign*ExhaleDegrees*EffectRate at the end of an exhale.
type Segment struct {
	Bone int32   // bone index; -1 leaves the slot unused
	Axis Axis    // the bone's local axis carrying the angle: AxisX, AxisY or AxisZ (see ChooseAxis)
	Sign float32 // exactly +1 or -1: the axis' direction relative to the character's right (see ChooseAxis)
	// InhaleDegrees and ExhaleDegrees are the bend at the end of an inhale
	// and of an exhale, in degrees, each in ±MaxAngle (defaults in
	// DefaultAngles: a few degrees).
	InhaleDegrees float32
	ExhaleDegrees float32
}

// Settings is one character's breath. Bones are indices into the
// character's skeleton, so any skeleton can breathe (the source's "generic"
// mapping). The defaults named below are DefaultSettings'.
type Settings struct {
	Segments  [MaxSegments]Segment // bent in turn; no bone in two slots
	Shoulders [2]int32             // (left, right) bones kept at their world rotation; -1: none

	InhaleDuration float32 // seconds, 0..MaxDuration (default 1.2)
	ExhaleDuration float32 // seconds, 0..MaxDuration (default 2.4)
	RestDuration   float32 // seconds, 0..MaxDuration (default 0.2)
	// DurationRate scales all three durations: 2 breathes half as fast.
	// Giving characters different rates keeps a crowd out of step.
	// 0..MaxRate (default 1; 0 makes every phase end on the frame it
	// starts).
	DurationRate float32
	// EffectRate scales all angles: 0..MaxRate (default 1; 0: no bend).
	EffectRate float32

	InhaleEasing Easing // default OutSine; the exhale always uses InOutQuad, as in the source
	Mode         Mode   // Absolute (the default) or Additive
}

// DefaultSettings returns the source's defaults for the given bones: the
// four segments with their default angles about local X with sign +1 (call
// ChooseAxes to pick the axes from the rest pose), durations 1.2 s, 2.4 s
// and 0.2 s, both rates 1, OutSine inhale, Absolute mode. Pass -1 for a
// bone the skeleton lacks; see ShoulderBone for the shoulder fallback.
func DefaultSettings(spine, chest, neck, head, leftShoulder, rightShoulder int32) Settings {
	s := Settings{
		Shoulders:      [2]int32{leftShoulder, rightShoulder},
		InhaleDuration: DefaultInhaleDuration,
		ExhaleDuration: DefaultExhaleDuration,
		RestDuration:   DefaultRestDuration,
		DurationRate:   1,
		EffectRate:     1,
		InhaleEasing:   OutSine,
		Mode:           Absolute,
	}
	for i, b := range [MaxSegments]int32{spine, chest, neck, head} {
		s.Segments[i] = Segment{Bone: b, Axis: AxisX, Sign: 1, InhaleDegrees: DefaultAngles[i][0], ExhaleDegrees: DefaultAngles[i][1]}
	}
	return s
}

const settingsType = "Settings"

// Validate reports the first bad field as a *check.FieldError: a bone index
// below -1, a bone used by two segments or by a segment and a shoulder, an
// unknown axis, easing or mode, a sign other than ±1, an angle outside
// ±MaxAngle, a duration outside [0, MaxDuration], a rate outside
// [0, MaxRate], and any non-finite number. Zero durations and rates are
// valid: a phase of zero duration ends on the frame it starts.
func (s *Settings) Validate() error {
	for i := range s.Segments {
		sg := &s.Segments[i]
		f := fmt.Sprintf("Segments[%d]", i)
		if sg.Bone < -1 {
			return check.Errorf(settingsType, f+".Bone", sg.Bone, "must be a bone index or -1")
		}
		for j := 0; j < i && sg.Bone >= 0; j++ {
			if s.Segments[j].Bone == sg.Bone {
				return check.Errorf(settingsType, f+".Bone", sg.Bone, "already used by Segments[%d]", j)
			}
		}
		if sg.Axis > AxisZ {
			return check.Errorf(settingsType, f+".Axis", sg.Axis, "must be AxisX, AxisY or AxisZ")
		}
		if sg.Sign != 1 && sg.Sign != -1 {
			return check.Errorf(settingsType, f+".Sign", sg.Sign, "must be 1 or -1")
		}
		if err := check.Range(settingsType, f+".InhaleDegrees", sg.InhaleDegrees, -MaxAngle, MaxAngle); err != nil {
			return err
		}
		if err := check.Range(settingsType, f+".ExhaleDegrees", sg.ExhaleDegrees, -MaxAngle, MaxAngle); err != nil {
			return err
		}
	}
	for i, b := range s.Shoulders {
		f := fmt.Sprintf("Shoulders[%d]", i)
		if b < -1 {
			return check.Errorf(settingsType, f, b, "must be a bone index or -1")
		}
		if b >= 0 && segmentOf(s, b) >= 0 {
			return check.Errorf(settingsType, f, b, "is also Segments[%d].Bone", segmentOf(s, b))
		}
	}
	for _, v := range []struct {
		field  string
		v, max float32
	}{
		{"InhaleDuration", s.InhaleDuration, MaxDuration},
		{"ExhaleDuration", s.ExhaleDuration, MaxDuration},
		{"RestDuration", s.RestDuration, MaxDuration},
		{"DurationRate", s.DurationRate, MaxRate},
		{"EffectRate", s.EffectRate, MaxRate},
	} {
		if err := check.NonNegative(settingsType, v.field, v.v); err != nil {
			return err
		}
		if err := check.Range(settingsType, v.field, v.v, 0, v.max); err != nil {
			return err
		}
	}
	if s.InhaleEasing >= numEasings {
		return check.Errorf(settingsType, "InhaleEasing", s.InhaleEasing, "unknown easing")
	}
	if s.Mode > Additive {
		return check.Errorf(settingsType, "Mode", s.Mode, "must be Absolute or Additive")
	}
	return nil
}

// CheckBones reports a segment or shoulder bone that is not below numBones
// (the skeleton's bone count) as a *check.FieldError.
func (s *Settings) CheckBones(numBones int) error {
	for i, sg := range s.Segments {
		if int(sg.Bone) >= numBones {
			return check.Errorf(settingsType, fmt.Sprintf("Segments[%d].Bone", i), sg.Bone, "beyond the skeleton's %d bones", numBones)
		}
	}
	for i, b := range s.Shoulders {
		if int(b) >= numBones {
			return check.Errorf(settingsType, fmt.Sprintf("Shoulders[%d]", i), b, "beyond the skeleton's %d bones", numBones)
		}
	}
	return nil
}

// segmentOf returns the slot whose bone is b, or -1.
func segmentOf(s *Settings, b int32) int {
	for i := range s.Segments {
		if s.Segments[i].Bone == b {
			return i
		}
	}
	return -1
}
