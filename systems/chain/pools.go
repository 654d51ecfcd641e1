package chain

import (
	"github.com/go-gl/mathgl/mgl32"

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
	var p Particles
	viewIn(&p, rest, c.RestFirst, sim, c.First, c.N)
	return prepare(&p, c, pose, f)
}

// StepsIn runs the steps Prepare asked for: sub-steps 0..steps-1 (Step),
// SkipUpdate for steps 0, nothing for steps < 0 (the chain is off).
func StepsIn(rest, sim *Particles, c *Chain, steps int, shapes []collide.Shape) {
	if steps < 0 {
		return
	}
	// What step, constrain and skipUpdate read.
	r, lo, hi := c.RestFirst, c.First, c.First+c.N
	p := Particles{
		Parent: rest.Parent[r : r+c.N],
		Pos:    sim.Pos[lo:hi], Prev: sim.Prev[lo:hi], Collided: sim.Collided[lo:hi],
	}
	if steps == 0 {
		skipUpdate(&p, c)
		return
	}
	for sub := 0; sub < steps; sub++ {
		step(&p, c, sub, shapes)
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
// packed step parameters, animated records, freeze normals and collider
// lists) into one allocation per kind, in the order of cs. Each chain
// otherwise has a few small allocations of its own, scattered over the
// heap; gathered, the records of the chains a step visits one after the
// other are neighbours, and the size-class rounding of thousands of small
// allocations is gone. Set-up code (it allocates); results are unchanged.
// Each chain's slices are capped at their length, so a later Refresh that
// needs more room allocates its own instead of writing over a neighbour.
func Gather(cs []Chain) {
	var np, nk, na, nx, nc int
	for i := range cs {
		c := &cs[i]
		np, nk, na, nx, nc = np+len(c.paramsOf()), nk+len(c.packs()), na+len(c.anims()), nx+len(c.axes()), nc+len(c.Colliders)
	}
	params, pk, anim := make([]Params, 0, np), make([]packed, 0, nk), make([]animated, 0, na)
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
		var as []animated
		as, anim = gather(anim, c.anims())
		c.anim = addr(as)
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
