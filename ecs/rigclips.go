package sway

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/internal/rig"
)

// RigSkeleton returns the skeleton this world builds for r: the one every
// character AddRig makes from r shares (built here if no character was
// made yet). Its bone order is sway's depth-first order, which can differ
// from the file's node order; names are the file's. Clip and NewSkin map
// the rig's animations and skins onto it by bone name.
func (w *World) RigSkeleton(r *Rig) (*Skeleton, error) {
	if err := w.enter("RigSkeleton"); err != nil {
		return nil, err
	}
	defer w.leave()
	if r == nil {
		return nil, check.Errorf(rigType, "Rig", nil, "must not be nil")
	}
	p := planRig(r)
	return w.rigSkeleton(r, &p)
}

// rigSkeleton returns r's skeleton in this world, building it once: one
// skeleton per rig, shared by every character made from it.
func (w *World) rigSkeleton(r *Rig, p *rigPlan) (*Skeleton, error) {
	if skel := w.rigSkeletons[r]; skel != nil {
		return skel, nil
	}
	rs, err := rig.NewSkeleton(firstChildrenFirst(r.Skeleton.internal(), p.first))
	if err != nil {
		return nil, err
	}
	if err := checkRig(r, rs); err != nil {
		return nil, err
	}
	skel := &Skeleton{r: rs}
	if w.rigSkeletons == nil {
		w.rigSkeletons = map[*Rig]*Skeleton{}
	}
	w.rigSkeletons[r] = skel
	return skel, nil
}

// Clip returns animation i of the rig as a ClipDesc for skel, the rig's
// skeleton in a world (World.RigSkeleton, or World.Skeleton of a
// character AddRig made): each track on its bone's index, and the rest
// rotation on a bone whose track animates only its translation or scale.
// loop says whether the clip repeats (glTF does not say; a walk cycle
// does, a jump does not). Add it with World.AddClip; loaded clips go into
// every kind of blend space as hand-built ones do, and blend spaces time
// clips of different lengths by one normalised time, as Unity's blend
// trees do (see AnimSettings).
//
// A track whose bone skel does not have is a *FieldError (the rig and
// skeleton do not match).
func (r *Rig) Clip(i int, skel *Skeleton, loop bool) (ClipDesc, error) {
	if r == nil || skel == nil || skel.r == nil {
		return ClipDesc{}, check.Errorf(rigType, "Clip", nil, "needs a rig and its skeleton")
	}
	if i < 0 || i >= len(r.Animations) {
		return ClipDesc{}, check.Errorf(rigType, "Animations", i, "no such animation (%d in the rig)", len(r.Animations))
	}
	a := &r.Animations[i]
	d := ClipDesc{Name: a.Name, SampleRate: a.SampleRate, KeyCount: a.KeyCount, Loop: loop, BoneCount: skel.NumBones(),
		Tracks: make([]TrackDesc, 0, len(a.Tracks))}
	for k, t := range a.Tracks {
		b := skel.Index(t.Bone)
		if b < 0 {
			return ClipDesc{}, check.Errorf(rigType, fmt.Sprintf("Animations[%d].Tracks[%d].Bone", i, k), t.Bone,
				"no bone of skeleton %q has this name: is it the rig's skeleton?", skel.Name())
		}
		rot := t.Rotations
		if rot == nil {
			rot = make([]mgl32.Quat, a.KeyCount)
			for j := range rot {
				rot[j] = skel.RestRot()[b]
			}
		}
		d.Tracks = append(d.Tracks, TrackDesc{Bone: b, Rotations: rot, Translations: t.Translations, Scales: t.Scales})
	}
	return d, nil
}
