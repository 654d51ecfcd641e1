package chain

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/mathx"
	"github.com/sway-anim/sway/systems/collide"
)

// quadLanes is LaneCount characters with one chain each, of one shape (a tree:
// a line that forks, with an end particle), their rest data shared as a
// store shares them, built twice: pool a is stepped by a Lanes, pool b
// chain by chain.
type quadLanes struct {
	rigs   [LaneCount]*testRig
	a, b   *Particles
	ca, cb [LaneCount]Chain
	descs  []collide.Desc
	bones  []int32
	shapes [LaneCount][]collide.Shape
	amp    float64 // how far the characters sway (m)
}

func newQuadLanes(t *testing.T, mode StepMode, plane bool) *quadLanes {
	return newQuadLanesWith(t, mode, plane, nil)
}

// newQuadLanesWith is newQuadLanes with lane s's settings passed through
// tweak (nil: none); it returns nil if a tweaked Desc does not build.
func newQuadLanesWith(t *testing.T, mode StepMode, plane bool, tweak func(s int, set *Settings)) *quadLanes {
	parents := []int32{-1, 0, 1, 2, 3, 2, 5, 6}
	pos := []mgl32.Vec3{{0, 1.6, 0}, {0, 0.1, 0}, {0, -0.1, 0}, {0.03, -0.1, 0}, {0, -0.1, 0}, {-0.03, -0.1, 0.02}, {0, -0.1, 0}, {0, -0.1, 0}}
	l := &quadLanes{a: &Particles{}, b: &Particles{}, amp: 0.5}
	l.descs = []collide.Desc{
		collide.NewSphere(mgl32.Vec3{0.12, -0.25, 0}, 0.1),
		collide.NewCapsule(mgl32.Vec3{-0.15, -0.2, -0.1}, mgl32.Vec3{-0.15, -0.2, 0.1}, 0.06, 0.04),
	}
	l.bones = []int32{0, 0}
	if plane {
		l.descs = append(l.descs, collide.NewPlane(mgl32.Vec3{0, -0.42, 0}, mgl32.Vec3{0, 1, 0}))
		l.bones = append(l.bones, 0)
	}
	for s := range LaneCount {
		l.rigs[s] = newRig(parents, pos)
		l.shapes[s] = make([]collide.Shape, len(l.descs))
		set := DefaultSettings()
		set.Mode = mode
		// float32(...): the same settings in every build (see
		// TestSameBitsInEveryBuild).
		k := float32(s) / 2
		set.Damping, set.Elasticity, set.Stiffness = 0.05+float32(0.05*k), 0.02*k, 0.1*k
		set.Inert, set.Friction, set.Radius = 0.2*k, 0.3, 0.02+float32(0.01*k)
		set.Gravity = db60(mgl32.Vec3{0, -0.004 * (k + 1), 0})
		set.Force = db60(mgl32.Vec3{0.001 * k, 0, 0})
		if tweak != nil {
			tweak(s, &set)
		}
		d := Desc{Root: 1, Settings: set, EndLength: 0.5, Colliders: []int32{0, 1, 2}[:len(l.descs)]}
		for _, pc := range []struct {
			pool *Particles
			c    *Chain
		}{{l.a, &l.ca[s]}, {l.b, &l.cb[s]}} {
			if err := Build(pc.pool, pc.c, &l.rigs[s].skel, &d); err != nil {
				if tweak != nil {
					return nil
				}
				t.Fatal(err)
			}
		}
		l.ca[s].RestFirst, l.cb[s].RestFirst = l.ca[0].First, l.cb[0].First
	}
	return l
}

// poses returns the lanes' poses, as Lanes.StepsIn takes them.
func (l *quadLanes) poses() *[LaneCount]*Pose {
	var p [LaneCount]*Pose
	for s, r := range l.rigs {
		p[s] = &r.pose
	}
	return &p
}

// chains returns the lanes' chains of pool a.
func (l *quadLanes) chains() [LaneCount]*Chain {
	var cs [LaneCount]*Chain
	for s := range cs {
		cs[s] = &l.ca[s]
	}
	return cs
}

