package scene

import (
	"testing"

	"github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/ecs"
)

// stepped builds a scene of n characters with add, steps it 30 frames and
// returns the world's checksum.
func stepped(t *testing.T, n int, add func(*Scene, *sway.World, []ecs.Entity, sway.BlendSpaceID) error) uint64 {
	t.Helper()
	sc, err := New(Config{Characters: n, Seed: 3})
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
	space, err := sc.AddLocomotion(w)
	if err != nil {
		t.Fatal(err)
	}
	if err := add(sc, w, ents, space); err != nil {
		t.Fatal(err)
	}
	for f := 1; f <= 30; f++ {
		tm := float64(f) / 60
		if err := sc.MoveRoots(w, ents, tm); err != nil {
			t.Fatal(err)
		}
		if err := sc.SteerLocomotion(w, ents, tm); err != nil {
			t.Fatal(err)
		}
		if err := sc.SteerProcedural(w, ents, tm); err != nil {
			t.Fatal(err)
		}
		if err := w.Step(1.0 / 60); err != nil {
			t.Fatal(err)
		}
	}
	return w.Checksum()
}

// Build gives the characters what the separate Add functions give them,
// value for value: the poses after 30 frames are bit-identical.
func TestBuildMatchesTheAddFunctions(t *testing.T) {
	tweak := func(s *sway.ChainSettings) { s.Damping *= 1.5 }
	for _, chains := range []string{"dynamic", "vrm"} {
		t.Run(chains, func(t *testing.T) {
			separate := stepped(t, 9, func(sc *Scene, w *sway.World, ents []ecs.Entity, space sway.BlendSpaceID) error {
				var err error
				if chains == "vrm" {
					err = sc.AddVRMSprings(w, ents, 11)
				} else {
					err = sc.AddChainsWith(w, ents, 11, tweak)
				}
				if err == nil {
					err = sc.AddEarrings(w, ents)
				}
				if err == nil {
					err = sc.Animate(w, ents, space)
				}
				if err == nil {
					err = sc.AddProcedural(w, ents, 12)
				}
				return err
			})
			built := stepped(t, 9, func(sc *Scene, w *sway.World, ents []ecs.Entity, space sway.BlendSpaceID) error {
				return sc.Build(w, ents, Features{
					Chains: chains, ChainSeed: 11, ChainTweak: tweak,
					Earrings: true, Animate: true, Space: space,
					Procedural: true, ProceduralSeed: 12,
				})
			})
			if built != separate {
				t.Fatalf("checksum %016x with Build, %016x with the Add functions", built, separate)
			}
			// And the seeds matter: another chain seed gives other poses.
			other := stepped(t, 9, func(sc *Scene, w *sway.World, ents []ecs.Entity, space sway.BlendSpaceID) error {
				return sc.Build(w, ents, Features{Chains: chains, ChainSeed: 13, ChainTweak: tweak, Earrings: true, Animate: true, Space: space, Procedural: true, ProceduralSeed: 12})
			})
			if other == built {
				t.Fatal("another chain seed gave the same checksum")
			}
		})
	}
}

func TestBuildRejectsAnUnknownChainKind(t *testing.T) {
	sc, err := New(Config{Characters: 1, Seed: 3})
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
	if err := sc.Build(w, ents, Features{Chains: "cloth"}); err == nil {
		t.Fatal("Chains \"cloth\" accepted")
	}
}
