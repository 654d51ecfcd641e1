package rig

import (
	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/store"
)

// Pool stores the pose of every character of a world: one contiguous array
// per field, a character owning the range [First, First+Count) of all of
// them. One pool instead of per-character slices keeps the data of
// neighbouring characters adjacent, so a worker streams through memory
// (docs/architecture.md has the measurement). Its ranges are allocated,
// released, reclaimed and compacted by a store.Ranges, with the removal
// rule every store follows (see package store).
type Pool struct {
	LocalPos   []mgl32.Vec3
	LocalRot   []mgl32.Quat
	LocalScale []mgl32.Vec3
	WorldPos   []mgl32.Vec3
	WorldRot   []mgl32.Quat
	WorldScale []mgl32.Vec3

	ranges store.Ranges
}

// Range is one owner's bone slots [First, First+Count) in a Pool.
type Range = store.Range

// Len returns the number of bone slots in use or free.
func (p *Pool) Len() int { return len(p.LocalPos) }

// Ranges returns the number of ranges in use: allocated and not
// released. Compared with the number of owners, it tells whether an owner
// went without releasing its range (see Reclaim).
func (p *Pool) Ranges() int { return p.ranges.Owners() }

// FreeSlots returns the number of released bone slots awaiting reuse.
func (p *Pool) FreeSlots() int { return p.ranges.FreeSlots() }

// Alloc reserves count contiguous bone slots and returns the first. It
// reuses a released range when one is large enough (first fit), otherwise
// grows every array. Growing moves the arrays, so callers never keep
// sub-slices across frames.
func (p *Pool) Alloc(count int32) int32 {
	first := p.ranges.Alloc(count)
	p.resize()
	return first
}

// Release returns a range to the pool. Adjacent free ranges merge, and a
// free range at the end of the pool shrinks the arrays.
func (p *Pool) Release(first, count int32) {
	p.ranges.Release(Range{First: first, Count: count})
	p.resize()
}

// Compact closes the gaps released ranges left: it moves the live ranges
// down, in the order given, so that they follow one another from slot 0,
// rewrites each range's First, and leaves the pool exactly their size with
// no free range. live must hold every range in use, sorted by First;
// otherwise nothing is moved and Compact returns false (see
// store.Ranges.Compact). Set-up code: call it between frames, then update
// the owners' First from live.
func (p *Pool) Compact(live []Range) bool {
	if !p.ranges.Compact(live, p.move) {
		return false
	}
	p.resize()
	return true
}

// Reclaim frees every slot that no range of live covers: the ranges of
// owners that went without Release (see store.Ranges.Reclaim). Nothing
// moves.
func (p *Pool) Reclaim(live []Range) bool {
	if !p.ranges.Reclaim(live) {
		return false
	}
	p.resize()
	return true
}

// move copies bones [src, src+n) of every array to dst.
func (p *Pool) move(dst, src, n int32) {
	store.Move(p.LocalPos, dst, src, n)
	store.Move(p.LocalRot, dst, src, n)
	store.Move(p.LocalScale, dst, src, n)
	store.Move(p.WorldPos, dst, src, n)
	store.Move(p.WorldRot, dst, src, n)
	store.Move(p.WorldScale, dst, src, n)
}

// resize sizes every array to the allocator's length.
func (p *Pool) resize() {
	n := p.ranges.Len()
	if n == len(p.LocalPos) {
		return
	}
	p.LocalPos, p.LocalRot, p.LocalScale = store.Resize(p.LocalPos, n), store.Resize(p.LocalRot, n), store.Resize(p.LocalScale, n)
	p.WorldPos, p.WorldRot, p.WorldScale = store.Resize(p.WorldPos, n), store.Resize(p.WorldRot, n), store.Resize(p.WorldScale, n)
}

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
	p.LocalPos, p.LocalRot, p.LocalScale = store.TrimSlice(p.LocalPos), store.TrimSlice(p.LocalRot), store.TrimSlice(p.LocalScale)
	p.WorldPos, p.WorldRot, p.WorldScale = store.TrimSlice(p.WorldPos), store.TrimSlice(p.WorldRot), store.TrimSlice(p.WorldScale)
	p.ranges.Trim()
}