// frame moves lane s's character (each its own way, the last turning fast)
// and prepares both copies of its chain; it returns the sub-steps.
func (l *quadLanes) frame(t *testing.T, f int, dt float32) [LaneCount]int {
	var steps [LaneCount]int
	for s, r := range l.rigs {
		tm := float64(f)/60 + float64(s)
		r.obj = Frame{
			Dt:          dt,
			ObjectPos:   mgl32.Vec3{float32(l.amp * math.Sin(3*tm+float64(s))), float32(0.05 * math.Cos(5*tm)), float32(0.1 * tm)},
			ObjectRot:   mgl32.QuatRotate(float32(float64(s)*0.3*math.Sin(2*tm)), mgl32.Vec3{0, 1, 0}),
			ObjectScale: mgl32.Vec3{1, 1, 1},
		}
		r.animate()
		PlaceColliders(l.shapes[s], l.descs, l.bones, r.pose)
		na := PrepareIn(l.a, l.a, &l.ca[s], &r.pose, &r.obj)
		nb := PrepareIn(l.b, l.b, &l.cb[s], &r.pose, &r.obj)
		if na != nb {
			t.Fatalf("frame %d lane %d: %d and %d sub-steps", f, s, na, nb)
		}
		steps[s] = na
	}
	return steps
}

// stepBoth runs frame f: the quad q on the chains cs (of l.a), and each
// chain of l.b alone. It fails t unless the two agree bit for bit, and
// returns 1 if the frame stepped as a quad and the particles touching a
// collider.
func (l *quadLanes) stepBoth(t *testing.T, f int, dt float32, q *Lanes, cs *[LaneCount]*Chain) (quad, touched int) {
	t.Helper()
	steps := l.frame(t, f, dt)
	if quadable(l.a, l.a, cs, l.poses(), &steps) {
		quad = 1
	}
	q.Shapes(&l.shapes)
	q.StepsIn(l.a, l.a, cs, l.poses(), &steps)
	for s := range cs {
		StepsIn(l.b, l.b, &l.cb[s], &l.rigs[s].pose, steps[s], l.shapes[s])
	}
	for i := range l.a.Pos {
		if l.a.Pos[i] != l.b.Pos[i] || l.a.Prev[i] != l.b.Prev[i] || l.a.Collided[i] != l.b.Collided[i] {
			t.Fatalf("frame %d particle %d: quad %v %v %v, alone %v %v %v", f, i,
				l.a.Pos[i], l.a.Prev[i], l.a.Collided[i], l.b.Pos[i], l.b.Prev[i], l.b.Collided[i])
		}
		if l.a.Collided[i] {
			touched++
		}
	}
	return quad, touched
}

// A Lanes's result is StepsIn's on each chain, bit for bit, over frames with
// one sub-step, two and none, particles touching a sphere, a capsule and
// a plane, in both step modes, and with lanes whose particles each have
// their own parameters (curves) beside lanes whose particles share them;
// the Lanes's scratch is filled with random bits before every frame.
func TestQuadMatchesStepsIn(t *testing.T) { forEachLanes(t, testQuadMatchesStepsIn) }

func testQuadMatchesStepsIn(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	curves := func(s int, set *Settings) {
		if s%2 == 1 {
			set.Curves = &Curves{
				Damping: Curve{{0, 0.5}, {1, 1.5}}, Elasticity: Curve{{0, 1}, {1, 0.2}},
				Stiffness: Curve{{0, 1}, {1, 0}}, Inert: Curve{{0, 1}, {1, 0.5}},
				Friction: Curve{{0, 0}, {1, 1}}, Radius: Curve{{0, 0.5}, {1, 2}},
			}
		}
	}
	for _, tc := range []struct {
		name  string
		mode  StepMode
		plane bool
		tweak func(s int, set *Settings)
	}{{"fixed", Fixed, false, nil}, {"variable", Variable, false, nil}, {"plane", Fixed, true, nil},
		{"curves", Fixed, false, curves}, {"curves variable", Variable, true, curves}} {
		t.Run(tc.name, func(t *testing.T) {
			l := newQuadLanesWith(t, tc.mode, tc.plane, tc.tweak)
			if tc.tweak != nil && (len(l.ca[0].packs()) != 1 || len(l.ca[1].packs()) != l.ca[1].N) {
				t.Fatalf("packed records %d and %d: want lane 0's shared, lane 1's one per particle (%d)",
					len(l.ca[0].packs()), len(l.ca[1].packs()), l.ca[1].N)
			}
			var q Lanes
			var cs [LaneCount]*Chain
			for s := range cs {
				cs[s] = &l.ca[s]
			}
			quads, touched := 0, 0
			for f := 0; f < 240; f++ {
				dt := float32(1.0 / 60)
				switch {
				case f >= 100 && f < 140:
					dt = 1.0 / 90 // some frames without a step
				case f >= 140 && f < 180:
					dt = 1.0 / 30 // two steps
				}
				poison(rng, &q) // a Lanes kept from other chunks may hold anything
				quad, n := l.stepBoth(t, f, dt, &q, &cs)
				quads, touched = quads+quad, touched+n
			}
			if quads < 150 || touched < 100 {
				t.Fatalf("%d frames stepped as a quad, %d particle touches: the run tests too little", quads, touched)
			}
		})
	}
}

