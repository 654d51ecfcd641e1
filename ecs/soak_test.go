package sway_test

import (
	"errors"
	"flag"
	"math"
	"math/rand"
	"runtime"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl32"
	arche "github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/components"
	"github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/internal/rig"
	"github.com/sway-anim/sway/internal/scene"
	"github.com/sway-anim/sway/internal/store"
)

// The soak test's size. The default is the short form CI runs in a few
// seconds; docs/robustness.md gives the long form, e.g.
//
//	go test ./ecs -run TestSoak -v -timeout 0 -soak.frames=100000 -soak.chars=1000
var (
	soakFrames  = flag.Int("soak.frames", 0, "frames of TestSoak (0: 600, 200 with -short)")
	soakChars   = flag.Int("soak.chars", 0, "characters of TestSoak (0: 60, 24 with -short)")
	soakSeed    = flag.Int64("soak.seed", 1, "random seed of TestSoak")
	soakWorkers = flag.Int("soak.workers", 0, "workers of TestSoak's world (0: GOMAXPROCS)")
)

// soak is the state of one soak run: a world whose characters live in
// numbered slots (even slots have dynamic chains, odd ones VRM springs),
// so that after any churn the same set of characters can be rebuilt and
// the world's memory compared at equal composition.
type soak struct {
	t     *testing.T
	rng   *rand.Rand
	w     *sway.World
	sc    *scene.Scene
	space sway.BlendSpaceID
	slots []arche.Entity // zero: empty
	n     int            // the nominal character count (slots [0, n) at a checkpoint)
	count int            // live characters
	rootC arche.ID

	frames, rejected, jumps, faultRoots, adds, removes, edits int
	minCount, maxCount                                        int
}

