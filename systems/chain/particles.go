package chain

import (
	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/slicex"
)

// Particles holds the particles of one or many chains as parallel slices
// (struct of arrays). A chain's particles are contiguous, root first and
// parents before children, and Parent indices are relative to the chain's
// first particle, so a pool can keep every chain of every character in one
// Particles and hand the kernels a sub-range with Slice.
//
// The fields tagged rest are a chain's rest data: the same for every
// character built from one skeleton and Desc, so a store may keep one copy
// of them for all such chains and the rest in a pool of its own (see
// Chain.ParticlesIn).
type Particles struct {
	// Static, written by Build.
	Bone     []int32      `chain:"rest"` // skeleton bone, -1 for a virtual end particle
	Parent   []int32      `chain:"rest"` // parent particle, chain-relative; -1 for the root
	Children []int32      `chain:"rest"` // number of child particles (the one-child rule)
	Local    []mgl32.Vec3 `chain:"rest"` // rest local position; for an end particle its offset in the parent bone's space
	LocalRot []mgl32.Quat `chain:"rest"` // rest local rotation (identity for an end particle)
	Dist     []float32    `chain:"rest"` // rest distance from the root along the chain

	// Simulation state. A particle's parameters (Chain.Params) live with
	// its chain: one set for all of them when they are equal, as they are
	// without curves.
	Pos, Prev []mgl32.Vec3
	Collided  []bool
}

// Len returns the number of particles (of simulation state: a pool of
// rest data alone has length 0).
func (p *Particles) Len() int { return len(p.Pos) }

// Slice returns the particles [lo, hi) sharing storage with p. It does not
// allocate.
func (p *Particles) Slice(lo, hi int) Particles { return particlesIn(p, lo, p, lo, hi-lo) }

// particlesIn returns the n particles whose rest data start at rest[rlo]
// and whose other fields start at sim[lo].
func particlesIn(rest *Particles, rlo int, sim *Particles, lo, n int) Particles {
	var v Particles
	viewIn(&v, rest, rlo, sim, lo, n)
	return v
}

// viewIn sets every slice of v to the n particles whose rest data start at
// rest[rlo] and whose other fields start at sim[lo], in place.
func viewIn(v *Particles, rest *Particles, rlo int, sim *Particles, lo, n int) {
	r, hi := rlo+n, lo+n
	v.Bone, v.Parent, v.Children = rest.Bone[rlo:r], rest.Parent[rlo:r], rest.Children[rlo:r]
	v.Local, v.LocalRot, v.Dist = rest.Local[rlo:r], rest.LocalRot[rlo:r], rest.Dist[rlo:r]
	v.Pos, v.Prev, v.Collided = sim.Pos[lo:hi], sim.Prev[lo:hi], sim.Collided[lo:hi]
}

// Grow appends n zeroed particles (set-up time; it allocates) and returns
// the index of the first one. Sub-ranges taken before Grow must be taken
// again afterwards.
func (p *Particles) Grow(n int) int {
	lo := p.Len()
	p.Bone = grow(p.Bone, n)
	p.Parent = grow(p.Parent, n)
	p.Children = grow(p.Children, n)
	p.Local = grow(p.Local, n)
	p.LocalRot = grow(p.LocalRot, n)
	p.Dist = grow(p.Dist, n)
	p.Pos = grow(p.Pos, n)
	p.Prev = grow(p.Prev, n)
	p.Collided = grow(p.Collided, n)
	return lo
}

func grow[T any](s []T, n int) []T { return slicex.Extend(s, n) }
