package chain

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/systems/collide"
)

// One rigid link between two free particles 1.2 m apart with a target of
// 1 m: one iteration moves each by 0.1 m toward the other.
func TestLinkOnceRigidByHand(t *testing.T) {
	a, b := mgl32.Vec3{0, 0, 0}, mgl32.Vec3{1.2, 0, 0}
	dl := linkOnce(&a, &b, 1, 1, 1, 0, 0.5, 0)
	assertVec(t, "a", a, mgl32.Vec3{0.1, 0, 0}, 1e-6)
	assertVec(t, "b", b, mgl32.Vec3{1.1, 0, 0}, 1e-6)
	if math.Abs(float64(dl)-(-0.1)) > 1e-6 {
		t.Errorf("Δλ = %v, want -0.1", dl)
	}
	// A root (inverse mass 0) does not move: the other particle takes
	// the whole correction.
	a, b = mgl32.Vec3{0, 0, 0}, mgl32.Vec3{0, 1.2, 0}
	linkOnce(&a, &b, 0, 1, 1, 0, 1, 0)
	assertVec(t, "root", a, mgl32.Vec3{}, 0)
	assertVec(t, "b after a root", b, mgl32.Vec3{0, 1, 0}, 1e-6)
}

// With compliance α = 1e-3 m/N at h = 1/60 s, α̃ = α/h² = 3.6: one
// iteration closes 0.2/(1+1+3.6) of the 0.2 m error at each end.
func TestLinkOnceComplianceByHand(t *testing.T) {
	a, b := mgl32.Vec3{0, 0, 0}, mgl32.Vec3{1.2, 0, 0}
	h := float32(1.0 / 60)
	at := float32(1e-3) / float32(h*h)
	linkOnce(&a, &b, 1, 1, 1, at, 1/(2+at), 0)
	move := 0.2 / 5.6
	assertVec(t, "a", a, mgl32.Vec3{float32(move), 0, 0}, 1e-6)
	assertVec(t, "b", b, mgl32.Vec3{float32(1.2 - move), 0, 0}, 1e-6)
}

// twoStrands is a hips bone at the origin with two strands of two bones
// hanging from it, their roots sep apart along X, bones 0.1 m along -Y.
func twoStrands(sep float32) (*testRig, *Particles, []Chain) {
	parents := []int32{-1, 0, 1, 2, 0, 4, 5}
	pos := []mgl32.Vec3{{}, {-sep / 2, 0, 0}, {0, -0.1, 0}, {0, -0.1, 0}, {sep / 2, 0, 0}, {0, -0.1, 0}, {0, -0.1, 0}}
	r := newRig(parents, pos)
	pool := &Particles{}
	cs := make([]Chain, 2)
	for k, root := range []int32{1, 4} {
		d := Desc{Root: root, Settings: still()}
		if err := Build(pool, &cs[k], &r.skel, &d); err != nil {
			panic(err)
		}
	}
	return r, pool, cs
}

// The links' layout: same depths, the diagonals, roots never linked.
func TestLinkChainsLayout(t *testing.T) {
	_, pool, cs := twoStrands(0.2)
	par := [][]int32{pool.Parent[cs[0].First : cs[0].First+cs[0].N], pool.Parent[cs[1].First : cs[1].First+cs[1].N]}
	ls, err := LinkChains(cs, par, nil, [][]int{{0, 1}}, false)
	if err != nil {
		t.Fatal(err)
	}
	want := []Link{{0, 1, 1, 1}, {0, 2, 1, 2}}
	if len(ls) != len(want) || ls[0] != want[0] || ls[1] != want[1] {
		t.Fatalf("strip links %v, want %v", ls, want)
	}
	ls, _ = LinkChains(cs, par, nil, [][]int{{0, 1}}, true)
	if len(ls) != 6 { // 2 straight + 2 diagonals from the roots + 2 between depths 1 and 2
		t.Fatalf("with diagonals %d links, want 6: %v", len(ls), ls)
	}
	if _, err := LinkChains(cs, par, [][]int{{0, 1}}, nil, false); err == nil {
		t.Error("a ring of two chains accepted")
	}
	if _, err := LinkChains(cs, par, nil, [][]int{{0, 2}}, false); err == nil {
		t.Error("a strip naming chain 2 of 2 accepted")
	}
}

