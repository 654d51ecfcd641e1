package store

import (
	"math"
	"reflect"
	"slices"
	"unsafe"

	"github.com/sway-anim/sway/components"
	"github.com/sway-anim/sway/systems/chain"
	"github.com/sway-anim/sway/systems/collide"
)

// ChainStore is the world resource that holds every dynamic chain of every
// character contiguously: the chains, their particles (struct-of-arrays)
// and the characters' colliders. A character's components.Chains holds its
// ranges. Its three allocators (chains, particles, colliders) follow the
// package's removal rule; the chain systems compact the store at the start
// of a frame whenever a range was freed or lost, so the chains a frame
// steps lie one after the other.
type ChainStore struct {
	Chains []chain.Chain
	Steps  []int8 // sub-steps of each chain this frame (-1: off; -2: not finite after the step)
	// Links holds a character's links between its chains (set-up, with
	// the scratch their step keeps) on the slot of its first chain; nil
	// for a character without links and on every other slot.
	Links []*chain.Linked
	// Syncs holds a character's root syncs (chain.RootSync, set-up) on
	// the slot of its first chain; nil elsewhere and for a character
	// without any.
	Syncs [][]chain.RootSync
	// Particles holds the chains' simulation data (the fields of
	// chain.Particles not tagged rest) and Rest their rest data, one copy
	// per distinct chain shape, shared by every chain built the same way
	// (ten thousand characters of one rig share one copy): see View.
	Particles chain.Particles
	Rest      chain.Particles

	ColliderDescs []collide.Desc
	ColliderBones []int32
	Shapes        []collide.Shape // colliders placed in world space this frame

	// One range of each per character: its chains, its particles (those
	// of its chains, one block) and its colliders.
	chains, particles, colliders Ranges
	shapes                       map[uint64][]int32 // rest data hash -> RestFirst of the shapes with it
}

// View returns chain k's particles (rest and simulation data together),
// without allocating.
func (s *ChainStore) View(k int) chain.Particles {
	return s.Chains[k].ParticlesIn(&s.Rest, &s.Particles)
}

// AddChains stores built chains (with their particles in built) and
// colliders for one character and returns its handle. Set-up code.
func (s *ChainStore) AddChains(chains []chain.Chain, built *chain.Particles, descs []collide.Desc, bones []int32) components.Chains {
	h := components.Chains{Count: int32(len(chains)), ColliderCount: int32(len(descs)), Control: components.Control{Weight: 1}}
	h.First = s.chains.Alloc(h.Count)
	h.ColliderFirst = s.colliders.Alloc(h.ColliderCount)
	base := int(s.particles.Alloc(int32(built.Len())))
	s.resize()
	copyParticles(&s.Particles, base, built, 0, built.Len(), false)
	for k, c := range chains {
		c.RestFirst = s.internRest(built, c.RestFirst, c.N)
		c.First += base
		s.Chains[int(h.First)+k] = c
	}
	cf, ce := h.ColliderFirst, h.ColliderFirst+h.ColliderCount
	copy(s.ColliderDescs[cf:ce], descs)
	copy(s.ColliderBones[cf:ce], bones)
	// A reused range holds what its last owner left.
	clear(s.Steps[h.First : h.First+h.Count])
	clear(s.Links[h.First : h.First+h.Count])
	clear(s.Syncs[h.First : h.First+h.Count])
	clear(s.Shapes[cf:ce])
	return h
}

// SyncsOf returns a character's root syncs, nil for none.
func (s *ChainStore) SyncsOf(h *components.Chains) []chain.RootSync {
	if h.Count == 0 || int(h.First) >= len(s.Syncs) {
		return nil
	}
	return s.Syncs[h.First]
}

// LinksOf returns a character's links, nil for none.
func (s *ChainStore) LinksOf(h *components.Chains) *chain.Linked {
	if h.Count == 0 || int(h.First) >= len(s.Links) {
		return nil
	}
	return s.Links[h.First]
}

// particleRange returns the block of particles a character's chains use.
func (s *ChainStore) particleRange(h *components.Chains) Range {
	if h.Count == 0 {
		return Range{}
	}
	lo, hi := math.MaxInt, 0
	for _, c := range s.Chains[h.First : h.First+h.Count] {
		lo, hi = min(lo, c.First), max(hi, c.First+c.N)
	}
	if hi <= lo {
		return Range{}
	}
	return Range{First: int32(lo), Count: int32(hi - lo)}
}

// Release frees a character's ranges; the chain systems compact the
// store before the next frame.
func (s *ChainStore) Release(h components.Chains) {
	s.particles.Release(s.particleRange(&h))
	clear(s.Links[h.First : h.First+h.Count])
	clear(s.Syncs[h.First : h.First+h.Count])
	s.chains.Release(Range{h.First, h.Count})
	s.colliders.Release(Range{h.ColliderFirst, h.ColliderCount})
	s.resize()
}

