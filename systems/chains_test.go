package systems_test

import (
	"math"
	"math/rand"
	"slices"
	"testing"

	"github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/internal/scene"
	"github.com/sway-anim/sway/systems"
	"github.com/sway-anim/sway/systems/chain"
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

// A character's pose is the same bits whatever characters share its
// frame: alone (its chains stepped and applied one by one), and among 1
// to 10 neighbours of its shape, added before or after it, side by side
// (a group of fewer than eight fills its lanes by repeating a chain) or
// one by one, with 1 and 2 workers. Every chain mode: Fixed and Variable,
// with and without colliders, with a freeze axis, and both teleport
// modes across a jump; the frame time varies, so that a Variable chain's
// step length changes from frame to frame. -short runs a few of the
// neighbour counts.
func TestChainPoseIndependentOfNeighbours(t *testing.T) {
	sc, err := scene.New(scene.Config{Characters: 12, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	dts := []float32{1.0 / 60, 1.0 / 60, 1.0 / 45, 1.0 / 90, 1.0 / 30, 1.0 / 120, 0.05, 1.0 / 60}
	const frames, jump = 36, 20 // the target jumps 5 m at frame jump
	type mode struct {
		name      string
		tweak     func(*sway.ChainSettings)
		colliders bool
	}
	modes := []mode{
		{"fixed", func(s *sway.ChainSettings) { s.Mode = chain.Fixed }, true},
		{"fixed without colliders", func(s *sway.ChainSettings) { s.Mode = chain.Fixed }, false},
		{"variable", func(s *sway.ChainSettings) { s.Mode = chain.Variable }, true},
		{"variable without colliders", func(s *sway.ChainSettings) { s.Mode = chain.Variable }, false},
		{"variable 120 Hz", func(s *sway.ChainSettings) { s.Mode, s.UpdateRate, s.MaxSubSteps = chain.Variable, 120, 8 }, true},
		{"fixed freeze", func(s *sway.ChainSettings) { s.Mode, s.Freeze = chain.Fixed, chain.FreezeX }, true},
		{"variable freeze", func(s *sway.ChainSettings) { s.Mode, s.Freeze = chain.Variable, chain.FreezeZ }, true},
		{"fixed keep", func(s *sway.ChainSettings) { s.Mode, s.Teleport = chain.Fixed, chain.TeleportKeep }, true},
		{"variable keep", func(s *sway.ChainSettings) { s.Mode, s.Teleport = chain.Variable, chain.TeleportKeep }, true},
		{"variable reset", func(s *sway.ChainSettings) { s.Mode, s.Teleport = chain.Variable, chain.TeleportReset }, true},
	}
	// run steps the target (scene character 0) with neighbours scene
	// characters 1..n, added after it or (last) before it, and returns
	// the target's world pose after each frame.
	run := func(t *testing.T, m mode, n int, last, side bool, workers int) [][]float32 {
		t.Helper()
		defer func(old bool) { *systems.ChainsSideBySide = old }(*systems.ChainsSideBySide)
		*systems.ChainsSideBySide = side
		w, err := sway.NewWorld(sway.Options{Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		order := make([]int, 0, n+1)
		for i := 1; i <= n; i++ {
			order = append(order, i)
		}
		if last {
			order = append(order, 0)
		} else {
			order = append([]int{0}, order...)
		}
		ents := make([]ecs.Entity, len(sc.Chars))
		for _, i := range order {
			e, err := w.AddCharacter(sc.Skeleton, sc.RootAt(i, 0))
			if err != nil {
				t.Fatal(err)
			}
			// The target's settings are its own whatever the neighbours;
			// theirs differ from it and from each other.
			specs := scene.ChainSpecs(rand.New(rand.NewSource(int64(100 + i))))
			colliders := scene.Colliders()
			for k := range specs {
				m.tweak(&specs[k].Settings)
				if !m.colliders {
					specs[k].Colliders = nil
				}
			}
			if !m.colliders {
				colliders = nil
			}
			if _, err := w.Chains().Add(e, colliders, specs); err != nil {
				t.Fatal(err)
			}
			ents[i] = e
		}
		var out [][]float32
		for f := 1; f <= frames; f++ {
			tm := float64(f) / 60
			for _, i := range order {
				r := sc.RootAt(i, tm)
				if f >= jump && i == 0 || f >= jump+3 && i == 2 {
					r.Pos[0] += 5
				}
				if err := w.SetRoot(ents[i], r); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Step(dts[f%len(dts)]); err != nil {
				t.Fatal(err)
			}
			p, err := w.Pose(ents[0])
			if err != nil {
				t.Fatal(err)
			}
			var bits []float32
			for b := range p.WorldPos {
				q := p.WorldRot[b]
				bits = append(bits, p.WorldPos[b][0], p.WorldPos[b][1], p.WorldPos[b][2], q.W, q.V[0], q.V[1], q.V[2])
			}
			out = append(out, bits)
		}
		return out
	}
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			alone := run(t, m, 0, false, false, 1)
			moved := false
			for _, bits := range alone[1:] {
				moved = moved || !slices.Equal(bits, alone[0])
			}
			if !moved {
				t.Fatal("the target's pose does not change: the run tests nothing")
			}
			for n := 0; n <= 10; n++ {
				for _, last := range []bool{false, true} {
					for _, side := range []bool{true, false} {
						for _, workers := range []int{1, 2} {
							if n == 0 && (last || !side) || workers == 2 && n%3 != 1 {
								continue
							}
							// -short (the race run): groups of 2, 3, 8 and
							// 8+2, side by side, 2 workers once.
							if testing.Short() && (n != 1 && n != 2 && n != 7 && n != 9 || !side || workers == 2 && (n != 7 || !last)) {
								continue
							}
							got := run(t, m, n, last, side, workers)
							for f := range got {
								if k := firstDiff(got[f], alone[f]); k >= 0 {
									t.Fatalf("%d neighbours (target last %v, side by side %v, %d workers), frame %d, bone %d: %v, alone %v",
										n, last, side, workers, f+1, k/7, got[f][k/7*7:k/7*7+7], alone[f][k/7*7:k/7*7+7])
								}
							}
						}
					}
				}
			}
		})
	}
}

// firstDiff returns the first index at which a and b differ in their
// bits, -1 if none.
func firstDiff(a, b []float32) int {
	for k := range a {
		if k >= len(b) || math.Float32bits(a[k]) != math.Float32bits(b[k]) {
			return k
		}
	}
	if len(a) != len(b) {
		return len(a)
	}
	return -1
}
