// Package store is sway's storage layer: one range allocator, [Ranges],
// and the stores of per-character data built on it (the chain store and
// the spring store; the pose pool of internal/rig uses it too).
//
// Every store keeps its data in flat arrays (columns) and hands each
// character ranges of them. One removal rule holds for all of them:
//
//   - A range is freed by its owner (Release), or found lost: the store is
//     told the live ranges (Reclaim), and frees every slot outside them.
//     Whether any were lost is one comparison, the number of owners the
//     store handed out against the number of live ones (Owners).
//   - Freed slots are reused first fit; a free range at the end shrinks
//     the columns.
//   - Compact moves the live ranges down, in their order, so that they
//     follow one another from slot 0, and rewrites their First.
//
// A store never queries the world and never runs a system: the caller
// (the systems, the facade) gathers the live handles and passes them in.
// Set-up code only: allocating, releasing and compacting may allocate.
package store

import "github.com/sway-anim/sway/internal/slicex"

// Range is the slots [First, First+Count) of a store's columns.
type Range struct{ First, Count int32 }

// End returns First+Count.
func (r Range) End() int32 { return r.First + r.Count }

// Ranges allocates ranges of slots in columns its owner keeps. It keeps
// only the bookkeeping: the columns' length, the free ranges and the
// number of ranges handed out; after each call the owner sizes its
// columns to Len (and moves their elements as Compact says).
//
// An empty range (Count 0) has First 0 and occupies nothing: it counts as
// an owner, and lists of live ranges may hold it anywhere.
type Ranges struct {
	n      int32   // slots in use or free
	free   []Range // released ranges: sorted by First, merged, none at the end
	owners int     // ranges handed out by Alloc and not released
}

// Len returns the number of slots, in use or free: the length the columns
// must have.
func (a *Ranges) Len() int { return int(a.n) }

// Owners returns the number of ranges handed out and not released (or, after
// Reclaim or Compact, the number of live ranges given). Compared with the
// number of live owners, it tells whether one went without Release.
func (a *Ranges) Owners() int { return a.owners }

// FreeSlots returns the number of released slots awaiting reuse.
func (a *Ranges) FreeSlots() int {
	n := 0
	for _, s := range a.free {
		n += int(s.Count)
	}
	return n
}

// Alloc reserves count contiguous slots and returns the first. It reuses
// a released range when one is large enough (first fit), otherwise the
// range goes at the end and Len grows by count. An empty range starts at 0.
func (a *Ranges) Alloc(count int32) int32 {
	a.owners++
	if count <= 0 {
		return 0
	}
	for i, s := range a.free {
		if s.Count < count {
			continue
		}
		if s.Count == count {
			a.free = append(a.free[:i], a.free[i+1:]...)
		} else {
			a.free[i] = Range{s.First + count, s.Count - count}
		}
		return s.First
	}
	first := a.n
	a.n += count
	return first
}

// Release frees r. Adjacent free ranges merge, and a free range at the end
// shrinks Len.
func (a *Ranges) Release(r Range) {
	a.owners--
	if r.Count <= 0 {
		return
	}
	// Keep the free list sorted by position and merged.
	i := 0
	for i < len(a.free) && a.free[i].First < r.First {
		i++
	}
	a.free = append(a.free, Range{})
	copy(a.free[i+1:], a.free[i:])
	a.free[i] = r
	if i+1 < len(a.free) && a.free[i].End() == a.free[i+1].First {
		a.free[i].Count += a.free[i+1].Count
		a.free = append(a.free[:i+1], a.free[i+2:]...)
	}
	if i > 0 && a.free[i-1].End() == a.free[i].First {
		a.free[i-1].Count += a.free[i].Count
		a.free = append(a.free[:i], a.free[i+1:]...)
	}
	if last := a.free[len(a.free)-1]; last.End() == a.n {
		a.n = last.First
		a.free = a.free[:len(a.free)-1]
	}
}

// valid reports whether the non-empty ranges of live are sorted by First,
// do not overlap and lie within Len.
func (a *Ranges) valid(live []Range) bool {
	end := int32(0)
	for _, r := range live {
		if r.Count == 0 {
			continue
		}
		if r.Count < 0 || r.First < end || r.End() > a.n {
			return false
		}
		end = r.End()
	}
	return true
}

// Reclaim frees every slot that no range of live covers: the ranges of
// owners that went without Release. live must hold every range in use,
// sorted by First (empty ranges anywhere); otherwise (ranges overlap, are
// out of order or lie outside Len) nothing changes and Reclaim returns
// false. Nothing moves: the gaps become the free list, first fit as after
// Release, and a gap at the end shrinks Len.
func (a *Ranges) Reclaim(live []Range) bool {
	if !a.valid(live) {
		return false
	}
	a.free = a.free[:0]
	next := int32(0)
	for _, r := range live {
		if r.Count == 0 {
			continue
		}
		if r.First > next {
			a.free = append(a.free, Range{next, r.First - next})
		}
		next = r.End()
	}
	a.n = next
	a.owners = len(live)
	return true
}

// Compact closes the gaps released ranges left: it moves the live ranges
// down, in the order given, so that they follow one another from slot 0,
// calling move(dst, src, n) for each range that moves (the owner copies n
// elements of every column from src to dst; dst < src, so a copy is a
// memmove), rewrites each range's First (an empty range's to 0), and
// leaves Len exactly their size with no free range. live must hold every
// range in use, sorted by First; otherwise (the counts do not add up with
// the free slots to Len, or ranges overlap or are out of order) nothing
// moves and Compact returns false. Reclaim first when owners may have been
// lost.
func (a *Ranges) Compact(live []Range, move func(dst, src, n int32)) bool {
	if !a.valid(live) {
		return false
	}
	used := 0
	for _, r := range live {
		used += int(r.Count)
	}
	if used+a.FreeSlots() != int(a.n) {
		return false
	}
	next := int32(0)
	for i := range live {
		r := &live[i]
		if r.Count == 0 {
			r.First = 0
			continue
		}
		if r.First != next {
			move(next, r.First, r.Count)
			r.First = next
		}
		next += r.Count
	}
	a.n = next
	a.free = a.free[:0]
	a.owners = len(live)
	return true
}

// Trim drops the free list's spare capacity.
func (a *Ranges) Trim() { a.free = TrimSlice(a.free) }

// Move copies n elements of s from src to dst.
func Move[T any](s []T, dst, src, n int32) { copy(s[dst:dst+n], s[src:src+n]) }

// Resize returns s with length n: shortened (the dropped tail cleared, so
// no pointer in it outlives the range), or extended with zero values
// (doubling growth, see slicex).
func Resize[T any](s []T, n int) []T {
	if n <= len(s) {
		clear(s[n:])
		return s[:n]
	}
	return slicex.Extend(s, n-len(s))
}

// TrimSlice returns s without spare capacity (a copy when it has some).
func TrimSlice[T any](s []T) []T {
	if cap(s) == len(s) {
		return s
	}
	return append(make([]T, 0, len(s)), s...)
}