// Owners returns the number of handles AddChains returned and Release
// did not take back (or, after Compact, the number of live handles).
// The caller compares it with the characters that hold a
// components.Chains to notice handles lost without Release.
func (s *ChainStore) Owners() int { return s.chains.Owners() }

// Fragmented reports whether a range was freed since the last Compact.
func (s *ChainStore) Fragmented() bool {
	return s.chains.FreeSlots() > 0 || s.particles.FreeSlots() > 0 || s.colliders.FreeSlots() > 0
}

// Compact keeps exactly the ranges of the live handles (every
// components.Chains a character holds): it frees the rest (Reclaim, for
// handles lost without Release), moves the live ranges down in store
// order and rewrites the handles (and the chains' particle offsets). Set-up
// code, on the goroutine that owns the world, before any worker sees the
// store. It reports false, and changes nothing, if the handles overlap.
func (s *ChainStore) Compact(live []*components.Chains) bool {
	chains, particles, colliders := make([]owned, len(live)), make([]owned, len(live)), make([]owned, len(live))
	for i, h := range live {
		chains[i] = owned{Range{h.First, h.Count}, i}
		particles[i] = owned{s.particleRange(h), i}
		colliders[i] = owned{Range{h.ColliderFirst, h.ColliderCount}, i}
	}
	cr, pr, kr := sortOwned(chains), sortOwned(particles), sortOwned(colliders)
	if !s.chains.valid(cr) || !s.particles.valid(pr) || !s.colliders.valid(kr) {
		return false
	}
	s.chains.Reclaim(cr)
	s.particles.Reclaim(pr)
	s.colliders.Reclaim(kr)
	s.particles.Compact(pr, s.moveParticles)
	// A chain's particles move with its character's block.
	for i, o := range particles {
		h := live[o.owner]
		if d := int(pr[i].First) - int(o.First); d != 0 {
			for k := h.First; k < h.First+h.Count; k++ {
				s.Chains[k].First += d
			}
		}
	}
	s.chains.Compact(cr, s.moveChains)
	s.colliders.Compact(kr, s.moveColliders)
	for i, o := range chains {
		live[o.owner].First = cr[i].First
	}
	for i, o := range colliders {
		live[o.owner].ColliderFirst = kr[i].First
	}
	s.resize()
	return true
}

// owned is a live range and the index of its owner in the caller's list.
type owned struct {
	Range
	owner int
}

// sortOwned sorts o by First and returns its ranges in that order.
func sortOwned(o []owned) []Range {
	slices.SortStableFunc(o, func(a, b owned) int { return int(a.First) - int(b.First) })
	r := make([]Range, len(o))
	for i := range o {
		r[i] = o[i].Range
	}
	return r
}

func (s *ChainStore) moveChains(dst, src, n int32) {
	Move(s.Chains, dst, src, n)
	Move(s.Steps, dst, src, n)
	Move(s.Links, dst, src, n)
	Move(s.Syncs, dst, src, n)
}

func (s *ChainStore) moveParticles(dst, src, n int32) {
	copyParticles(&s.Particles, int(dst), &s.Particles, int(src), int(src+n), false)
}

func (s *ChainStore) moveColliders(dst, src, n int32) {
	Move(s.ColliderDescs, dst, src, n)
	Move(s.ColliderBones, dst, src, n)
	Move(s.Shapes, dst, src, n)
}

// resize sizes the columns to their allocators.
func (s *ChainStore) resize() {
	n := s.chains.Len()
	s.Chains, s.Steps, s.Links = Resize(s.Chains, n), Resize(s.Steps, n), Resize(s.Links, n)
	s.Syncs = Resize(s.Syncs, n)
	n = s.colliders.Len()
	s.ColliderDescs, s.ColliderBones, s.Shapes = Resize(s.ColliderDescs, n), Resize(s.ColliderBones, n), Resize(s.Shapes, n)
	resizeParticles(&s.Particles, s.particles.Len())
}

// isRest reports whether field f of chain.Particles is rest data.
func isRest(t reflect.Type, f int) bool { return t.Field(f).Tag.Get("chain") == "rest" }

// copyParticles copies particles [lo, hi) of src to dst from index at: the
// rest data if rest, else the other fields. It walks the slice fields by
// reflection, so a field added to chain.Particles is never forgotten; it
// runs at set-up and compaction only, never per frame.
func copyParticles(dst *chain.Particles, at int, src *chain.Particles, lo, hi int, rest bool) {
	d, s := reflect.ValueOf(dst).Elem(), reflect.ValueOf(src).Elem()
	for f := 0; f < d.NumField(); f++ {
		if d.Field(f).Kind() == reflect.Slice && isRest(d.Type(), f) == rest {
			reflect.Copy(d.Field(f).Slice(at, at+hi-lo), s.Field(f).Slice(lo, hi))
		}
	}
}