// Colliders listed past the maxBounds shapes Lanes.Shapes bounds ahead get
// their bounding sphere when culled: the result is still StepsIn's, and
// the quad still runs (and its particles touch those colliders).
func TestQuadCollidersPastBoundedShapes(t *testing.T) {
	forEachLanes(t, testQuadCollidersPastBoundedShapes)
}

func testQuadCollidersPastBoundedShapes(t *testing.T) {
	l := newQuadLanes(t, Fixed, true)
	// maxBounds far-away spheres first, so the chains' colliders are the
	// shapes maxBounds.. of each lane.
	var pad []collide.Desc
	for i := range maxBounds {
		pad = append(pad, collide.NewSphere(mgl32.Vec3{100 + float32(i), 0, 0}, 0.1))
	}
	l.descs = append(pad, l.descs...)
	l.bones = append(make([]int32, maxBounds), l.bones...)
	var cs [LaneCount]*Chain
	for s := range cs {
		l.shapes[s] = make([]collide.Shape, len(l.descs))
		for _, c := range []*Chain{&l.ca[s], &l.cb[s]} {
			c.Colliders = []int32{maxBounds, maxBounds + 1, maxBounds + 2}
		}
		cs[s] = &l.ca[s]
	}
	l.run120(t, &cs)
}

// Lanes that list their colliders in different orders (so that the
// shapes of one listed collider differ from lane to lane) still give
// StepsIn's result.
func TestQuadLanesListingCollidersInOtherOrders(t *testing.T) {
	forEachLanes(t, testQuadLanesListingCollidersInOtherOrders)
}

func testQuadLanesListingCollidersInOtherOrders(t *testing.T) {
	l := newQuadLanes(t, Fixed, true)
	orders := [LaneCount][]int32{{0, 1, 2}, {2, 0, 1}, {1, 2, 0}, {0, 2, 1}, {0, 1, 2}, {1, 0, 2}, {2, 1, 0}, {0, 1, 2}}
	var cs [LaneCount]*Chain
	for s := range cs {
		l.ca[s].Colliders, l.cb[s].Colliders = orders[s], orders[s]
		cs[s] = &l.ca[s]
	}
	l.run120(t, &cs)
}

// A lane whose state is not finite is repaired as StepsIn repairs it, and
// the other lanes are untouched by it. Both report the lanes left not
// finite (a NaN position stays as the previous one), as a scan finds them.
func TestQuadRepairsANonFiniteLane(t *testing.T) { forEachLanes(t, testQuadRepairsANonFiniteLane) }

func testQuadRepairsANonFiniteLane(t *testing.T) {
	l := newQuadLanes(t, Fixed, false)
	var q Lanes
	var cs [LaneCount]*Chain
	for s := range cs {
		cs[s] = &l.ca[s]
	}
	for f := 0; f < 30; f++ {
		steps := l.frame(t, f, 1.0/60)
		if f == 10 {
			nan := float32(math.NaN())
			for _, p := range []*Particles{l.a, l.b} {
				p.Pos[l.ca[2].First+3] = mgl32.Vec3{nan, 0, 0}
				p.Prev[l.ca[1].First+4] = mgl32.Vec3{0, float32(math.Inf(1)), 0}
			}
		}
		q.Shapes(&l.shapes)
		finite := q.StepsIn(l.a, l.a, &cs, l.poses(), &steps)
		for s := range cs {
			alone := StepsIn(l.b, l.b, &l.cb[s], &l.rigs[s].pose, steps[s], l.shapes[s])
			c := &l.ca[s]
			scan := allFinite(l.a.Pos[c.First:c.First+c.N]) && allFinite(l.a.Prev[c.First:c.First+c.N])
			if finite[s] != scan || alone != scan {
				t.Fatalf("frame %d lane %d: finite %v in the quad, %v alone; the particles: %v", f, s, finite[s], alone, scan)
			}
			if f == 10 && s == 2 && scan {
				// The position the kernel repairs is the one it steps
				// from: as the previous position it stays NaN.
				t.Fatal("lane 2 is finite after its NaN step; the test proves nothing")
			}
		}
		for i := range l.a.Pos {
			if !sameBits(l.a.Pos[i], l.b.Pos[i]) || !sameBits(l.a.Prev[i], l.b.Prev[i]) {
				t.Fatalf("frame %d particle %d: quad %v %v, alone %v %v", f, i, l.a.Pos[i], l.a.Prev[i], l.b.Pos[i], l.b.Prev[i])
			}
		}
	}
	if !allFinite(l.a.Pos) || !allFinite(l.a.Prev) {
		t.Fatal("the lanes are not finite after the repair")
	}
}

