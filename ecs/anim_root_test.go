package sway_test

import (
	"errors"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	arche "github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/ecs"
)

// walkTurnWorld is one hips-and-spine character playing a one-second
// loop whose hips walk 1.2 m along +Z and turn 90 degrees about +Y, both
// linearly, while they bob 5 cm: with root motion mode.
func walkTurnWorld(t *testing.T, mode sway.RootMotionMode) (*sway.World, arche.Entity, sway.Animation) {
	t.Helper()
	w, err := sway.NewWorld(sway.Options{Workers: 1})
	must(t, err)
	t.Cleanup(func() { w.Close() })
	skel, err := sway.NewSkeleton(sway.SkeletonDesc{Name: "walker", Bones: []sway.BoneDesc{
		sway.Bone("hips", "", mgl32.Vec3{0, 1, 0}),
		sway.Bone("spine", "hips", mgl32.Vec3{0, 0.2, 0}),
	}})
	must(t, err)
	const keys = 121
	rot := make([]mgl32.Quat, keys)
	pos := make([]mgl32.Vec3, keys)
	for k := range keys {
		u := float64(k) / (keys - 1)
		rot[k] = mgl32.QuatRotate(float32(u*math.Pi/2), mgl32.Vec3{0, 1, 0})
		pos[k] = mgl32.Vec3{0, 1 + 0.05*float32(math.Sin(2*math.Pi*u)), 1.2 * float32(u)}
	}
	clip, err := w.AddClip(sway.ClipDesc{Name: "walkturn", SampleRate: keys - 1, KeyCount: keys, Loop: true, BoneCount: 2,
		Tracks: []sway.TrackDesc{{Bone: 0, Rotations: rot, Translations: pos}}})
	must(t, err)
	space, err := w.AddBlendSpace(sway.BlendSpaceDesc{Kind: sway.Blend1D, Clips: []sway.ClipID{clip}, Thresholds: []float32{0}})
	must(t, err)
	e, err := w.AddCharacter(skel, sway.Identity())
	must(t, err)
	s := sway.DefaultAnimSettings()
	s.RootMotion = mode
	h, err := w.Animation().Add(e, space, s)
	must(t, err)
	return w, e, h
}

// In place, with the delta applied to the root each frame, the hips go
// through the world as the clip authors them (a twin playing it as
// authored), while their local pose stays over the root: after one cycle
// the root is at (0, 0, 1.2) facing 90 degrees, whatever the frame rate.
func TestRootInPlaceFollowsTheAuthoredMotion(t *testing.T) {
	for _, hz := range []int{30, 60, 144} {
		w, e, h := walkTurnWorld(t, sway.RootInPlace)
		twin, te, th := walkTurnWorld(t, sway.RootAsAuthored)
		// The first Step of a character reports no delta: take it paused,
		// so that the cycle below starts at time 0.
		must(t, h.Pause())
		must(t, w.Step(1/float32(hz)))
		must(t, h.Resume())
		for f := 1; f <= hz; f++ {
			must(t, w.Step(1/float32(hz)))
			must(t, twin.Step(1/float32(hz)))
			must(t, h.ApplyRootDelta())
			pos, yaw, err := h.RootDelta()
			must(t, err)
			if hz == 60 && f == 31 { // from 0.5 to 0.5+1/60: 2 cm along the heading of 45 degrees before
				if d := pos.Sub(mgl32.Vec3{-0.02 * math.Sqrt2 / 2, 0, 0.02 * math.Sqrt2 / 2}).Len(); d > 2e-5 || math.Abs(float64(yaw)-1.5) > 1e-3 {
					t.Fatalf("60 Hz frame 31: delta %v, %v°; want (-0.014142, 0, 0.014142), 1.5°", pos, yaw)
				}
			}
			if tp, ty, _ := th.RootDelta(); tp != (mgl32.Vec3{}) || ty != 0 {
				t.Fatalf("as authored, the delta is %v, %v", tp, ty)
			}
			if f == hz {
				break // the twin has wrapped back to its start
			}
			a, err := w.BoneWorld(e, 0)
			must(t, err)
			b, err := twin.BoneWorld(te, 0)
			must(t, err)
			if a.Pos.Sub(b.Pos).Len() > 1e-4 || math.Abs(float64(a.Rot.Dot(b.Rot))) < 1-1e-6 {
				t.Fatalf("%d Hz frame %d: in place with the delta applied, the hips are at %v %v; as authored at %v %v",
					hz, f, a.Pos, a.Rot, b.Pos, b.Rot)
			}
		}
		root, err := w.Root(e)
		must(t, err)
		heading := 2 * math.Atan2(float64(root.Rot.V[1]), float64(root.Rot.W)) * 180 / math.Pi
		if root.Pos.Sub(mgl32.Vec3{0, 0, 1.2}).Len() > 1e-4 || math.Abs(heading-90) > 1e-2 {
			t.Errorf("%d Hz: after one cycle the root is at %v facing %.4f°; want (0, 0, 1.2) facing 90°", hz, root.Pos, heading)
		}
		local, err := w.Pose(e)
		must(t, err)
		if p := local.LocalPos[0]; math.Abs(float64(p[0])) > 1e-6 || math.Abs(float64(p[2])) > 1e-6 {
			t.Errorf("%d Hz: the hips' local position %v is not over the root", hz, p)
		}
	}
}

