package sway_test

import (
	"fmt"
	"testing"
)

// The full stress scene (every feature on, uneven frame times, teleports,
// chains switching off and on) gives the same poses, bit for bit, on every
// frame with 1, 2 and 7 workers, and when the run is cut in the middle by
// a snapshot restored into a fresh world built the same way (with yet
// another worker count).
func TestDeterministicAcrossWorkersAndRestore(t *testing.T) {
	const before, after = 31, 30
	chars := 40
	if testing.Short() {
		chars = 20 // still two chunks of work (systems.CharacterGrain is 16)
	}
	for _, vrm := range []bool{false, true} {
		var ref []uint64
		for _, workers := range []int{1, 2, 7} {
			s := newFullScene(t, chars, workers, vrm)
			sums := s.stepSums(t, before+after)
			s.w.Close()
			if ref == nil {
				ref = sums
				continue
			}
			sameSums(t, fmt.Sprintf("vrm %v: 1 worker and %d workers", vrm, workers), ref, sums)
		}

		first := newFullScene(t, chars, 2, vrm)
		sums := first.stepSums(t, before)
		snap := snapshot(t, first.w)
		first.w.Close()
		second := newFullScene(t, chars, 7, vrm)
		if err := second.w.Restore(snap); err != nil {
			t.Fatal(err)
		}
		second.frame = before
		sums = append(sums, second.stepSums(t, after)...)
		second.w.Close()
		sameSums(t, fmt.Sprintf("vrm %v: straight through, and through a snapshot into a fresh world", vrm), ref, sums)
	}
}
