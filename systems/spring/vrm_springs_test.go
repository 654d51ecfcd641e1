package spring

import (
	"math"
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/mathx"
	"github.com/sway-anim/sway/systems/collide"
)

// bentVRM is a chain of n joints whose rest rotations turn each bone by
// 25° about a tilted axis, so that local rotations are not the identity
// and the chain is not straight.
func bentVRM(tb testing.TB, n int, fixed float32) *VRMChain {
	tb.Helper()
	bend := mgl32.QuatRotate(0.44, mgl32.Vec3{1, 0, 0.5}.Normalize())
	d := VRMChainDesc{HasTail: true, Tail: mgl32.Vec3{0, 0.05, 0}, FixedStep: fixed}
	for i := range n {
		j := VRMJointDesc{LocalRot: bend, Stiffness: 0.8, GravityPower: 0.6, GravityDir: mgl32.Vec3{0, -1, 0}, DragForce: 0.35, HitRadius: 0.02}
		if i > 0 {
			j.LocalPos = mgl32.Vec3{0, 0.05, 0}
		}
		d.Joints = append(d.Joints, j)
	}
	c, err := NewVRMChain(&d)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// springScene is the stress rig plus springs that exercise every branch
// of the kernels: a bent chain under a uniform scale, with a centre, with
// a fixed step, and one under non-uniform scale (the general path).
type springScene struct {
	springs []VRMSpring
	descs   []collide.Desc
	shapes  []collide.Shape
	offsets []mgl32.Vec3 // parent bone of each spring in the character
	scales  []mgl32.Vec3
	centred []bool
}

func newSpringScene(tb testing.TB) *springScene {
	rig, _ := stressRig(tb)
	sc := &springScene{descs: stressColliders, shapes: make([]collide.Shape, len(stressColliders))}
	add := func(c *VRMChain, at, scale mgl32.Vec3, centred bool) {
		s := c.NewState()
		sc.springs = append(sc.springs, VRMSpring{DstLocalRot: make([]mgl32.Quat, c.Len()), State: &s, Chain: c, Colliders: sc.shapes})
		sc.offsets = append(sc.offsets, at)
		sc.scales = append(sc.scales, scale)
		sc.centred = append(sc.centred, centred)
	}
	for _, c := range rig {
		add(c.chain, c.pos, one, false)
	}
	head := mgl32.Vec3{0.05, 1.62, 0.05}
	add(bentVRM(tb, 5, 0), head, mgl32.Vec3{1.3, 1.3, 1.3}, false)
	add(bentVRM(tb, 4, 0), head, one, true)
	add(bentVRM(tb, 6, 1.0/120), head, one, false)
	add(bentVRM(tb, 4, 0), head, mgl32.Vec3{1, 1.2, 0.9}, false)
	sc.pose(0)
	for k := range sc.springs {
		sp := &sc.springs[k]
		ResetVRM(sp.State, sp.Chain, sp.ParentPos, sp.ParentRot, sp.ParentScale, sp.CenterPos, sp.CenterRot)
	}
	return sc
}

// pose places the character for frame f: it sways, bobs and turns.
func (sc *springScene) pose(f int) {
	t := float64(f) / 60
	pos := mgl32.Vec3{float32(0.3 * math.Sin(2*math.Pi*t)), float32(0.05 * math.Sin(7*t)), float32(0.1 * math.Cos(3*t))}
	rot := mgl32.QuatRotate(float32(0.8*math.Sin(2.5*t)), mgl32.Vec3{0, 1, 0})
	for k := range sc.shapes {
		collide.ToWorld(&sc.shapes[k], &sc.descs[k], pos, rot, one)
	}
	for k := range sc.springs {
		sp := &sc.springs[k]
		sp.ParentPos = pos.Add(mathx.Rotate(rot, sc.offsets[k]))
		sp.ParentRot, sp.ParentScale = rot, sc.scales[k]
		if sc.centred[k] {
			sp.CenterPos, sp.CenterRot = pos, rot
		}
	}
}

// copyState returns a deep copy of the springs' states.
func (sc *springScene) copyState() [][2][]mgl32.Vec3 {
	out := make([][2][]mgl32.Vec3, len(sc.springs))
	for k, sp := range sc.springs {
		out[k] = [2][]mgl32.Vec3{append([]mgl32.Vec3(nil), sp.State.CurTail...), append([]mgl32.Vec3(nil), sp.State.PrevTail...)}
	}
	return out
}

func (sc *springScene) setState(st [][2][]mgl32.Vec3) {
	for k, sp := range sc.springs {
		copy(sp.State.CurTail, st[k][0])
		copy(sp.State.PrevTail, st[k][1])
	}
}

// stepTwice steps the scene's springs by StepVRMSprings twice from the
// same state, first after setup1, then after setup2, and returns the
// first step's tails and rotations; the scene keeps the second's.
func (sc *springScene) stepTwice(setup1, setup2 func()) ([][2][]mgl32.Vec3, [][]mgl32.Quat) {
	start := sc.copyState()
	setup1()
	StepVRMSprings(sc.springs, 1.0/60)
	tails := sc.copyState()
	rots := make([][]mgl32.Quat, len(sc.springs))
	for k, sp := range sc.springs {
		rots[k] = append([]mgl32.Quat(nil), sp.DstLocalRot...)
	}
	sc.setState(start)
	setup2()
	StepVRMSprings(sc.springs, 1.0/60)
	return tails, rots
}

func TestStepVRMSpringsMatchesStepVRM(t *testing.T) {
	a, b := newSpringScene(t), newSpringScene(t)
	touched := false
	for f := 1; f <= 240; f++ {
		a.pose(f)
		b.pose(f)
		StepVRMSprings(a.springs, 1.0/60)
		for k := range b.springs {
			sp := &b.springs[k]
			StepVRM(sp.DstLocalRot, sp.State, sp.Chain, sp.ParentPos, sp.ParentRot, sp.ParentScale, sp.CenterPos, sp.CenterRot, sp.Colliders, 1.0/60)
		}
		for k := range a.springs {
			sa, sb := &a.springs[k], &b.springs[k]
			for i := range sa.State.CurTail {
				if sa.State.CurTail[i] != sb.State.CurTail[i] || sa.State.PrevTail[i] != sb.State.PrevTail[i] || sa.DstLocalRot[i] != sb.DstLocalRot[i] {
					t.Fatalf("frame %d spring %d joint %d: together %v %v, one by one %v %v", f, k, i,
						sa.State.CurTail[i], sa.DstLocalRot[i], sb.State.CurTail[i], sb.DstLocalRot[i])
				}
				for s := range a.shapes {
					if shapeDistance(sa.State.CurTail[i], &a.shapes[s]) < 0.03 {
						touched = true
					}
				}
			}
		}
	}
	if !touched {
		t.Error("no tail came near a collider: the scene does not exercise collisions")
	}
}

// TestVRMFastPathMatchesGeneral steps every spring of the scene from the
// same state through the fast path and through the general path, frame by
// frame, and compares one step: the two compute the same model, so they
// agree to rounding.
func TestVRMFastPathMatchesGeneral(t *testing.T) {
	defer func() { fastPath = true }()
	sc := newSpringScene(t)
	worstPos, worstRot := 0.0, 0.0
	for f := 1; f <= 240; f++ {
		sc.pose(f)
		// Then continue from the fast result.
		general, rots := sc.stepTwice(func() { fastPath = false }, func() { fastPath = true })
		for k, sp := range sc.springs {
			for i := range sp.State.CurTail {
				worstPos = max(worstPos, float64(dist(sp.State.CurTail[i], general[k][0][i])))
				worstRot = max(worstRot, quatDist(sp.DstLocalRot[i], rots[k][i]))
				if sp.State.PrevTail[i] != general[k][1][i] {
					t.Fatalf("frame %d spring %d joint %d: previous tail %v, general path %v", f, k, i, sp.State.PrevTail[i], general[k][1][i])
				}
			}
		}
	}
	if worstPos > 2e-6 || worstRot > 1e-5 {
		t.Errorf("fast and general path differ by up to %g m and %g (quaternion) in one step; want rounding only", worstPos, worstRot)
	}
	t.Logf("largest one-step difference: %g m, %g (quaternion)", worstPos, worstRot)
}

// TestStagesWithoutSIMDGiveTheSameBits steps the scene from the same
// state with the SIMD stages turned off, as on a processor without them
// (the kernels jump to the scalar definitions), and on: the same bits.
func TestStagesWithoutSIMDGiveTheSameBits(t *testing.T) {
	simd := simdStages
	if !simd {
		t.Log("no SIMD stages on this machine: both runs are the scalar definitions")
	}
	defer func() { simdStages = simd }()
	sc := newSpringScene(t)
	for f := 1; f <= 120; f++ {
		sc.pose(f)
		scalar, rots := sc.stepTwice(func() { simdStages = false }, func() { simdStages = simd })
		for k, sp := range sc.springs {
			for i := range sp.State.CurTail {
				if vecBits(sp.State.CurTail[i]) != vecBits(scalar[k][0][i]) || vecBits(sp.State.PrevTail[i]) != vecBits(scalar[k][1][i]) ||
					quatBits(sp.DstLocalRot[i]) != quatBits(rots[k][i]) {
					t.Fatalf("frame %d spring %d joint %d: %v %v with SIMD, %v %v without", f, k, i,
						sp.State.CurTail[i], sp.DstLocalRot[i], scalar[k][0][i], rots[k][i])
				}
			}
		}
	}
}

// quatDist is the distance between two rotations as quaternions, q and
// -q being the same rotation: about half the angle between them, and
// precise for small angles, unlike an arccosine of their dot product.
func quatDist(a, b mgl32.Quat) float64 {
	d := a.Sub(b).Len()
	return float64(min(d, a.Add(b).Len()))
}

func TestStepVRMSpringsLeavesBadSpringsAlone(t *testing.T) {
	c := refChain(t)
	s := c.NewState()
	ResetVRM(&s, c, mgl32.Vec3{}, mgl32.QuatIdent(), one, mgl32.Vec3{}, mgl32.QuatIdent())
	rest := append([]mgl32.Vec3(nil), s.CurTail...)
	short := c.NewState()
	short.CurTail = short.CurTail[:2]
	springs := []VRMSpring{
		{}, // nothing at all
		{Chain: c, DstLocalRot: make([]mgl32.Quat, c.Len())},                // no state
		{Chain: c, State: &s, DstLocalRot: make([]mgl32.Quat, 2)},           // short destination
		{Chain: c, State: &short, DstLocalRot: make([]mgl32.Quat, c.Len())}, // short state
	}
	StepVRMSprings(springs, 1.0/60)
	for i := range rest {
		if s.CurTail[i] != rest[i] {
			t.Errorf("tail %d moved to %v with a short destination", i, s.CurTail[i])
		}
	}
	StepVRMSprings(nil, 1.0/60)
	// ResetVRM leaves a short state alone rather than panicking.
	short.CurTail[0] = mgl32.Vec3{9, 9, 9}
	ResetVRM(&short, c, mgl32.Vec3{}, mgl32.QuatIdent(), one, mgl32.Vec3{}, mgl32.QuatIdent())
	if short.CurTail[0] != (mgl32.Vec3{9, 9, 9}) {
		t.Errorf("ResetVRM wrote %v into a state shorter than the chain", short.CurTail[0])
	}
}

func TestStepVRMSpringsDoesNotAllocate(t *testing.T) {
	sc := newSpringScene(t)
	f := 0
	n := testing.AllocsPerRun(50, func() {
		f++
		sc.pose(f)
		StepVRMSprings(sc.springs, 1.0/60)
	})
	if n != 0 {
		t.Errorf("allocs per run = %v, want 0", n)
	}
}

// TestColliderBoundsEnclose checks the bound the fast path skips
// colliders by: a particle of radius r that collide.Push moves lies within
// r of the collider's bound.
func TestColliderBoundsEnclose(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	cols := randShapes(rng, 30000)
	moved := 0
	for c := range cols {
		bc, br := bound(&cols[c])
		for range 5 {
			p, r := randV3(rng, 3).vec(), rng.Float32()*0.1
			q := p
			if !collide.Push(&q, r, &cols[c]) {
				continue
			}
			moved++
			if d := ld(&p).sub(bc).len(); !(d < br+r+1e-5) {
				t.Fatalf("%+v: bound %v %v, but a particle %v from its centre with radius %v is pushed", cols[c], bc, br, d, r)
			}
		}
	}
	if moved < 10000 {
		t.Fatalf("only %d particles pushed: the test shows little", moved)
	}
	for _, c := range []collide.Shape{
		{Kind: collide.Sphere, Bound: collide.Inside, RA: 1, RB: 1},
		{Kind: collide.Plane, N: mgl32.Vec3{0, 1, 0}},
		{Kind: collide.Sphere, RA: -1, RB: -1},
		{Kind: collide.Capsule, RA: float32(math.NaN()), RB: 1},
	} {
		if _, br := bound(&c); !math.IsInf(float64(br), 1) {
			t.Errorf("%+v must never be skipped; bound radius %v", c, br)
		}
	}
}

// TestStepVRMSpringsBlocksAndColliderLists steps 23 springs (two blocks)
// among 40 colliders, a few of them with a collider list of their own,
// together and one by one: the same results, and colliders pushing.
func TestStepVRMSpringsBlocksAndColliderLists(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	// 40 spheres: most far away, eight around the springs' parents.
	shared := make([]collide.Shape, 40)
	for c := range shared {
		p := mgl32.Vec3{float32(c)*3 + 5, 0, 0}
		if c%5 == 2 {
			p = mgl32.Vec3{0.1 * float32(c%3), -0.15, 0.05 * float32(c%4)}
		}
		shared[c] = collide.Shape{Kind: collide.Sphere, A: p, B: p, RA: 0.06, RB: 0.06}
	}
	own := []collide.Shape{{Kind: collide.Capsule, A: mgl32.Vec3{-0.2, -0.2, 0}, B: mgl32.Vec3{0.2, -0.2, 0}, RA: 0.05, RB: 0.05}}
	build := func() []VRMSpring {
		var sps []VRMSpring
		for k := range 23 {
			var c *VRMChain
			if k%3 == 0 {
				c = bentVRM(t, 3+k%5, 0)
			} else {
				c = straightVRM(t, 2+k%6, 0.05, mgl32.Vec3{0.3, -1, 0.2}.Normalize(), VRMJointDesc{Stiffness: 0.5, GravityPower: 1, GravityDir: mgl32.Vec3{0, -1, 0}, DragForce: 0.2, HitRadius: 0.02})
			}
			s := c.NewState()
			cols := shared
			if k%7 == 3 {
				cols = own
			}
			ResetVRM(&s, c, mgl32.Vec3{}, mgl32.QuatIdent(), one, mgl32.Vec3{}, mgl32.QuatIdent())
			sps = append(sps, VRMSpring{DstLocalRot: make([]mgl32.Quat, c.Len()), State: &s, Chain: c, ParentRot: mgl32.QuatIdent(), ParentScale: one, Colliders: cols})
		}
		return sps
	}
	a, b := build(), build()
	pushes := 0
	for f := range 120 {
		x := 0.2 * float32(math.Sin(float64(f)/7))
		for k := range a {
			jitter := mgl32.Vec3{x + 0.01*rng.Float32(), 0, 0}
			a[k].ParentPos, b[k].ParentPos = jitter, jitter
		}
		StepVRMSprings(a, 1.0/60)
		for k := range b {
			sp := &b[k]
			StepVRM(sp.DstLocalRot, sp.State, sp.Chain, sp.ParentPos, sp.ParentRot, sp.ParentScale, sp.CenterPos, sp.CenterRot, sp.Colliders, 1.0/60)
		}
		for k := range a {
			for i := range a[k].State.CurTail {
				if a[k].State.CurTail[i] != b[k].State.CurTail[i] || a[k].DstLocalRot[i] != b[k].DstLocalRot[i] {
					t.Fatalf("frame %d spring %d joint %d: together %v, one by one %v", f, k, i, a[k].State.CurTail[i], b[k].State.CurTail[i])
				}
				for c := range a[k].Colliders {
					if shapeDistance(a[k].State.CurTail[i], &a[k].Colliders[c]) < 0.025 {
						pushes++
					}
				}
			}
		}
	}
	if pushes < 100 {
		t.Errorf("tails came near the colliders %d times: the scene shows little", pushes)
	}
}

// TestStepVRMSpringsStaysInItsJoints gives springs destinations and
// states longer than their chains, and more springs than one block
// holds: the elements past each chain keep their values.
func TestStepVRMSpringsStaysInItsJoints(t *testing.T) {
	sentinel := mgl32.Vec3{7, 7, 7}
	sentQ := mgl32.Quat{W: 7}
	var springs []VRMSpring
	for k := range 21 {
		c := straightVRM(t, 2+k%7, 0.05, mgl32.Vec3{0, -1, 0}, VRMJointDesc{Stiffness: 0.5, GravityPower: 1, GravityDir: mgl32.Vec3{1, 0, 0}, DragForce: 0.2, HitRadius: 0.02})
		n := c.Len()
		s := VRMState{CurTail: make([]mgl32.Vec3, n+3), PrevTail: make([]mgl32.Vec3, n+3)}
		ResetVRM(&s, c, mgl32.Vec3{}, mgl32.QuatIdent(), one, mgl32.Vec3{}, mgl32.QuatIdent())
		dst := make([]mgl32.Quat, n+3)
		for i := n; i < n+3; i++ {
			s.CurTail[i], s.PrevTail[i], dst[i] = sentinel, sentinel, sentQ
		}
		springs = append(springs, VRMSpring{DstLocalRot: dst, State: &s, Chain: c, ParentRot: mgl32.QuatIdent(), ParentScale: one,
			Colliders: []collide.Shape{{Kind: collide.Sphere, A: mgl32.Vec3{0.05, -0.1, 0}, B: mgl32.Vec3{0.05, -0.1, 0}, RA: 0.03, RB: 0.03}}})
	}
	for f := range 30 {
		for k := range springs {
			springs[k].ParentPos = mgl32.Vec3{0.01 * float32(f%5), 0, 0}
		}
		StepVRMSprings(springs, 1.0/60)
		sp := &springs[f%len(springs)]
		StepVRM(sp.DstLocalRot, sp.State, sp.Chain, sp.ParentPos, sp.ParentRot, sp.ParentScale, sp.CenterPos, sp.CenterRot, sp.Colliders, 1.0/60)
	}
	for k, sp := range springs {
		n := sp.Chain.Len()
		for i := n; i < n+3; i++ {
			if sp.State.CurTail[i] != sentinel || sp.State.PrevTail[i] != sentinel || sp.DstLocalRot[i] != sentQ {
				t.Fatalf("spring %d (%d joints): element %d written: %v %v %v", k, n, i, sp.State.CurTail[i], sp.State.PrevTail[i], sp.DstLocalRot[i])
			}
		}
		if sp.State.CurTail[n-1] == sentinel || sp.DstLocalRot[n-1] == (mgl32.Quat{}) {
			t.Fatalf("spring %d: last joint not stepped", k)
		}
	}
}
