package store

import (
	"slices"
	"testing"
)

func TestRangesAllocRelease(t *testing.T) {
	var a Ranges
	x, y, z := a.Alloc(10), a.Alloc(5), a.Alloc(10)
	if x != 0 || y != 10 || z != 15 || a.Len() != 25 || a.Owners() != 3 {
		t.Fatalf("alloc: %d %d %d len %d owners %d", x, y, z, a.Len(), a.Owners())
	}
	a.Release(Range{x, 10})
	if a.FreeSlots() != 10 || a.Owners() != 2 {
		t.Fatalf("free %d owners %d", a.FreeSlots(), a.Owners())
	}
	// First fit reuses the hole.
	if d := a.Alloc(4); d != 0 || a.FreeSlots() != 6 {
		t.Fatalf("reuse at %d, %d free", d, a.FreeSlots())
	}
	// Releasing y merges with the remaining hole [4,10) into [4,15).
	a.Release(Range{y, 5})
	if !slices.Equal(a.free, []Range{{4, 11}}) {
		t.Fatalf("merge: %v", a.free)
	}
	// Releasing the tail shrinks Len; the merged hole reaches the end.
	a.Release(Range{z, 10})
	if a.Len() != 4 || a.FreeSlots() != 0 {
		t.Fatalf("shrink: len %d free %d (%v)", a.Len(), a.FreeSlots(), a.free)
	}
	// An empty range occupies nothing and counts as an owner.
	if e := a.Alloc(0); e != 0 || a.Len() != 4 || a.Owners() != 2 {
		t.Fatalf("empty range at %d, len %d, owners %d", e, a.Len(), a.Owners())
	}
	a.Release(Range{})
	if a.Owners() != 1 || a.Len() != 4 {
		t.Fatalf("after releasing the empty range: owners %d len %d", a.Owners(), a.Len())
	}
}

// columns is a store with one column, for the tests: each slot holds its
// owner's number and its place in the range.
type columns struct {
	a   Ranges
	col [][2]int
}

func (c *columns) alloc(owner, n int) Range {
	r := Range{c.a.Alloc(int32(n)), int32(n)}
	c.col = Resize(c.col, c.a.Len())
	for k := range n {
		c.col[int(r.First)+k] = [2]int{owner, k}
	}
	return r
}

func (c *columns) move(dst, src, n int32) { Move(c.col, dst, src, n) }

func TestRangesCompact(t *testing.T) {
	var c columns
	rs := make([]Range, 6)
	for i := range rs {
		rs[i] = c.alloc(i, 3+i)
	}
	c.a.Release(rs[1])
	c.a.Release(rs[3])
	live := []Range{rs[0], rs[2], rs[4], rs[5], {}}
	if c.a.Compact(live[1:], c.move) {
		t.Fatal("compacted without every live range")
	}
	if !c.a.Compact(live, c.move) {
		t.Fatal("not compacted")
	}
	c.col = Resize(c.col, c.a.Len())
	if c.a.Len() != 23 || c.a.FreeSlots() != 0 || c.a.Owners() != 5 {
		t.Fatalf("len %d free %d owners %d", c.a.Len(), c.a.FreeSlots(), c.a.Owners())
	}
	next := int32(0)
	for j, i := range []int{0, 2, 4, 5} {
		r := live[j]
		if r.First != next {
			t.Fatalf("range %d starts at %d, want %d", i, r.First, next)
		}
		for k := range r.Count {
			if c.col[r.First+k] != [2]int{i, int(k)} {
				t.Fatalf("range %d slot %d holds %v", i, k, c.col[r.First+k])
			}
		}
		next += r.Count
	}
	if a := c.a.Alloc(2); a != 23 {
		t.Fatalf("alloc after compact at %d", a)
	}
}

func TestRangesRejectBadLiveLists(t *testing.T) {
	var a Ranges
	x, y := a.Alloc(4), a.Alloc(4)
	move := func(dst, src, n int32) { t.Fatalf("moved %d..%d to %d", src, src+n, dst) }
	for _, live := range [][]Range{{{y, 4}, {x, 4}}, {{x, 5}, {y, 4}}, {{x, 4}, {y, 5}}} {
		if a.Compact(live, move) || a.Reclaim(live) {
			t.Fatalf("bad ranges %v accepted", live)
		}
	}
	if !a.Compact([]Range{{x, 4}, {y, 4}}, move) || a.Len() != 8 {
		t.Fatal("a full allocator did not compact as it is")
	}
}

// Reclaim frees what owners left without Release: the gaps between the
// live ranges become free (first fit reuses them), the tail shrinks Len,
// and the live slots keep their place.
func TestRangesReclaim(t *testing.T) {
	var a Ranges
	rs := make([]Range, 5)
	for i := range rs {
		rs[i] = Range{a.Alloc(4), 4}
	}
	a.Release(rs[0])
	// Ranges 1 and 4 lose their owners without Release.
	live := []Range{rs[2], {}, rs[3]}
	if a.Owners() != 4 {
		t.Fatalf("Owners = %d before, want 4", a.Owners())
	}
	if !a.Reclaim(live) {
		t.Fatal("not reclaimed")
	}
	if a.Owners() != 3 || a.Len() != 16 || a.FreeSlots() != 8 {
		t.Fatalf("after Reclaim: owners %d, len %d, free %d; want 3, 16, 8", a.Owners(), a.Len(), a.FreeSlots())
	}
	if x := a.Alloc(8); x != 0 || a.Len() != 16 {
		t.Fatalf("an 8-slot range after Reclaim starts at %d (len %d), want 0 (the merged gap)", x, a.Len())
	}
}

func TestResizeClearsWhatItDrops(t *testing.T) {
	s := []*int{new(int), new(int), new(int)}
	s = Resize(s, 1)
	if full := s[:3]; full[1] != nil || full[2] != nil {
		t.Fatal("the dropped tail keeps its pointers")
	}
	s = Resize(s, 3)
	if s[0] == nil || s[1] != nil || len(s) != 3 {
		t.Fatalf("grown: %v", s)
	}
}
