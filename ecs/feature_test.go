package sway_test

import (
	"errors"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	arche "github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/internal/scene"
)

// featureHandle is what every feature handle answers.
type featureHandle interface {
	Entity() arche.Entity
	Pause() error
	Resume() error
	Paused() (bool, error)
	Reset() error
	Weight() (float32, error)
	SetWeight(float32) error
	Remove() error
}

// featureCase adds one feature to a stress-rig character.
type featureCase struct {
	name string
	// animated: the feature is the animation itself (a paused animation
	// holds its pose; below it is the rest pose).
	animated bool
	add      func(t *testing.T, w *sway.World, e arche.Entity, sc *scene.Scene) featureHandle
}

func featureCases() []featureCase {
	return []featureCase{
		{name: "Chains", add: func(t *testing.T, w *sway.World, e arche.Entity, sc *scene.Scene) featureHandle {
			h, err := w.Chains().Add(e, scene.Colliders(), scene.ChainSpecs(newRand(1)))
			must(t, err)
			return h
		}},
		{name: "VRMSprings", add: func(t *testing.T, w *sway.World, e arche.Entity, sc *scene.Scene) featureHandle {
			h, err := w.VRMSprings().Add(e, scene.Colliders(), scene.VRMSpecs(newRand(1)))
			must(t, err)
			return h
		}},
		{name: "SimpleSprings", add: func(t *testing.T, w *sway.World, e arche.Entity, sc *scene.Scene) featureHandle {
			h, err := w.SimpleSprings().Add(e, scene.EarringSpecs())
			must(t, err)
			return h
		}},
		{name: "Breath", add: func(t *testing.T, w *sway.World, e arche.Entity, sc *scene.Scene) featureHandle {
			s := sway.BreathFor(sc.Skeleton)
			s.EffectRate = 3 // a bend big enough to measure in a few frames
			h, err := w.Breath().Add(e, s)
			must(t, err)
			return h
		}},
		{name: "LookAt", add: func(t *testing.T, w *sway.World, e arche.Entity, sc *scene.Scene) featureHandle {
			h, err := w.LookAt().Add(e, sway.LookAtFor(sc.Skeleton))
			must(t, err)
			must(t, h.SetTarget(mgl32.Vec3{2, 1.8, 1}))
			return h
		}},
		{name: "IK", add: func(t *testing.T, w *sway.World, e arche.Entity, sc *scene.Scene) featureHandle {
			leg, err := sway.IKLimbFor(sc.Skeleton, "upper_leg.L", "lower_leg.L", "foot.L")
			must(t, err)
			h, err := w.IK().Add(e, leg)
			must(t, err)
			foot, err := w.BoneWorld(e, sc.Skeleton.Index("foot.L"))
			must(t, err)
			must(t, h.SetTarget(0, foot.Pos.Add(mgl32.Vec3{0.1, 0.25, 0.15})))
			return h
		}},
		{name: "Animation", animated: true, add: func(t *testing.T, w *sway.World, e arche.Entity, sc *scene.Scene) featureHandle {
			space, err := sc.AddLocomotion(w)
			must(t, err)
			h, err := w.Animation().Add(e, space, sway.AnimSettings{Speed: 1, Param: mgl32.Vec2{0, 1}})
			must(t, err)
			return h
		}},
	}
}

// featureRoot is a character's root at step k: it sways and turns, so that
// secondary motion has something to follow.
func featureRoot(k int) sway.Transform {
	f := float64(k)
	r := sway.At(mgl32.Vec3{float32(0.3 * math.Sin(f*0.21)), 0, float32(0.02 * f)})
	r.Rot = mgl32.QuatRotate(float32(0.4*math.Sin(f*0.13)), mgl32.Vec3{0, 1, 0})
	return r
}

// featureWorld is one stress-rig character, with the feature of c when
// with is set.
func featureWorld(t *testing.T, c featureCase, with bool) (*sway.World, arche.Entity, featureHandle) {
	t.Helper()
	w, ents, sc := plainWorld(t, 1, 1)
	t.Cleanup(func() { w.Close() })
	e := ents[0]
	must(t, w.SetRoot(e, featureRoot(0)))
	var h featureHandle
	if with {
		h = c.add(t, w, e, sc)
	}
	return w, e, h
}

// stepAt sets the root for step k and steps one frame.
func stepAt(t *testing.T, w *sway.World, e arche.Entity, k int) {
	t.Helper()
	must(t, w.SetRoot(e, featureRoot(k)))
	must(t, w.Step(1.0/60))
}