// Chains of different shapes, or some not stepping, are stepped one by
// one, with StepsIn's results.
func TestQuadFallsBackToStepsIn(t *testing.T) { forEachLanes(t, testQuadFallsBackToStepsIn) }

func testQuadFallsBackToStepsIn(t *testing.T) {
	l := newQuadLanes(t, Fixed, false)
	l.ca[3].Settings.Freeze = FreezeX
	l.cb[3].Settings.Freeze = FreezeX
	// A freeze axis takes effect at Refresh (it sizes the plane normals).
	Refresh(l.ca[3].ParticlesIn(l.a, l.a), &l.ca[3])
	Refresh(l.cb[3].ParticlesIn(l.b, l.b), &l.cb[3])
	var q Lanes
	cs := l.chains()
	for f := 0; f < 20; f++ {
		steps := l.frame(t, f, 1.0/60)
		if quadable(l.a, l.a, &cs, l.poses(), &steps) {
			t.Fatal("a chain with a freeze axis was taken into a quad")
		}
		q.Shapes(&l.shapes)
		q.StepsIn(l.a, l.a, &cs, l.poses(), &steps)
		for s := range cs {
			StepsIn(l.b, l.b, &l.cb[s], &l.rigs[s].pose, steps[s], l.shapes[s])
		}
		for i := range l.a.Pos {
			if l.a.Pos[i] != l.b.Pos[i] {
				t.Fatalf("frame %d particle %d: %v, alone %v", f, i, l.a.Pos[i], l.b.Pos[i])
			}
		}
	}
}

// A chain in several lanes (lanes 5..7 repeat lane 0, as the chain step
// fills a group of fewer characters) is stepped once, side by side and,
// when a freeze axis in lane 3 keeps the lanes apart, alone: the result is
// StepsIn's on each distinct chain. In both step modes, the frame time
// changing from frame to frame (a Variable chain then rescales its
// velocity to the new step length, once per frame: lanes that repeat it
// must not rescale it again).
func TestQuadStepsAChainInSeveralLanesOnce(t *testing.T) {
	forEachLanes(t, testQuadStepsAChainInSeveralLanesOnce)
}

