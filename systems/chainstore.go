package systems

import (
	"reflect"

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
	Chains    []chain.Chain
	Steps     []int8 // sub-steps of each chain this frame (-1: off)
	Particles chain.Particles

	ColliderDescs []collide.Desc
	ColliderBones []int32
	Shapes        []collide.Shape // colliders placed in world space this frame

	// Reference is the point distance-based disabling measures from (a
	// camera or the player).
	Reference mgl32.Vec3

	deadChains    []bool // per chain: its character was removed
	deadColliders []bool
	dirty         bool
}

// AddChains appends built chains (with their particles in built) and
// colliders for one character and returns its handle. Set-up code.
func (s *ChainStore) AddChains(chains []chain.Chain, built *chain.Particles, descs []collide.Desc, bones []int32) components.Chains {
	h := components.Chains{Count: int32(len(chains)), ColliderCount: int32(len(descs))}
	if h.Count > 0 {
		h.First = int32(len(s.Chains))
	}
	if h.ColliderCount > 0 {
		h.ColliderFirst = int32(len(s.ColliderDescs))
	}
	base := s.Particles.Len()
	s.Particles.Grow(built.Len())
	copyParticles(&s.Particles, base, built, 0, built.Len())
	// Doubling growth: see slicex.
	s.Chains = slicex.Reserve(s.Chains, len(chains))
	s.Steps = slicex.Reserve(s.Steps, len(chains))
	s.deadChains = slicex.Reserve(s.deadChains, len(chains))
	s.ColliderDescs = slicex.Reserve(s.ColliderDescs, len(descs))
	s.ColliderBones = slicex.Reserve(s.ColliderBones, len(bones))
	s.Shapes = slicex.Reserve(s.Shapes, len(descs))
	s.deadColliders = slicex.Reserve(s.deadColliders, len(descs))
	for _, c := range chains {
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
	for i := h.First; i < h.First+h.Count; i++ {
		s.deadChains[i] = true
	}
	for i := h.ColliderFirst; i < h.ColliderFirst+h.ColliderCount; i++ {
		s.deadColliders[i] = true
	}
	s.dirty = s.dirty || h.Count > 0 || h.ColliderCount > 0
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
		copyParticles(&s.Particles, np, &s.Particles, c.First, c.First+c.N)
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

// copyParticles copies particles [lo, hi) of src to dst from index at.
// It walks every slice field by reflection, so a field added to
// chain.Particles is never forgotten; it runs at set-up and compaction
// only, never per frame.
func copyParticles(dst *chain.Particles, at int, src *chain.Particles, lo, hi int) {
	d, s := reflect.ValueOf(dst).Elem(), reflect.ValueOf(src).Elem()
	for f := 0; f < d.NumField(); f++ {
		if d.Field(f).Kind() == reflect.Slice {
			reflect.Copy(d.Field(f).Slice(at, at+hi-lo), s.Field(f).Slice(lo, hi))
		}
	}
}

// truncateParticles shortens every slice field of p to n.
func truncateParticles(p *chain.Particles, n int) {
	v := reflect.ValueOf(p).Elem()
	for f := 0; f < v.NumField(); f++ {
		if v.Field(f).Kind() == reflect.Slice {
			v.Field(f).Set(v.Field(f).Slice(0, n))
		}
	}
}

// Trim releases the store's spare capacity (set-up code: it copies).
func (s *ChainStore) Trim() {
	s.Chains, s.Steps = trimSlice(s.Chains), trimSlice(s.Steps)
	s.ColliderDescs, s.ColliderBones, s.Shapes = trimSlice(s.ColliderDescs), trimSlice(s.ColliderBones), trimSlice(s.Shapes)
	s.deadChains, s.deadColliders = trimSlice(s.deadChains), trimSlice(s.deadColliders)
	v := reflect.ValueOf(&s.Particles).Elem()
	for f := 0; f < v.NumField(); f++ {
		if fv := v.Field(f); fv.Kind() == reflect.Slice && fv.Cap() > fv.Len() {
			c := reflect.MakeSlice(fv.Type(), fv.Len(), fv.Len())
			reflect.Copy(c, fv)
			fv.Set(c)
		}
	}
}

func trimSlice[T any](s []T) []T {
	if cap(s) == len(s) {
		return s
	}
	return append(make([]T, 0, len(s)), s...)
}