// samePose reports the first bone whose local or world transform differs
// in bits between two characters, or -1.
func samePose(t *testing.T, a *sway.World, ea arche.Entity, b *sway.World, eb arche.Entity) int {
	t.Helper()
	pa, err := a.Pose(ea)
	must(t, err)
	pb, err := b.Pose(eb)
	must(t, err)
	for i := range pa.WorldRot {
		if pa.LocalRot[i] != pb.LocalRot[i] || pa.WorldRot[i] != pb.WorldRot[i] || pa.WorldPos[i] != pb.WorldPos[i] {
			return i
		}
	}
	return -1
}

// poseGap is the largest angle in radians between the world rotations of
// the same bone of two characters.
func poseGap(t *testing.T, a *sway.World, ea arche.Entity, b *sway.World, eb arche.Entity) float64 {
	t.Helper()
	pa, err := a.Pose(ea)
	must(t, err)
	pb, err := b.Pose(eb)
	must(t, err)
	gap := 0.0
	for i := range pa.WorldRot {
		d := math.Abs(float64(pa.WorldRot[i].Dot(pb.WorldRot[i])))
		gap = max(gap, 2*math.Acos(min(1, d)))
	}
	return gap
}

// A paused feature adds nothing: its character's pose is, to the bit, the
// pose of a twin without the feature; a paused animation holds its pose.
func TestPausedFeatureShowsThePoseComingIntoIt(t *testing.T) {
	for _, c := range featureCases() {
		t.Run(c.name, func(t *testing.T) {
			w, e, h := featureWorld(t, c, true)
			twin, te, _ := featureWorld(t, c, false)
			for k := 1; k <= 20; k++ {
				stepAt(t, w, e, k)
				stepAt(t, twin, te, k)
			}
			if gap := poseGap(t, w, e, twin, te); gap < 1e-3 {
				t.Fatalf("the running feature moved no bone (%.2g rad): the test shows nothing", gap)
			}
			must(t, h.Pause())
			if p, err := h.Paused(); !p || err != nil {
				t.Fatalf("Paused() = %v, %v after Pause", p, err)
			}
			held, err := w.Pose(e)
			must(t, err)
			heldRot := append([]mgl32.Quat(nil), held.LocalRot...)
			for k := 21; k <= 30; k++ {
				stepAt(t, w, e, k)
				stepAt(t, twin, te, k)
				if c.animated {
					p, err := w.Pose(e)
					must(t, err)
					for i := range heldRot {
						if p.LocalRot[i] != heldRot[i] {
							t.Fatalf("step %d: the paused animation moved bone %d", k, i)
						}
					}
				} else if b := samePose(t, w, e, twin, te); b >= 0 {
					t.Fatalf("step %d: bone %d differs from the twin without the feature", k, b)
				}
			}
		})
	}
}

// Resume continues from where the feature paused: a character paused for
// ten frames while it stood still, then resumed, moves to the bit as a
// twin that never paused and skipped those frames.
func TestResumeContinuesWhereItPaused(t *testing.T) {
	for _, c := range featureCases() {
		t.Run(c.name, func(t *testing.T) {
			w, e, h := featureWorld(t, c, true)
			twin, te, _ := featureWorld(t, c, true)
			for k := 1; k <= 20; k++ {
				stepAt(t, w, e, k)
				stepAt(t, twin, te, k)
			}
			must(t, h.Pause())
			for range 10 {
				stepAt(t, w, e, 20) // standing where it paused
			}
			must(t, h.Resume())
			for k := 21; k <= 35; k++ {
				stepAt(t, w, e, k)
				stepAt(t, twin, te, k)
				if b := samePose(t, w, e, twin, te); b >= 0 {
					t.Fatalf("step %d after resuming: bone %d differs from the twin that never paused", k, b)
				}
			}
		})
	}
}