func testQuadStepsAChainInSeveralLanesOnce(t *testing.T) {
	dts := []float32{1.0 / 60, 1.0 / 45, 1.0 / 90, 1.0 / 30, 1.0 / 60, 1.0 / 120}
	for _, mode := range []StepMode{Fixed, Variable} {
		for _, freeze := range []bool{false, true} {
			l := newQuadLanes(t, mode, true)
			if freeze {
				l.ca[3].Settings.Freeze, l.cb[3].Settings.Freeze = FreezeX, FreezeX
				Refresh(l.ca[3].ParticlesIn(l.a, l.a), &l.ca[3])
				Refresh(l.cb[3].ParticlesIn(l.b, l.b), &l.cb[3])
			}
			const distinct = 5
			var q Lanes
			quads, touched := 0, 0
			for f := 0; f < 120; f++ {
				steps := l.frame(t, f, dts[f%len(dts)])
				cs, poses, shapes := l.chains(), *l.poses(), l.shapes
				for s := distinct; s < LaneCount; s++ {
					cs[s], poses[s], shapes[s], steps[s] = cs[0], poses[0], shapes[0], steps[0]
				}
				if quadable(l.a, l.a, &cs, &poses, &steps) {
					quads++
				}
				q.Shapes(&shapes)
				finite := q.StepsIn(l.a, l.a, &cs, &poses, &steps)
				for s := range distinct {
					StepsIn(l.b, l.b, &l.cb[s], &l.rigs[s].pose, steps[s], l.shapes[s])
				}
				for s := range LaneCount {
					if !finite[s] {
						t.Fatalf("mode %d freeze %v frame %d: lane %d reported not finite", mode, freeze, f, s)
					}
				}
				for i := range l.a.Pos {
					if l.a.Pos[i] != l.b.Pos[i] || l.a.Prev[i] != l.b.Prev[i] || l.a.Collided[i] != l.b.Collided[i] {
						t.Fatalf("mode %d freeze %v frame %d particle %d: %v %v, alone %v %v", mode, freeze, f, i, l.a.Pos[i], l.a.Prev[i], l.b.Pos[i], l.b.Prev[i])
					}
					if l.a.Collided[i] {
						touched++
					}
				}
			}
			if freeze && quads != 0 || !freeze && quads < 80 || touched < 20 {
				t.Fatalf("mode %d freeze %v: %d frames stepped side by side, %d particle touches: the run tests too little", mode, freeze, quads, touched)
			}
		}
	}
}

// FuzzQuadMatchesStepsIn: for any settings that build, any character
// motion and frame time, a Lanes gives StepsIn's result bit for bit (NaN
// included), eight lanes of different settings, with curves in every
// other one when flags has bit 4.
func FuzzQuadMatchesStepsIn(f *testing.F) {
	f.Add(float32(0.1), float32(0.1), float32(0.1), float32(0.3), float32(0.02), float32(-0.004), float32(0.5), float32(1.0/60), uint8(0))
	f.Add(float32(1), float32(1), float32(1), float32(1), float32(0.3), float32(-1), float32(40), float32(1.0/30), uint8(1))
	f.Add(float32(0), float32(0), float32(0), float32(0), float32(0), float32(0), float32(0), float32(1.0/90), uint8(2))
	f.Add(float32(0.5), float32(0.9), float32(0.05), float32(0.2), float32(2), float32(3e4), float32(1e4), float32(0.2), uint8(3))
	f.Add(float32(0.2), float32(0.05), float32(0.3), float32(0.5), float32(0.05), float32(-0.01), float32(0.8), float32(1.0/45), uint8(7))
	f.Fuzz(func(t *testing.T, damping, elasticity, stiffness, friction, radius, gravity, amp, dt float32, flags uint8) {
		if !mathx.IsFinite(amp) || !mathx.IsFinite(dt) || dt < 0 || dt > 1 {
			return
		}
		l := newQuadLanesWith(t, StepMode(flags%2), flags&2 != 0, func(s int, set *Settings) {
			k := float32(s+1) / LaneCount
			set.Damping, set.Elasticity, set.Stiffness = damping*k, elasticity*k, stiffness*k
			set.Friction, set.Radius = friction, radius*k
			set.Gravity = db60(mgl32.Vec3{0, gravity * k, 0})
			if flags&4 != 0 && s%2 == 1 {
				// Parameters per particle in the odd lanes.
				set.Curves = &Curves{Damping: Curve{{0, 1}, {1, 0.5}}, Radius: Curve{{0, 0.5}, {1, 1.5}}, Friction: Curve{{0, 1}, {1, 0}}}
			}
		})
		if l == nil {
			return
		}
		l.amp = float64(amp)
		var q Lanes
		cs := l.chains()
		kinds := laneKinds()
		defer func(old bool) { useAVX2 = old }(useAVX2)
		for f := 0; f < 40; f++ {
			// The frames alternate the lanes' kernels, AVX2 and Go, where
			// the build has both.
			useAVX2 = kinds[f%len(kinds)]
			steps := l.frame(t, f, dt)
			q.Shapes(&l.shapes)
			q.StepsIn(l.a, l.a, &cs, l.poses(), &steps)
			for s := range cs {
				StepsIn(l.b, l.b, &l.cb[s], &l.rigs[s].pose, steps[s], l.shapes[s])
			}
			for i := range l.a.Pos {
				if !sameBits(l.a.Pos[i], l.b.Pos[i]) || !sameBits(l.a.Prev[i], l.b.Prev[i]) || l.a.Collided[i] != l.b.Collided[i] {
					t.Fatalf("frame %d (AVX2 %v) particle %d: quad %v %v, alone %v %v", f, useAVX2, i, l.a.Pos[i], l.a.Prev[i], l.b.Pos[i], l.b.Prev[i])
				}
			}
		}
	})
}

