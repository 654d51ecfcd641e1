package rig

import (
	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/slicex"
)

// Pool stores the pose of every character of a world: one contiguous array
// per field, a character owning the range [First, First+Count) of all of
// them. One pool instead of per-character slices keeps the data of
// neighbouring characters adjacent, so a worker streams through memory
// (docs/architecture.md has the measurement).
type Pool struct {
	LocalPos   []mgl32.Vec3
	LocalRot   []mgl32.Quat
	LocalScale []mgl32.Vec3
	WorldPos   []mgl32.Vec3
	WorldRot   []mgl32.Quat
	WorldScale []mgl32.Vec3

	free   []span // released ranges, reused first-fit
	ranges int    // ranges handed out by Alloc and not released
}

type span struct{ first, count int32 }

// Len returns the number of bone slots in use or free.
func (p *Pool) Len() int { return len(p.LocalPos) }

// Ranges returns the number of ranges in use: allocated and not
// released. Compared with the number of owners, it tells whether an owner
// went without releasing its range (see Reclaim).
func (p *Pool) Ranges() int { return p.ranges }

// FreeSlots returns the number of released bone slots awaiting reuse.
func (p *Pool) FreeSlots() int {
	n := 0
	for _, s := range p.free {
		n += int(s.count)
	}
	return n
}

// Alloc reserves count contiguous bone slots and returns the first. It
// reuses a released range when one is large enough (first fit), otherwise
// grows every array. Growing moves the arrays, so callers never keep
// sub-slices across frames.
func (p *Pool) Alloc(count int32) int32 {
	p.ranges++
	for i, s := range p.free {
		if s.count < count {
			continue
		}
		first := s.first
		if s.count == count {
			p.free = append(p.free[:i], p.free[i+1:]...)
		} else {
			p.free[i] = span{s.first + count, s.count - count}
		}
		return first
	}
	first := int32(len(p.LocalPos))
	n := int(count)
	p.LocalPos = grow(p.LocalPos, n)
	p.LocalRot = grow(p.LocalRot, n)
	p.LocalScale = grow(p.LocalScale, n)
	p.WorldPos = grow(p.WorldPos, n)
	p.WorldRot = grow(p.WorldRot, n)
	p.WorldScale = grow(p.WorldScale, n)
	return first
}

// Release returns a range to the pool. Adjacent free ranges merge, and a
// free range at the end of the pool shrinks the arrays.
func (p *Pool) Release(first, count int32) {
	p.ranges--
	s := span{first, count}
	// Keep the free list sorted by position and merged.
	i := 0
	for i < len(p.free) && p.free[i].first < s.first {
		i++
	}
	p.free = append(p.free, span{})
	copy(p.free[i+1:], p.free[i:])
	p.free[i] = s
	if i+1 < len(p.free) && p.free[i].first+p.free[i].count == p.free[i+1].first {
		p.free[i].count += p.free[i+1].count
		p.free = append(p.free[:i+1], p.free[i+2:]...)
	}
	if i > 0 && p.free[i-1].first+p.free[i-1].count == p.free[i].first {
		p.free[i-1].count += p.free[i].count
		p.free = append(p.free[:i], p.free[i+1:]...)
		i--
	}
	if last := p.free[len(p.free)-1]; int(last.first+last.count) == len(p.LocalPos) {
		n := int(last.first)
		p.LocalPos, p.LocalRot, p.LocalScale = p.LocalPos[:n], p.LocalRot[:n], p.LocalScale[:n]
		p.WorldPos, p.WorldRot, p.WorldScale = p.WorldPos[:n], p.WorldRot[:n], p.WorldScale[:n]
		p.free = p.free[:len(p.free)-1]
	}
}

func grow[T any](s []T, n int) []T { return slicex.Extend(s, n) }

// Registry holds a world's skeletons; components.Pose.Skeleton indexes it.
type Registry struct {
	Skeletons []*Skeleton
}

// Add registers s (once) and returns its index.
func (r *Registry) Add(s *Skeleton) uint32 {
	for i, t := range r.Skeletons {
		if t == s {
			return uint32(i)
		}
	}
	r.Skeletons = append(r.Skeletons, s)
	return uint32(len(r.Skeletons) - 1)
}

// Trim releases the arrays' spare capacity (set-up code: it copies). Call
// it after adding many characters at once: growing by appending leaves up
// to half of each array unused.
func (p *Pool) Trim() {
	p.LocalPos, p.LocalRot, p.LocalScale = trim(p.LocalPos), trim(p.LocalRot), trim(p.LocalScale)
	p.WorldPos, p.WorldRot, p.WorldScale = trim(p.WorldPos), trim(p.WorldRot), trim(p.WorldScale)
}

func trim[T any](s []T) []T {
	if cap(s) == len(s) {
		return s
	}
	return append(make([]T, 0, len(s)), s...)
}
