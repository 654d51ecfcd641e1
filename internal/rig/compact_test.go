package rig

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

func TestPoolCompactClosesGaps(t *testing.T) {
	var p Pool
	firsts := make([]int32, 6)
	for i := range firsts {
		firsts[i] = p.Alloc(int32(3 + i))
		for k := int32(0); k < int32(3+i); k++ {
			p.LocalPos[firsts[i]+k] = mgl32.Vec3{float32(i), float32(k), 0}
			p.WorldRot[firsts[i]+k] = mgl32.Quat{W: float32(i), V: mgl32.Vec3{float32(k), 0, 0}}
		}
	}
	p.Release(firsts[1], 4)
	p.Release(firsts[3], 6)
	if p.FreeSlots() != 10 {
		t.Fatalf("free %d", p.FreeSlots())
	}
	live := []Range{{First: firsts[0], Count: 3}, {First: firsts[2], Count: 5}, {First: firsts[4], Count: 7}, {First: firsts[5], Count: 8}}
	if p.Compact(live[1:]) {
		t.Fatal("compacted without every live range")
	}
	if !p.Compact(live) {
		t.Fatal("not compacted")
	}
	if p.Len() != 23 || p.FreeSlots() != 0 {
		t.Fatalf("len %d free %d", p.Len(), p.FreeSlots())
	}
	next := int32(0)
	for j, i := range []int{0, 2, 4, 5} {
		r := live[j]
		if r.First != next {
			t.Fatalf("range %d starts at %d, want %d", i, r.First, next)
		}
		for k := int32(0); k < r.Count; k++ {
			if p.LocalPos[r.First+k] != (mgl32.Vec3{float32(i), float32(k), 0}) || p.WorldRot[r.First+k].W != float32(i) {
				t.Fatalf("range %d slot %d holds %v", i, k, p.LocalPos[r.First+k])
			}
		}
		next += r.Count
	}
	// The pool keeps working: a new range goes at the end.
	if a := p.Alloc(2); a != 23 {
		t.Fatalf("alloc after compact at %d", a)
	}
}

func TestPoolCompactRejectsBadRanges(t *testing.T) {
	var p Pool
	a, b := p.Alloc(4), p.Alloc(4)
	// Out of order, overlapping, past the end.
	if p.Compact([]Range{{First: b, Count: 4}, {First: a, Count: 4}}) || p.Compact([]Range{{First: a, Count: 5}, {First: b, Count: 4}}) || p.Compact([]Range{{First: a, Count: 4}, {First: b, Count: 5}}) {
		t.Fatal("bad ranges compacted")
	}
	if !p.Compact([]Range{{First: a, Count: 4}, {First: b, Count: 4}}) || p.Len() != 8 {
		t.Fatal("a full pool did not compact as it is")
	}
}

// Reclaim frees what owners left without Release: the gaps between the
// live ranges become free (first fit reuses them), the tail shrinks the
// pool, and the live slots keep their place and contents.
func TestPoolReclaimFreesLostRanges(t *testing.T) {
	var p Pool
	firsts := make([]int32, 5)
	for i := range firsts {
		firsts[i] = p.Alloc(4)
		for k := int32(0); k < 4; k++ {
			p.LocalPos[firsts[i]+k] = mgl32.Vec3{float32(i), float32(k), 0}
		}
	}
	p.Release(firsts[0], 4)
	// Ranges 1 and 4 lose their owners without Release.
	live := []Range{{First: firsts[2], Count: 4}, {First: firsts[3], Count: 4}}
	if p.Ranges() != 4 {
		t.Fatalf("Ranges = %d before, want 4", p.Ranges())
	}
	if p.Reclaim([]Range{live[1], live[0]}) {
		t.Fatal("reclaimed from unsorted ranges")
	}
	if !p.Reclaim(live) {
		t.Fatal("not reclaimed")
	}
	if p.Ranges() != 2 || p.Len() != 16 || p.FreeSlots() != 8 {
		t.Fatalf("after Reclaim: Ranges %d, Len %d, FreeSlots %d; want 2, 16, 8", p.Ranges(), p.Len(), p.FreeSlots())
	}
	for i := 2; i <= 3; i++ {
		for k := int32(0); k < 4; k++ {
			if v := p.LocalPos[firsts[i]+k]; v != (mgl32.Vec3{float32(i), float32(k), 0}) {
				t.Fatalf("range %d slot %d moved or changed: %v", i, k, v)
			}
		}
	}
	if a := p.Alloc(8); a != 0 {
		t.Fatalf("an 8-slot range after Reclaim starts at %d, want 0 (the merged gap)", a)
	}
	if p.Len() != 16 {
		t.Fatalf("Len %d after reusing the gap, want 16", p.Len())
	}
}
