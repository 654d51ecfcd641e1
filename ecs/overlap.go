package sway

import (
	"errors"
	"fmt"

	"github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/internal/rig"
	"github.com/sway-anim/sway/systems/chain"
)

// ErrOverlap is what every OverlapError matches with errors.Is: a bone
// would be driven twice.
var ErrOverlap = errors.New("a bone would be driven by two features")

// OverlapError reports a bone that two secondary features (or two chains,
// or two springs) of one character would both drive: the second would
// overwrite the first every frame, and which one shows would depend on
// the order of the systems. A chain drives the bones of its particles
// below its root (the root follows the animation); a VRM or simple spring
// drives the bones of its joints.
type OverlapError struct {
	Bone  string // the bone's name
	First string // what already drives it, e.g. "Chains[0]"
	Then  string // what would drive it too, e.g. "VRMSprings[2]"
}

func (e *OverlapError) Error() string {
	return fmt.Sprintf("sway: bone %q is driven by %s and would be by %s too", e.Bone, e.First, e.Then)
}

// Unwrap returns ErrOverlap.
func (e *OverlapError) Unwrap() error { return ErrOverlap }

// claims maps the bones a character's chains and springs drive to what
// drives them. Set-up code.
type claims struct {
	skel  *rig.Skeleton
	owner map[int32]string
}

// claimsOf gathers the bones character e's chains and springs drive.
func (w *World) claimsOf(e ecs.Entity, skel *rig.Skeleton) *claims {
	c := &claims{skel: skel, owner: map[int32]string{}}
	if m := &w.maps.chains; m.Has(e) {
		h, st := m.Get(e), w.chainStore()
		for k := h.First; k < h.First+h.Count; k++ {
			p := st.Chains[k].ParticlesIn(&st.Rest, &st.Particles)
			name := fmt.Sprintf("Chains[%d]", k-h.First)
			for _, b := range p.Bone[1:] {
				if b >= 0 {
					c.owner[b] = name
				}
			}
		}
	}
	sp := w.springStore()
	if m := &w.maps.vrm; m.Has(e) {
		h := m.Get(e)
		for k := h.First; k < h.First+h.Count; k++ {
			info := &sp.VRM.Info[k]
			name := fmt.Sprintf("VRMSprings[%d]", info.Spec)
			for _, b := range sp.VRM.JointBone[info.Joint0 : info.Joint0+info.N] {
				c.owner[b] = name
			}
		}
	}
	if m := &w.maps.simple; m.Has(e) {
		h := m.Get(e)
		for k := h.First; k < h.First+h.Count; k++ {
			info := &sp.Simple.Info[k]
			name := fmt.Sprintf("SimpleSprings[%d]", k-h.First)
			for _, b := range sp.Simple.JointBone[info.Joint0 : info.Joint0+info.N] {
				c.owner[b] = name
			}
		}
	}
	return c
}

// claim records that what drives bones, or returns an *OverlapError for
// the first bone something else drives already.
func (c *claims) claim(what string, bones []int32) error {
	for _, b := range bones {
		if b < 0 {
			continue
		}
		if first, ok := c.owner[b]; ok && first != what {
			return &OverlapError{Bone: c.skel.BoneName(int(b)), First: first, Then: what}
		}
	}
	for _, b := range bones {
		if b >= 0 {
			c.owner[b] = what
		}
	}
	return nil
}

// checkChainOverlaps checks the chains about to be added to e against each
// other and against e's springs.
func (w *World) checkChainOverlaps(e ecs.Entity, skel *rig.Skeleton, out []chain.Chain, built *chain.Particles) error {
	c := w.claimsOf(e, skel)
	for i := range out {
		p := out[i].ParticlesIn(built, built)
		if err := c.claim(fmt.Sprintf("Chains[%d]", i), p.Bone[1:]); err != nil {
			return err
		}
	}
	return nil
}
