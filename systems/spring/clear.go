package spring

import (
	"github.com/sway-anim/sway/internal/mathx"
	"github.com/sway-anim/sway/systems/collide"
)

// clearShape makes sure the tail next, at bone length from head, does not
// penetrate s (grown by the hit radius r), turning the bone if it still
// does after the reference push and renormalisation. That single push only
// moves the tail to the collider's surface; renormalising to the bone length
// can pull it straight back in when the head is close to the collider. The
// remedy is exact for spheres and planes: the allowed tail positions on the
// sphere of bone length around the head are those outside a cone about the
// direction u from the head towards the collider, so the nearest allowed
// direction is the current one turned away from u onto that cone. A
// capsule is treated as the sphere at its axis point nearest the tail.
func clearShape(head, next v3, length, r float32, s *collide.Shape) v3 {
	if !(length > 0) {
		return next
	}
	inside := s.Bound == collide.Inside
	w := next.sub(head).scale(1 / length)
	var u v3
	var cos0 float32 // forbidden (Outside) or allowed (Inside) cone: w·u vs cos0
	if s.Kind == collide.Plane {
		n := ld(&s.N)
		// Outside: keep (p-A)·n >= r. With p = head + length*w and u = -n:
		// w·u <= ((head-A)·n - r)/length. Inside: (p-A)·n <= -r, u = n:
		// w·u <= (-r - (head-A)·n)/length.
		h := head.sub(ld(&s.A)).dot(n)
		if inside {
			u, cos0 = n, (-r-h)/length
		} else {
			u, cos0 = n.scale(-1), (h-r)/length
		}
		if w.dot(u) <= cos0 {
			return next
		}
		return head.add(turnTo(w, u, cos0).scale(length))
	}
	c, rho := ld(&s.A), s.RA
	if s.Kind == collide.Capsule {
		a, b := ld(&s.A), ld(&s.B)
		ab := b.sub(a)
		t := float32(0)
		if l2 := ab.dot(ab); l2 > 1e-20 {
			t = mathx.Clamp01(next.sub(a).dot(ab) / l2)
		}
		c, rho = a.add(ab.scale(t)), s.RA+(s.RB-s.RA)*t
	}
	if inside {
		rho = max(0, rho-r)
	} else {
		rho += r
	}
	hc := c.sub(head)
	d := hc.len()
	if !(d > 1e-9) {
		// The head is at the centre: every direction is equally far.
		return next
	}
	u = hc.scale(1 / d)
	// |head + length*w - c|² = length² + d² - 2·length·d·(w·u) compared
	// with rho²: the boundary cone has cos0 below.
	cos0 = (length*length + d*d - rho*rho) / (2 * length * d)
	wu := w.dot(u)
	if inside {
		// Allowed: w·u >= cos0. Beyond reach (cos0 > 1): point at c.
		if wu >= cos0 {
			return next
		}
		return head.add(turnTo(w, u, min(cos0, 1)).scale(length))
	}
	// Forbidden: w·u > cos0. Swallowed whole (cos0 < -1): point away.
	if wu <= cos0 {
		return next
	}
	return head.add(turnTo(w, u, max(cos0, -1)).scale(length))
}

// turnTo returns the unit vector at angle acos(cos0) from the unit vector u
// in the plane of u and w, on w's side (any side when w is along u).
func turnTo(w, u v3, cos0 float32) v3 {
	cos0 = mathx.Clamp(cos0, -1, 1)
	sin0 := sqrt(1 - cos0*cos0)
	perp := w.sub(u.scale(w.dot(u)))
	p := perp.norm(v3{})
	if p == (v3{}) {
		a := mathx.AnyPerpendicular(u.vec())
		p = ld(&a)
	}
	return u.scale(cos0).add(p.scale(sin0))
}
