package snapio

import (
	"math"

	"github.com/sway-anim/sway/components"
	"github.com/sway-anim/sway/internal/snapbin"
	"github.com/sway-anim/sway/internal/store"
	"github.com/sway-anim/sway/systems/chain"
)

// AppendChains appends a character's dynamic chains: the handle's Control
// (paused, weight) and fault count, then per chain its particle count (checked on
// reading), its frame-to-frame state (chain.State) and its particles'
// positions, previous positions and collider-touch flags.
//
// Not saved, because Prepare writes them before every use: the steps of
// the frame (ChainStore.Steps), the colliders placed in world space
// (Shapes) and the animated pose the chains keep (the root's position,
// the freeze-plane normals; the step derives the rest from the pose). The
// settings and per-particle parameters are set-up, and so are the links
// between a character's chains (ChainStore.Links): their targets and
// multipliers are worked out afresh every frame and sub-step, so they
// hold no state from one frame to the next.
func AppendChains(b []byte, s *store.ChainStore, h *components.Chains) []byte {
	b = snapbin.U32(b, uint32(h.Count))
	b = appendControl(b, &h.Control)
	b = snapbin.U32(b, h.Faults)
	p := &s.Particles
	for k := h.First; k < h.First+h.Count; k++ {
		c := &s.Chains[k]
		st := c.State()
		b = snapbin.U32(b, uint32(c.N))
		b = snapbin.F64(b, st.Acc)
		b = snapbin.Vec3(b, st.ObjPos)
		b = snapbin.Quat(b, st.ObjRot)
		b = snapbin.F32(b, st.PrevH)
		b = snapbin.Bool(b, st.Started)
		b = snapbin.Bool(b, st.Off)
		b = snapbin.Bool(b, st.Reset)
		lo, hi := c.First, c.First+c.N
		b = snapbin.Vec3s(b, p.Pos[lo:hi])
		b = snapbin.Vec3s(b, p.Prev[lo:hi])
		for _, hit := range p.Collided[lo:hi] {
			b = snapbin.Bool(b, hit)
		}
	}
	return b
}

// ReadChains reads what AppendChains wrote. Particle positions may be
// non-finite (a snapshot taken on the frame a chain faulted): the chain
// systems find and reset such a chain themselves.
func ReadChains(r *snapbin.Reader, s *store.ChainStore, h *components.Chains, apply bool) {
	r.Count("chains.Count", int(h.Count))
	ctl := readControl(r, &chainsControl)
	faults := r.U32("chains.Faults")
	if apply && !r.Failed() {
		h.Control, h.Faults = ctl, faults
	}
	p := &s.Particles
	for k := h.First; k < h.First+h.Count && !r.Failed(); k++ {
		c := &s.Chains[k]
		r.Count("chains.N", c.N)
		var st chain.State
		st.Acc = r.RangeF64("chains.Acc", 0, math.MaxFloat64)
		st.ObjPos = r.FiniteVec3("chains.ObjPos")
		st.ObjRot = r.FiniteQuat("chains.ObjRot")
		st.PrevH = r.Range("chains.PrevH", 0, math.MaxFloat32)
		st.Started = r.Bool("chains.Started")
		st.Off = r.Bool("chains.Off")
		st.Reset = r.Bool("chains.Reset")
		ok := apply && !r.Failed()
		if ok {
			c.SetState(st)
		}
		lo, hi := c.First, c.First+c.N
		readAnyVec3s(r, "chains.Pos", p.Pos[lo:hi], ok)
		readAnyVec3s(r, "chains.Prev", p.Prev[lo:hi], ok)
		r.Bools("chains.Collided", p.Collided[lo:hi], ok)
	}
}
