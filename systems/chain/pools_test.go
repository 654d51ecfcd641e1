package chain

import (
	"math"
	"testing"
	"unsafe"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/systems/collide"
)

// The In functions give the results of Prepare, Step, SkipUpdate and Apply
// on a full view, bit for bit: two copies of one chain, one run through
// each, over frames with one sub-step, none (skip updates at 90 fps) and
// two, a moving and turning character and a collider in the way.
func TestInFunctionsMatchTheViewKernels(t *testing.T) {
	s := DefaultSettings()
	s.Gravity, s.Radius, s.Stiffness, s.Friction = db60(mgl32.Vec3{0, -0.01, 0}), 0.03, 0.2, 0.3
	d := Desc{Settings: s, EndLength: 1, Colliders: []int32{0}}
	ra, rb := line(5, 0.2), line(5, 0.2)
	poolA, ca := ra.build(t, d)
	poolB, cb := rb.build(t, d)
	pa := ca.Particles(poolA)
	sphere := collide.NewSphere(mgl32.Vec3{0.15, -0.5, 0.05}, 0.12)
	shapes := make([]collide.Shape, 1)
	collide.ToWorld(&shapes[0], &sphere, mgl32.Vec3{}, mgl32.QuatIdent(), mgl32.Vec3{1, 1, 1})
	touches := 0
	for f := 0; f < 120; f++ {
		dt := float32(1.0 / 60)
		switch {
		case f >= 40 && f < 80:
			dt = 1.0 / 90 // some frames without a step
		case f >= 80:
			dt = 1.0 / 30 // two steps
		}
		tm := float64(f) / 60
		obj := Frame{
			Dt:          dt,
			ObjectPos:   mgl32.Vec3{float32(0.4 * math.Sin(3*tm)), 0, float32(0.2 * tm)},
			ObjectRot:   mgl32.QuatRotate(float32(0.5*math.Sin(2*tm)), mgl32.Vec3{0, 1, 0}),
			ObjectScale: mgl32.Vec3{1, 1, 1},
		}
		ra.obj, rb.obj = obj, obj
		ra.animate()
		rb.animate()

		na := Prepare(pa, ca, ra.pose, &ra.obj)
		nb := PrepareIn(poolB, poolB, cb, &rb.pose, &rb.obj)
		if na != nb {
			t.Fatalf("frame %d: Prepare %d steps, PrepareIn %d", f, na, nb)
		}
		switch {
		case na == 0:
			SkipUpdate(pa, ca, ra.pose)
		case na > 0:
			for sub := 0; sub < na; sub++ {
				Step(pa, ca, ra.pose, sub, shapes)
			}
		}
		StepsIn(poolB, poolB, cb, &rb.pose, nb, shapes)
		la, lb := -1, -1
		if na >= 0 {
			la, lb = Apply(pa, ca, ra.pose), ApplyIn(poolB, poolB, cb, &rb.pose)
		}
		if la != lb {
			t.Fatalf("frame %d: Apply from %d, ApplyIn from %d", f, la, lb)
		}
		for i := range poolA.Pos {
			if poolA.Pos[i] != poolB.Pos[i] || poolA.Prev[i] != poolB.Prev[i] || poolA.Collided[i] != poolB.Collided[i] {
				t.Fatalf("frame %d particle %d: %v %v, In: %v %v", f, i, poolA.Pos[i], poolA.Prev[i], poolB.Pos[i], poolB.Prev[i])
			}
		}
		if anyCollided(poolA) {
			touches++
		}
		for b := range ra.pose.LocalRot {
			if ra.pose.LocalRot[b] != rb.pose.LocalRot[b] || ra.pose.LocalPos[b] != rb.pose.LocalPos[b] {
				t.Fatalf("frame %d bone %d: locals differ", f, b)
			}
		}
	}
	if touches == 0 {
		t.Fatal("no particle ever touched the collider: the run tests too little")
	}
}

func anyCollided(p *Particles) bool {
	for _, h := range p.Collided {
		if h {
			return true
		}
	}
	return false
}

