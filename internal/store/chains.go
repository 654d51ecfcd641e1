package systems

import (
	"math"
	"reflect"
	"unsafe"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"

	"github.com/sway-anim/sway/components"
	"github.com/sway-anim/sway/internal/slicex"
	"github.com/sway-anim/sway/systems/chain"
	"github.com/sway-anim/sway/systems/collide"
)

// ChainStore is the world resource that holds every dynamic chain of every
// character contiguously: the chains, their particles (struct-of-arrays)
// and the characters' colliders. A character's components.Chains holds its
// ranges. Removed ranges are compacted away on the calling goroutine at the
// start of the next frame, so churn does not grow the store.
type ChainStore struct {
	Chains []chain.Chain
	Steps  []int8 // sub-steps of each chain this frame (-1: off; -2: not finite after the step)
	// Particles holds the chains' simulation data (the fields of
	// chain.Particles not tagged rest) and Rest their rest data, one copy
	// per distinct chain shape, shared by every chain built the same way
	// (ten thousand characters of one rig share one copy): see View.
	Particles chain.Particles
	Rest      chain.Particles

	ColliderDescs []collide.Desc
	ColliderBones []int32
	Shapes        []collide.Shape // colliders placed in world space this frame

	// Reference is the point distance-based disabling measures from (a
	// camera or the player).
	Reference mgl32.Vec3

	deadChains    []bool // per chain: its character was removed
	deadColliders []bool
	dirty         bool
	handles       int                // handles AddChains returned and Release did not take back
	shapes        map[uint64][]int32 // rest data hash -> RestFirst of the shapes with it
}

// View returns chain k's particles (rest and simulation data together),
// without allocating.
func (s *ChainStore) View(k int) chain.Particles {
	return s.Chains[k].ParticlesIn(&s.Rest, &s.Particles)
}

// AddChains appends built chains (with their particles in built) and
// colliders for one character and returns its handle. Set-up code.
func (s *ChainStore) AddChains(chains []chain.Chain, built *chain.Particles, descs []collide.Desc, bones []int32) components.Chains {
	h := components.Chains{Count: int32(len(chains)), ColliderCount: int32(len(descs))}
	s.handles++
	if h.Count > 0 {
		h.First = int32(len(s.Chains))
	}
	if h.ColliderCount > 0 {
		h.ColliderFirst = int32(len(s.ColliderDescs))
	}
	base := s.Particles.Len()
	growParticles(&s.Particles, built.Len(), false)
	copyParticles(&s.Particles, base, built, 0, built.Len(), false)
	// Doubling growth: see slicex.
	s.Chains = slicex.Reserve(s.Chains, len(chains))
	s.Steps = slicex.Reserve(s.Steps, len(chains))
	s.deadChains = slicex.Reserve(s.deadChains, len(chains))
	s.ColliderDescs = slicex.Reserve(s.ColliderDescs, len(descs))
	s.ColliderBones = slicex.Reserve(s.ColliderBones, len(bones))
	s.Shapes = slicex.Reserve(s.Shapes, len(descs))
	s.deadColliders = slicex.Reserve(s.deadColliders, len(descs))
	for _, c := range chains {
		c.RestFirst = s.internRest(built, c.RestFirst, c.N)
		c.First += base
		s.Chains = append(s.Chains, c)
		s.Steps = append(s.Steps, 0)
		s.deadChains = append(s.deadChains, false)
	}
	s.ColliderDescs = append(s.ColliderDescs, descs...)
	s.ColliderBones = append(s.ColliderBones, bones...)
	s.Shapes = append(s.Shapes, make([]collide.Shape, len(descs))...)
	for range descs {
		s.deadColliders = append(s.deadColliders, false)
	}
	return h
}

// Release marks a character's ranges for removal at the next Compact.
func (s *ChainStore) Release(h components.Chains) {
	s.handles--
	for i := h.First; i < h.First+h.Count; i++ {
		s.deadChains[i] = true
	}
	for i := h.ColliderFirst; i < h.ColliderFirst+h.ColliderCount; i++ {
		s.deadColliders[i] = true
	}
	s.dirty = s.dirty || h.Count > 0 || h.ColliderCount > 0
}

