package sway

import (
	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/components"
	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/internal/rig"
	"github.com/sway-anim/sway/systems/anim"
)

// The checks of a scale relative to the root (check.MaxModelScale) that
// need more than one value: a pose edited bone by bone, and a blend
// space's clips against a skeleton.

// boneScaleFits checks that giving bone its new local scale keeps every
// bone's scale relative to the root within check.MaxModelScale. Only a
// larger scale can break it, so the common case costs one comparison.
func (w *World) boneScaleFits(p *components.Pose, bone int, scale mgl32.Vec3) error {
	local := w.pool.LocalScale[p.First : p.First+p.Count]
	m := check.MaxAbs(scale)
	if m <= check.MaxAbs(local[bone]) {
		return nil
	}
	skel := w.reg.Skeletons[p.Skeleton]
	b, prod := skel.ScaleBoundExceeded(func(k int) float32 {
		if k == bone {
			return m
		}
		return check.MaxAbs(local[k])
	})
	if b >= 0 {
		return check.Errorf("SetBoneLocal", "Scale", scale, "bone %q would be scaled %g relative to the root, beyond %g (MaxModelScale)",
			skel.BoneName(b), prod, float32(check.MaxModelScale))
	}
	return nil
}

// animScaleFits checks that no blend of the space's clips scales a bone
// of skel beyond check.MaxModelScale relative to the root. A blend is a
// weighted mean of each clip's keys or, where a clip has none, the rest
// scale, so a bone's scale never exceeds the largest of those.
func animScaleFits(skel *rig.Skeleton, bs *anim.BlendSpace, space BlendSpaceID) error {
	rest := skel.RestScale()
	b, prod := skel.ScaleBoundExceeded(func(b int) float32 {
		m := check.MaxAbs(rest[b])
		for i := range bs.Len() {
			m = max(m, bs.Clip(i).MaxScale(b))
		}
		return m
	})
	if b >= 0 {
		return check.Errorf("Animation", "Space", space, "the clips' scale keys can scale bone %q of skeleton %q by %g relative to the root, beyond %g (MaxModelScale)",
			skel.BoneName(b), skel.Name(), prod, float32(check.MaxModelScale))
	}
	return nil
}