// Reset drops the feature's history: two characters with different pasts
// (one swayed for 20 frames, one stood still for 7), reset on the same
// frame at the same root, move to the bit alike from then on.
func TestResetDropsTheHistory(t *testing.T) {
	for _, c := range featureCases() {
		t.Run(c.name, func(t *testing.T) {
			w, e, h := featureWorld(t, c, true)
			other, oe, oh := featureWorld(t, c, true)
			for k := 1; k <= 20; k++ {
				stepAt(t, w, e, k)
			}
			for range 7 {
				stepAt(t, other, oe, 0)
			}
			if c.name != "IK" { // IK keeps no history: nothing to show
				// Without the reset the pasts show: the test is not vacuous.
				w2, e2, _ := featureWorld(t, c, true)
				o2, oe2, _ := featureWorld(t, c, true)
				for k := 1; k <= 20; k++ {
					stepAt(t, w2, e2, k)
				}
				for range 7 {
					stepAt(t, o2, oe2, 0)
				}
				stepAt(t, w2, e2, 21)
				stepAt(t, o2, oe2, 21)
				if samePose(t, w2, e2, o2, oe2) < 0 {
					t.Fatal("without a reset the two pasts give the same pose: the test shows nothing")
				}
			}
			must(t, h.Reset())
			must(t, oh.Reset())
			for k := 21; k <= 35; k++ {
				stepAt(t, w, e, k)
				stepAt(t, other, oe, k)
				if b := samePose(t, w, e, other, oe); b >= 0 {
					t.Fatalf("step %d after the reset: bone %d still depends on the past", k, b)
				}
			}
		})
	}
}

// Weight 0 shows the pose coming into the feature; 0.5 lands between it
// and the full result.
func TestWeightBlendsTheFeature(t *testing.T) {
	for _, c := range featureCases() {
		t.Run(c.name, func(t *testing.T) {
			none, ne, _ := featureWorld(t, c, false)
			gaps := map[float32]float64{}
			for _, weight := range []float32{0, 0.5, 1} {
				w, e, h := featureWorld(t, c, true)
				must(t, h.SetWeight(weight))
				if got, err := h.Weight(); got != weight || err != nil {
					t.Fatalf("Weight() = %v, %v after SetWeight(%v)", got, err, weight)
				}
				for k := 1; k <= 40; k++ {
					stepAt(t, w, e, k)
					if weight == 0 {
						stepAt(t, none, ne, k)
					}
				}
				if weight == 0 {
					// Look-at fades in from its applied weight 0 towards
					// the requested one: at 0 it never leaves.
					if gap := poseGap(t, w, e, none, ne); gap > 1e-5 {
						t.Fatalf("weight 0: %.3g rad from the pose without the feature", gap)
					}
					continue
				}
				gaps[weight] = poseGap(t, w, e, none, ne)
			}
			full, half := gaps[1], gaps[0.5]
			if full < 1e-3 {
				t.Fatalf("weight 1 moved no bone (%.2g rad)", full)
			}
			if half < 0.2*full || half > 0.8*full {
				t.Fatalf("weight 0.5 moved bones %.3g rad, weight 1 %.3g rad: not in between", half, full)
			}
		})
	}
	w, e, _ := featureWorld(t, featureCases()[0], true)
	for _, bad := range []float32{-0.1, 1.5, float32(math.NaN())} {
		var fe *sway.FieldError
		if err := w.Chains().Of(e).SetWeight(bad); !errors.As(err, &fe) || fe.Field != "Weight" {
			t.Errorf("SetWeight(%v) = %v, want a *FieldError on Weight", bad, err)
		}
	}
}

// A handle whose feature is gone, or that was never there, answers a
// *FeatureError matching ErrNoFeature; Add on a character that has the
// feature is refused, and Remove then Add works.
func TestHandleWithoutItsFeature(t *testing.T) {
	for _, c := range featureCases() {
		t.Run(c.name, func(t *testing.T) {
			w, e, sc := plainWorld(t, 1, 1)
			defer w.Close()
			h := c.add(t, w, e[0], sc)
			must(t, h.Remove())
			var fe *sway.FeatureError
			for name, err := range map[string]error{
				"Pause": h.Pause(), "Resume": h.Resume(), "Reset": h.Reset(), "SetWeight": h.SetWeight(1), "Remove": h.Remove(),
			} {
				if !errors.As(err, &fe) || fe.Feature != c.name || fe.Entity != e[0] || !errors.Is(err, sway.ErrNoFeature) {
					t.Errorf("%s after Remove: %v, want a *FeatureError for %s", name, err, c.name)
				}
			}
			h = c.add(t, w, e[0], sc)
			if h.Entity() != e[0] {
				t.Fatalf("Entity() = %v, want %v", h.Entity(), e[0])
			}
		})
	}
}

