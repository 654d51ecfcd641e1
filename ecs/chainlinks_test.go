package sway_test

import (
	"errors"
	"testing"

	arche "github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/ecs"
)

// hairRing links the eight hair chains of the stress rig's characters (all
// of them, or every other one with alternate) into a ring.
func hairRing(t testing.TB, w *sway.World, ents []arche.Entity, alternate bool) {
	t.Helper()
	for i, e := range ents {
		if alternate && i%2 == 1 {
			continue
		}
		l := sway.ChainLinks{Rings: [][]int{{0, 1, 2, 3, 4, 5, 6, 7}}, Diagonal: true,
			ChainLinkSettings: sway.ChainLinkSettings{Compliance: 1e-4, Iterations: 2, MaxStretch: 0.2,
				SegmentCollision: i%4 == 0}} // some with collision along the links
		if err := w.Chains().Of(e).SetLinks(l); err != nil {
			t.Fatal(err)
		}
	}
}

// Linked characters (stepped alone) beside unlinked ones (in the lanes):
// the same bits for any worker count, different from no links, and no
// allocation per frame.
func TestChainLinksBitIdenticalForAnyWorkerCount(t *testing.T) {
	var sums []uint64
	for _, workers := range []int{1, 3} {
		w, ents, sc := chainWorld(t, 37, workers)
		hairRing(t, w, ents, true)
		stepMoving(t, w, ents, sc, 0, 40)
		sums = append(sums, w.Checksum())
		if workers == 3 {
			f := 40
			allocs := testing.AllocsPerRun(20, func() {
				stepMoving(t, w, ents, sc, f, 1)
				f++
			})
			if allocs != 0 {
				t.Errorf("%v allocations per frame with links", allocs)
			}
		}
		w.Close()
	}
	if sums[0] != sums[1] {
		t.Fatalf("checksums differ: %x (1 worker) vs %x (3 workers)", sums[0], sums[1])
	}
	w, ents, sc := chainWorld(t, 37, 1)
	defer w.Close()
	stepMoving(t, w, ents, sc, 0, 40)
	if w.Checksum() == sums[0] {
		t.Fatal("links changed nothing")
	}
}

func TestChainLinksRejectsBadLinks(t *testing.T) {
	w, ents, _ := chainWorld(t, 1, 1)
	defer w.Close()
	c := w.Chains().Of(ents[0])
	for _, l := range []sway.ChainLinks{
		{Rings: [][]int{{0, 1}}},
		{Rings: [][]int{{0, 1, 99}}},
		{Strips: [][]int{{0, 0}}},
		{Strips: [][]int{{0, 1}}, ChainLinkSettings: sway.ChainLinkSettings{Compliance: -1}},
		{Strips: [][]int{{0, 1}}, ChainLinkSettings: sway.ChainLinkSettings{Iterations: 100}},
		{Strips: [][]int{{0, 1}}, ChainLinkSettings: sway.ChainLinkSettings{MaxCompression: 1}},
	} {
		var fe *sway.FieldError
		if err := c.SetLinks(l); !errors.As(err, &fe) {
			t.Errorf("%+v: %v, want a *FieldError", l, err)
		}
	}
	if err := c.SetLinks(sway.ChainLinks{Strips: [][]int{{0, 1, 2}}}); err != nil {
		t.Fatal(err)
	}
	if _, n, _ := c.Links(); n != 2*6 { // 6 moving particles per hair chain, two neighbours
		t.Errorf("%d links, want 12", n)
	}
	if err := c.SetLinks(sway.ChainLinks{}); err != nil {
		t.Fatal(err)
	}
	if _, n, _ := c.Links(); n != 0 {
		t.Errorf("%d links after removing them", n)
	}
}
