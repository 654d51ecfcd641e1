package systems_test

import (
	"testing"

	sway "github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/internal/scene"
	"github.com/sway-anim/sway/systems"
)

// The chain step runs four characters' chains side by side; the poses are
// those of stepping every character alone, bit for bit, so a character's
// motion does not depend on which others share its four (23 characters:
// five fours and three alone, 1 and 2 workers).
func TestChainChainsInFoursMatchesOneByOne(t *testing.T) {
	run := func(fours bool, workers int) uint64 {
		defer func(old bool) { *systems.ChainsInFours = old }(*systems.ChainsInFours)
		*systems.ChainsInFours = fours
		sc, err := scene.New(scene.Config{Characters: 23, Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		w := sway.NewWorld(sway.Options{Workers: workers})
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
			t.Fatalf("%d workers: checksum %016x in fours, %016x one by one", workers, got, alone)
		}
	}
}