// Gathered chains step as before, their records adjacent in memory, and a
// Refresh that gives one of them more records allocates its own rather
// than writing over its neighbour's.
func TestGatherChangesNoResult(t *testing.T) {
	l := newQuadLanes(t, Fixed, true)
	Gather(l.ca[:])
	for s := 1; s < 4; s++ {
		prev, c := &l.ca[s-1], &l.ca[s]
		pa := prev.packs()
		end := uintptr(unsafe.Pointer(&pa[len(pa)-1])) + unsafe.Sizeof(packed{})
		if end != uintptr(unsafe.Pointer(c.pk)) || cap(c.Colliders) != len(c.Colliders) {
			t.Fatalf("lane %d: packed records not right after lane %d's, or colliders not capped", s, s-1)
		}
	}
	run := func(from, to int) {
		for f := from; f < to; f++ {
			steps := l.frame(t, f, 1.0/60)
			for s := range 4 {
				StepsIn(l.a, l.a, &l.ca[s], &l.rigs[s].pose, steps[s], l.shapes[s])
				StepsIn(l.b, l.b, &l.cb[s], &l.rigs[s].pose, steps[s], l.shapes[s])
			}
			for i := range l.a.Pos {
				if l.a.Pos[i] != l.b.Pos[i] || l.a.Prev[i] != l.b.Prev[i] {
					t.Fatalf("frame %d particle %d: gathered %v, not %v", f, i, l.a.Pos[i], l.b.Pos[i])
				}
			}
		}
	}
	run(0, 30)
	before := l.ca[2].Params(0)
	for _, c := range []*Chain{&l.ca[1], &l.cb[1]} {
		c.Settings.Curves = &Curves{Radius: Curve{{0, 0.5}, {1, 2}}}
		c.Settings.Freeze = FreezeX
		Refresh(c.ParticlesIn(l.a, l.a), c)
	}
	Refresh(l.cb[1].ParticlesIn(l.b, l.b), &l.cb[1])
	if len(l.ca[1].paramsOf()) != l.ca[1].N || l.ca[2].Params(0) != before {
		t.Fatalf("after a curve on lane 1: %d params (want %d), lane 2's %+v (want %+v)",
			len(l.ca[1].paramsOf()), l.ca[1].N, l.ca[2].Params(0), before)
	}
	run(30, 60)
}

// PrepareChains gives each of a character's chains what Prepare on its
// own view gives, bit for bit, through the frames where PrepareChains
// builds the view it otherwise skips: a reset on demand, a teleport that
// carries one chain and resets the other, and a freeze axis every frame.
func TestPrepareChainsMatchesPrepare(t *testing.T) {
	twoStrands := func() *testRig {
		parents := []int32{-1, 0, 1, 2, 3, 0, 5, 6, 7}
		pos := make([]mgl32.Vec3, len(parents))
		for i := 1; i < len(parents); i++ {
			pos[i] = mgl32.Vec3{0, -0.2, 0}
		}
		pos[1], pos[5] = mgl32.Vec3{0.1, 0, 0}, mgl32.Vec3{-0.1, 0, 0}
		return newRig(parents, pos)
	}
	descs := [2]Desc{{Root: 1, EndLength: 1}, {Root: 5}}
	for k := range descs {
		s := DefaultSettings()
		s.Gravity, s.Stiffness = db60(mgl32.Vec3{0, -0.01, 0}), 0.2
		if k == 0 {
			s.Teleport, s.Freeze = TeleportKeep, FreezeX
		}
		descs[k].Settings = s
	}
	ra, rb := twoStrands(), twoStrands()
	poolA, poolB := &Particles{}, &Particles{}
	var ca [2]Chain
	cb := make([]Chain, 2)
	for k := range descs {
		if err := Build(poolA, &ca[k], &ra.skel, &descs[k]); err != nil {
			t.Fatal(err)
		}
		if err := Build(poolB, &cb[k], &rb.skel, &descs[k]); err != nil {
			t.Fatal(err)
		}
	}
	steps := make([]int8, 2)
	for f := range 60 {
		tm := float64(f) / 60
		obj := Frame{
			Dt:          1.0 / 60,
			ObjectPos:   mgl32.Vec3{float32(0.3 * math.Sin(4*tm)), 0, 0},
			ObjectRot:   mgl32.QuatRotate(float32(0.4*math.Sin(3*tm)), mgl32.Vec3{0, 1, 0}),
			ObjectScale: mgl32.Vec3{1, 1, 1},
		}
		switch {
		case f == 20:
			ca[1].Reset()
			cb[1].Reset()
		case f >= 40:
			obj.ObjectPos[2] += 5 // a jump at frame 40: both chains teleport
		}
		ra.obj, rb.obj = obj, obj
		ra.animate()
		rb.animate()
		PrepareChains(steps, poolB, poolB, cb, &rb.pose, &rb.obj)
		for k := range ca {
			n := Prepare(ca[k].Particles(poolA), &ca[k], ra.pose, &ra.obj)
			if int(steps[k]) != n {
				t.Fatalf("frame %d chain %d: PrepareChains %d steps, Prepare %d", f, k, steps[k], n)
			}
			StepsIn(poolA, poolA, &ca[k], &ra.pose, n, nil)
			StepsIn(poolB, poolB, &cb[k], &rb.pose, n, nil)
		}
		for i := range poolA.Pos {
			if poolA.Pos[i] != poolB.Pos[i] || poolA.Prev[i] != poolB.Prev[i] {
				t.Fatalf("frame %d particle %d: Prepare %v %v, PrepareChains %v %v", f, i, poolA.Pos[i], poolA.Prev[i], poolB.Pos[i], poolB.Prev[i])
			}
		}
	}
}