// Reset, like Add and Play, starts root motion over from time 0: the
// next Step reports the motion from the clip's start (0.12 m along +Z and
// 9 degrees in 0.1 s), so that the deltas add up to the clip's motion.
func TestRootDeltaAfterReset(t *testing.T) {
	w, _, h := walkTurnWorld(t, sway.RootInPlace)
	for range 3 {
		must(t, w.Step(0.1))
	}
	if _, yaw, _ := h.RootDelta(); math.Abs(float64(yaw)-9) > 1e-3 {
		t.Fatalf("yaw %v, want 9°", yaw)
	}
	must(t, h.Reset())
	must(t, w.Step(0.1))
	if pos, yaw, _ := h.RootDelta(); math.Abs(float64(pos[2])-0.12) > 1e-4 || math.Abs(float64(pos[0])) > 1e-4 || math.Abs(float64(yaw)-9) > 1e-3 {
		t.Fatalf("after Reset: %v, %v°; want (0, 0, 0.12) and 9°", pos, yaw)
	}
	must(t, w.Step(0.1))
	if _, yaw, _ := h.RootDelta(); math.Abs(float64(yaw)-9) > 1e-3 {
		t.Fatalf("yaw %v, want 9°", yaw)
	}
	must(t, h.SetWeight(0.5))
	must(t, w.Step(0.1))
	if _, yaw, _ := h.RootDelta(); math.Abs(float64(yaw)-4.5) > 1e-3 {
		t.Fatalf("at weight 0.5: yaw %v, want 4.5°", yaw)
	}
}

func TestRootMotionSettingsAreChecked(t *testing.T) {
	w, e, h := walkTurnWorld(t, sway.RootInPlace)
	st, err := h.State()
	must(t, err)
	for _, c := range []struct {
		s     sway.AnimSettings
		field string
	}{
		{sway.AnimSettings{Speed: 1, RootMotion: 7}, "RootMotion"},
		{sway.AnimSettings{Speed: 1, RootMotion: sway.RootInPlace, RootBone: "tail"}, "RootBone"},
	} {
		var fe *sway.FieldError
		if err := h.Play(st.Space, c.s); !errors.As(err, &fe) || fe.Type != "AnimSettings" || fe.Field != c.field {
			t.Errorf("Play(%+v) = %v, want a *FieldError on %s", c.s, err, c.field)
		}
	}
	must(t, h.Play(st.Space, sway.AnimSettings{Speed: 1, RootMotion: sway.RootInPlace, RootBone: "spine"}))
	must(t, w.Step(0.1))
	must(t, w.Step(0.1))
	if pos, yaw, _ := h.RootDelta(); pos != (mgl32.Vec3{}) || yaw != 0 {
		t.Fatalf("the spine has no keys, so no motion; got %v, %v", pos, yaw)
	}
	must(t, h.Remove())
	var fe *sway.FeatureError
	if _, _, err := h.RootDelta(); !errors.As(err, &fe) {
		t.Fatalf("RootDelta without the animation: %v", err)
	}
	if err := h.ApplyRootDelta(); !errors.As(err, &fe) {
		t.Fatalf("ApplyRootDelta without the animation: %v", err)
	}
	_ = e
}

// In place on the locomotion scene: poses and deltas are the same bits
// for 1 and 3 workers, a snapshot taken mid-run and restored replays them,
// and a frame allocates nothing.
func TestRootInPlaceDeterministicAndSnapshotted(t *testing.T) {
	most := func(i int) bool { return i%5 != 2 }
	settings := func(i int) sway.AnimSettings {
		s := sway.AnimSettings{Speed: 0.8 + 0.02*float32(i), Time: float32(i%10) / 10, Smoothing: float32(i % 3)}
		if i%3 != 0 {
			s.RootMotion = sway.RootInPlace
		}
		return s
	}
	type run struct {
		sum    uint64
		deltas []float32
	}
	deltas := func(w *sway.World, ents []arche.Entity) []float32 {
		var out []float32
		for i, e := range ents {
			if most(i) {
				p, y, err := w.Animation().Of(e).RootDelta()
				must(t, err)
				out = append(out, p[0], p[1], p[2], y)
			}
		}
		return out
	}
	var runs []run
	for _, workers := range []int{1, 3} {
		w, ents, sc, _ := locomotionWorld(t, workers, 60, most, settings)
		for f := 1; f <= 40; f++ {
			frameLocomotion(t, w, ents, sc, most, f)
		}
		snap, err := w.Snapshot(nil)
		must(t, err)
		for f := 41; f <= 60; f++ {
			frameLocomotion(t, w, ents, sc, most, f)
		}
		r := run{w.Checksum(), deltas(w, ents)}
		moved := false
		for _, d := range r.deltas {
			moved = moved || d != 0
		}
		if !moved {
			t.Fatal("no character moved: the test shows nothing")
		}
		must(t, w.Restore(snap))
		for f := 41; f <= 60; f++ {
			frameLocomotion(t, w, ents, sc, most, f)
		}
		if got := deltas(w, ents); w.Checksum() != r.sum || !equalFloats(got, r.deltas) {
			t.Fatalf("%d workers: restored and replayed, checksum %x deltas differ from %x", workers, w.Checksum(), r.sum)
		}
		if workers == 1 {
			f := 60
			if n := testing.AllocsPerRun(20, func() {
				f++
				frameLocomotion(t, w, ents, sc, most, f)
				_, _, _ = w.Animation().Of(ents[1]).RootDelta()
			}); n != 0 {
				t.Errorf("%v allocations per frame in place", n)
			}
		}
		runs = append(runs, r)
		w.Close()
	}
	if runs[0].sum != runs[1].sum || !equalFloats(runs[0].deltas, runs[1].deltas) {
		t.Fatalf("1 and 3 workers differ: %x, %x", runs[0].sum, runs[1].sum)
	}
}
