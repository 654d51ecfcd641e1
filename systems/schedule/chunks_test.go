package schedule

import (
	"slices"
	"testing"

	"github.com/sway-anim/sway/components"
)

func TestChunkBounds(t *testing.T) {
	ps := make([]components.Pose, 6)
	base := []*components.Pose{&ps[0], &ps[1], &ps[2], &ps[3], &ps[4]}
	off := make([]int32, 4) // 5 characters in chunks of 2: 3 chunks
	// Characters 1, 3 and 4: chunk 0 holds list[0:1], chunk 1 list[1:2],
	// chunk 2 list[2:3].
	if !chunkBounds(off, base, []*components.Pose{&ps[1], &ps[3], &ps[4]}, 2) || !slices.Equal(off, []int32{0, 1, 2, 3}) {
		t.Fatalf("subsequence: off %v, want [0 1 2 3]", off)
	}
	if !chunkBounds(off, base, nil, 2) || !slices.Equal(off, []int32{0, 0, 0, 0}) {
		t.Fatalf("no characters: off %v, want [0 0 0 0]", off)
	}
	if !chunkBounds(off, base, base, 2) || !slices.Equal(off, []int32{0, 2, 4, 5}) {
		t.Fatalf("every character: off %v, want [0 2 4 5]", off)
	}
	for _, list := range [][]*components.Pose{
		{&ps[3], &ps[1]}, // out of base's order
		{&ps[5]},         // not a character of base
		{&ps[2], &ps[2]}, // twice
	} {
		if chunkBounds(off, base, list, 2) {
			t.Fatalf("list %v lines up with base", list)
		}
	}
}
