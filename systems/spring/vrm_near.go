package spring

import (
	"math"

	"github.com/sway-anim/sway/systems/collide"
)

// bound returns a sphere enclosing the Outside collider s, for skipping
// the colliders a spring cannot reach: centre and radius, the radius +Inf
// for a shape that must always be tried (Inside, a plane, a bad radius).
// A capsule (a round cone) lies within the sphere about its midpoint whose
// radius is half its length plus its larger end radius.
func bound(s *collide.Shape) (v3, float32) {
	if s.Bound == collide.Outside {
		R := s.RA
		if s.RB > R {
			R = s.RB
		}
		switch s.Kind {
		case collide.Sphere:
			if R >= 0 {
				return ld(&s.A), R
			}
		case collide.Capsule:
			a := ld(&s.A)
			half := ld(&s.B).sub(a).scale(0.5)
			if r := half.len() + R; r >= 0 {
				return a.add(half), r
			}
		}
	}
	return v3{}, float32(math.Inf(1))
}

// reachable returns the colliders (bit c, c < 32) that a tail of one of
// q's springs may touch: every tail's hit sphere stays within its chain's
// reach of its joint 0's head, so a collider whose bound lies farther from
// all of them cannot be touched. One sphere encloses the quad's reach
// spheres, so a collider costs one test per quad. The margin covers
// rounding in coordinates of this size.
func (q *quad) reachable(lanes []lane) uint32 {
	o := lanes[q.lanes[0]].head
	R, size := float32(0), maxAbs(o)
	for _, li := range q.lanes {
		if li < 0 {
			continue
		}
		l := &lanes[li]
		r := l.c.reach * l.k
		if d := l.head.sub(o).len() + r; d > R {
			R = d
		}
		if d := maxAbs(l.head) + r; d > size {
			size = d
		}
	}
	slack := 1e-5 * (1 + size)
	var m uint32
	for c := range min(len(q.cols), 32) {
		bc, br := bound(&q.cols[c])
		d := bc.sub(o)
		lim := (br+R)*(1+1e-5) + slack
		if !(d.dot(d) >= lim*lim) { // NaN and +Inf bounds are near
			m |= 1 << c
		}
	}
	return m
}
