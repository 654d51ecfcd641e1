package sway_test

import (
	"testing"

	"github.com/sway-anim/sway/ecs"
)

// TestBreathingMovesTheHair: breathing runs before the secondary motion,
// so a hair chain hanging from the head moves when the character breathes
// and stays at rest when it does not (the character standing still).
func TestBreathingMovesTheHair(t *testing.T) {
	run := func(breathing bool) (moved float32) {
		w, ents, sc := chainWorld(t, 1, 1)
		defer w.Close()
		if breathing {
			if _, err := w.Breath().Add(ents[0], sway.BreathFor(sc.Skeleton)); err != nil {
				t.Fatal(err)
			}
		}
		tip := sc.Skeleton.Index("hair4.5")
		for f := 0; f < 60; f++ { // settle
			if err := w.Step(1.0 / 60); err != nil {
				t.Fatal(err)
			}
		}
		start, _ := w.BoneWorld(ents[0], tip)
		for f := 0; f < 240; f++ { // four seconds: a whole breath cycle
			if err := w.Step(1.0 / 60); err != nil {
				t.Fatal(err)
			}
			p, _ := w.BoneWorld(ents[0], tip)
			moved = max(moved, p.Pos.Sub(start.Pos).Len())
		}
		return moved
	}
	if still := run(false); still > 1e-6 {
		t.Fatalf("without breathing the hair tip moved %.2g m", still)
	}
	if moved := run(true); moved < 1e-3 {
		t.Fatalf("with breathing the hair tip moved only %.2g m", moved)
	}
}
