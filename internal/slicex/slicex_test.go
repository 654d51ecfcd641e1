package slicex

import "testing"

func TestExtendZeroesReusedCapacity(t *testing.T) {
	s := []int{1, 2, 3, 4}
	s = s[:1] // a shrink leaves 2, 3, 4 in the capacity
	s = Extend(s, 3)
	if len(s) != 4 || s[0] != 1 || s[1] != 0 || s[2] != 0 || s[3] != 0 {
		t.Fatalf("Extend = %v, want [1 0 0 0]", s)
	}
}

func TestExtendDoublesCapacity(t *testing.T) {
	var s []float32
	copies := 0
	for i := 0; i < 1000; i++ {
		before := cap(s)
		s = Extend(s, 7)
		if cap(s) != before {
			copies += before
			if before > 0 && cap(s) < 2*before {
				t.Fatalf("capacity %d -> %d: less than doubled", before, cap(s))
			}
		}
	}
	if len(s) != 7000 {
		t.Fatalf("len %d, want 7000", len(s))
	}
	// Doubling copies fewer than twice the final length (append's growth
	// by a quarter copies about four times it).
	if copies >= 2*len(s) {
		t.Fatalf("%d elements copied while growing to %d", copies, len(s))
	}
}

func TestReserveKeepsContents(t *testing.T) {
	s := []int{5, 6}
	r := Reserve(s, 10)
	if len(r) != 2 || r[0] != 5 || r[1] != 6 || cap(r) < 12 {
		t.Fatalf("Reserve = %v (cap %d)", r, cap(r))
	}
	if q := Reserve(r, 1); &q[0] != &r[0] {
		t.Fatal("Reserve reallocated with room to spare")
	}
}
