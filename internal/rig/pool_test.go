package rig

import "testing"

func TestPoolAllocRelease(t *testing.T) {
	var p Pool
	a := p.Alloc(10)
	b := p.Alloc(5)
	c := p.Alloc(10)
	if a != 0 || b != 10 || c != 15 || p.Len() != 25 {
		t.Fatalf("alloc: %d %d %d len %d", a, b, c, p.Len())
	}
	p.Release(a, 10)
	if p.FreeSlots() != 10 {
		t.Fatalf("free = %d", p.FreeSlots())
	}
	// First fit reuses the hole.
	if d := p.Alloc(4); d != 0 {
		t.Fatalf("reuse: %d", d)
	}
	if p.FreeSlots() != 6 {
		t.Fatalf("free after split = %d", p.FreeSlots())
	}
	// Releasing b merges with the remaining hole [4,10) into [4,15).
	p.Release(b, 5)
	if p.FreeSlots() != 11 {
		t.Fatalf("merge: %d free", p.FreeSlots())
	}
	if e := p.Alloc(11); e != 4 {
		t.Fatalf("the merged hole [4,15) holds 11 bones at %d, want 4", e)
	}
	p.Release(4, 11)
	// Releasing the tail shrinks the arrays; the merged hole reaches the end.
	p.Release(c, 10)
	if p.Len() != 4 || p.FreeSlots() != 0 {
		t.Fatalf("shrink: len %d free %d", p.Len(), p.FreeSlots())
	}
}

func TestPoolChurnDoesNotGrow(t *testing.T) {
	var p Pool
	firsts := make([]int32, 100)
	for i := range firsts {
		firsts[i] = p.Alloc(85)
	}
	size := p.Len()
	for round := 0; round < 50; round++ {
		for i := round % 3; i < len(firsts); i += 3 {
			p.Release(firsts[i], 85)
		}
		for i := round % 3; i < len(firsts); i += 3 {
			firsts[i] = p.Alloc(85)
		}
	}
	if p.Len() != size {
		t.Fatalf("pool grew from %d to %d under churn", size, p.Len())
	}
}

func TestPoolTrimKeepsDataAndDropsSlack(t *testing.T) {
	var p Pool
	for i := 0; i < 33; i++ {
		f := p.Alloc(3)
		p.LocalPos[f][0] = float32(i)
	}
	if cap(p.LocalPos) == p.Len() {
		t.Skip("no slack to trim with this growth pattern")
	}
	p.Trim()
	if cap(p.LocalPos) != p.Len() || cap(p.WorldRot) != p.Len() {
		t.Fatalf("capacity %d after Trim, length %d", cap(p.LocalPos), p.Len())
	}
	for i := 0; i < 33; i++ {
		if p.LocalPos[i*3][0] != float32(i) {
			t.Fatalf("data lost at %d", i)
		}
	}
}
