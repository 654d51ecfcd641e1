package sway_test

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	arche "github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/internal/scene"
	"github.com/sway-anim/sway/systems/chain"
)

// fullScene is the stress rig with every feature on: locomotion
// animation, breathing, look-at, IK, earrings (simple springs) and either
// dynamic chains or VRM springs, stepped by a game loop whose inputs
// depend only on the frame number, so two worlds built alike and stepped
// from the same frame with the same state must agree bit for bit.
type fullScene struct {
	w     *sway.World
	ents  []arche.Entity
	sc    *scene.Scene
	frame int
}

// sceneDts are the frame times the loop cycles through, uneven so that the
// chains' and fixed-step springs' accumulators carry time across frames,
// and so that Variable-mode chains' sub-step lengths differ from each
// frame to the next (1/60, 1/90, 1/75, 1/60, 1/100 s); the frame of dt 0
// runs no step at all (fixed-step springs show their last rotations).
var sceneDts = [...]float32{1.0 / 60, 1.0 / 45, 1.0 / 75, 1.0 / 30, 1.0 / 100, 0}

// newFullScene builds chars characters. vrm selects VRM springs instead
// of dynamic chains. Half of the chains step in Variable mode, a third
// keep their shape through teleports and all rest beyond 9 m from the
// reference point; every third VRM spring has a fixed step: so the state
// that only those modes carry is exercised too.
func newFullScene(t testing.TB, chars, workers int, vrm bool) *fullScene {
	t.Helper()
	sc, err := scene.New(scene.Config{Characters: chars, Seed: 21})
	if err != nil {
		t.Fatal(err)
	}
	w, err := sway.NewWorld(sway.Options{Workers: workers})
	if err != nil {
		t.Fatal(err)
	}
	ents, err := sc.Populate(w)
	if err != nil {
		t.Fatal(err)
	}
	if vrm {
		rng := newRand(22)
		for _, e := range ents {
			specs := scene.VRMSpecs(rng)
			for i := range specs {
				if i%3 == 1 {
					specs[i].FixedStep = 1.0 / 50
				}
			}
			if _, err := w.VRMSprings().Add(e, scene.Colliders(), specs); err != nil {
				t.Fatal(err)
			}
		}
	} else {
		// Chains farther than 9 m from the reference rest: characters near
		// that circle turn their chains off and on again.
		if err := w.SetReference(mgl32.Vec3{-1, 1.7, -1}); err != nil {
			t.Fatal(err)
		}
		n := 0
		tweak := func(s *sway.ChainSettings) {
			s.DisableDistance = 9
			if n%2 == 1 {
				s.Mode = chain.Variable
			}
			if n%3 == 2 {
				s.Teleport = chain.TeleportKeep
			}
			n++
		}
		if err := sc.AddChainsWith(w, ents, 22, tweak); err != nil {
			t.Fatal(err)
		}
	}
	if err := sc.AddEarrings(w, ents); err != nil {
		t.Fatal(err)
	}
	space, err := sc.AddLocomotion(w)
	if err != nil {
		t.Fatal(err)
	}
	if err := sc.Animate(w, ents, space); err != nil {
		t.Fatal(err)
	}
	if err := sc.AddProcedural(w, ents, 23); err != nil {
		t.Fatal(err)
	}
	// Characters 0 and 1 look at their neighbour's head and reach for its
	// hand with their leg: entity targets (see removeTarget).
	head, hand := sc.Skeleton.Index("head"), sc.Skeleton.Index("hand.R")
	for i := 0; i < min(2, len(ents)-1); i++ {
		if err := w.LookAt().Of(ents[i]).SetTargetBone(ents[i+1], head); err != nil {
			t.Fatal(err)
		}
		if err := w.IK().Of(ents[i]).SetTargetBone(0, ents[i+1], hand); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Trim(); err != nil {
		t.Fatal(err)
	}
	return &fullScene{w: w, ents: ents, sc: sc}
}

// root is character i's root at frame f: the scene's path, with a jump of
// 3 m (a teleport, and one back a frame later) for a few characters.
func (s *fullScene) root(i, f int, tm float64) sway.Transform {
	r := s.sc.RootAt(i, tm)
	if (i+f)%41 == 0 {
		r.Pos = r.Pos.Add(mgl32.Vec3{3, 0, 0})
	}
	return r
}

// stepSums runs n frames and returns the checksum after each.
func (s *fullScene) stepSums(t testing.TB, n int) []uint64 {
	t.Helper()
	sums := make([]uint64, n)
	for i := range sums {
		s.step(t, 1)
		sums[i] = s.w.Checksum()
	}
	return sums
}

// sameSums fails at the first frame whose checksums differ.
func sameSums(t testing.TB, what string, a, b []uint64) {
	t.Helper()
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("%s: frame %d of %d: checksums %016x and %016x", what, i+1, len(a), a[i], b[i])
		}
	}
}

// removeTarget removes character 1, the target of character 0's look-at
// and IK, which keep its last position (Target.Lost).
func (s *fullScene) removeTarget(t testing.TB) {
	t.Helper()
	if err := s.w.RemoveCharacter(s.ents[1]); err != nil {
		t.Fatal(err)
	}
	s.ents[1] = arche.Entity{}
}

// step runs n frames of the game loop.
func (s *fullScene) step(t testing.TB, n int) {
	t.Helper()
	for ; n > 0; n-- {
		f := s.frame
		s.frame++
		tm := s.w.Time().Elapsed + float64(sceneDts[f%len(sceneDts)])
		for i, e := range s.ents {
			if e.IsZero() {
				continue // removed
			}
			if err := s.w.SetRoot(e, s.root(i, f, tm)); err != nil {
				t.Fatal(err)
			}
			if err := s.w.Animation().Of(e).SetBlendParam(s.sc.LocomotionParam(i, tm)); err != nil {
				t.Fatal(err)
			}
		}
		for i, e := range s.ents {
			if i >= 2 && !e.IsZero() {
				s.steer(t, i, e, tm)
			}
		}
		if err := s.w.Step(sceneDts[f%len(sceneDts)]); err != nil {
			t.Fatalf("frame %d: %v", f, err)
		}
	}
}

// steer sets character i's look-at and leg IK targets for time tm, as
// scene.SteerProcedural does: the look-at target circles the character at
// eye height, the left foot's target lifts and swings in front of it.
func (s *fullScene) steer(t testing.TB, i int, e arche.Entity, tm float64) {
	t.Helper()
	root := s.sc.RootAt(i, tm)
	a := float64(s.sc.Chars[i].Phase) + 1.3*tm
	sin, cos := math.Sincos(a)
	if err := s.w.LookAt().Of(e).SetTarget(root.Pos.Add(mgl32.Vec3{1.5 * float32(cos), 1.6, 1.5 * float32(sin)})); err != nil {
		t.Fatal(err)
	}
	step := float32(math.Sin(2 * a))
	foot := root.Pos.Add(root.Rot.Rotate(mgl32.Vec3{0.1, 0.12 + 0.08*step, 0.15 * step}))
	if err := s.w.IK().Of(e).SetTarget(0, foot); err != nil {
		t.Fatal(err)
	}
}