// sameBits compares bit patterns, so that NaN equals the same NaN.
func sameBits(a, b mgl32.Vec3) bool {
	for k := range a {
		if math.Float32bits(a[k]) != math.Float32bits(b[k]) {
			return false
		}
	}
	return true
}

// sameOrNaN compares bit patterns, any NaN equal to any other: where two
// NaN of different sign meet in a sum, which one the sum keeps depends
// on the operand order the compiler picks (a race build picks another),
// and every NaN is repaired alike.
func sameOrNaN(a, b float32) bool {
	return math.Float32bits(a) == math.Float32bits(b) || a != a && b != b
}

// quadLoad and quadStore copy the lanes' rows to the columns and back as
// quadLoadGo and quadStoreGo do, bit for bit, for every particle count,
// non-finite values included, and write nothing outside the lanes' n
// particles: each lane's rows sit between guard values (the SIMD copies
// move 16 bytes of every particle but the last). Two lanes hold one
// chain, as a chunk's last lanes may.
func TestQuadLoadStoreMatchGo(t *testing.T) {
	needAVX2(t)
	inf, nan := float32(math.Inf(1)), float32(math.NaN())
	rng := rand.New(rand.NewPCG(3, 5))
	val := func() float32 {
		switch rng.IntN(12) {
		case 0:
			return inf
		case 1:
			return nan
		}
		return float32(rng.Float64()*4 - 2)
	}
	const guard = 2 // guard particles each side of a lane's rows
	for n := 1; n <= quadMaxN; n++ {
		var rows [2][LaneCount][3][]mgl32.Vec3 // copy, lane, pos/prev/out
		var hits [2][LaneCount][]bool
		var a, b quad
		for k, q := range []*quad{&a, &b} {
			for s := range LaneCount {
				for f := range 2 {
					r := make([]mgl32.Vec3, n+2*guard)
					for i := range r {
						r[i] = mgl32.Vec3{float32(-100 - i), float32(-200 - s), float32(-300 - f)}
					}
					rows[k][s][f] = r
				}
				hits[k][s] = make([]bool, n+2*guard)
				hits[k][s][0], hits[k][s][n+2*guard-1] = true, true
				if s == 5 {
					rows[k][s], hits[k][s] = rows[k][2], hits[k][2] // lanes 2 and 5: one chain
				}
				q.pos[s], q.prev[s], q.hit[s] = &rows[k][s][0][guard], &rows[k][s][1][guard], &hits[k][s][guard]
			}
		}
		for s := range LaneCount {
			for i := range n {
				for f := range 2 {
					v := mgl32.Vec3{val(), val(), val()}
					rows[0][s][f][guard+i], rows[1][s][f][guard+i] = v, v
				}
				h := rng.IntN(2) == 0
				hits[0][s][guard+i], hits[1][s][guard+i] = h, h
			}
		}
		quadLoad(&a, n)
		quadLoadGo(&b, n)
		for i := range n {
			pa, pb := &a.part[i], &b.part[i]
			for s := range LaneCount {
				for c, v := range [][2]float32{{pa.x[s], pb.x[s]}, {pa.y[s], pb.y[s]}, {pa.z[s], pb.z[s]},
					{pa.px[s], pb.px[s]}, {pa.py[s], pb.py[s]}, {pa.pz[s], pb.pz[s]}} {
					if math.Float32bits(v[0]) != math.Float32bits(v[1]) {
						t.Fatalf("n %d: load of particle %d lane %d column %d: %v, Go %v", n, i, s, c, v[0], v[1])
					}
				}
				if pa.hit[s] != pb.hit[s] {
					t.Fatalf("n %d: load of particle %d lane %d: hit %x, Go %x", n, i, s, pa.hit[s], pb.hit[s])
				}
			}
		}
		// New columns, the same in both (lanes 2 and 5 alike: one chain),
		// stored back.
		for i := range n {
			for s := range LaneCount {
				P := &a.part[i]
				P.x[s], P.y[s], P.z[s], P.px[s], P.py[s], P.pz[s] = val(), val(), val(), val(), val(), val()
				P.hit[s] = 0
				if rng.IntN(2) == 0 {
					P.hit[s] = ^uint32(0)
				}
				if s == 5 {
					P.x[s], P.y[s], P.z[s], P.px[s], P.py[s], P.pz[s], P.hit[s] = P.x[2], P.y[2], P.z[2], P.px[2], P.py[2], P.pz[2], P.hit[2]
				}
			}
			b.part[i] = a.part[i]
		}
		badA, badB := quadStore(&a, n), quadStoreGo(&b, n)
		if badA != badB {
			t.Fatalf("n %d: store reports lanes %08b, Go %08b", n, badA, badB)
		}
		for s := range LaneCount {
			for f := range 2 {
				ra, rb := rows[0][s][f], rows[1][s][f]
				for i := range ra {
					if !sameBits(ra[i], rb[i]) {
						t.Fatalf("n %d: lane %d row %d (%d guard rows first) of %d: %v, Go %v", n, s, i, guard, f, ra[i], rb[i])
					}
				}
			}
			for i, h := range hits[0][s] {
				if h != hits[1][s][i] {
					t.Fatalf("n %d: lane %d hit %d: %v, Go %v", n, s, i, h, hits[1][s][i])
				}
			}
		}
	}
}