// growParticles appends n zeroed elements to the rest data of p if rest,
// else to its other fields (doubling growth, as slicex).
func growParticles(p *chain.Particles, n int, rest bool) {
	v := reflect.ValueOf(p).Elem()
	for f := 0; f < v.NumField(); f++ {
		fv := v.Field(f)
		if fv.Kind() != reflect.Slice || isRest(v.Type(), f) != rest {
			continue
		}
		l := fv.Len()
		if l+n > fv.Cap() {
			c := reflect.MakeSlice(fv.Type(), l, max(2*fv.Cap(), l+n))
			reflect.Copy(c, fv)
			fv.Set(c)
		}
		fv.SetLen(l + n)
		if n > 0 {
			fv.Slice(l, l+n).Clear() // capacity left by a shrink may hold old values
		}
	}
}

// resizeParticles sizes every simulation field of p to n: shortened, or
// grown with zeroed elements.
func resizeParticles(p *chain.Particles, n int) {
	if l := p.Len(); n > l {
		growParticles(p, n-l, false)
		return
	}
	v := reflect.ValueOf(p).Elem()
	for f := 0; f < v.NumField(); f++ {
		if fv := v.Field(f); fv.Kind() == reflect.Slice && !isRest(v.Type(), f) {
			fv.Set(fv.Slice(0, n))
		}
	}
}

// internRest returns where the rest data of built's particles [lo, lo+n)
// are in s.Rest, appending them if no chain shape there equals them.
// Equal means bit-equal, so sharing changes no result.
func (s *ChainStore) internRest(built *chain.Particles, lo, n int) int {
	h := restHash(built, lo, n)
	for _, at := range s.shapes[h] {
		if restEqual(&s.Rest, int(at), built, lo, n) {
			return int(at)
		}
	}
	at := len(s.Rest.Bone)
	growParticles(&s.Rest, n, true)
	copyParticles(&s.Rest, at, built, lo, lo+n, true)
	if s.shapes == nil {
		s.shapes = make(map[uint64][]int32)
	}
	s.shapes[h] = append(s.shapes[h], int32(at))
	return at
}

// restHash is FNV-1a over the bits of the rest data and the count.
func restHash(p *chain.Particles, lo, n int) uint64 {
	h := uint64(14695981039346656037)
	mix := func(x uint32) { h = (h ^ uint64(x)) * 1099511628211 }
	mix(uint32(n))
	for i := lo; i < lo+n; i++ {
		mix(uint32(p.Bone[i]))
		mix(uint32(p.Parent[i]))
		mix(uint32(p.Children[i]))
		for k := 0; k < 3; k++ {
			mix(math.Float32bits(p.Local[i][k]))
		}
		q := p.LocalRot[i]
		mix(math.Float32bits(q.W))
		for k := 0; k < 3; k++ {
			mix(math.Float32bits(q.V[k]))
		}
		mix(math.Float32bits(p.Dist[i]))
	}
	return h
}

// restEqual reports whether the rest data a[at:at+n] and b[lo:lo+n] are
// bit-equal, field by field by reflection (a new rest field is compared
// too).
func restEqual(a *chain.Particles, at int, b *chain.Particles, lo, n int) bool {
	if at+n > len(a.Bone) {
		return false
	}
	av, bv := reflect.ValueOf(a).Elem(), reflect.ValueOf(b).Elem()
	for f := 0; f < av.NumField(); f++ {
		if av.Field(f).Kind() != reflect.Slice || !isRest(av.Type(), f) {
			continue
		}
		x, y := av.Field(f).Slice(at, at+n), bv.Field(f).Slice(lo, lo+n)
		xs := unsafe.Slice((*byte)(x.UnsafePointer()), uintptr(n)*x.Type().Elem().Size())
		ys := unsafe.Slice((*byte)(y.UnsafePointer()), uintptr(n)*y.Type().Elem().Size())
		if n > 0 && string(xs) != string(ys) {
			return false
		}
	}
	return true
}

// Trim releases the store's spare capacity and gathers the chains' own
// small records into one allocation per kind (chain.Gather). Set-up code:
// it copies.
func (s *ChainStore) Trim() {
	s.Chains, s.Steps, s.Links = TrimSlice(s.Chains), TrimSlice(s.Steps), TrimSlice(s.Links)
	chain.Gather(s.Chains)
	s.ColliderDescs, s.ColliderBones, s.Shapes = TrimSlice(s.ColliderDescs), TrimSlice(s.ColliderBones), TrimSlice(s.Shapes)
	s.chains.Trim()
	s.particles.Trim()
	s.colliders.Trim()
	for _, p := range []*chain.Particles{&s.Particles, &s.Rest} {
		v := reflect.ValueOf(p).Elem()
		for f := 0; f < v.NumField(); f++ {
			if fv := v.Field(f); fv.Kind() == reflect.Slice && fv.Cap() > fv.Len() {
				c := reflect.MakeSlice(fv.Type(), fv.Len(), fv.Len())
				reflect.Copy(c, fv)
				fv.Set(c)
			}
		}
	}
}
