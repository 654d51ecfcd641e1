package systems_test

import (
	"testing"

	sway "github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/internal/scene"
	"github.com/sway-anim/sway/systems"
)

// The chain step and apply run eight characters' chains side by side;
// the poses are those of stepping and applying every character alone,
// bit for bit, so a character's motion does not depend on which others
// share its lanes (23 characters in chunks of 16 and 7: groups of 8, 8
// and 7, the last with a lane repeated; 1 and 2 workers).
func TestChainSideBySideMatchesOneByOne(t *testing.T) {
	run := func(side bool, workers int) uint64 {
		defer func(old bool) { *systems.ChainsSideBySide = old }(*systems.ChainsSideBySide)
		*systems.ChainsSideBySide = side
		sc, err := scene.New(scene.Config{Characters: 23, Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		w, err := sway.NewWorld(sway.Options{Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		ents, err := sc.Populate(w)
		if err != nil {
			t.Fatal(err)
		}
		space, err := sc.AddLocomotion(w)
		if err != nil {
			t.Fatal(err)
		}
		if err := sc.Build(w, ents, scene.Features{Chains: "dynamic", ChainSeed: 7, Animate: true, Space: space}); err != nil {
			t.Fatal(err)
		}
		for f := 1; f <= 45; f++ {
			tm := float64(f) / 60
			if err := sc.MoveRoots(w, ents, tm); err != nil {
				t.Fatal(err)
			}
			if err := sc.SteerLocomotion(w, ents, tm); err != nil {
				t.Fatal(err)
			}
			if err := w.Step(1.0 / 60); err != nil {
				t.Fatal(err)
			}
		}
		return w.Checksum()
	}
	alone := run(false, 1)
	for _, workers := range []int{1, 2} {
		if got := run(true, workers); got != alone {
			t.Fatalf("%d workers: checksum %016x side by side, %016x one by one", workers, got, alone)
		}
	}
}
