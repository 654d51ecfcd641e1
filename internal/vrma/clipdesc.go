package vrma

import (
	"fmt"

	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/systems/anim"
)

// ClipDesc makes the retargeted clip an anim.ClipDesc for a skeleton of
// boneCount bones, index mapping the avatar's bone names (Track.Bone) to
// bone indices. A track whose bone index lacks is a *check.FieldError
// naming it. The keys are shared with r, not copied.
func (r *Result) ClipDesc(index map[string]int, boneCount int, loop bool) (anim.ClipDesc, error) {
	d := anim.ClipDesc{Name: r.Name, SampleRate: r.SampleRate, KeyCount: r.KeyCount, Loop: loop, BoneCount: boneCount,
		Tracks: make([]anim.TrackDesc, len(r.Tracks))}
	for i, tr := range r.Tracks {
		b, ok := index[tr.Bone]
		if !ok {
			return anim.ClipDesc{}, check.Errorf("vrma.Result", fmt.Sprintf("Tracks[%d].Bone", i), tr.Bone, "not a bone of the skeleton")
		}
		d.Tracks[i] = anim.TrackDesc{Bone: b, Rotations: tr.Rotations, Translations: tr.Translations}
	}
	return d, d.Validate()
}
