package sway_test

import (
	"errors"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	arche "github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/internal/scene"
	"github.com/sway-anim/sway/systems/anim"
)

// locomotionWorld builds a world of chars stress-rig characters and the
// five locomotion clips; every character whose index animated(i) accepts
// plays the blend space with settings(i).
func locomotionWorld(t testing.TB, workers, chars int, animated func(int) bool, settings func(int) sway.AnimSettings) (*sway.World, []arche.Entity, *scene.Scene, sway.BlendSpaceID) {
	t.Helper()
	sc, err := scene.New(scene.Config{Characters: chars, Seed: 11})
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
	ents, err := sc.Populate(w)
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range ents {
		if animated(i) {
			if _, err := w.Animation().Add(e, space, settings(i)); err != nil {
				t.Fatal(err)
			}
		}
	}
	return w, ents, sc, space
}

func all(int) bool { return true }

// frameLocomotion is the game's part of a frame: every animated character's
// parameter on its circle, every root on its path.
func frameLocomotion(t testing.TB, w *sway.World, ents []arche.Entity, sc *scene.Scene, animated func(int) bool, f int) {
	tm := float64(f) / 60
	for i, e := range ents {
		if animated(i) {
			if err := w.Animation().Of(e).SetBlendParam(sc.LocomotionParam(i, tm)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := sc.MoveRoots(w, ents, tm); err != nil {
		t.Fatal(err)
	}
	if err := w.Step(1.0 / 60); err != nil {
		t.Fatal(err)
	}
}

// Weight one on the forward clip: after Step the character's locals are
// that clip's pose at the character's time, bit for bit.
func TestAnimateOneClipGivesItsPoseExactly(t *testing.T) {
	settings := func(int) sway.AnimSettings {
		return sway.AnimSettings{Param: mgl32.Vec2{0, 1}, Time: 0.25} // speed 0: the time stays
	}
	w, ents, sc, _ := locomotionWorld(t, 1, 1, all, settings)
	defer w.Close()
	if err := w.Step(1.0 / 60); err != nil {
		t.Fatal(err)
	}
	weights, err := w.Animation().Of(ents[0]).BlendWeights(nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []float32{0, 1, 0, 0, 0}; !equalFloats(weights, want) {
		t.Fatalf("weights %v, want %v", weights, want)
	}
	clip, err := anim.NewClip(sc.LocomotionClips()[scene.WalkForward])
	if err != nil {
		t.Fatal(err)
	}
	skel := sc.Skeleton
	rest := anim.Pose{Pos: skel.RestPos(), Rot: skel.RestRot(), Scale: skel.RestScale()}
	want := anim.MakePose(skel.NumBones())
	clip.Sample(want, rest, 0.25)
	got, _ := w.Pose(ents[0])
	for b := range want.Rot {
		if got.LocalRot[b] != want.Rot[b] || got.LocalPos[b] != want.Pos[b] || got.LocalScale[b] != want.Scale[b] {
			t.Fatalf("bone %s: local %v %v, want the clip's %v %v", skel.BoneName(b), got.LocalPos[b], got.LocalRot[b], want.Pos[b], want.Rot[b])
		}
	}
	// The pose reached the world transforms: the left hip's swing moved the
	// left foot away from its rest position.
	foot := skel.Index("foot.L")
	root, _ := w.Root(ents[0])
	restFoot := mgl32.Vec3(skel.ModelPos()[foot])
	if got.WorldPos[foot].Sub(root.Rot.Rotate(restFoot).Add(root.Pos)).Len() < 0.05 {
		t.Fatal("the animated pose did not reach the world transforms")
	}
}

func equalFloats(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// twoTurns adds two one-bone-track clips to w for a three-bone arm: the
// elbow at rest (identity, no offset) and turned 90 degrees about Y and
// moved (2, 0, 0), the second stored as -q to exercise the hemisphere
// correction; and the 1D space over them.
func twoTurns(t *testing.T, w *sway.World) (*sway.Skeleton, sway.BlendSpaceID) {
	t.Helper()
	skel, err := sway.NewSkeleton(sway.SkeletonDesc{Name: "arm", Bones: []sway.BoneDesc{
		sway.Bone("shoulder", "", mgl32.Vec3{0, 1.5, 0}),
		sway.Bone("elbow", "shoulder", mgl32.Vec3{0.3, 0, 0}),
		sway.Bone("hand", "elbow", mgl32.Vec3{0.25, 0, 0}),
	}})
	if err != nil {
		t.Fatal(err)
	}
	elbow := skel.Index("elbow")
	turn := mgl32.QuatRotate(math.Pi/2, mgl32.Vec3{0, 1, 0}).Scale(-1)
	var ids []sway.ClipID
	for _, k := range []struct {
		q mgl32.Quat
		p mgl32.Vec3
	}{{mgl32.QuatIdent(), mgl32.Vec3{}}, {turn, mgl32.Vec3{2, 0, 0}}} {
		id, err := w.AddClip(sway.ClipDesc{Name: "turn", SampleRate: 30, KeyCount: 2, Loop: true, BoneCount: 3,
			Tracks: []sway.TrackDesc{{Bone: elbow, Rotations: []mgl32.Quat{k.q, k.q}, Translations: []mgl32.Vec3{k.p, k.p}}}})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	space, err := w.AddBlendSpace(sway.BlendSpaceDesc{Kind: sway.Blend1D, Clips: ids, Thresholds: []float32{0, 1}})
	if err != nil {
		t.Fatal(err)
	}
	return skel, space
}

// Two clips at 0.5 each give the halfway rotation and translation, the
// hemisphere of the second key notwithstanding; bones no clip animates keep
// the rest pose.
func TestAnimateTwoClipsHalfway(t *testing.T) {
	w, err := sway.NewWorld(sway.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	skel, space := twoTurns(t, w)
	e, _ := w.AddCharacter(skel, sway.Identity())
	if _, err := w.Animation().Add(e, space, sway.AnimSettings{Param: mgl32.Vec2{0.5, 0}, Speed: 1}); err != nil {
		t.Fatal(err)
	}
	if err := w.Step(1.0 / 60); err != nil {
		t.Fatal(err)
	}
	weights, _ := w.Animation().Of(e).BlendWeights(nil)
	if !equalFloats(weights, []float32{0.5, 0.5}) {
		t.Fatalf("weights %v", weights)
	}
	p, _ := w.Pose(e)
	elbow := skel.Index("elbow")
	want := mgl32.QuatRotate(math.Pi/4, mgl32.Vec3{0, 1, 0})
	if q := p.LocalRot[elbow]; mgl32.Abs(q.Dot(want)) < 1-1e-6 || math.Abs(float64(q.Len())-1) > 1e-6 {
		t.Fatalf("elbow %v, want 45 degrees about Y %v", q, want)
	}
	if !p.LocalPos[elbow].ApproxEqualThreshold(mgl32.Vec3{1, 0, 0}, 1e-6) {
		t.Fatalf("elbow translation %v, want (1, 0, 0)", p.LocalPos[elbow])
	}
	for _, b := range []int{skel.Index("shoulder"), skel.Index("hand")} {
		if p.LocalRot[b] != skel.RestRot()[b] || p.LocalPos[b] != skel.RestPos()[b] {
			t.Fatalf("bone %s left its rest pose", skel.BoneName(b))
		}
	}
}

// The parameter going round circles of every radius, through the samples'
// directions and the origin, never gives a non-finite or non-unit rotation
// or weights that do not sum to one.
func TestBlendParamAroundCircleStaysUnit(t *testing.T) {
	const chars = 12
	settings := func(i int) sway.AnimSettings {
		s := sway.DefaultAnimSettings()
		s.Smoothing = float32(i % 3 * 5) // 0 (snap), 5, 10
		s.Speed = 0.5 + float32(i)*0.2
		return s
	}
	w, ents, sc, _ := locomotionWorld(t, 2, chars, all, settings)
	defer w.Close()
	weights := make([]float32, 0, sway.MaxBlendSamples)
	for f := 0; f < 480; f++ {
		for i, e := range ents {
			// Radius 0 to 2 over the run; 16 steps per turn land exactly on
			// the axes, where the samples are.
			r := float64(f) / 240
			a := 2 * math.Pi * float64(f+i) / 16
			p := mgl32.Vec2{float32(r * math.Cos(a)), float32(r * math.Sin(a))}
			if f%16 == 0 {
				p = mgl32.Vec2{0, float32(r)}
			}
			if err := w.Animation().Of(e).SetBlendParam(p); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Step(1.0 / 60); err != nil {
			t.Fatal(err)
		}
		for i, e := range ents {
			pose, _ := w.Pose(e)
			for b, q := range pose.LocalRot {
				l := math.Sqrt(float64(q.W*q.W + q.V.Dot(q.V)))
				if !(math.Abs(l-1) <= 1e-5) {
					t.Fatalf("frame %d character %d bone %s: rotation %v, |q| = %v", f, i, sc.Skeleton.BoneName(b), q, l)
				}
			}
			for b, v := range pose.LocalPos {
				if !finite3(v) || !finite3(pose.WorldPos[b]) {
					t.Fatalf("frame %d character %d bone %d: non-finite position", f, i, b)
				}
			}
			weights, _ = w.Animation().Of(e).BlendWeights(weights[:0])
			var sum float64
			for _, v := range weights {
				if !(v >= 0 && v <= 1) {
					t.Fatalf("frame %d: weights %v", f, weights)
				}
				sum += float64(v)
			}
			if math.Abs(sum-1) > 1e-5 {
				t.Fatalf("frame %d: weights %v sum to %v", f, weights, sum)
			}
		}
	}
}

func finite3(v mgl32.Vec3) bool {
	for _, c := range v {
		if math.IsNaN(float64(c)) || math.IsInf(float64(c), 0) {
			return false
		}
	}
	return true
}

// Characters without animation keep falling back to the rest pose, next to
// animated ones; a character whose animation is stopped falls back too.
func TestUnanimatedCharactersGetRestPose(t *testing.T) {
	odd := func(i int) bool { return i%2 == 1 }
	w, ents, sc, _ := locomotionWorld(t, 2, 6, odd, func(int) sway.AnimSettings {
		return sway.AnimSettings{Param: mgl32.Vec2{0.3, 0.4}, Speed: 1}
	})
	defer w.Close()
	skel := sc.Skeleton
	head, leg := skel.Index("head"), skel.Index("upper_leg.L")
	turned := sway.Identity()
	turned.Pos = skel.RestPos()[head]
	turned.Rot = mgl32.QuatRotate(1, mgl32.Vec3{0, 1, 0})
	isRest := func(e arche.Entity) bool {
		p, _ := w.Pose(e)
		for b := range p.LocalRot {
			if p.LocalRot[b] != skel.RestRot()[b] || p.LocalPos[b] != skel.RestPos()[b] || p.LocalScale[b] != skel.RestScale()[b] {
				return false
			}
		}
		return true
	}
	for f := 1; f <= 10; f++ {
		for _, e := range ents {
			if err := w.SetBoneLocal(e, head, turned); err != nil {
				t.Fatal(err)
			}
		}
		frameLocomotion(t, w, ents, sc, odd, f)
		for i, e := range ents {
			p, _ := w.Pose(e)
			switch {
			case !odd(i) && !isRest(e):
				t.Fatalf("frame %d: unanimated character %d is not in the rest pose", f, i)
			case odd(i) && (p.LocalRot[head] == turned.Rot || p.LocalRot[leg] == skel.RestRot()[leg]):
				t.Fatalf("frame %d: animated character %d does not play its clips", f, i)
			}
		}
	}
	if err := w.Animation().Of(ents[1]).Remove(); err != nil {
		t.Fatal(err)
	}
	if err := w.Step(1.0 / 60); err != nil {
		t.Fatal(err)
	}
	if !isRest(ents[1]) {
		t.Fatal("a character whose animation stopped is not back in the rest pose")
	}
	if err := w.Animation().Of(ents[1]).SetBlendParam(mgl32.Vec2{}); !errors.Is(err, sway.ErrNoFeature) {
		t.Fatalf("SetBlendParam after Remove: %v", err)
	}
	if err := w.Animation().Of(ents[1]).Remove(); !errors.Is(err, sway.ErrNoFeature) {
		t.Fatalf("stopping twice: %v", err)
	}
}

// Smoothing, speed and the normalised time reach the character: the state
// after Step is what the kernel computes.
func TestAnimationStateAfterStep(t *testing.T) {
	w, ents, _, space := locomotionWorld(t, 1, 1, all, func(int) sway.AnimSettings {
		return sway.AnimSettings{Speed: 1, Smoothing: 4}
	})
	defer w.Close()
	e := ents[0]
	if err := w.Animation().Of(e).SetBlendParam(mgl32.Vec2{0, 1}); err != nil {
		t.Fatal(err)
	}
	if err := w.Animation().Of(e).SetSpeed(2); err != nil {
		t.Fatal(err)
	}
	if err := w.Step(0.1); err != nil {
		t.Fatal(err)
	}
	st, err := w.Animation().Of(e).State()
	if err != nil {
		t.Fatal(err)
	}
	k := float32(1 - math.Exp(-0.4))
	// Every clip lasts 1 s: 0.1 s at speed 2 is a fifth of the cycle.
	if st.Space != space || st.Target != (mgl32.Vec2{0, 1}) || math.Abs(float64(st.Param[1]-k)) > 1e-6 ||
		st.Speed != 2 || math.Abs(float64(st.Time)-0.2) > 1e-6 || st.Smoothing != 4 {
		t.Fatalf("state %+v, want param y %v and time 0.2", st, k)
	}
}

// Poses are bit-identical for 1 and 3 workers on a scene of animated and
// unanimated characters.
func TestAnimationBitIdenticalForAnyWorkerCount(t *testing.T) {
	most := func(i int) bool { return i%7 != 3 }
	settings := func(i int) sway.AnimSettings {
		return sway.AnimSettings{Speed: 0.8 + 0.01*float32(i), Time: float32(i%10) / 10, Smoothing: float32(i % 4)}
	}
	var sums []uint64
	for _, workers := range []int{1, 3} {
		w, ents, sc, _ := locomotionWorld(t, workers, 300, most, settings)
		for f := 1; f <= 30; f++ {
			frameLocomotion(t, w, ents, sc, most, f)
		}
		sums = append(sums, w.Checksum())
		w.Close()
	}
	if sums[0] != sums[1] {
		t.Fatalf("checksums differ: 1 worker %x, 3 workers %x", sums[0], sums[1])
	}
}

// A frame of the game with animation on allocates nothing: parameters set,
// roots moved, Step, weights read back.
func TestAnimationStepZeroAllocs(t *testing.T) {
	w, ents, sc, _ := locomotionWorld(t, 2, 200, all, func(int) sway.AnimSettings { return sway.DefaultAnimSettings() })
	defer w.Close()
	frameLocomotion(t, w, ents, sc, all, 1)
	f := 1
	weights := make([]float32, 0, sway.MaxBlendSamples)
	n := testing.AllocsPerRun(50, func() {
		f++
		frameLocomotion(t, w, ents, sc, all, f)
		weights, _ = w.Animation().Of(ents[0]).BlendWeights(weights[:0])
	})
	if n != 0 {
		t.Fatalf("%v allocations per frame, want 0", n)
	}
}

func TestAnimationErrors(t *testing.T) {
	w, err := sway.NewWorld(sway.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	armSkel, arm := twoTurns(t, w)
	sc, _ := scene.New(scene.Config{Characters: 1, Seed: 1})
	loco, err := sc.AddLocomotion(w)
	if err != nil {
		t.Fatal(err)
	}
	char, _ := w.AddCharacter(sc.Skeleton, sway.Identity())
	armChar, _ := w.AddCharacter(armSkel, sway.Identity())
	clip0 := sway.ClipID(0)
	direct, err := w.AddBlendSpace(sway.BlendSpaceDesc{Kind: sway.BlendDirect, Clips: []sway.ClipID{0, 1}})
	if err != nil {
		t.Fatal(err)
	}
	nan := float32(math.NaN())
	field := func(name string, err error, typ, fieldName string) {
		t.Helper()
		var fe *sway.FieldError
		if !errors.As(err, &fe) || fe.Type != typ || fe.Field != fieldName || !errors.Is(err, sway.ErrInvalid) {
			t.Fatalf("%s: got %v, want a FieldError on %s.%s", name, err, typ, fieldName)
		}
	}
	_, err = w.AddClip(sway.ClipDesc{Name: "bad", SampleRate: 0, KeyCount: 2, BoneCount: 3})
	field("AddClip rate 0", err, "ClipDesc", "SampleRate")
	_, err = w.AddBlendSpace(sway.BlendSpaceDesc{Kind: sway.Blend1D, Clips: []sway.ClipID{clip0, 99}, Thresholds: []float32{0, 1}})
	field("unknown clip", err, "BlendSpaceDesc", "Clips[1]")
	_, err = w.AddBlendSpace(sway.BlendSpaceDesc{Kind: sway.Blend1D, Clips: []sway.ClipID{clip0, 1}, Thresholds: []float32{1, 0}})
	field("thresholds", err, "BlendSpaceDesc", "Thresholds[1]")
	_, err = w.AddBlendSpace(sway.BlendSpaceDesc{Kind: sway.BlendSimpleDirectional, Clips: []sway.ClipID{clip0, 2}, Positions: []mgl32.Vec2{{0, 0}, {0, 1}}})
	field("clips for different skeletons", err, "BlendSpaceDesc", "Clips[1]")

	ok := sway.DefaultAnimSettings()
	field("unknown space", addErr(w.Animation().Add(char, 99, ok)), "Animation", "Space")
	field("bone count", addErr(w.Animation().Add(char, arm, ok)), "Animation", "Space")
	field("bone count (other way)", addErr(w.Animation().Add(armChar, loco, ok)), "Animation", "Space")
	for _, c := range []struct {
		s     sway.AnimSettings
		space sway.BlendSpaceID
		field string
	}{
		{sway.AnimSettings{Param: mgl32.Vec2{nan, 0}, Speed: 1}, arm, "Param"},
		{sway.AnimSettings{Speed: float32(math.Inf(1))}, arm, "Speed"},
		{sway.AnimSettings{Speed: 1, Time: 1.5}, arm, "Time"},
		{sway.AnimSettings{Speed: 1, Smoothing: -1}, arm, "Smoothing"},
		{sway.AnimSettings{Speed: 1, Direct: []float32{1, 0}}, arm, "Direct"},
		{sway.AnimSettings{Speed: 1, Direct: []float32{1}}, direct, "Direct"},
		{sway.AnimSettings{Speed: 1, Direct: []float32{1, -1}}, direct, "Direct[1]"},
	} {
		field(c.field, addErr(w.Animation().Add(armChar, c.space, c.s)), "AnimSettings", c.field)
	}
	if w.NumCharacters() != 2 {
		t.Fatal("a rejected Animation.Add changed the characters")
	}
	if _, err := w.Animation().Of(armChar).State(); !errors.Is(err, sway.ErrNoFeature) {
		t.Fatalf("a rejected Animation.Add left an animation: %v", err)
	}

	var gone arche.Entity
	if _, err := w.Animation().Add(gone, arm, ok); !errors.Is(err, sway.ErrNotCharacter) {
		t.Fatalf("Animation.Add on the zero entity: %v", err)
	}
	if err := w.Animation().Of(armChar).SetBlendParam(mgl32.Vec2{}); !errors.Is(err, sway.ErrNoFeature) {
		t.Fatalf("SetBlendParam before Animate: %v", err)
	}
	if _, err := w.Animation().Add(armChar, arm, ok); err != nil {
		t.Fatal(err)
	}
	field("SetBlendParam NaN", w.Animation().Of(armChar).SetBlendParam(mgl32.Vec2{0, nan}), "Animation", "BlendParam")
	field("SetSpeed NaN", w.Animation().Of(armChar).SetSpeed(nan), "Animation", "Speed")
	field("SetDirectWeights on 1D", w.Animation().Of(armChar).SetDirectWeights([]float32{1, 0}), "Animation", "DirectWeights")
	if err := w.Animation().Of(armChar).Play(direct, sway.AnimSettings{Speed: 1, Direct: []float32{0.25, 0.5}}); err != nil {
		t.Fatal(err)
	}
	field("SetDirectWeights count", w.Animation().Of(armChar).SetDirectWeights([]float32{1}), "Animation", "DirectWeights")
	field("SetDirectWeights NaN", w.Animation().Of(armChar).SetDirectWeights([]float32{1, nan}), "Animation", "DirectWeights[1]")
	if err := w.Animation().Of(armChar).SetDirectWeights([]float32{0, 1}); err != nil {
		t.Fatal(err)
	}
	// A game sets the weights every frame: valid ones allocate nothing.
	weights := []float32{0, 1}
	if n := testing.AllocsPerRun(20, func() { _ = w.Animation().Of(armChar).SetDirectWeights(weights) }); n != 0 {
		t.Fatalf("SetDirectWeights allocates %v times", n)
	}
	if err := w.Step(1.0 / 60); err != nil {
		t.Fatal(err)
	}
	if got, _ := w.Animation().Of(armChar).BlendWeights(nil); !equalFloats(got, []float32{0, 1}) {
		t.Fatalf("direct weights %v, want [0 1]", got)
	}
	if err := w.RemoveCharacter(armChar); err != nil {
		t.Fatal(err)
	}
	if err := w.Animation().Of(armChar).SetBlendParam(mgl32.Vec2{}); !errors.Is(err, sway.ErrNotCharacter) {
		t.Fatalf("SetBlendParam on a removed character: %v", err)
	}
}
