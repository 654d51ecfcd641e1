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
	live := []Range{{firsts[0], 3}, {firsts[2], 5}, {firsts[4], 7}, {firsts[5], 8}}
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
	if p.Compact([]Range{{b, 4}, {a, 4}}) || p.Compact([]Range{{a, 5}, {b, 4}}) || p.Compact([]Range{{a, 4}, {b, 5}}) {
		t.Fatal("bad ranges compacted")
	}
	if !p.Compact([]Range{{a, 4}, {b, 4}}) || p.Len() != 8 {
		t.Fatal("a full pool did not compact as it is")
	}
}
