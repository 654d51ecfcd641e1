package sway_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/internal/scene"
)

// fuzzScene is three characters with every feature between them: two
// with dynamic chains, one with VRM springs instead.
func fuzzScene(t testing.TB) *fullScene {
	s := newFullScene(t, 3, 1, false)
	if err := s.w.Chains().Of(s.ents[2]).Remove(); err != nil {
		t.Fatal(err)
	}
	specs := scene.VRMSpecs(newRand(3))
	specs[1].FixedStep = 1.0 / 50
	if _, err := s.w.VRMSprings().Add(s.ents[2], scene.Colliders(), specs); err != nil {
		t.Fatal(err)
	}
	return s
}

// FuzzRestore: Restore never panics on any bytes, rejects what it cannot
// restore with an error wrapping ErrSnapshot, and a world it accepts steps
// on without a fault and with finite poses. With reseal set the input's
// checksum is rewritten first, so that the fuzzer reaches the checks
// behind it. Every input starts from the same state: the seed snapshot is
// restored first (it holds every frame-to-frame value, so the world's
// history does not leak from one input into the next).
func FuzzRestore(f *testing.F) {
	s := fuzzScene(f)
	s.step(f, 20)
	base := snapshot(f, s.w)
	f.Add(base, false)
	f.Add(base, true)
	s.step(f, 7)
	f.Add(snapshot(f, s.w), false)
	f.Add(base[:len(base)/2], true)
	f.Add([]byte("SWAYSNAP"), false)
	f.Fuzz(func(t *testing.T, data []byte, resealIt bool) {
		if err := s.w.Restore(base); err != nil {
			t.Fatal(err)
		}
		if resealIt {
			data = reseal(bytes.Clone(data))
		}
		if err := s.w.Restore(data); err != nil {
			if !errors.Is(err, sway.ErrSnapshot) {
				t.Fatalf("%v does not wrap ErrSnapshot", err)
			}
			return
		}
		for i := 0; i < 3; i++ {
			if err := s.w.Step(1.0 / 60); err != nil {
				t.Fatalf("step %d after the restore: %v", i, err)
			}
		}
		assertFinitePoses(t, s.w, s.ents)
	})
}