// Two strands pushed apart sideways: linked rigidly, one sub-step brings
// their tips back to the animated spacing (within the length pass's
// small change); unlinked they stay apart.
func TestStepLinkedHoldsSpacing(t *testing.T) {
	for _, link := range []bool{false, true} {
		r, pool, cs := twoStrands(0.2)
		for k := range cs {
			Prepare(cs[k].Particles(pool), &cs[k], r.pose, &r.obj)
		}
		// The second strand's tip 5 cm farther out, at rest there.
		tip := cs[1].First + 2
		pool.Pos[tip][0] += 0.05
		pool.Prev[tip] = pool.Pos[tip]
		l := &Linked{Settings: LinkSettings{Iterations: 4}}
		var sc LinkScratch
		if link {
			l.Links, _ = LinkChains(cs, [][]int32{pool.Parent[:3], pool.Parent[3:]}, nil, [][]int{{0, 1}}, false)
		}
		r.animate()
		steps := make([]int8, 2)
		for k := range cs {
			steps[k] = int8(Prepare(cs[k].Particles(pool), &cs[k], r.pose, &r.obj))
		}
		StepLinked(pool, pool, cs, steps, &r.pose, nil, l, &sc, r.obj.Dt)
		d := pool.Pos[tip].Sub(pool.Pos[cs[0].First+2]).Len()
		if link && math.Abs(float64(d)-0.2) > 0.002 {
			t.Errorf("linked: tips %v apart, want 0.2", d)
		}
		if !link && d < 0.22 {
			t.Errorf("unlinked: tips %v apart, want them still spread", d)
		}
		if !sc.Finite(0) || !sc.Finite(1) {
			t.Error("not finite")
		}
	}
}

// Without links StepLinked gives the bits of StepsIn on each chain.
func TestStepLinkedWithoutLinksSameBits(t *testing.T) {
	run := func(linked bool) []mgl32.Vec3 {
		r, pool, cs := twoStrands(0.2)
		for k := range cs {
			cs[k].Settings.Gravity = mgl32.Vec3{0, -9.81, 0}
			cs[k].Settings.Force = mgl32.Vec3{3, 0, 1}
			cs[k].Settings.Damping = 0.1
			cs[k].Colliders = []int32{0}
			Refresh(cs[k].Particles(pool), &cs[k])
		}
		shapes := []collide.Shape{{Kind: collide.Sphere, A: mgl32.Vec3{0.12, -0.2, 0.02}, RA: 0.05, RB: 0.05}}
		l := &Linked{}
		var sc LinkScratch
		steps := make([]int8, 2)
		for f := range 30 {
			r.animPos[0] = mgl32.Vec3{float32(0.05 * math.Sin(float64(f)/5)), 0, 0}
			r.animate()
			for k := range cs {
				steps[k] = int8(Prepare(cs[k].Particles(pool), &cs[k], r.pose, &r.obj))
			}
			if linked {
				StepLinked(pool, pool, cs, steps, &r.pose, shapes, l, &sc, r.obj.Dt)
			} else {
				for k := range cs {
					StepsIn(pool, pool, &cs[k], &r.pose, int(steps[k]), shapes)
				}
			}
		}
		return append([]mgl32.Vec3(nil), pool.Pos...)
	}
	a, b := run(false), run(true)
	for i := range a {
		if !sameBits(a[i], b[i]) {
			t.Fatalf("particle %d: %v alone, %v through StepLinked", i, a[i], b[i])
		}
	}
}

func TestLinkSettingsValidate(t *testing.T) {
	for _, s := range []LinkSettings{
		{Compliance: -1}, {Compliance: float32(math.NaN())}, {Iterations: -1}, {Iterations: MaxLinkIterations + 1},
		{MaxStretch: -0.1}, {MaxCompression: 1}, {MaxCompression: float32(math.Inf(1))},
	} {
		if s.Validate() == nil {
			t.Errorf("%+v accepted", s)
		}
	}
	ok := LinkSettings{Compliance: 1e-3, Iterations: 4, MaxStretch: 0.1, MaxCompression: 0.5}
	if err := ok.Validate(); err != nil {
		t.Error(err)
	}
}

