package sway

import (
	"errors"
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/internal/gltfrig"
	"github.com/sway-anim/sway/internal/vrma"
)

// VRMA is a VRM Animation clip (.vrma, the VRMC_vrm_animation 1.0 glTF
// extension) read by LoadVRMA, as plain data: its humanoid animation,
// ready to retarget onto any VRM 0.x or 1.0 avatar with Clip, and its
// look-at and expression keys. Every key is at a fixed rate: key k is at
// time k/SampleRate, and (KeyCount-1)/SampleRate is Duration.
type VRMA struct {
	Name       string  // the animation's name in the file
	Duration   float32 // seconds
	SampleRate float32 // keys per second (the file's 30 frames/s give 30)
	KeyCount   int     // keys per track, >= 1
	// Animations names every animation of the file; the clip is the
	// first, which the specification plays.
	Animations []string
	// LookAt holds KeyCount gaze keys (nil when the clip has no look-at
	// track); LookAtOffset is the file's lookAt.offsetFromHeadBone, the
	// gaze's origin in the clip rig's head space (metres).
	LookAt       []VRMALookAtKey
	LookAtOffset mgl32.Vec3
	// Expressions holds the animated expressions ("happy", "aa",
	// "blink", … and custom ones), each with KeyCount weights in [0, 1].
	Expressions []VRMAExpression
	// Warnings lists what the file held that was not read (see
	// internal/gltfrig's VRMA).
	Warnings []string

	clip vrma.Clip
}

// VRMALookAtKey is one gaze key of a VRMA clip: yaw and pitch in degrees
// as the specification defines them (the look-at node's rotation as
// Euler angles, yaw about +Y, then pitch about +X) and as three-vrm reads
// them: yaw > 0 looks toward +X, the character's left; pitch > 0 looks
// down. They are relative to the look-at space: the head's rest frame
// turned with the head, +Z forward.
type VRMALookAtKey struct {
	YawDegrees   float32
	PitchDegrees float32
}

// Direction returns the gaze as a unit vector in the look-at space:
// (sin yaw cos pitch, -sin pitch, cos yaw cos pitch).
func (k VRMALookAtKey) Direction() mgl32.Vec3 {
	y := float64(k.YawDegrees) * math.Pi / 180
	p := float64(k.PitchDegrees) * math.Pi / 180
	return mgl32.Vec3{float32(math.Sin(y) * math.Cos(p)), float32(-math.Sin(p)), float32(math.Cos(y) * math.Cos(p))}
}

// Target returns a point for LookAt.SetTarget: distance metres from
// origin along the gaze, the look-at space turned by frame into world
// space. The specification's origin is the head bone's position plus
// the avatar's offsetFromHeadBone in head space; its frame is the head's
// world rotation times the inverse of the head's model-space rest
// rotation (Skeleton.ModelRot), so that the gaze turns with the head.
// sway's look-at turns the head itself, so take that frame from the pose
// before the look-at applies (or, simplest, the character's root
// rotation, for a gaze relative to the body's facing): taken from the
// head the look-at has turned, the target would move with every turn.
// sway's look-at aims the head's look axis (HeadSettings.Forward, +Z in
// head space by default); for the look-at space's +Z to follow the gaze
// on a head whose rest rotation is not the identity, set Forward and Up
// to the model's +Z and +Y in head space (the inverse of the head's
// model-space rest rotation applied to them).
func (k VRMALookAtKey) Target(origin mgl32.Vec3, frame mgl32.Quat, distance float32) mgl32.Vec3 {
	return origin.Add(frame.Rotate(k.Direction()).Mul(distance))
}

// VRMAExpression is an expression track of a VRMA clip: KeyCount weights
// in [0, 1] (the file's values clamped, as the specification requires).
type VRMAExpression struct {
	Name    string
	Preset  bool // a VRM 1.0 preset ("happy", "aa", "blink", …); else custom
	Weights []float32
}

const vrmaType = "VRMA"

