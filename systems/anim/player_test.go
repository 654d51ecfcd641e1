package anim

import (
	"math"
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// twoSpeeds is a 1D space of a 1 s loop (31 keys at 30/s) and a 0.5 s loop
// (16 keys at 30/s) over testBones bones, thresholds 0 and 1.
func twoSpeeds(t testing.TB, loop bool) *BlendSpace {
	t.Helper()
	rng := rand.New(rand.NewSource(50))
	walk := mustClip(t, randClipDesc(rng, testBones, 31, 30, loop))
	run := mustClip(t, randClipDesc(rng, testBones, 16, 30, loop))
	s, err := NewBlendSpace(BlendSpaceDesc{Kind: Kind1D, Clips: []*Clip{walk, run}, Thresholds: []float32{0, 1}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Normalised time keeps clips of different lengths in step: at 50/50 the
// cycle lasts 0.75 s, so 0.375 s is phase 0.5, the walk at 0.5 s and the
// run at 0.25 s, and the pose is Evaluate at exactly those times.
func TestPlayKeepsClipsInStep(t *testing.T) {
	s := twoSpeeds(t, true)
	rest := restPose(testBones)
	p := Player{Param: mgl32.Vec2{0.5, 0}, Target: mgl32.Vec2{0.5, 0}, Speed: 1}
	dst := MakePose(testBones)
	for range 5 {
		if !s.Play(dst, &p, 0.075, rest) {
			t.Fatal("Play returned false")
		}
	}
	if d := s.Duration(p.Scratch.Weights()); !near(d, 0.75, 1e-6) {
		t.Fatalf("blend duration %v, want 0.75", d)
	}
	if !near(p.Phase, 0.5, 1e-6) {
		t.Fatalf("phase %v after 0.375 s of a 0.75 s cycle, want 0.5", p.Phase)
	}
	var times [2]float32
	s.Times(times[:], p.Phase)
	if !near(times[0], 0.5, 1e-6) || !near(times[1], 0.25, 1e-6) {
		t.Fatalf("clip times %v, want [0.5 0.25]", times)
	}
	want := MakePose(testBones)
	s.Evaluate(want, new(Scratch), Input{Param: p.Param, Times: times[:]}, rest)
	for b := range testBones {
		if dst.Rot[b] != want.Rot[b] || dst.Pos[b] != want.Pos[b] || dst.Scale[b] != want.Scale[b] {
			t.Fatalf("bone %d: Play differs from Evaluate at the same times", b)
		}
	}
}

// The phase wraps for looping spaces and stops at the end otherwise; a
// whole cycle played in many small steps comes back to the start.
func TestPlayPhaseWrapsOrClamps(t *testing.T) {
	rest := restPose(testBones)
	dst := MakePose(testBones)
	loop := twoSpeeds(t, true)
	p := Player{Speed: 1} // parameter 0: the 1 s clip alone
	for range 90 {
		loop.Play(dst, &p, 1.0/60, rest)
	}
	if !near(p.Phase, 0.5, 1e-4) {
		t.Fatalf("looping phase after 1.5 s of a 1 s cycle: %v, want 0.5", p.Phase)
	}
	once := twoSpeeds(t, false)
	if once.Loop() || !loop.Loop() {
		t.Fatal("Loop() wrong")
	}
	q := Player{Speed: 1}
	for range 90 {
		once.Play(dst, &q, 1.0/60, rest)
	}
	if q.Phase != 1 {
		t.Fatalf("one-shot phase after 1.5 s of 1 s: %v, want 1", q.Phase)
	}
}

func TestAdvancePhase(t *testing.T) {
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	for _, c := range []struct {
		phase, speed, dt, dur float32
		loop                  bool
		want                  float32
	}{
		{0.25, 0, 1, 1, true, 0.25},    // speed 0 holds, bit for bit
		{0.9, 1, 0.2, 1, true, 0.1},    // wraps
		{0.1, -1, 0.3, 1, true, 0.8},   // backwards wraps below 0
		{0.9, 1, 0.2, 1, false, 1},     // one-shot stops at the end
		{0.1, -1, 0.3, 1, false, 0},    // and at the start going back
		{0.4, 1, 0.5, 2, true, 0.65},   // a 2 s cycle
		{0.4, 1, 0.5, 0, true, 0.4},    // no duration: holds
		{0.4, 1, 0.5, nan, true, 0.4},  // NaN duration: holds
		{0.4, inf, 0.5, 1, true, 0.4},  // infinite step: holds
		{nan, 1, 0.5, 1, true, 0.5},    // NaN phase restarts at 0
		{0.5, 1e30, 1, 1e-30, true, 0}, // huge finite step: finite, in range
	} {
		got := AdvancePhase(c.phase, c.speed, c.dt, c.dur, c.loop)
		if !near(got, c.want, 1e-6) || !(got >= 0 && got <= 1) || (c.loop && got == 1) {
			t.Fatalf("AdvancePhase(%v, %v, %v, %v, %v) = %v, want %v", c.phase, c.speed, c.dt, c.dur, c.loop, got, c.want)
		}
	}
}

// The parameter follows the target exactly in dt when smoothed, and snaps
// without smoothing.
func TestPlaySmoothsParam(t *testing.T) {
	s := locomotion(t, 51, KindSimpleDirectional)
	rest, dst := restPose(testBones), MakePose(testBones)
	one := Player{Target: mgl32.Vec2{1, 0}, Smoothing: 4}
	s.Play(dst, &one, 0.1, rest)
	ten := Player{Target: mgl32.Vec2{1, 0}, Smoothing: 4}
	for range 10 {
		s.Play(dst, &ten, 0.01, rest)
	}
	want := float32(1 - math.Exp(-0.4))
	if !near(one.Param[0], want, 1e-6) || !near(ten.Param[0], want, 1e-5) {
		t.Fatalf("smoothed param: one step %v, ten steps %v, want %v", one.Param, ten.Param, want)
	}
	snap := Player{Target: mgl32.Vec2{0.3, -0.2}}
	s.Play(dst, &snap, 0.01, rest)
	if snap.Param != snap.Target {
		t.Fatalf("unsmoothed param %v, want the target %v", snap.Param, snap.Target)
	}
	// A zero dt moves nothing, even smoothed.
	held := Player{Target: mgl32.Vec2{1, 0}, Smoothing: 4, Phase: 0.3, Speed: 1}
	s.Play(dst, &held, 0, rest)
	if held.Param != (mgl32.Vec2{}) || held.Phase != 0.3 {
		t.Fatalf("dt 0 moved the player: %+v", held.Param)
	}
}

// Direct weights come from the player; weights all zero leave the rest pose
// and hold the phase (the blend has no duration).
func TestPlayDirect(t *testing.T) {
	s := locomotion(t, 52, KindDirect)
	rest, dst := restPose(testBones), MakePose(testBones)
	p := Player{Speed: 1, Phase: 0.2}
	p.Direct[1] = 1
	s.Play(dst, &p, 0.1, rest)
	assertWeights(t, "direct", p.Scratch.Weights(), []float32{0, 1, 0, 0, 0}, 0)
	want := MakePose(testBones)
	s.Clip(1).Sample(want, rest, p.Phase*s.Clip(1).Duration())
	if dst.Rot[3] != want.Rot[3] || !near(p.Phase, 0.3, 1e-6) {
		t.Fatalf("direct weight 1: phase %v, bone 3 %v want %v", p.Phase, dst.Rot[3], want.Rot[3])
	}
	p.Direct[1] = 0
	s.Play(dst, &p, 0.1, rest)
	if !near(p.Phase, 0.3, 1e-6) {
		t.Fatalf("phase moved without any weight: %v", p.Phase)
	}
	for b := range testBones {
		if !quatNear(dst.Rot[b], rest.Rot[b], 1e-6) || dst.Pos[b] != rest.Pos[b] {
			t.Fatalf("bone %d: no weight should give the rest pose", b)
		}
	}
}

func TestPlayRejectsBadPoses(t *testing.T) {
	s := locomotion(t, 53, KindSimpleDirectional)
	rest := restPose(testBones)
	p := &Player{Speed: 1}
	if s.Play(MakePose(testBones-1), p, 0.1, rest) || s.Play(MakePose(testBones), p, 0.1, restPose(2)) ||
		s.Play(MakePose(testBones), nil, 0.1, rest) || s.Play(rest, p, 0.1, rest) {
		t.Fatal("bad input accepted")
	}
	if p.Phase != 0 {
		t.Fatal("a rejected Play advanced the phase")
	}
}

// Play never allocates, for any kind.
func TestPlayZeroAllocs(t *testing.T) {
	rest, dst := restPose(testBones), MakePose(testBones)
	for _, k := range []Kind{Kind1D, KindSimpleDirectional, KindFreeformDirectional, KindFreeformCartesian, KindDirect} {
		s := locomotion(t, 54, k)
		p := &Player{Speed: 1, Smoothing: 3, Target: mgl32.Vec2{0.4, 0.3}}
		p.Direct[0], p.Direct[2] = 0.3, 0.5
		if n := testing.AllocsPerRun(100, func() { s.Play(dst, p, 1.0/60, rest) }); n != 0 {
			t.Errorf("%v: %v allocations per Play", k, n)
		}
	}
}