// A link's segment across a sphere of radius 0.1 m at the origin, its
// particles at x = ±0.2 m and y = 0.05 m, radius 1 cm: the nearest point
// is the middle (t = 0.5), 0.05 m from the centre, 0.06 m inside the
// 0.11 m limit. D = (1-t)² + t² = 0.5 for two free particles, so each
// moves by 0.06·0.5/0.5 = 0.06 m up, and the segment ends at 0.11 m.
// With particle a a root (inverse mass 0), D = 0.25 and b alone moves by
// 0.06·0.5/0.25 = 0.12 m: the middle again rises by 0.06 m.
func TestLinkSegmentPushByHand(t *testing.T) {
	ball := collide.Shape{Kind: collide.Sphere, RA: 0.1, RB: 0.1}
	a, b := mgl32.Vec3{-0.2, 0.05, 0}, mgl32.Vec3{0.2, 0.05, 0}
	if !linkSegPush(&ball, &a, &b, 1, 1, 0.01) {
		t.Fatal("no touch reported")
	}
	assertVec(t, "a", a, mgl32.Vec3{-0.2, 0.11, 0}, 1e-6)
	assertVec(t, "b", b, mgl32.Vec3{0.2, 0.11, 0}, 1e-6)

	a, b = mgl32.Vec3{-0.2, 0.05, 0}, mgl32.Vec3{0.2, 0.05, 0}
	linkSegPush(&ball, &a, &b, 0, 1, 0.01)
	assertVec(t, "root", a, mgl32.Vec3{-0.2, 0.05, 0}, 0)
	// The first push puts b at y = 0.17; the tilted segment's nearest
	// point then moves and the second push finishes the job.
	if d := segDist(mgl32.Vec3{}, a, b); d < 0.11-1e-4 {
		t.Errorf("segment %v from the centre, want 0.11 (within 0.1 mm after two pushes)", d)
	}
	if b[1] < 0.17-1e-6 {
		t.Errorf("b at %v, want y >= 0.17", b)
	}
	// Two roots: nothing moves.
	a, b = mgl32.Vec3{-0.2, 0.05, 0}, mgl32.Vec3{0.2, 0.05, 0}
	if linkSegPush(&ball, &a, &b, 0, 0, 0.01) {
		t.Error("two roots moved")
	}
	// Clear of the sphere: untouched.
	a, b = mgl32.Vec3{-0.2, 0.2, 0}, mgl32.Vec3{0.2, 0.2, 0}
	if linkSegPush(&ball, &a, &b, 1, 1, 0.01) || a[1] != 0.2 || b[1] != 0.2 {
		t.Error("a clear segment moved")
	}
}

// segDist is the distance from c to the segment a→b (float64).
func segDist(c, a, b mgl32.Vec3) float64 {
	ab, ac := b.Sub(a), c.Sub(a)
	t := float64(ac.Dot(ab)) / float64(ab.Dot(ab))
	t = math.Max(0, math.Min(1, t))
	p := [3]float64{}
	for i := range p {
		p[i] = float64(a[i]) + t*float64(ab[i]) - float64(c[i])
	}
	return math.Sqrt(p[0]*p[0] + p[1]*p[1] + p[2]*p[2])
}

// A short capsule (radius 3 cm) along X between two linked strands 0.2 m
// apart, from x = -0.05 to 0.05 m at the tips' height, 2 cm behind them:
// the tips are 5.4 cm from its ends and the strands' own segments 5 cm
// away, so neither touches it, but the link between the tips passes 2 cm
// from its axis, 1 cm inside. With LinkSettings.SegmentCollision one step
// pushes the tips forward (+Z; the length pass then keeps them on their
// bones) until the link clears the capsule.
func TestStepLinkedLinkSegmentCollision(t *testing.T) {
	cap := collide.Shape{Kind: collide.Capsule, A: mgl32.Vec3{-0.05, -0.2, -0.02}, B: mgl32.Vec3{0.05, -0.2, -0.02}, RA: 0.03, RB: 0.03}
	for _, on := range []bool{false, true} {
		r, pool, cs := twoStrands(0.2)
		for k := range cs {
			cs[k].Colliders = []int32{0}
		}
		l := &Linked{Settings: LinkSettings{Iterations: 1, SegmentCollision: on}}
		l.Links, _ = LinkChains(cs, [][]int32{pool.Parent[:3], pool.Parent[3:]}, nil, [][]int{{0, 1}}, false)
		var sc LinkScratch
		r.animate()
		steps := make([]int8, 2)
		for k := range cs {
			steps[k] = int8(Prepare(cs[k].Particles(pool), &cs[k], r.pose, &r.obj))
		}
		StepLinked(pool, pool, cs, steps, &r.pose, []collide.Shape{cap}, l, &sc, r.obj.Dt)
		ta, tb := pool.Pos[cs[0].First+2], pool.Pos[cs[1].First+2]
		// The link is parallel to the capsule's axis (y = -0.2, z = -0.02).
		d := segDist(mgl32.Vec3{0, -0.2, -0.02}, ta, tb)
		if !on {
			if math.Abs(d-0.02) > 1e-4 {
				t.Errorf("off: link %v from the axis, want 0.02 (inside the 0.03 capsule)", d)
			}
			continue
		}
		if d < 0.03-1e-4 {
			t.Errorf("on: link %v from the axis, want 0.03", d)
		}
		// Parallel to the axis, the nearest point is not unique and the
		// first push is shared unevenly (the second evens out): both
		// tips go forward, together by about 2 cm.
		if ta[2] < 0.005 || tb[2] < 0.005 || math.Abs(float64(ta[2]+tb[2])-0.02) > 0.003 {
			t.Errorf("on: tips at %v and %v, want both pushed forward, by about 1 cm each", ta, tb)
		}
	}
}