// A second Add on a character that has the feature is refused with a
// *FieldError and changes nothing.
func TestAddTwiceIsRefused(t *testing.T) {
	w, ents, sc := plainWorld(t, 1, 1)
	defer w.Close()
	e := ents[0]
	chains, springs := hairChainsTailSprings(1)
	must(t, addErr(w.Chains().Add(e, scene.Colliders(), chains)))
	must(t, addErr(w.VRMSprings().Add(e, scene.Colliders(), springs)))
	for _, c := range featureCases()[2:] {
		c.add(t, w, e, sc)
	}
	space, err := sc.AddLocomotion(w)
	must(t, err)
	leg, err := sway.IKLimbFor(sc.Skeleton, "upper_leg.R", "lower_leg.R", "foot.R")
	must(t, err)
	before := w.Checksum()
	for name, err := range map[string]error{
		"Chains":        addErr(w.Chains().Add(e, nil, []sway.ChainSpec{{Root: "tail.0", Settings: sway.DefaultChainSettings()}})),
		"VRMSprings":    addErr(w.VRMSprings().Add(e, nil, scene.VRMSpecs(newRand(2)))),
		"SimpleSprings": addErr(w.SimpleSprings().Add(e, scene.EarringSpecs())),
		"Breath":        addErr(w.Breath().Add(e, sway.BreathFor(sc.Skeleton))),
		"LookAt":        addErr(w.LookAt().Add(e, sway.LookAtFor(sc.Skeleton))),
		"IK":            addErr(w.IK().Add(e, leg)),
		"Animation":     addErr(w.Animation().Add(e, space, sway.DefaultAnimSettings())),
	} {
		var fe *sway.FieldError
		if !errors.As(err, &fe) || fe.Field != "Entity" {
			t.Errorf("a second %s.Add: %v, want a *FieldError on Entity", name, err)
		}
	}
	if w.Checksum() != before {
		t.Fatal("a refused Add changed the world")
	}
}

// springHandle is what the two spring handles add to featureHandle.
type springHandle interface {
	featureHandle
	Teleport() (sway.Teleport, error)
	SetTeleport(sway.Teleport) error
}

// Springs take their teleport test per character: a jump beyond the
// limits restarts them from the pose as Reset does (to the bit); within
// them, or with the test off, they swing across it.
func TestSpringTeleportPerCharacter(t *testing.T) {
	jump := func(k int) sway.Transform { // from standing at the origin
		r := sway.Identity()
		if k > 20 {
			r.Pos = mgl32.Vec3{0.6, 0, 0}
			r.Rot = mgl32.QuatRotate(mgl32.DegToRad(30), mgl32.Vec3{0, 1, 0})
		}
		return r
	}
	for _, c := range featureCases()[1:3] {
		for _, tc := range []struct {
			name     string
			limits   sway.Teleport
			restarts bool
		}{
			{"default 1 m 45 degrees", sway.DefaultTeleport(), false},
			{"0.5 m", sway.Teleport{Distance: 0.5, AngleDegrees: 45}, true},
			{"20 degrees", sway.Teleport{Distance: 1, AngleDegrees: 20}, true},
			{"off", sway.Teleport{}, false},
		} {
			t.Run(c.name+"/"+tc.name, func(t *testing.T) {
				run := func(reset bool) (*sway.World, arche.Entity) {
					w, e, h := featureWorld(t, c, true)
					sh := h.(springHandle)
					if got, err := sh.Teleport(); err != nil || got != sway.DefaultTeleport() {
						t.Fatalf("Teleport() = %+v, %v; want the default", got, err)
					}
					must(t, sh.SetTeleport(tc.limits))
					if got, _ := sh.Teleport(); math.Abs(float64(got.Distance-tc.limits.Distance)) > 1e-6 ||
						math.Abs(float64(got.AngleDegrees-tc.limits.AngleDegrees)) > 1e-3 {
						t.Fatalf("Teleport() = %+v after SetTeleport(%+v)", got, tc.limits)
					}
					for k := 0; k <= 21; k++ {
						if k == 21 && reset {
							must(t, h.Reset())
						}
						must(t, w.SetRoot(e, jump(k)))
						must(t, w.Step(1.0/60))
					}
					return w, e
				}
				w, e := run(false)
				r, re := run(true)
				if restarted := samePose(t, w, e, r, re) < 0; restarted != tc.restarts {
					t.Fatalf("restarted = %v across a 0.6 m, 30 degree jump; want %v", restarted, tc.restarts)
				}
			})
		}
	}
	w, e, _ := featureWorld(t, featureCases()[1], true)
	for _, bad := range []sway.Teleport{{Distance: -1}, {AngleDegrees: 181}, {AngleDegrees: float32(math.NaN())}, {Distance: 2e6}} {
		var fe *sway.FieldError
		if err := w.VRMSprings().Of(e).SetTeleport(bad); !errors.As(err, &fe) {
			t.Errorf("SetTeleport(%+v) = %v, want a *FieldError", bad, err)
		}
	}
}