// quadCull gives quadCullGo's columns bit for bit: kept and culled
// spheres, open shapes, a collider index outside the shapes (NaN), a root
// or reach that is not finite, and a sphere of infinite radius.
func TestQuadCullMatchesGo(t *testing.T) {
	needAVX2(t)
	inf, nan := float32(math.Inf(1)), float32(math.NaN())
	rng := rand.New(rand.NewPCG(7, 11))
	f := func() float32 { return float32(rng.Float64()*2 - 1) }
	special := []float32{0, inf, -inf, nan, 1e30, -0.0}
	for trial := range 2000 {
		var a quad
		a.ncol = 1 + trial%maxCull
		var reach [LaneCount]float32
		for s := range LaneCount {
			a.part[0].x[s], a.part[0].y[s], a.part[0].z[s] = f(), f(), f()
			reach[s] = 0.5 + f()
			for k := range a.ncol {
				C := &a.col[k]
				C.b.bc0[s], C.b.bc1[s], C.b.bc2[s], C.b.br[s] = f(), f(), f(), 0.1+f()/4
				switch rng.IntN(6) {
				case 0:
					C.b.open[s], C.b.bc0[s], C.b.bc1[s], C.b.bc2[s], C.b.br[s] = ^uint32(0), 0, 0, 0, inf
				case 1:
					C.b.bc0[s], C.b.bc1[s], C.b.bc2[s], C.b.br[s] = nan, nan, nan, nan
				case 2:
					C.b.br[s] = inf
				}
			}
			if trial%7 == 0 {
				a.part[0].x[s] = special[rng.IntN(len(special))]
			}
			if trial%11 == 0 {
				reach[s] = special[rng.IntN(len(special))]
			}
		}
		b := a
		quadCull(&a, &reach)
		quadCullGo(&b, &reach)
		for k := range a.ncol {
			ca, cb := &a.col[k], &b.col[k]
			for s := range LaneCount {
				for _, v := range [][2]float32{{ca.c0[s], cb.c0[s]}, {ca.c1[s], cb.c1[s]}, {ca.c2[s], cb.c2[s]}, {ca.r[s], cb.r[s]}, {ca.gap[s], cb.gap[s]}} {
					if math.Float32bits(v[0]) != math.Float32bits(v[1]) {
						t.Fatalf("trial %d collider %d lane %d: SIMD %+v, Go %+v", trial, k, s, *ca, *cb)
					}
				}
			}
		}
		for s := range LaneCount {
			if math.Float32bits(a.clReach[s]) != math.Float32bits(reach[s]) || math.Float32bits(b.clReach[s]) != math.Float32bits(reach[s]) {
				t.Fatalf("trial %d lane %d: culled for %v and %v, want %v", trial, s, a.clReach[s], b.clReach[s], reach[s])
			}
		}
	}
}

// The quad derives each lane's animated records from its pose with the
// bits animate gives the lane alone: runs of bones, end particles (through
// the rotation of their parent bone), a particle under an end particle,
// and a bone outside a lane's pose (reported, as animate reports it), on
// random poses with non-unit rotations, negative scales and non-finite
// values.
func TestQuadAnimateMatchesAnimate(t *testing.T) { forEachLanes(t, testQuadAnimateMatchesAnimate) }