func newSoak(t *testing.T, chars, extra int, seed int64, workers int) *soak {
	sc, err := scene.New(scene.Config{Characters: chars + extra, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	w, err := sway.NewWorld(sway.Options{Workers: workers})
	if err != nil {
		t.Fatal(err)
	}
	space, err := sc.AddLocomotion(w)
	if err != nil {
		t.Fatal(err)
	}
	s := &soak{t: t, rng: rand.New(rand.NewSource(seed)), w: w, sc: sc, space: space,
		slots: make([]arche.Entity, chars+extra), n: chars, rootC: arche.ComponentID[components.Root](w.ECS())}
	for i := 0; i < chars; i++ {
		s.add(i)
	}
	return s
}

// add creates the character of slot i with every feature.
func (s *soak) add(i int) {
	t, w, sc := s.t, s.w, s.sc
	e, err := w.AddCharacter(sc.Skeleton, sc.RootAt(i, w.Time().Elapsed))
	if err != nil {
		t.Fatal(err)
	}
	if i%2 == 0 {
		_, err = w.Chains().Add(e, scene.Colliders(), scene.ChainSpecs(s.rng))
	} else {
		_, err = w.VRMSprings().Add(e, scene.Colliders(), scene.VRMSpecs(s.rng))
	}
	if err != nil {
		t.Fatal(err)
	}
	must(t, addErr(w.SimpleSprings().Add(e, scene.EarringSpecs())))
	must(t, addErr(w.Animation().Add(e, s.space, sway.DefaultAnimSettings())))
	must(t, addErr(w.Breath().Add(e, sway.BreathFor(sc.Skeleton))))
	must(t, addErr(w.LookAt().Add(e, sway.LookAtFor(sc.Skeleton))))
	leg, err := sway.IKLimbFor(sc.Skeleton, "upper_leg.L", "lower_leg.L", "foot.L")
	must(t, err)
	must(t, addErr(w.IK().Add(e, leg)))
	s.slots[i] = e
	s.adds++
	s.count++
}

func (s *soak) remove(i int) {
	must(s.t, s.w.RemoveCharacter(s.slots[i]))
	s.slots[i] = arche.Entity{}
	s.removes++
	s.count--
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// rejects checks that a bad input was refused with a typed error.
func (s *soak) rejects(what string, err error) {
	s.t.Helper()
	var fe *sway.FieldError
	if !errors.Is(err, sway.ErrInvalid) || !errors.As(err, &fe) {
		s.t.Fatalf("frame %d: %s: %v, want a *FieldError", s.frames, what, err)
	}
	s.rejected++
}

// live returns a random live character's slot, or -1.
func (s *soak) live() int {
	for range 8 {
		if i := s.rng.Intn(len(s.slots)); !s.slots[i].IsZero() {
			return i
		}
	}
	return -1
}

func (s *soak) randf(lo, hi float32) float32 { return lo + (hi-lo)*s.rng.Float32() }

var nan32, inf32 = float32(math.NaN()), float32(math.Inf(1))

// bad returns a value no setter accepts for a non-negative parameter.
func (s *soak) bad() float32 { return [...]float32{nan32, inf32, -inf32, -1}[s.rng.Intn(4)] }

// churn removes or adds a character now and then: the count wanders
// within the extra slots around the nominal count.
func (s *soak) churn() {
	if s.rng.Intn(4) != 0 {
		return
	}
	remove := s.rng.Intn(2) == 0
	if s.count <= s.n-(len(s.slots)-s.n) {
		remove = false
	} else if s.count == len(s.slots) {
		remove = true
	}
	// The first live (or empty) slot from a random one on.
	for k, i := 0, s.rng.Intn(len(s.slots)); k < len(s.slots); k, i = k+1, (i+1)%len(s.slots) {
		if s.slots[i].IsZero() != remove {
			if remove {
				s.remove(i)
			} else {
				s.add(i)
			}
			return
		}
	}
}

// edit makes one random parameter edit through the public setters, half
// of them with a value the setter must reject.
func (s *soak) edit() {
	i := s.live()
	if i < 0 {
		return
	}
	w, e, bad := s.w, s.slots[i], s.rng.Intn(2) == 0
	s.edits++
	switch s.rng.Intn(9) {
	case 0: // chain or VRM spring settings
		if i%2 == 0 {
			c := s.rng.Intn(w.Chains().Of(e).Len())
			cs, err := w.Chains().Of(e).Settings(c)
			must(s.t, err)
			cs.Damping, cs.Elasticity, cs.Stiffness = s.randf(0, 1), s.randf(0, 1), s.randf(0, 1)
			cs.Gravity = mgl32.Vec3{0, -s.randf(0, 36), 0} // m/s², up to 0.01 m per 60 Hz step
			if bad {
				cs.Damping = nan32
				s.rejects("Chains.SetSettings", w.Chains().Of(e).SetSettings(c, cs))
			} else {
				must(s.t, w.Chains().Of(e).SetSettings(c, cs))
			}
		} else {
			vs := sway.DefaultVRMJointSettings()
			vs.Stiffness, vs.DragForce, vs.GravityPower = s.randf(0, 4), s.randf(0, 1), s.randf(0, 2)
			c := s.rng.Intn(w.VRMSprings().Of(e).Len())
			if bad {
				vs.DragForce = s.bad()
				s.rejects("VRMSprings.SetSpringSettings", w.VRMSprings().Of(e).SetSpringSettings(c, vs))
			} else {
				must(s.t, w.VRMSprings().Of(e).SetSpringSettings(c, vs))
			}
		}
	case 1:
		ss := sway.SimpleSpringSettings{Bounciness: s.randf(0, 80), Stiffness: s.randf(0, 2), Damping: s.randf(0, 10)}
		if bad {
			ss.Damping = s.bad()
			s.rejects("SimpleSprings.SetSettings", w.SimpleSprings().Of(e).SetSettings(s.rng.Intn(2), ss))
		} else {
			must(s.t, w.SimpleSprings().Of(e).SetSettings(s.rng.Intn(2), ss))
		}
	case 2:
		b := sway.BreathFor(s.sc.Skeleton)
		b.Offset, b.DurationRate, b.EffectRate = s.randf(0, 5), s.randf(0.1, 3), s.randf(0, 2)
		if bad {
			b.DurationRate = s.bad()
			s.rejects("Breath.SetSettings", w.Breath().Of(e).SetSettings(b))
		} else {
			must(s.t, w.Breath().Of(e).SetSettings(b))
		}
	case 3:
		if bad {
			s.rejects("LookAt.SetWeight", w.LookAt().Of(e).SetWeight([...]float32{nan32, 1.5, -0.1}[s.rng.Intn(3)]))
		} else {
			must(s.t, w.LookAt().Of(e).SetWeight(s.randf(0, 1)))
		}
	case 4: // look-at and IK at another character: entity targets that churn removes
		j := s.live()
		if j < 0 {
			return
		}
		bone := s.rng.Intn(s.sc.Skeleton.NumBones())
		must(s.t, w.LookAt().Of(e).SetTargetBone(s.slots[j], bone))
		must(s.t, w.IK().Of(e).SetTargetBone(0, s.slots[j], bone))
		if bad {
			s.rejects("LookAt.SetTarget", w.LookAt().Of(e).SetTarget(mgl32.Vec3{0, nan32, 0}))
		}
	case 5:
		if bad {
			s.rejects("IK.SetLimbWeight", w.IK().Of(e).SetLimbWeight(0, [...]float32{nan32, 2, -1}[s.rng.Intn(3)]))
		} else {
			must(s.t, w.IK().Of(e).SetLimbWeight(0, s.randf(0, 1)))
		}
	case 6:
		if bad {
			s.rejects("Animation.SetBlendParam", w.Animation().Of(e).SetBlendParam(mgl32.Vec2{inf32, 0}))
			s.rejects("Animation.SetSpeed", w.Animation().Of(e).SetSpeed(nan32))
		} else {
			must(s.t, w.Animation().Of(e).SetBlendParam(mgl32.Vec2{s.randf(-1, 1), s.randf(-1, 1)}))
			must(s.t, w.Animation().Of(e).SetSpeed(s.randf(-2, 3)))
		}
	case 7: // pause, resume, reset
		if i%2 == 0 {
			must(s.t, setPaused(w.Chains().Of(e), s.rng.Intn(2) == 0))
		} else {
			must(s.t, setPaused(w.VRMSprings().Of(e), s.rng.Intn(2) == 0))
		}
		must(s.t, w.SimpleSprings().Of(e).Reset())
	case 8:
		if bad {
			s.rejects("SetReference", w.SetReference(mgl32.Vec3{nan32, 0, 0}))
		} else {
			must(s.t, w.SetReference(mgl32.Vec3{s.randf(-50, 50), 1.7, s.randf(-50, 50)}))
		}
	}
}

// moveRoots sets every live character's root on its path; a few jump
// (teleports of up to 100 m), a few get a root no setter accepts (which
// must be rejected), and a few get a non-finite root written straight into
// the component (the documented fault: the last good pose is kept).
func (s *soak) moveRoots() {
	tm := s.w.Time().Elapsed
	for i, e := range s.slots {
		if e.IsZero() {
			continue
		}
		r := s.sc.RootAt(i, tm)
		switch k := s.rng.Intn(1000); {
		case k < 3:
			r.Pos = r.Pos.Add(mgl32.Vec3{s.randf(-100, 100), 0, s.randf(-100, 100)})
			s.jumps++
		case k < 5:
			bad := r
			bad.Pos[s.rng.Intn(3)] = [...]float32{nan32, inf32, -inf32}[s.rng.Intn(3)]
			s.rejects("SetRoot", s.w.SetRoot(e, bad))
		case k == 5:
			must(s.t, s.w.SetRoot(e, r))
			root := (*components.Root)(s.w.ECS().Get(e, s.rootC))
			root.Pos[s.rng.Intn(3)] = [...]float32{nan32, inf32, -inf32}[s.rng.Intn(3)]
			s.faultRoots++
			continue
		}
		must(s.t, s.w.SetRoot(e, r))
	}
}

// step runs one frame of dt in [0, 0.1] (0 and 0.1 now and then), and
// checks that bad frame times are rejected.
func (s *soak) step() {
	dt := s.randf(0, 0.1)
	switch s.rng.Intn(50) {
	case 0:
		dt = 0
	case 1:
		dt = 0.1
	case 2:
		s.rejects("Step", s.w.Step([...]float32{nan32, inf32, -0.01}[s.rng.Intn(3)]))
	}
	if err := s.w.Step(dt); err != nil {
		s.t.Fatalf("frame %d: Step(%g): %v", s.frames, dt, err)
	}
	s.frames++
}

// checkFinite fails on a non-finite world transform of any live bone.
func (s *soak) checkFinite() {
	pool := arche.GetResource[rig.Pool](s.w.ECS())
	for _, e := range s.slots {
		if e.IsZero() {
			continue
		}
		p := (*components.Pose)(s.w.ECS().Get(e, arche.ComponentID[components.Pose](s.w.ECS())))
		var sum float32
		for b := p.First; b < p.First+p.Count; b++ {
			v, q, k := &pool.WorldPos[b], &pool.WorldRot[b], &pool.WorldScale[b]
			sum += v[0]*0 + v[1]*0 + v[2]*0 + q.W*0 + q.V[0]*0 + q.V[1]*0 + q.V[2]*0 + k[0]*0 + k[1]*0 + k[2]*0
		}
		if sum != 0 {
			assertFinitePoses(s.t, s.w, []arche.Entity{e})
		}
	}
}

// storage is the size of every store, for comparing before and after
// churn.
type storage struct {
	Chars, PoolLen, PoolFree, Chains, Particles, ChainColliders     int
	VRMSprings, VRMJoints, VRMColliders, SimpleChains, SimpleJoints int
}

// checkpoint brings the world back to the nominal characters (slots
// [0, n)), lets a frame compact the stores, trims them and returns the
// heap in use and the stores' sizes.
func (s *soak) checkpoint() (uint64, storage) {
	for i, e := range s.slots {
		switch {
		case i < s.n && e.IsZero():
			s.add(i)
		case i >= s.n && !e.IsZero():
			s.remove(i)
		}
	}
	for i := 0; i < s.n; i++ {
		// Paused chains and springs would not run; resume them all.
		if i%2 == 0 {
			must(s.t, s.w.Chains().Of(s.slots[i]).Resume())
		} else {
			must(s.t, s.w.VRMSprings().Of(s.slots[i]).Resume())
		}
	}
	s.moveRoots()
	s.step()
	must(s.t, s.w.Trim())
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	ecs := s.w.ECS()
	pool := arche.GetResource[rig.Pool](ecs)
	cs := arche.GetResource[store.ChainStore](ecs)
	ss := arche.GetResource[store.SpringStore](ecs)
	return ms.HeapAlloc, storage{
		Chars: s.w.NumCharacters(), PoolLen: pool.Len(), PoolFree: pool.FreeSlots(),
		Chains: len(cs.Chains), Particles: cs.Particles.Len(), ChainColliders: len(cs.ColliderDescs),
		VRMSprings: len(ss.VRM.Springs), VRMJoints: len(ss.VRM.JointBone), VRMColliders: len(ss.VRM.ColliderDescs),
		SimpleChains: len(ss.Simple.Chains), SimpleJoints: len(ss.Simple.JointBone),
	}
}

// TestSoak runs a crowd through random frame times, root jumps and
// non-finite roots, random parameter edits (half of them bad, which must
// be rejected with a *FieldError), and add/remove churn. Every frame must
// step without a fault and leave every bone's world transform finite; at
// each checkpoint (every tenth of the run) the world, brought back to its
// starting characters and trimmed, must use the heap it used before the
// churn (within 5%) and stores of the same sizes.
func TestSoak(t *testing.T) {
	chars, frames := 60, 600
	if testing.Short() {
		chars, frames = 24, 200
	}
	if *soakChars > 0 {
		chars = *soakChars
	}
	if *soakFrames > 0 {
		frames = *soakFrames
	}
	s := newSoak(t, chars, max(2, chars/20), *soakSeed, *soakWorkers)
	defer s.w.Close()
	for range 10 {
		s.moveRoots()
		s.step()
	}
	// arche keeps an archetype's storage at the capacity of its peak
	// population (it grows by doubling and does not shrink), so one visit
	// to the peak count can add the component data of up to as many
	// characters again: past 1,024 characters, 1.6 MB (5%). The baseline
	// is taken after one visit to the peak, so that what is compared is
	// what churn itself leaves behind.
	for i, e := range s.slots {
		if e.IsZero() {
			s.add(i)
		}
	}
	s.moveRoots()
	s.step()
	heap0, store0 := s.checkpoint()
	s.adds, s.removes, s.minCount, s.maxCount = 0, 0, chars, chars
	t.Logf("before churn: %d characters, heap %.2f MB, stores %+v", chars, float64(heap0)/1e6, store0)
	start := time.Now()
	every := max(frames/10, 1)
	for f := 1; f <= frames; f++ {
		s.churn()
		s.minCount, s.maxCount = min(s.minCount, s.count), max(s.maxCount, s.count)
		for range max(1, chars/50) {
			s.edit()
		}
		s.moveRoots()
		s.step()
		s.checkFinite()
		if f%every == 0 || f == frames {
			heap, store := s.checkpoint()
			t.Logf("frame %d (%v): heap %.2f MB (%+.2f%%), %d adds, %d removes (%d to %d characters), %d edits, %d rejected, %d jumps, %d faulty roots",
				f, time.Since(start).Round(time.Second), float64(heap)/1e6, 100*(float64(heap)/float64(heap0)-1),
				s.adds, s.removes, s.minCount, s.maxCount, s.edits, s.rejected, s.jumps, s.faultRoots)
			if store != store0 {
				t.Fatalf("frame %d: stores %+v after churn and Trim, %+v before", f, store, store0)
			}
			if d := math.Abs(float64(heap)/float64(heap0) - 1); d > 0.05 {
				t.Fatalf("frame %d: heap %d bytes after churn, %d before (%+.1f%%)", f, heap, heap0, 100*d)
			}
		}
	}
	t.Logf("soak: %d characters, %d frames in %v", chars, frames, time.Since(start).Round(time.Millisecond))
}