// LoadVRMA reads a VRM Animation file (.vrma: a GLB, or glTF JSON, with
// the VRMC_vrm_animation extension, specVersion "1.0"; the draft's
// "1.0-draft" is read with a warning). Its first animation is the clip:
// rotation channels on humanoid bones, translation on the hips, the
// look-at node's rotation and the expression nodes' translation X, each
// resampled to fixed-rate keys as LoadRig's animations are; other
// channels are ignored with a warning. Nothing in the file is trusted: a
// rejected file gives a *FieldError whose Field is the JSON path of the
// offending value (e.g.
// extensions.VRMC_vrm_animation.humanoid.humanBones.hips.node), or a
// *RigLoadError carrying the warnings noted before it.
func LoadVRMA(path string) (*VRMA, error) {
	g, err := gltfrig.LoadVRMA(path)
	if err != nil {
		var le *gltfrig.LoadError
		if errors.As(err, &le) {
			return nil, &RigLoadError{Err: le.Err, Warnings: le.Warnings}
		}
		return nil, err
	}
	a := g.Animations[0]
	v := &VRMA{Name: a.Name, Duration: a.Duration, SampleRate: a.Clip.SampleRate, KeyCount: a.Clip.KeyCount,
		LookAtOffset: g.LookAtOffset, Warnings: g.Warnings, clip: a.Clip}
	for _, an := range g.Animations {
		v.Animations = append(v.Animations, an.Name)
	}
	if a.LookAt != nil {
		v.LookAt = make([]VRMALookAtKey, len(a.LookAt))
		for i, k := range a.LookAt {
			v.LookAt[i] = VRMALookAtKey(k)
		}
	}
	for _, e := range a.Expressions {
		v.Expressions = append(v.Expressions, VRMAExpression(e))
	}
	return v, nil
}

// Clip retargets the clip onto a character loaded with LoadRig and
// returns it as a ClipDesc for World.AddClip: skel is the skeleton the
// world built for the rig (World.Skeleton of a character added with
// AddRig), whose bone indices the clip uses. The retarget is the
// specification's (see internal/vrma): every humanoid bone of the avatar
// turns from its rest by the same model-space rotation as the clip's
// bone turns from the clip rig's rest, bones the avatar lacks folded into
// those below them; the hips translation is scaled by the ratio of the
// hips heights. VRM 0.x avatars need nothing more: LoadRig has already
// turned them to face +Z.
//
// The specification requires both rests to be the VRM T-pose. An avatar
// whose rest is another posture (an A-pose) keeps its offset from the
// T-pose under the clip: its arms hang 45° lower than the clip's.
//
// Call it once per (clip, rig) at load; blend spaces then mix clips
// already in the avatar's space. warnings lists what the retarget left
// out (a track of a bone the humanoid does not know, the eyes, whose
// motion is the look-at track's, a hips translation for an avatar
// without hips). Errors are *FieldError values naming the argument's
// field.
func (v *VRMA) Clip(r *Rig, skel *Skeleton, loop bool) (desc ClipDesc, warnings []string, err error) {
	switch {
	case v == nil:
		return ClipDesc{}, nil, check.Errorf(vrmaType, "VRMA", nil, "must not be nil (use LoadVRMA)")
	case r == nil:
		return ClipDesc{}, nil, check.Errorf(vrmaType, "Rig", nil, "must not be nil")
	case skel == nil:
		return ClipDesc{}, nil, check.Errorf(vrmaType, "Skeleton", nil, "must not be nil")
	case len(r.Humanoid) == 0:
		return ClipDesc{}, nil, check.Errorf(rigType, "Humanoid", nil, "the rig has no humanoid bones to retarget onto")
	}
	av := vrma.Avatar{Bones: make(map[string]vrma.AvatarBone, len(r.Humanoid)), VRM0: r.Version == RigVRM0}
	rest, model := skel.RestRot(), skel.ModelRot()
	for name, bone := range r.Humanoid {
		i := skel.Index(bone)
		if i < 0 {
			return ClipDesc{}, nil, check.Errorf(rigType, "Humanoid["+name+"]", bone, "no bone of skeleton %q has this name", skel.Name())
		}
		av.Bones[name] = vrma.AvatarBone{Bone: bone, RestLocal: rest[i], RestWorld: model[i]}
	}
	av.HipsParent = vrma.Transform{Rotation: mgl32.QuatIdent(), Scale: mgl32.Vec3{1, 1, 1}}
	if i := skel.Index(r.Humanoid["hips"]); r.Humanoid["hips"] != "" && i >= 0 {
		av.HipsHeight = skel.ModelPos()[i][1]
		if p := skel.Parents()[i]; p >= 0 {
			av.HipsParent = vrma.Transform{Translation: skel.ModelPos()[p], Rotation: model[p], Scale: skel.ModelScale()[p]}
		}
	}
	res, err := vrma.Retarget(&v.clip, &av)
	if err != nil {
		return ClipDesc{}, nil, err
	}
	index := make(map[string]int, len(res.Tracks))
	for _, tr := range res.Tracks {
		index[tr.Bone] = skel.Index(tr.Bone)
	}
	desc, err = res.ClipDesc(index, skel.NumBones(), loop)
	return desc, res.Warnings, err
}