func testQuadAnimateMatchesAnimate(t *testing.T) {
	// The second tree forks within a run of bones: particle 4's parent is
	// 1, not the particle before it.
	for _, p := range []*Particles{{
		Bone:   []int32{3, 4, 5, 6, -1, 7, 8, -1, 9, 10, 11},
		Parent: []int32{-1, 0, 1, 2, 3, 2, 5, 6, 7, 8, 9},
		Local:  make([]mgl32.Vec3, 11),
	}, {
		Bone:   []int32{3, 4, 5, 6, 7, 8, 9, 10, 11, 1, 2},
		Parent: []int32{-1, 0, 1, 2, 1, 4, 0, 6, 7, 8, 5},
		Local:  make([]mgl32.Vec3, 11),
	}} {
		testQuadAnimate(t, p)
	}
}

func testQuadAnimate(t *testing.T, p *Particles) {
	rng := rand.New(rand.NewPCG(7, 11))
	n := len(p.Bone)
	f := func(k float32) float32 { return k * (2*rng.Float32() - 1) }
	for trial := range 200 {
		for i := range p.Local {
			p.Local[i] = mgl32.Vec3{f(0.2), f(0.2), f(0.2)}
		}
		var poses [LaneCount]*Pose
		for s := range poses {
			nb := 12
			if trial%5 == 4 && s == 2 {
				nb = 11 // bone 11 is not in lane 2's pose: the scalar code's
			}
			pose := &Pose{WorldPos: make([]mgl32.Vec3, nb), WorldRot: make([]mgl32.Quat, nb), WorldScale: make([]mgl32.Vec3, nb)}
			for b := range nb {
				pose.WorldPos[b] = mgl32.Vec3{f(2), f(2), f(2)}
				pose.WorldRot[b] = mgl32.Quat{W: f(1.2), V: mgl32.Vec3{f(1.2), f(1.2), f(1.2)}}
				pose.WorldScale[b] = mgl32.Vec3{f(2), f(2), f(2)}
			}
			if trial%7 == 3 {
				pose.WorldPos[rng.IntN(nb)][rng.IntN(3)] = float32(math.NaN())
				pose.WorldRot[rng.IntN(nb)].V[rng.IntN(3)] = float32(math.Inf(1))
			}
			poses[s] = pose
		}
		var q quad
		pathMax, ok := q.animate(p, &poses, n)
		if short := trial%5 == 4; ok == short {
			t.Fatalf("trial %d: animate reports %v with a bone outside a pose: %v", trial, ok, short)
		}
		for s, pose := range poses {
			an := make([]animated, n)
			want, aok := animate(an, p, pose)
			if aok != (len(pose.WorldPos) == 12) {
				t.Fatalf("trial %d lane %d: animate alone reports %v with %d bones", trial, s, aok, len(pose.WorldPos))
			}
			if !ok {
				continue
			}
			if math.Float32bits(pathMax[s]) != math.Float32bits(want) {
				t.Fatalf("trial %d lane %d: longest path %v, alone %v", trial, s, pathMax[s], want)
			}
			for i := range n {
				got, a := q.part[i].anim(s), an[i]
				if !sameOrNaN(got.o0, a.o0) || !sameOrNaN(got.o1, a.o1) || !sameOrNaN(got.o2, a.o2) ||
					!sameOrNaN(got.rl, a.rl) || !sameOrNaN(got.pl, a.pl) {
					t.Fatalf("trial %d lane %d particle %d: %+v, alone %+v", trial, s, i, got, an[i])
				}
			}
		}
	}
}

// run120 steps the lanes cs 120 frames at 60 fps through stepBoth and
// fails when too few frames ran as a quad or too few particles touched a
// collider for the run to test anything.
func (l *quadLanes) run120(t *testing.T, cs *[LaneCount]*Chain) {
	t.Helper()
	var q Lanes
	quads, touched := 0, 0
	for f := 0; f < 120; f++ {
		quad, n := l.stepBoth(t, f, 1.0/60, &q, cs)
		quads, touched = quads+quad, touched+n
	}
	if quads < 100 || touched < 20 {
		t.Fatalf("%d frames stepped as a quad, %d particle touches: the run tests too little", quads, touched)
	}
}
