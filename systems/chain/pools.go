package chain

import (
	"sync"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/mathx"
	"github.com/sway-anim/sway/systems/collide"
)

// The In functions run the kernels on a chain whose particles live in a
// store's pools: its rest data in rest from c.RestFirst, the rest of its
// fields in sim from c.First (see Chain.ParticlesIn). They are for systems
// that step every chain of thousands of characters each frame: a whole
// Particles view built and then copied into the call cost the chain
// systems about a sixth of their instructions (when it was 16 slices); each In
// function builds in place only the slices its kernel reads. The results
// are those of Prepare, Step, SkipUpdate and Apply on c.ParticlesIn(rest,
// sim).

// PrepareIn is Prepare on c's particles in rest and sim.
func PrepareIn(rest, sim *Particles, c *Chain, pose *Pose, f *Frame) int {
	o := objectOf(f)
	v := prepView{rest: rest, sim: sim}
	return prepare(&v, c, pose, &o)
}

// PrepareChains runs PrepareIn on each of one character's chains cs, on
// its pose and frame, and writes chain k's result to steps[k] (for the
// first min(len(steps), len(cs)) chains). What the frame gives every chain
// (the character's rotation normalised, its scale) is worked out once.
func PrepareChains(steps []int8, rest, sim *Particles, cs []Chain, pose *Pose, f *Frame) {
	o := objectOf(f)
	cs = cs[:min(len(steps), len(cs))]
	for k := range cs {
		v := prepView{rest: rest, sim: sim}
		steps[k] = int8(prepare(&v, &cs[k], pose, &o)) // -1..MaxSubStepsLimit
	}
}

// StepsIn runs the steps Prepare asked for: sub-steps 0..steps-1 (Step),
// SkipUpdate for steps 0, nothing for steps < 0 (the chain is off). pose is
// the one Prepare was given; its animated pose is read once for all the
// sub-steps. A chain of more than 64 particles borrows its scratch from a
// sync.Pool; Lanes.StepsIn keeps its own.
//
// It reports whether the chain's positions and previous positions are all
// finite afterwards (true for a chain that is off). The step repairs a
// particle it finds not finite, but a fault upstream (a hostile setting,
// a numerical blow-up, an edited particle) can leave one: do not Apply
// such a chain; Reset it.
func StepsIn(rest, sim *Particles, c *Chain, pose *Pose, steps int, shapes []collide.Shape) bool {
	var buf [stackRecords]animated
	return stepsIn(rest, sim, c, pose, steps, shapes, buf[:])
}

// stepsIn is StepsIn with scratch for the animated records: buf, or a
// borrowed array when buf is too short.
func stepsIn(rest, sim *Particles, c *Chain, pose *Pose, n int, shapes []collide.Shape, buf []animated) bool {
	if n < 0 {
		return true
	}
	// What animate, step, constrain and skipUpdate read.
	r, lo, hi := c.RestFirst, c.First, c.First+c.N
	p := Particles{
		Bone: rest.Bone[r : r+c.N], Parent: rest.Parent[r : r+c.N], Local: rest.Local[r : r+c.N],
		Pos: sim.Pos[lo:hi], Prev: sim.Prev[lo:hi], Collided: sim.Collided[lo:hi],
	}
	an, lent := borrow(buf, c.N)
	runSteps(&p, c, pose, n, shapes, an)
	giveBack(lent)
	return mathx.Vec3sFinite(p.Pos) && mathx.Vec3sFinite(p.Prev)
}

// runSteps derives the animated records into an (of p's length) and runs
// n sub-steps, or the skip update for n = 0.
func runSteps(p *Particles, c *Chain, pose *Pose, n int, shapes []collide.Shape, an []animated) {
	if !c.animateIn(an, p, pose) {
		return
	}
	if n == 0 {
		skipUpdate(p, c, an)
		return
	}
	for sub := 0; sub < n; sub++ {
		step(p, c, sub, shapes, an)
	}
}

// animateIn derives the animated records of c's particles p from pose into
// an, and the reach the step culls colliders for. It reports false (the
// chain is then left alone) when p is not the chain's particles, an is too
// short or the pose does not hold the chain's bones.
func (c *Chain) animateIn(an []animated, p *Particles, pose *Pose) bool {
	n := len(p.Pos)
	if !c.fits(n) || len(an) < n || len(p.Bone) < n || len(p.Parent) < n || len(p.Local) < n || !poseFits(pose, c.maxBone) {
		return false
	}
	pathMax, ok := animate(an[:n], p, pose)
	if ok {
		c.reach = reachOf(pathMax, c.rmax, c.scale)
	}
	return ok
}

// stackRecords is how many animated records the one-chain step functions
// keep on the stack; a longer chain borrows them from longRecords.
const stackRecords = 64

var longRecords sync.Pool // *[]animated

// borrow returns n records: buf's when it has the room, else an array
// from longRecords, which giveBack returns.
func borrow(buf []animated, n int) ([]animated, *[]animated) {
	if n <= len(buf) {
		return buf[:max(n, 0)], nil
	}
	a, _ := longRecords.Get().(*[]animated)
	if a == nil {
		a = new([]animated)
	}
	if cap(*a) < n {
		*a = make([]animated, n)
	}
	return (*a)[:n], a
}

// giveBack returns what borrow lent from longRecords.
func giveBack(a *[]animated) {
	if a != nil {
		longRecords.Put(a)
	}
}

// ApplyIn is Apply on c's particles in rest and sim.
func ApplyIn(rest, sim *Particles, c *Chain, pose *Pose) int {
	// What apply and moveChild read.
	r, lo, hi := c.RestFirst, c.First, c.First+c.N
	p := applyView{
		bone: rest.Bone[r : r+c.N], parent: rest.Parent[r : r+c.N], children: rest.Children[r : r+c.N], local: rest.Local[r : r+c.N],
		pos: sim.Pos[lo:hi],
	}
	return apply(&p, c, pose)
}

// Gather moves the per-chain records of the chains cs (their parameters,
// packed step parameters, freeze normals and collider
// lists) into one allocation per kind, in the order of cs. Each chain
// otherwise has a few small allocations of its own, scattered over the
// heap; gathered, the records of the chains a step visits one after the
// other are neighbours, and the size-class rounding of thousands of small
// allocations is gone. Set-up code (it allocates); results are unchanged.
// Each chain's slices are capped at their length, so a later Refresh that
// needs more room allocates its own instead of writing over a neighbour.
func Gather(cs []Chain) {
	var np, nk, nx, nc int
	for i := range cs {
		c := &cs[i]
		np, nk, nx, nc = np+len(c.paramsOf()), nk+len(c.packs()), nx+len(c.axes()), nc+len(c.Colliders)
	}
	params, pk := make([]Params, 0, np), make([]packed, 0, nk)
	axis, cols := make([]mgl32.Vec3, 0, nx), make([]int32, 0, nc)
	var moved []mgl32.Vec3
	for i := range cs {
		c := &cs[i]
		var ps []Params
		ps, params = gather(params, c.paramsOf())
		c.params = addr(ps)
		var ks []packed
		ks, pk = gather(pk, c.packs())
		c.pk = addr(ks)
		if c.axis != nil {
			moved, axis = gather(axis, c.axes())
			c.axis = addr(moved)
		}
		if c.Colliders != nil {
			c.Colliders, cols = gather(cols, c.Colliders)
		}
	}
}

// gather appends s to pool, which has the room, and returns the copy,
// capped at its length, and the pool.
func gather[T any](pool, s []T) ([]T, []T) {
	lo := len(pool)
	pool = append(pool, s...)
	return pool[lo:len(pool):len(pool)], pool
}
