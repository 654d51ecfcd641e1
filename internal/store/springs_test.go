package store

import (
	"testing"

	"github.com/sway-anim/sway/components"
	"github.com/sway-anim/sway/systems/collide"
	"github.com/sway-anim/sway/systems/spring"
)

// addVRM adds a character of n springs of two joints each, its joints'
// bones numbered from bone, and one collider.
func addVRM(p *VRMPart, n int, bone int32) components.VRMSprings {
	chains := make([]*spring.VRMChain, n)
	infos := make([]VRMSpringInfo, n)
	bones := make([]int32, 2*n)
	for k := range n {
		infos[k] = VRMSpringInfo{Joint0: int32(2 * k), N: 2}
		bones[2*k], bones[2*k+1] = bone+int32(2*k), bone+int32(2*k+1)
	}
	return p.AddVRM(chains, infos, bones, make([]spring.VRMJointDesc, 2*n), make([]collide.Desc, 1), []int32{bone}, nil)
}

// The spring store follows the removal rule: a released character's
// ranges are reused first fit, a lost one is noticed by Owners, and
// Compact keeps exactly the live handles, their data moved with them.
func TestVRMPartRemovalRule(t *testing.T) {
	var p VRMPart
	a, b, c := addVRM(&p, 2, 100), addVRM(&p, 3, 200), addVRM(&p, 1, 300)
	if p.Owners() != 3 || len(p.Springs) != 6 || len(p.JointBone) != 12 || p.Fragmented() {
		t.Fatalf("owners %d, springs %d, joints %d", p.Owners(), len(p.Springs), len(p.JointBone))
	}
	p.Release(a)
	if p.Owners() != 2 || !p.Fragmented() {
		t.Fatalf("after Release: owners %d, fragmented %v", p.Owners(), p.Fragmented())
	}
	// c goes without Release: the part cannot tell until it is told the
	// live handles.
	live := []*components.VRMSprings{&b}
	if !p.Compact(live) {
		t.Fatal("not compacted")
	}
	if p.Owners() != 1 || p.Fragmented() || len(p.Springs) != 3 || len(p.JointBone) != 6 || len(p.ColliderDescs) != 1 {
		t.Fatalf("after Compact: owners %d, springs %d, joints %d, colliders %d",
			p.Owners(), len(p.Springs), len(p.JointBone), len(p.ColliderDescs))
	}
	if b.First != 0 || b.ColliderFirst != 0 {
		t.Fatalf("b's handle not rewritten: %+v", b)
	}
	for k := range b.Count {
		info := p.Info[b.First+k]
		if got := p.JointBone[info.Joint0]; got != 200+2*k {
			t.Fatalf("spring %d's first joint is bone %d, want %d", k, got, 200+2*k)
		}
	}
	if p.ColliderBones[0] != 200 {
		t.Fatalf("b's collider bone %d, want 200", p.ColliderBones[0])
	}
	_ = c
	// A new character goes at the end of the compacted part.
	if d := addVRM(&p, 1, 400); d.First != 3 || p.Info[3].Joint0 != 6 {
		t.Fatalf("a new character at spring %d, joint %d", d.First, p.Info[3].Joint0)
	}
}
