package scene

import (
	"math"
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/systems/collide"
)

func skirtScene(t *testing.T, n int) *Scene {
	t.Helper()
	s, err := New(Config{Characters: n, Seed: 1, Rig: RigSkirt})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// restPose is a hand-made pose: the skeleton's rest pose under a root at
// the origin, copied so that a test can move bones.
func restPose(skel *sway.Skeleton) sway.PoseView {
	n := skel.NumBones()
	p := sway.PoseView{
		WorldPos:   append([]mgl32.Vec3(nil), skel.ModelPos()...),
		WorldRot:   append([]mgl32.Quat(nil), skel.ModelRot()...),
		WorldScale: make([]mgl32.Vec3, n),
	}
	for i := range p.WorldScale {
		p.WorldScale[i] = mgl32.Vec3{1, 1, 1}
	}
	return p
}

func near(a, b, tol float32) bool { return absf(a-b) <= tol }

func TestSkirtRigBuilds(t *testing.T) {
	s := skirtScene(t, 4)
	if n := s.Skeleton.NumBones(); n != SkirtRigBones || SkirtRigBones != 133 {
		t.Fatalf("bones = %d, want 133", n)
	}
	for _, name := range []string{"hips", "hair7.5", "tail.7", "skirt.0.0", "skirt.11.3", "upper_leg.L", "lower_leg.R"} {
		if s.Skeleton.Index(name) < 0 {
			t.Fatalf("bone %q missing", name)
		}
	}
	if s.Skeleton.Index("skirt.12.0") >= 0 || s.Skeleton.Index("skirt.0.4") >= 0 {
		t.Fatal("more skirt bones than 12 x 4")
	}
	if _, err := New(Config{Rig: "cape"}); err == nil {
		t.Fatal("an unknown rig was accepted")
	}
	w, err := sway.NewWorld(sway.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	ents, err := s.PopulateSkirt(w)
	if err != nil {
		t.Fatal(err)
	}
	space, err := s.AddSkirtMotion(w)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.BuildSkirt(w, ents, 2, space); err != nil {
		t.Fatal(err)
	}
	want := len(ChainSpecs(rand.New(rand.NewSource(1)))) + SkirtStrands
	if got := w.Chains().Of(ents[0]).Len(); got != want {
		t.Fatalf("%d chains, want %d", got, want)
	}
	probe, err := NewSkirtProbe(s.Skeleton)
	if err != nil {
		t.Fatal(err)
	}
	weights := make([]float32, SkirtClipCount)
	for f := 1; f <= 120; f++ {
		tt := float64(f) / 60
		if err := s.SteerSkirt(w, ents, tt, weights); err != nil {
			t.Fatal(err)
		}
		if err := w.Step(1.0 / 60); err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			pose, err := w.Pose(e)
			if err != nil {
				t.Fatal(err)
			}
			m := probe.Measure(pose)
			if math.IsNaN(float64(m.Penetration)) || math.IsNaN(float64(m.Stretch)) || m.Penetration > 0.2 || m.Stretch > 5 {
				t.Fatalf("frame %d: %+v", f, m)
			}
		}
	}
}

// At rest the skirt clears the legs and nothing is stretched.
func TestSkirtRestPoseIsClean(t *testing.T) {
	s := skirtScene(t, 0)
	p, err := NewSkirtProbe(s.Skeleton)
	if err != nil {
		t.Fatal(err)
	}
	if m := p.Measure(restPose(s.Skeleton)); m.Penetration != 0 || m.Stretch > 1e-6 {
		t.Fatalf("rest pose: %+v", m)
	}
}

// A hem 3 mm inside the front of a thigh capsule lifted forward (its
// rounded end in front of the hem) reads 3.0 mm.
func TestSkirtPenetrationOfAParticle(t *testing.T) {
	s := skirtScene(t, 0)
	p, _ := NewSkirtProbe(s.Skeleton)
	pose := restPose(s.Skeleton)
	tip := s.Skeleton.Index(SkirtBoneName(0, SkirtBones-1))
	hem := pose.WorldPos[tip].Add(p.hem[0])
	leg := s.Skeleton.Index("upper_leg.L")
	pose.WorldPos[leg] = hem.Add(mgl32.Vec3{0, 0, ThighRadius - 0.003})
	pose.WorldRot[leg] = mgl32.QuatBetweenVectors(mgl32.Vec3{0, -1, 0}, mgl32.Vec3{0, 0, 1}) // the thigh points forward
	m := p.Measure(pose)
	if mm := m.Penetration * 1000; !near(mm, 3, 1e-3) {
		t.Fatalf("penetration %.5f mm, want 3.0", mm)
	}
}

// A capsule across a strand's last segment, its axis 10 mm from the
// segment's middle, with both of the segment's ends outside: the
// particles alone read nothing, the segment reads radius - 10 mm.
func TestSkirtPenetrationOfASegment(t *testing.T) {
	s := skirtScene(t, 0)
	p, _ := NewSkirtProbe(s.Skeleton)
	const r, off = 0.04, 0.01
	p.descs[0] = sway.Capsule(mgl32.Vec3{}, mgl32.Vec3{0, -legSegment, 0}, r, r) // a thin, even thigh
	pose := restPose(s.Skeleton)
	tip := s.Skeleton.Index(SkirtBoneName(0, SkirtBones-1))
	a, b := pose.WorldPos[tip], pose.WorldPos[tip].Add(p.hem[0])
	seg := b.Sub(a)
	axis := seg.Cross(mgl32.Vec3{1, 0, 0}).Normalize()
	n := seg.Cross(axis).Normalize()
	mid := a.Add(seg.Mul(0.5))
	leg := s.Skeleton.Index("upper_leg.L")
	pose.WorldPos[leg] = mid.Add(n.Mul(off)).Sub(axis.Mul(legSegment / 2))
	pose.WorldRot[leg] = mgl32.QuatBetweenVectors(mgl32.Vec3{0, -1, 0}, axis)
	var shape collide.Shape
	collide.ToWorld(&shape, &p.descs[0], pose.WorldPos[leg], pose.WorldRot[leg], mgl32.Vec3{1, 1, 1})
	if PointDepth(a, &shape) != 0 || PointDepth(b, &shape) != 0 {
		t.Fatalf("the segment's ends are inside: %v, %v", PointDepth(a, &shape), PointDepth(b, &shape))
	}
	m := p.Measure(pose)
	if mm := m.Penetration * 1000; !near(mm, 1000*(r-off), 1e-3) {
		t.Fatalf("penetration %.5f mm, want %.1f", mm, 1000*(r-off))
	}
}

// Depth along a segment through a tapered capsule, against 20,001 samples.
func TestSegmentDepthTapered(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	rnd := func(s float32) mgl32.Vec3 {
		return mgl32.Vec3{s * (2*rng.Float32() - 1), s * (2*rng.Float32() - 1), s * (2*rng.Float32() - 1)}
	}
	hits := 0
	for i := 0; i < 300; i++ {
		sh := collide.Shape{Kind: collide.Capsule, A: rnd(0.2), B: rnd(0.2), RA: 0.02 + 0.1*rng.Float32(), RB: 0.02 + 0.1*rng.Float32()}
		a, b := rnd(0.3), rnd(0.3)
		got := SegmentDepth(a, b, &sh)
		var want float32
		for k := 0; k <= 20000; k++ {
			want = max(want, PointDepth(a.Add(b.Sub(a).Mul(float32(k)/20000)), &sh))
		}
		if got < want-1e-6 || got > want+2e-5 {
			t.Fatalf("case %d: SegmentDepth %.7f, sampled %.7f", i, got, want)
		}
		if want > 0 {
			hits++
		}
	}
	if hits < 50 {
		t.Fatalf("only %d of 300 segments reached inside", hits)
	}
	// A sphere, and an even capsule crossed with both ends outside.
	sph := collide.Shape{Kind: collide.Sphere, A: mgl32.Vec3{0, 0, 0}, B: mgl32.Vec3{0, 0, 0}, RA: 0.05, RB: 0.05}
	if d := PointDepth(mgl32.Vec3{0.047, 0, 0}, &sph); !near(d, 0.003, 1e-7) {
		t.Fatalf("sphere depth %v, want 0.003", d)
	}
	cap := collide.Shape{Kind: collide.Capsule, A: mgl32.Vec3{0, 0, 0}, B: mgl32.Vec3{0, 1, 0}, RA: 0.05, RB: 0.05}
	a, b := mgl32.Vec3{-0.1, 0.5, 0.02}, mgl32.Vec3{0.1, 0.5, 0.02}
	if PointDepth(a, &cap) != 0 || PointDepth(b, &cap) != 0 || !near(SegmentDepth(a, b, &cap), 0.03, 1e-7) {
		t.Fatalf("crossing segment: ends %v %v, segment %v, want 0, 0, 0.03", PointDepth(a, &cap), PointDepth(b, &cap), SegmentDepth(a, b, &cap))
	}
}

// The ring widened by 10 % at one depth reads a stretch of 0.10.
func TestSkirtNeighbourStretch(t *testing.T) {
	s := skirtScene(t, 0)
	p, _ := NewSkirtProbe(s.Skeleton)
	pose := restPose(s.Skeleton)
	for k := 0; k < SkirtStrands; k++ {
		b := s.Skeleton.Index(SkirtBoneName(k, 2))
		q := pose.WorldPos[b]
		pose.WorldPos[b] = mgl32.Vec3{1.1 * q[0], q[1], 1.1 * q[2]}
	}
	m := p.Measure(pose)
	if !near(m.Stretch, 0.1, 1e-5) || m.Penetration != 0 {
		t.Fatalf("%+v, want stretch 0.10 and no penetration", m)
	}
}

// The kick lifts the thigh level (the knee at the hip's height, a thigh's
// length in front), and sitting brings the hips down by about a thigh.
func TestSkirtClipsKickAndSit(t *testing.T) {
	s := skirtScene(t, 1)
	w, err := sway.NewWorld(sway.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	e, err := w.AddCharacter(s.Skeleton, sway.Identity())
	if err != nil {
		t.Fatal(err)
	}
	space, err := s.AddSkirtMotion(w)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Animation().Add(e, space, sway.DefaultAnimSettings()); err != nil {
		t.Fatal(err)
	}
	play := func(clip int, seconds float64) sway.PoseView {
		t.Helper()
		a := sway.DefaultAnimSettings()
		a.Direct = make([]float32, SkirtClipCount)
		a.Direct[clip] = 1
		if err := w.Animation().Of(e).Play(space, a); err != nil {
			t.Fatal(err)
		}
		for f := 0; f < int(seconds*60); f++ {
			if err := w.Step(1.0 / 60); err != nil {
				t.Fatal(err)
			}
		}
		pose, err := w.Pose(e)
		if err != nil {
			t.Fatal(err)
		}
		return pose
	}
	hip, knee, hips := s.Skeleton.Index("upper_leg.L"), s.Skeleton.Index("lower_leg.L"), s.Skeleton.Index("hips")
	pose := play(SkirtKick, 0.4)
	d := pose.WorldPos[knee].Sub(pose.WorldPos[hip])
	if !near(d[1], 0, 0.01) || !near(d[2], legSegment, 0.01) {
		t.Fatalf("kick: knee at %v from the hip, want (0, 0, 0.42)", d)
	}
	pose = play(SkirtSit, 1.0)
	if y := pose.WorldPos[hips][1]; !near(y, 1-legSegment, 0.01) {
		t.Fatalf("sitting: hips at %.3f m, want %.2f", y, 1-legSegment)
	}
}

// The schedule: weights sum to 1, each motion in turn, the root moving at
// the motion's speed (still while kicking).
func TestSkirtSchedule(t *testing.T) {
	s := skirtScene(t, 3)
	w := make([]float32, SkirtClipCount)
	for i := range s.Chars {
		seen := map[int]bool{}
		for f := 0; f < int(SkirtCycle*60); f++ {
			tt := float64(f) / 60
			s.SkirtWeights(w, i, tt)
			sum := float32(0)
			for _, x := range w {
				sum += x
			}
			if !near(sum, 1, 1e-6) {
				t.Fatalf("weights %v at %v", w, tt)
			}
			m := s.SkirtMotionAt(i, tt)
			seen[m] = true
			speed := s.SkirtRootAt(i, tt+0.01).Pos.Sub(s.SkirtRootAt(i, tt).Pos).Len() / 0.01
			if w[m] == 1 && math.Abs(float64(speed)-SkirtSpeeds[m]) > 0.02 {
				t.Fatalf("character %d at %.2f s: motion %d, root speed %.3f, want %.1f", i, tt, m, speed, SkirtSpeeds[m])
			}
		}
		if len(seen) != SkirtClipCount {
			t.Fatalf("character %d did %d motions in a cycle", i, len(seen))
		}
	}
}

// The probe on a posed character: the kick at its top, the thigh
// against the front strands (the bounding-box test lets its segments
// through to the depth search).
func BenchmarkSkirtProbe(b *testing.B) {
	s, err := New(Config{Characters: 1, Seed: 1, Rig: RigSkirt})
	if err != nil {
		b.Fatal(err)
	}
	w, err := sway.NewWorld(sway.Options{Workers: 1})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	e, _ := w.AddCharacter(s.Skeleton, sway.Identity())
	space, _ := s.AddSkirtMotion(w)
	a := sway.DefaultAnimSettings()
	a.Direct = []float32{0, 0, 1, 0}
	if _, err := w.Animation().Add(e, space, a); err != nil {
		b.Fatal(err)
	}
	if _, err := AddSkirtChains(w, e, rand.New(rand.NewSource(1)), nil, SkirtLinked); err != nil {
		b.Fatal(err)
	}
	for f := 0; f < 21; f++ {
		_ = w.Step(1.0 / 60)
	}
	p, _ := NewSkirtProbe(s.Skeleton)
	pose, _ := w.Pose(e)
	b.ReportAllocs()
	for b.Loop() {
		p.Measure(pose)
	}
}

// A character whose schedule starts seated is added in the rest pose;
// its first frame sits it down. BuildSkirt restarts the skirt from that
// frame's pose, so the skirt is not left inside the thighs (without the
// restart, the seated starters of a 64-character crowd were 20 mm inside
// them a second later).
func TestSkirtStartsFromTheFirstFramesPose(t *testing.T) {
	const n = 64
	s := skirtScene(t, n)
	w, err := sway.NewWorld(sway.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	ents, err := s.PopulateSkirt(w)
	if err != nil {
		t.Fatal(err)
	}
	space, err := s.AddSkirtMotion(w)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.BuildSkirt(w, ents, 2, space); err != nil {
		t.Fatal(err)
	}
	var seated []int
	for i := range ents {
		if s.SkirtMotionAt(i, 0) == SkirtSit {
			seated = append(seated, i)
		}
	}
	if len(seated) == 0 {
		t.Fatal("no character starts seated: the test sees nothing")
	}
	probe, err := NewSkirtProbe(s.Skeleton)
	if err != nil {
		t.Fatal(err)
	}
	weights := make([]float32, SkirtClipCount)
	deepest := float32(0)
	for f := 0; f < 75; f++ {
		tt := float64(f+1) / 60
		if err := s.SteerSkirt(w, ents, tt, weights); err != nil {
			t.Fatal(err)
		}
		if err := w.Step(1.0 / 60); err != nil {
			t.Fatal(err)
		}
		for _, i := range seated {
			pose, err := w.Pose(ents[i])
			if err != nil {
				t.Fatal(err)
			}
			deepest = max(deepest, probe.Measure(pose).Penetration)
		}
	}
	if deepest > 0.002 {
		t.Fatalf("%d seated starters: skirt %.1f mm inside a leg, want at most 2 mm", len(seated), deepest*1000)
	}
}
