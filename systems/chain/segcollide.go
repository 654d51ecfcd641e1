package chain

import (
	"math/bits"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/mathx"
	"github.com/sway-anim/sway/systems/collide"
)

// Collision along segments (Settings.SegmentCollision): besides its
// particles, a chain keeps the segment between each particle and its parent
// out of its Outside sphere and capsule colliders (planes and Inside shapes
// act on the particles only), so that a thin collider (a leg) cannot pass
// between two particles. The segment is a capsule of the particle's radius.
// After the particle's own collider pass, the point of the segment nearest
// the collider's axis, at t along it from the parent (which its own
// constraints already placed), is pushed out by moving the particle by the
// penetration over t along the push direction, and the particle is put
// back at its bone length: the segment turns about the parent. This is done
// segIters times (the turn and the kept length move the nearest point),
// then the particle is pushed out of its colliders once more. A
// penetration nearer the parent than segMinT along the segment is left to
// the parent's segment (moving the particle by penetration/t would throw
// it). The chain then takes the scalar path, not the SIMD lanes.

// segIters is how many times a segment is pushed out per collider.
const segIters = 2

// segMinT is the nearest to the parent, as a fraction of the segment, that
// a segment's penetration moves the particle.
const segMinT = 1.0 / 8

// segPushMasked pushes the segment from the parent at p to the particle at
// x (radius r, bone length rl, animated offset o) out of the masked
// colliders and those beyond maxCull, as pushSegments does.
func (k *constrainer) segPushMasked(mask uint32, x0, x1, x2, p0, p1, p2, r float32, ka *animated) (float32, float32, float32, bool) {
	touched := false
	for m := mask; m != 0; m &= m - 1 {
		s := k.cl.k[bits.TrailingZeros32(m)&(maxCull-1)]
		if uint(s) < uint(len(k.shapes)) {
			var t bool
			x0, x1, x2, t = segPush(&k.shapes[s], x0, x1, x2, p0, p1, p2, r, ka)
			touched = touched || t
		}
	}
	for _, s := range k.colliders[min(len(k.colliders), maxCull):] {
		if uint(s) < uint(len(k.shapes)) {
			var t bool
			x0, x1, x2, t = segPush(&k.shapes[s], x0, x1, x2, p0, p1, p2, r, ka)
			touched = touched || t
		}
	}
	return x0, x1, x2, touched
}

// segPush pushes the segment from p to x (radius r) out of shape s, an
// Outside sphere or capsule (others are left alone), turning it about p and
// keeping x at ka.rl from p; then x is pushed out of s as a particle.
func segPush(s *collide.Shape, x0, x1, x2, p0, p1, p2, r float32, ka *animated) (float32, float32, float32, bool) {
	if s.Bound != collide.Outside || (s.Kind != collide.Sphere && s.Kind != collide.Capsule) {
		return x0, x1, x2, false
	}
	touched := false
	for range segIters {
		t, n0, n1, n2, depth, hit := segPenetration(s, p0, p1, p2, x0, x1, x2, r)
		if !hit || t < segMinT {
			break
		}
		m := depth / t
		x0, x1, x2 = x0+float32(n0*m), x1+float32(n1*m), x2+float32(n2*m)
		x0, x1, x2 = keepLength3(x0, x1, x2, p0, p1, p2, ka.o0, ka.o1, ka.o2, ka.rl)
		touched = true
	}
	if touched {
		v := mgl32.Vec3{x0, x1, x2}
		collide.Push(&v, r, s)
		x0, x1, x2 = v[0], v[1], v[2]
	}
	return x0, x1, x2, touched
}

// segPenetration returns how the segment from p to x (radius r) goes
// into shape s, an Outside sphere or capsule: t, the parameter along p→x
// of its point nearest the axis, n the unit direction out (across the
// segment and the axis when that point is on the axis) and depth, how
// far that point must move along n to clear; hit is false when it is
// clear.
func segPenetration(s *collide.Shape, p0, p1, p2, x0, x1, x2, r float32) (t, n0, n1, n2, depth float32, hit bool) {
	a, b := s.A, s.B
	if s.Kind == collide.Sphere {
		b = a
	}
	// The nearest points of the segment p + t(x-p) and the axis
	// a + u(b-a).
	t, u, c0, c1, c2, q0, q1, q2 := nearestOnSegments(p0, p1, p2, x0, x1, x2, a, b)
	lim := s.RA + float32((s.RB-s.RA)*u) + r
	d0, d1, d2 := q0-c0, q1-c1, q2-c2
	l2 := dot3(d0, d1, d2)
	if !(l2 < lim*lim) {
		return t, 0, 0, 0, 0, false
	}
	l := sqrt32(l2)
	if l2 > mathx.Epsilon {
		return t, d0 / l, d1 / l, d2 / l, lim - l, true
	}
	// On the axis: push across the segment and the axis.
	sg, ax := mgl32.Vec3{x0 - p0, x1 - p1, x2 - p2}, b.Sub(a)
	w := mathx.NormalizeOr(sg.Cross(ax), mathx.AnyPerpendicular(sg))
	return t, w[0], w[1], w[2], lim - l, true
}

