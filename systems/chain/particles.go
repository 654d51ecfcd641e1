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
type Particles struct {
	// Static, written by Build.
	Bone     []int32      // skeleton bone, -1 for a virtual end particle
	Parent   []int32      // parent particle, chain-relative; -1 for the root
	Children []int32      // number of child particles (the one-child rule)
	Local    []mgl32.Vec3 // rest local position; for an end particle its offset in the parent bone's space
	LocalRot []mgl32.Quat // rest local rotation (identity for an end particle)
	Dist     []float32    // rest distance from the root along the chain

	// Per-particle parameters, written by Refresh from Settings and curves.
	Damping, Elasticity, Stiffness []float32
	Inert, Friction, Radius        []float32

	// Simulation state.
	Pos, Prev []mgl32.Vec3
	Collided  []bool

	// Written by Prepare each frame: the freeze-plane normal (the parent's
	// animated axis).
	Axis []mgl32.Vec3
}

// Len returns the number of particles.
func (p *Particles) Len() int { return len(p.Bone) }

// Slice returns the particles [lo, hi) sharing storage with p. It does not
// allocate.
func (p *Particles) Slice(lo, hi int) Particles {
	return Particles{
		Bone: p.Bone[lo:hi], Parent: p.Parent[lo:hi], Children: p.Children[lo:hi],
		Local: p.Local[lo:hi], LocalRot: p.LocalRot[lo:hi], Dist: p.Dist[lo:hi],
		Damping: p.Damping[lo:hi], Elasticity: p.Elasticity[lo:hi], Stiffness: p.Stiffness[lo:hi],
		Inert: p.Inert[lo:hi], Friction: p.Friction[lo:hi], Radius: p.Radius[lo:hi],
		Pos: p.Pos[lo:hi], Prev: p.Prev[lo:hi], Collided: p.Collided[lo:hi],
		Axis: p.Axis[lo:hi],
	}
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
	p.Damping = grow(p.Damping, n)
	p.Elasticity = grow(p.Elasticity, n)
	p.Stiffness = grow(p.Stiffness, n)
	p.Inert = grow(p.Inert, n)
	p.Friction = grow(p.Friction, n)
	p.Radius = grow(p.Radius, n)
	p.Pos = grow(p.Pos, n)
	p.Prev = grow(p.Prev, n)
	p.Collided = grow(p.Collided, n)
	p.Axis = grow(p.Axis, n)
	return lo
}

func grow[T any](s []T, n int) []T { return slicex.Extend(s, n) }
