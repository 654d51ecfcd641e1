package chain

import (
	"math"
	"math/bits"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/systems/collide"
)

// maxCull is how many of a chain's colliders get a bounding-sphere
// pre-test; further ones are always tested.
const maxCull = 8

// cullMargin is the part of its reach a chain culls colliders beyond,
// so that the small pushes colliders give particles past their kept
// length (see constrainer.slack) seldom make a step cull again.
const cullMargin = 1.0 / 16

// culled is the list of colliders one step of a chain has to test, with a
// bounding sphere each (a particle outside it cannot touch the shape), built
// once per step so that the per-particle work is a compare per collider out
// of its reach and a few multiplications per one in it. Arrays rather than
// an array of structs: Go then loads a field in one instruction. Each step
// builds its own (the root moves every step), on the stack.
type culled struct {
	n          int
	c0, c1, c2 [maxCull]float32 // centre
	r          [maxCull]float32 // radius; +Inf for planes and Inside shapes (no bound)
	// gap is the distance from the root particle to the sphere: a particle
	// whose PathLen plus radius is below it cannot reach the shape this
	// step. -Inf without a bound.
	gap   [maxCull]float32
	k     [maxCull]int32 // index into the shapes
	rest  bool           // colliders listed beyond maxCull: tested without a bound
	reach float32        // the reach set culled for
}

// set keeps the chain's colliders (idx into shapes) whose bounding sphere
// comes within reach of root.
func (cl *culled) set(idx []int32, shapes []collide.Shape, root mgl32.Vec3, reach float32) {
	cl.rest, cl.reach = len(idx) > maxCull, reach
	idx = idx[:min(len(idx), maxCull)]
	inf := float32(math.Inf(1))
	n := 0
	for _, k := range idx {
		if uint(k) >= uint(len(shapes)) {
			continue
		}
		c0, c1, c2, r, gap := bound(&shapes[k], root, inf)
		if !(gap < reach) && gap != -inf {
			continue // too far from the whole chain (or not finite); an unbounded shape stays
		}
		cl.c0[n], cl.c1[n], cl.c2[n], cl.r[n], cl.gap[n], cl.k[n] = c0, c1, c2, r, gap, k
		n++
	}
	cl.n = n
}

// sphere is a shape's bounding sphere: a particle outside it cannot touch
// the shape. Planes and Inside shapes have none: open, with r +Inf.
type sphere struct {
	c0, c1, c2, r float32
	open          bool
}

// far reports whether a particle of radius r at x (or a segment's
// bounding sphere: its middle, half its length plus the radius) is out of
// the sphere's reach, with refineGrow's margin over rounding: then no push
// of the shape moves it. False for an open sphere, and for a position or
// sphere that is not finite (the push then decides, as without the test).
func (b *sphere) far(x0, x1, x2, r float32) bool {
	if b.open {
		return false
	}
	d0, d1, d2 := x0-b.c0, x1-b.c1, x2-b.c2
	lim := (b.r + r) * refineGrow
	return dot3(d0, d1, d2) > lim*lim
}

// sphereOf returns s's bounding sphere.
func sphereOf(s *collide.Shape, inf float32) sphere {
	if s.Bound == collide.Inside || s.Kind == collide.Plane {
		return sphere{r: inf, open: true}
	}
	c0, c1, c2, r := s.A[0], s.A[1], s.A[2], s.RA
	if s.Kind != collide.Sphere {
		// A capsule: the sphere around its middle.
		u0, u1, u2 := s.B[0]-c0, s.B[1]-c1, s.B[2]-c2
		c0, c1, c2 = c0+float32(u0*0.5), c1+float32(u1*0.5), c2+float32(u2*0.5)
		if s.RB > r {
			r = s.RB
		}
		r += float32(0.5 * sqrt32(dot3(u0, u1, u2)))
	}
	return sphere{c0: c0, c1: c1, c2: c2, r: r}
}

// segment is a collider's second pre-test in the SIMD step, after its
// bounding sphere: a capsule's bounding sphere is much larger than the
// capsule (the upper-arm capsules' hold the hair tips over the shoulders),
// and every position in it would otherwise go to the scalar push, which
// then leaves it where it is. A particle of radius r can touch the shape
// only within rm + r*refineGrow of the segment a + t u, t in [0, 1]: a
// tapered capsule (the convex hull of its end spheres) lies within the
// capsule of its larger radius about its axis, and rm adds a margin far
// above the rounding of either test, so that no position push would move
// is left out. A sphere is a segment of length 0. A shape without such a
// test (a plane, an Inside shape, a radius below zero or not finite) has
// rm +Inf about its bounding sphere's centre: the bounding sphere decides.
type segment struct {
	a0, a1, a2 float32 // start
	u0, u1, u2 float32 // end - start
	inv        float32 // 1/|u|², 0 for a length too short to divide by
	rm         float32 // radius, margin included
}

// refineGrow is the margin on a particle's radius in the segment test, and
// the margin on the shape's radius and length.
const (
	refineGrow   = 1 + refineMargin
	refineMargin = 1.0 / 512
)