// nearestOnSegments returns the parameters t (on p→x) and u (on a→b) of
// the nearest points of the two segments, both clamped to [0, 1], and the
// points: c on a→b, q on p→x (Ericson, Real-Time Collision Detection,
// 5.1.9). Products are rounded before they are summed (the package's
// same-bits rule).
func nearestOnSegments(p0, p1, p2, x0, x1, x2 float32, a, b mgl32.Vec3) (t, u, c0, c1, c2, q0, q1, q2 float32) {
	d10, d11, d12 := x0-p0, x1-p1, x2-p2             // segment direction
	d20, d21, d22 := b[0]-a[0], b[1]-a[1], b[2]-a[2] // axis direction
	r0, r1, r2 := p0-a[0], p1-a[1], p2-a[2]
	aa := dot3(d10, d11, d12)
	ee := dot3(d20, d21, d22)
	f := float32(d20*r0) + float32(d21*r1) + float32(d22*r2)
	switch {
	case aa <= mathx.Epsilon && ee <= mathx.Epsilon:
		t, u = 0, 0
	case aa <= mathx.Epsilon:
		t, u = 0, clamp01(f/ee)
	default:
		c := float32(d10*r0) + float32(d11*r1) + float32(d12*r2)
		if ee <= mathx.Epsilon {
			t, u = clamp01(-c/aa), 0
		} else {
			bb := float32(d10*d20) + float32(d11*d21) + float32(d12*d22)
			den := float32(aa*ee) - float32(bb*bb)
			if den > 0 {
				t = clamp01((float32(bb*f) - float32(c*ee)) / den)
			}
			u = (float32(bb*t) + f) / ee
			if u < 0 {
				t, u = clamp01(-c/aa), 0
			} else if u > 1 {
				t, u = clamp01((bb-c)/aa), 1
			}
		}
	}
	q0, q1, q2 = p0+float32(d10*t), p1+float32(d11*t), p2+float32(d12*t)
	c0, c1, c2 = a[0]+float32(d20*u), a[1]+float32(d21*u), a[2]+float32(d22*u)
	return
}

// clamp01 clamps x to [0, 1] (NaN to 0).
func clamp01(x float32) float32 {
	if !(x > 0) {
		return 0
	}
	if x > 1 {
		return 1
	}
	return x
}

// Collision along links (LinkSettings.SegmentCollision): after the links
// of a sub-step are solved, the segment between each link's two particles
// (a capsule of their mean radius) is pushed out of the first chain's
// Outside spheres and capsules, as a chain's own segments are: the point
// of the segment nearest the collider's axis, at t from particle a, moves
// out by the penetration, shared between the two particles by their
// inverse masses and their nearness to it (XPBD's point-on-segment
// correction: a moves by w_a(1-t)/D, b by w_b t/D of the push, D =
// w_a(1-t)² + w_b t²), segIters times per collider. Without it a leg
// lifting between two strands holds them apart while the links pull them
// together: a strand's own collision then wins, and the neighbour distance
// stretches (see docs/performance.md, the skirt rig).

// collideLinks pushes the segments of the links act whose chains both run
// sub-step sub out of their first chain's colliders.
// bs are the shapes' bounding spheres: a collider whose sphere the link's
// segment cannot reach is skipped.
func collideLinks(pos []mgl32.Vec3, act []linkAct, cs []Chain, shapes []collide.Shape, bs []sphere, sub int) {
	for i := range act {
		k := &act[i]
		if int(k.steps) <= sub || !(k.wa+k.wb > 0) {
			continue
		}
		xa, xb := &pos[k.ia], &pos[k.ib]
		m0, m1, m2, h := midHalf(*xa, *xb)
		for _, s := range cs[k.ca].Colliders {
			if uint(s) < uint(len(shapes)) && !bs[s].far(m0, m1, m2, h+k.r) {
				if linkSegPush(&shapes[s], xa, xb, k.wa, k.wb, k.r) {
					m0, m1, m2, h = midHalf(*xa, *xb)
				}
			}
		}
	}
}

// midHalf returns the middle of the segment a→b and half its length.
func midHalf(a, b mgl32.Vec3) (m0, m1, m2, h float32) {
	d0, d1, d2 := b[0]-a[0], b[1]-a[1], b[2]-a[2]
	return a[0] + float32(d0*0.5), a[1] + float32(d1*0.5), a[2] + float32(d2*0.5), float32(0.5 * sqrt32(dot3(d0, d1, d2)))
}

// linkSegPush pushes the segment from xa to xb (radius r, inverse masses
// wa and wb, not both 0) out of shape s, an Outside sphere or capsule
// (others are left alone), and reports whether it touched.
func linkSegPush(s *collide.Shape, xa, xb *mgl32.Vec3, wa, wb, r float32) bool {
	if s.Bound != collide.Outside || (s.Kind != collide.Sphere && s.Kind != collide.Capsule) {
		return false
	}
	touched := false
	for range segIters {
		t, n0, n1, n2, depth, hit := segPenetration(s, xa[0], xa[1], xa[2], xb[0], xb[1], xb[2], r)
		if !hit {
			break
		}
		ta, tb := 1-t, t
		den := float32(wa*float32(ta*ta)) + float32(wb*float32(tb*tb))
		if !(den > mathx.Epsilon) {
			break // the nearest point is on a root: the root's segment pushes
		}
		m := depth / den
		ma, mb := float32(m*float32(wa*ta)), float32(m*float32(wb*tb))
		xa[0], xa[1], xa[2] = xa[0]+float32(n0*ma), xa[1]+float32(n1*ma), xa[2]+float32(n2*ma)
		xb[0], xb[1], xb[2] = xb[0]+float32(n0*mb), xb[1]+float32(n1*mb), xb[2]+float32(n2*mb)
		touched = true
	}
	return touched
}
