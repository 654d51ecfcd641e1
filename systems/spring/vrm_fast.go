package spring

import (
	"math"

	"github.com/sway-anim/sway/systems/collide"
)

// stepJoints advances joint i of every lane that has one: lanes on the
// fast path here, the others through stepGeneral.
//
// The fast path is the model of stepGeneral for a chain under one uniform
// scale without limits or StrictCollision, with the work that uniform
// scale makes redundant left out:
//
//   - The head is the previous joint's new tail: the child's rest position
//     is its parent's rest tail, which the parent's new rotation carries
//     to the new tail.
//   - The rest direction is the parent's rotation applied to the joint's
//     rest axis in the parent frame; the bone length is the rest length
//     times the scale.
//   - The new rotation is taken in world space, where both directions
//     already are: FromTo(restDir, dir) * restRot equals
//     restRot * FromTo(axis, restRot⁻¹ dir), the general path's world
//     rotation, without moving dir into the rest frame.
//
// The body is inline and ordered to keep few values alive at a time: the
// loop is bound by instruction count, and a value that does not fit in a
// register costs a store and a load.
func stepJoints(lanes []lane, i int, dt float32) {
	for k := range lanes {
		l := &lanes[k]
		if i >= l.n {
			continue
		}
		if !l.fast {
			l.stepGeneral(i, dt)
			continue
		}
		j := &l.c.joints[i]
		sp := l.sp
		curs, prevs := sp.State.CurTail, sp.State.PrevTail
		cur, prev := ld(&curs[i]), ld(&prevs[i])
		prevs[i] = cur.vec()
		if l.centred {
			cur, prev = toWorld(sp, cur), toWorld(sp, prev)
		}
		next := cur.add(cur.sub(prev).scale(j.keep))
		pr := l.parent.rot
		restDir := pr.rotFin(j.restAxis, pr.rotT(j.restAxis))
		next = next.add(restDir.scale(j.stiffness).add(j.gravity).scale(j.force*l.k + l.fk))
		d := next.sub(l.head)
		dir := restDir
		if l2 := d.dot(d); l2 > 1e-12 && l2 <= math.MaxFloat32 {
			dir = d.scale(1 / sqrt(l2))
		}
		length := j.length * l.k
		next = l.head.add(dir.scale(length))
		if len(sp.Colliders) > 0 {
			next, dir = l.collideFast(j, next, dir, restDir, length)
		}
		l.head = next
		if l.centred {
			next = toCentre(sp, next)
		}
		curs[i] = next.vec()

		// q = FromTo(restDir, dir) by the half-way vector h: (restDir·h,
		// restDir×h)/(|restDir||h|). Dividing by |restDir|, 1 to rounding,
		// matters: restDir comes from the parent's rotation, and a norm
		// error passed on to q would grow threefold per joint.
		var q q4
		if h := restDir.add(dir); h.dot(h) >= 0.2 {
			inv := 1 / sqrt(h.dot(h)*restDir.dot(restDir))
			q = restDir.cross(h).scale(inv).q(restDir.dot(h) * inv)
		} else {
			q = fromTo(restDir, dir) // within about 25° of opposite: the float64 path
		}
		pr = l.parent.rot
		restRot := pr
		if !j.identRot {
			restRot = pr.mulV(j.localRot).q(pr.mulW(j.localRot))
		}
		world := q.mulV(restRot).q(q.mulW(restRot))
		l.parent.rot = world
		pr = pr.conj()
		sp.DstLocalRot[i] = pr.mulV(world).q(pr.mulW(world)).quat()
	}
}

// toWorld and toCentre move a tail between centre and world space, out of
// line: few springs have a centre.
func toWorld(sp *VRMSpring, p v3) v3 {
	cp, cr := centre(sp)
	return cr.rot(p).add(cp)
}

func toCentre(sp *VRMSpring, p v3) v3 {
	cp, cr := centre(sp)
	return cr.invRot(p.sub(cp))
}

// collideFast pushes the tail next of a fast-path joint out of the
// colliders and renormalises it after each push, returning it and its
// direction from the joint's head.
func (l *lane) collideFast(j *vrmJoint, next, dir, restDir v3, length float32) (v3, v3) {
	r := j.hitRadius * l.k
	reach := j.reach*l.k + r
	head := l.head
	cols := l.sp.Colliders
	for ci := range cols {
		if ci < len(l.far) && reach < l.far[ci] {
			continue
		}
		s := &cols[ci]
		if s.Bound == collide.Outside {
			// Push's own test for spheres and planes, a bound for
			// capsules, inline: most tails near a collider miss it.
			a := ld(&s.A)
			d := next.sub(a)
			switch s.Kind {
			case collide.Sphere:
				if R := s.RA + r; d.dot(d) >= R*R {
					continue
				}
			case collide.Capsule:
				ab := ld(&s.B).sub(a)
				if t := d.dot(ab); t > 0 {
					if l2 := ab.dot(ab); t >= l2 {
						d = d.sub(ab)
					} else {
						d = d.sub(ab.scale(t / l2))
					}
				}
				R := s.RA
				if s.RB > R {
					R = s.RB
				}
				if R += r; d.dot(d) > R*R*(1+1e-5) {
					continue
				}
			case collide.Plane:
				if d.dot(ld(&s.N))-r >= 0 {
					continue
				}
			}
		}
		q := next.vec()
		if !collide.Push(&q, r, s) {
			continue
		}
		dir = ld(&q).sub(head).norm(restDir)
		next = head.add(dir.scale(length))
	}
	return next, dir
}

// clearance returns a lower bound of the distance from p to an Outside
// shape (negative inside it). Inside shapes, which can push a particle
// however far it is, give -Inf, and so does a NaN.
func clearance(p v3, s *collide.Shape) float32 {
	if s.Bound != collide.Outside {
		return float32(math.Inf(-1))
	}
	a := ld(&s.A)
	d := p.sub(a)
	var c float32
	switch s.Kind {
	case collide.Plane:
		n := ld(&s.N)
		c = d.dot(n) / max(1, n.len()) // N is unit; a longer one must not shrink the bound
	case collide.Capsule:
		// The round cone lies within the capsule of the larger radius.
		ab := ld(&s.B).sub(a)
		if l2 := ab.dot(ab); l2 > 0 {
			t := min(max(d.dot(ab)/l2, 0), 1)
			d = d.sub(ab.scale(t))
		}
		c = d.len() - max(s.RA, s.RB)
	default: // Sphere
		c = d.len() - max(s.RA, s.RB)
	}
	// A negative radius makes Push act on far particles.
	if !(c == c) || s.Kind != collide.Plane && !(max(s.RA, s.RB) >= 0) {
		return float32(math.Inf(-1))
	}
	return c
}
