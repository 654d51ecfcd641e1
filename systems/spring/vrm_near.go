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

// reachable returns the colliders (bit c, c < tabN) that a tail of one
// of q's springs may touch, from the bounds in q.tab: every tail's hit sphere stays
// within its chain's reach of its joint 0's head, so a collider whose
// bound lies farther in every slot cannot be touched. The margin covers
// rounding in coordinates of this size.
func (q *quad) reachable() uint32 {
	var m uint32
	for s := range slotCount {
		if q.joints[s] == nil {
			continue
		}
		o, r := v3{q.hx[s], q.hy[s], q.hz[s]}, q.reach[s]
		slack := 1e-5 * (1 + maxAbs(o) + r)
		for c := range q.tabLen {
			b := &q.tab[c]
			d := v3{b.bcx[s], b.bcy[s], b.bcz[s]}.sub(o)
			lim := (b.br[s]+r)*(1+1e-5) + slack
			if !(d.dot(d) >= lim*lim) { // NaN and +Inf bounds are near
				m |= 1 << c
			}
		}
	}
	return m
}
