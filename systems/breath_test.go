package systems_test

import (
	"testing"

	"github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/internal/scene"
)

// TestBreathReplacedAfterRemove: a second Add is refused; after Remove a
// new breath replaces the first, settings
// included (they live in a component of their own), and Remove removes
// both components.
func TestBreathReplacedAfterRemove(t *testing.T) {
	sc, err := scene.New(scene.Config{Characters: 1, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	w, err := sway.NewWorld(sway.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	ents, err := sc.Populate(w)
	if err != nil {
		t.Fatal(err)
	}
	e := ents[0]
	s := sway.BreathFor(sc.Skeleton)
	if _, err := w.Breath().Add(e, s); err != nil {
		t.Fatal(err)
	}
	s.InhaleDuration, s.EffectRate = 0.5, 3
	if _, err := w.Breath().Add(e, s); err == nil {
		t.Fatal("a second breath was added without removing the first")
	}
	if err := w.Breath().Of(e).Remove(); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Breath().Add(e, s); err != nil {
		t.Fatal(err)
	}
	var peak float32
	for f := 0; f < 60; f++ { // one second: the 0.5 s inhale and part of the exhale
		if err := w.Step(1.0 / 60); err != nil {
			t.Fatal(err)
		}
		st, err := w.Breath().Of(e).State()
		if err != nil {
			t.Fatal(err)
		}
		peak = max(peak, st.Angle[0])
	}
	// The spine's inhale angle is 2 degrees, times EffectRate 3.
	if peak < 5.99 || peak > 6.01 {
		t.Fatalf("spine peaked at %v degrees, want 6: the replaced settings are not in use", peak)
	}
	if err := w.Breath().Of(e).Remove(); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Breath().Of(e).State(); err == nil {
		t.Fatal("still breathing after Remove")
	}
	if _, err := w.Breath().Add(e, s); err != nil { // both components gone: added afresh
		t.Fatal(err)
	}
	if err := w.Step(1.0 / 60); err != nil {
		t.Fatal(err)
	}
}