// Reclaim marks for the next Compact the ranges that no live handle
// holds: those of characters that lost their components.Chains without
// Release (the entity removed with arche's calls, or the component
// removed). It notices them by count, the entities filter matches against
// the handles handed out, so when nothing was lost it costs one count.
func (s *ChainStore) Reclaim(w *ecs.World, filter *generic.Filter1[components.Chains]) {
	q := filter.Query(w)
	n := q.Count()
	if n == s.handles {
		q.Close()
		return
	}
	for i := range s.deadChains {
		s.deadChains[i] = true
	}
	for i := range s.deadColliders {
		s.deadColliders[i] = true
	}
	for q.Next() {
		h := q.Get()
		clear(s.deadChains[h.First : h.First+h.Count])
		clear(s.deadColliders[h.ColliderFirst : h.ColliderFirst+h.ColliderCount])
	}
	s.handles = n
	s.dirty = true
}

// Compact removes released ranges and rewrites the handles of the
// characters that remain. It runs on the calling goroutine, before any
// pointer into the store is handed to a worker.
func (s *ChainStore) Compact(w *ecs.World, filter *generic.Filter1[components.Chains]) {
	if !s.dirty {
		return
	}
	s.dirty = false
	// New index of every live chain and collider.
	chainTo := make([]int32, len(s.Chains))
	collTo := make([]int32, len(s.ColliderDescs))
	nc, np, nk := int32(0), 0, int32(0)
	for i := range s.Chains {
		if s.deadChains[i] {
			chainTo[i] = -1
			continue
		}
		c := s.Chains[i]
		copyParticles(&s.Particles, np, &s.Particles, c.First, c.First+c.N, false)
		c.First = np
		np += c.N
		s.Chains[nc], s.Steps[nc] = c, s.Steps[i]
		chainTo[i] = nc
		nc++
	}
	for i := range s.ColliderDescs {
		if s.deadColliders[i] {
			collTo[i] = -1
			continue
		}
		s.ColliderDescs[nk], s.ColliderBones[nk], s.Shapes[nk] = s.ColliderDescs[i], s.ColliderBones[i], s.Shapes[i]
		collTo[i] = nk
		nk++
	}
	q := filter.Query(w)
	for q.Next() {
		h := q.Get()
		// An empty range starts at 0: its old start may lie past the end
		// of the shrunk arrays.
		h.First = remap(chainTo, h.First, h.Count)
		h.ColliderFirst = remap(collTo, h.ColliderFirst, h.ColliderCount)
	}
	clear(s.Chains[nc:])
	s.Chains, s.Steps, s.deadChains = s.Chains[:nc], s.Steps[:nc], s.deadChains[:nc]
	clear(s.deadChains)
	s.ColliderDescs, s.ColliderBones, s.Shapes = s.ColliderDescs[:nk], s.ColliderBones[:nk], s.Shapes[:nk]
	s.deadColliders = s.deadColliders[:nk]
	clear(s.deadColliders)
	truncateParticles(&s.Particles, np)
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
	}
}

// truncateParticles shortens every simulation field of p to n.
func truncateParticles(p *chain.Particles, n int) {
	v := reflect.ValueOf(p).Elem()
	for f := 0; f < v.NumField(); f++ {
		if v.Field(f).Kind() == reflect.Slice && !isRest(v.Type(), f) {
			v.Field(f).Set(v.Field(f).Slice(0, n))
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
	s.Chains, s.Steps = trimSlice(s.Chains), trimSlice(s.Steps)
	chain.Gather(s.Chains)
	s.ColliderDescs, s.ColliderBones, s.Shapes = trimSlice(s.ColliderDescs), trimSlice(s.ColliderBones), trimSlice(s.Shapes)
	s.deadChains, s.deadColliders = trimSlice(s.deadChains), trimSlice(s.deadColliders)
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

func trimSlice[T any](s []T) []T {
	if cap(s) == len(s) {
		return s
	}
	return append(make([]T, 0, len(s)), s...)
}