// No bone is driven by two features: a chain over a spring's joints, a
// spring over a chain's bones, two chains over one bone are each an
// *OverlapError naming the bone and both claimants, and change nothing.
func TestOverlappingFeaturesAreRefused(t *testing.T) {
	w, ents, _ := plainWorld(t, 4, 1)
	defer w.Close()
	set := sway.DefaultChainSettings()
	vrm := sway.DefaultVRMJointSettings()
	must(t, addErr(w.Chains().Add(ents[0], nil, []sway.ChainSpec{{Root: "tail.0", Settings: set}})))
	must(t, addErr(w.VRMSprings().Add(ents[1], nil, []sway.VRMSpringSpec{{Joints: []string{"tail.2", "tail.3"}, Settings: vrm}})))
	must(t, addErr(w.SimpleSprings().Add(ents[2], scene.EarringSpecs())))
	earring := scene.EarringSpecs()[0].Bones
	before := w.Checksum()
	for _, c := range []struct {
		name        string
		err         error
		bone, first string
	}{
		{"a spring on a chain's bones", addErr(w.VRMSprings().Add(ents[0], nil, []sway.VRMSpringSpec{{Joints: []string{"tail.3", "tail.4"}, Settings: vrm}})), "tail.3", "Chains[0]"},
		{"a chain on a spring's joints", addErr(w.Chains().Add(ents[1], nil, []sway.ChainSpec{{Root: "tail.1", Settings: set}})), "tail.2", "VRMSprings[0]"},
		{"two chains on one bone", addErr(w.Chains().Add(ents[3], nil, []sway.ChainSpec{{Root: "tail.0", Settings: set}, {Root: "tail.2", Settings: set}})), "tail.3", "Chains[0]"},
		{"a chain on a simple spring", addErr(w.Chains().Add(ents[2], nil, []sway.ChainSpec{{Root: w2parent(t, w, ents[2], earring[0]), Settings: set}})), earring[0], "SimpleSprings[0]"},
		{"a VRM spring on a simple spring", addErr(w.VRMSprings().Add(ents[2], nil, []sway.VRMSpringSpec{{Joints: earring, Settings: vrm}})), earring[0], "SimpleSprings[0]"},
	} {
		var oe *sway.OverlapError
		if !errors.As(c.err, &oe) || !errors.Is(c.err, sway.ErrOverlap) || oe.Bone != c.bone || oe.First != c.first {
			t.Errorf("%s: %v, want an *OverlapError on %q, first driven by %s", c.name, c.err, c.bone, c.first)
		}
	}
	if w.Checksum() != before || w.Chains().Of(ents[1]).Len() != 0 || w.VRMSprings().Of(ents[0]).Len() != 0 {
		t.Fatal("a refused Add changed the world")
	}
}

// w2parent is the name of the parent of bone name in e's skeleton.
func w2parent(t *testing.T, w *sway.World, e arche.Entity, name string) string {
	t.Helper()
	skel, err := w.Skeleton(e)
	must(t, err)
	return skel.BoneName(int(skel.Parents()[skel.Index(name)]))
}

// Culling is pausing: a feature culled by distance for ten frames moves to
// the bit as a twin paused for the same frames, before, during and after.
func TestCulledFeatureIsPaused(t *testing.T) {
	for _, c := range featureCases() {
		t.Run(c.name, func(t *testing.T) {
			w, e, h := featureWorld(t, c, true)
			twin, te, th := featureWorld(t, c, true)
			culler := h.(interface {
				SetCullDistance(float32) error
				CullDistance() (float32, error)
			})
			must(t, culler.SetCullDistance(10))
			if d, err := culler.CullDistance(); d != 10 || err != nil {
				t.Fatalf("CullDistance() = %v, %v", d, err)
			}
			for k := 1; k <= 45; k++ {
				switch k {
				case 21:
					must(t, w.SetReference(mgl32.Vec3{100, 0, 0})) // out of reach: culled
					must(t, th.Pause())
				case 31:
					must(t, w.SetReference(mgl32.Vec3{}))
					must(t, th.Resume())
				}
				stepAt(t, w, e, k)
				stepAt(t, twin, te, k)
				if b := samePose(t, w, e, twin, te); b >= 0 {
					t.Fatalf("step %d: bone %d of the culled character differs from the paused twin", k, b)
				}
			}
			var fe *sway.FieldError
			for _, bad := range []float32{-1, 2e6, float32(math.NaN())} {
				if err := culler.SetCullDistance(bad); !errors.As(err, &fe) || fe.Field != "CullDistance" {
					t.Errorf("SetCullDistance(%v) = %v, want a *FieldError", bad, err)
				}
			}
		})
	}
}