// segmentOf returns s's segment test; b is its bounding sphere.
func segmentOf(s *collide.Shape, b *sphere, inf float32) segment {
	ra, rb := s.RA, s.RB
	if s.Kind == collide.Sphere {
		rb = ra
	}
	if b.open || (s.Kind != collide.Sphere && s.Kind != collide.Capsule) ||
		!(ra >= 0 && rb >= 0 && ra < inf && rb < inf) || !finite3(s.A[0], s.A[1], s.A[2]) {
		return segment{a0: b.c0, a1: b.c1, a2: b.c2, rm: inf}
	}
	g := segment{a0: s.A[0], a1: s.A[1], a2: s.A[2], rm: max(ra, rb)}
	if s.Kind == collide.Capsule {
		if !finite3(s.B[0], s.B[1], s.B[2]) {
			return segment{a0: b.c0, a1: b.c1, a2: b.c2, rm: inf}
		}
		u0, u1, u2 := s.B[0]-s.A[0], s.B[1]-s.A[1], s.B[2]-s.A[2]
		l2 := dot3(u0, u1, u2)
		if l2 > 1e-12 {
			g.u0, g.u1, g.u2, g.inv = u0, u1, u2, 1/l2
		}
		// The length from the bounding sphere, whose radius is half
		// of it plus the larger radius: no second root.
		g.rm += float32(2 * (b.r - g.rm) * refineMargin)
	}
	g.rm *= refineGrow
	return g
}

// near reports whether a particle of radius r at x may touch the shape
// (see segment).
func (g *segment) near(x0, x1, x2, r float32) bool {
	d0, d1, d2 := x0-g.a0, x1-g.a1, x2-g.a2
	t := (float32(d0*g.u0) + float32(d1*g.u1) + float32(d2*g.u2)) * g.inv
	if !(t > 0) {
		t = 0
	}
	if !(t < 1) {
		t = 1
	}
	e0, e1, e2 := d0-float32(g.u0*t), d1-float32(g.u1*t), d2-float32(g.u2*t)
	lim := g.rm + float32(r*refineGrow)
	return dot3(e0, e1, e2) < lim*lim
}

// gap returns the distance from root to the sphere, -inf for an open one.
func (b *sphere) gap(root mgl32.Vec3, inf float32) float32 {
	if b.open {
		return -inf
	}
	d0, d1, d2 := b.c0-root[0], b.c1-root[1], b.c2-root[2]
	return sqrt32(dot3(d0, d1, d2)) - b.r
}

// bound returns the bounding sphere (centre c, radius r) of s and its gap
// from root; for a plane or an Inside shape, which have no bound, the
// origin, radius inf and gap -inf.
func bound(s *collide.Shape, root mgl32.Vec3, inf float32) (c0, c1, c2, r, gap float32) {
	b := sphereOf(s, inf)
	return b.c0, b.c1, b.c2, b.r, b.gap(root, inf)
}

// reachable returns a bit for each kept collider that a particle can touch
// when it is at most path from the root and reach from its parent at p (its
// radius included in both). The parent is final when a particle is
// constrained, and keep-length leaves the particle at its bone length from
// it, so the others need no test in either pass: only an overstretched
// intermediate position could touch them, and keep-length pulls it back out
// of their reach. Constrain calls it where few of its values are live: as a
// small function of its own its loop compiles tighter than inlined.
func (cl *culled) reachable(path, reach, p0, p1, p2 float32) uint32 {
	var mask uint32
	for k := range min(cl.n, maxCull) {
		if !(cl.gap[k] < path) {
			continue
		}
		d0, d1, d2 := p0-cl.c0[k], p1-cl.c1[k], p2-cl.c2[k]
		if lim := cl.r[k] + reach; dot3(d0, d1, d2) < lim*lim {
			mask |= 1 << k
		}
	}
	return mask
}

// hits reports whether the particle of radius r at x lies inside one of the
// masked bounds, or a collider beyond maxCull is listed: only then push has
// work. Small enough to inline, so that the common miss costs no call (Go
// keeps no register across a call).
func (cl *culled) hits(mask uint32, x0, x1, x2, r float32) bool {
	for ; mask != 0; mask &= mask - 1 {
		k := bits.TrailingZeros32(mask) & (maxCull - 1)
		d0, d1, d2 := x0-cl.c0[k], x1-cl.c1[k], x2-cl.c2[k]
		// Written out, not dot3: it would take hits past the inlining
		// budget.
		if lim := cl.r[k] + r; float32(d0*d0)+float32(d1*d1)+float32(d2*d2) < lim*lim {
			return true
		}
	}
	return cl.rest
}

// push pushes the particle of radius r at x out of the masked colliders,
// then out of any of idx (the chain's colliders) listed beyond maxCull.
// Scalars in and out: Go passes them in registers, a [3]float32 through
// memory.
func (cl *culled) push(idx []int32, shapes []collide.Shape, mask uint32, x0, x1, x2, r float32) (float32, float32, float32, bool) {
	touched := false
	for ; mask != 0; mask &= mask - 1 {
		k := bits.TrailingZeros32(mask) & (maxCull - 1)
		d0, d1, d2 := x0-cl.c0[k], x1-cl.c1[k], x2-cl.c2[k]
		if lim := cl.r[k] + r; dot3(d0, d1, d2) >= lim*lim {
			continue
		}
		if s := cl.k[k]; uint(s) < uint(len(shapes)) {
			v := mgl32.Vec3{x0, x1, x2}
			if collide.Push(&v, r, &shapes[s]) {
				x0, x1, x2, touched = v[0], v[1], v[2], true
			}
		}
	}
	for _, s := range idx[min(len(idx), maxCull):] {
		if uint(s) < uint(len(shapes)) {
			v := mgl32.Vec3{x0, x1, x2}
			if collide.Push(&v, r, &shapes[s]) {
				x0, x1, x2, touched = v[0], v[1], v[2], true
			}
		}
	}
	return x0, x1, x2, touched
}

// reachOf is how far from the root particle any particle can be: the
// longest path plus the largest particle radius (+Inf if not finite).
func reachOf(path, rmax, scale float32) float32 {
	r := path + float32(rmax*scale)
	if r-r != 0 {
		return float32(math.Inf(1))
	}
	return r
}

// sqrt32 is the float32 square root; the compiler turns the conversions
// into one SQRTSS.
func sqrt32(x float32) float32 { return float32(math.Sqrt(float64(x))) }
