package sway

import "testing"

// The storage hint: arche doubles an archetype's capacity from the first
// one, so the first must double onto the smallest capacity that holds the
// characters with little to spare.
func TestInitialCapacityEndsJustAboveTheCharacters(t *testing.T) {
	for _, n := range []int{-5, 0, 1, 127, 128, 129, 256, 257, 1000, 4096, 10000, 10001, 100000} {
		c := initialCapacity(n)
		if c < 1 || c > 256 {
			t.Fatalf("n=%d: first capacity %d, want 1..256", n, c)
		}
		k := 1
		for c*k < n {
			k *= 2
		}
		if spare := c*k - max(n, 128); spare >= k {
			t.Errorf("n=%d: first capacity %d doubles to %d, %d over (want < %d)", n, c, c*k, spare, k)
		}
	}
	if c := initialCapacity(10000); c != 157 {
		t.Errorf("10,000 characters: first capacity %d, want 157 (x64 = 10,048)", c)
	}
}
