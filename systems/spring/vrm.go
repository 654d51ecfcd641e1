package spring

import (
	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/systems/collide"
)

// ResetVRM puts every tail of s at its rest position under the given parent
// world transform and centre (pos, rot), with zero velocity.
func ResetVRM(s *VRMState, c *VRMChain,
	parentPos mgl32.Vec3, parentRot mgl32.Quat, parentScale mgl32.Vec3,
	centerPos mgl32.Vec3, centerRot mgl32.Quat) {
	p := transform{pos: ld(&parentPos), rot: ldq(&parentRot), scale: ld(&parentScale)}
	cp, cr := ld(&centerPos), ldq(&centerRot)
	for i := range c.localPos {
		w := p.child(ld(&c.localPos[i]), ldq(&c.localRot[i]), ld(&c.localScale[i]))
		tail := w.pos.add(w.rot.rot(w.scale.mul(ld(&c.tail[i]))))
		t := cr.invRot(tail.sub(cp)).vec()
		s.CurTail[i], s.PrevTail[i] = t, t
		p = w
	}
}

// StepVRM advances one VRM spring by dt and writes each joint's new local
// rotation to dstLocalRot (one element per joint). The parent world
// transform is that of joint 0's parent node this frame; the centre
// (identity rotation and zero position for none) is the space the inertia
// is kept in. Colliders are world-space shapes; every joint collides with
// all of them.
//
// Per joint, root to tip (VRMC_springBone 1.0, with the documented
// departures in the package doc):
//
//	next = cur + (cur-prev)*(1-drag) + (restDir*stiffness + gravity)*dt*scale
//	next = head + |next-head|⁻¹(next-head)*length, then the angle limit
//	per collider hit: push out with hitRadius*scale, renormalise, limit
//	prev, cur = cur, next
//	localRot = initialLocalRot * FromTo(axis, next in the rest frame)
//
// and the joint's new world transform is the parent of the next joint.
func StepVRM(dstLocalRot []mgl32.Quat, s *VRMState, c *VRMChain,
	parentPos mgl32.Vec3, parentRot mgl32.Quat, parentScale mgl32.Vec3,
	centerPos mgl32.Vec3, centerRot mgl32.Quat,
	colliders []collide.Shape, dt float32) {
	n := len(c.localPos)
	if len(dstLocalRot) < n || len(s.CurTail) < n || len(s.PrevTail) < n {
		return
	}
	if !(dt >= 0) || dt-dt != 0 {
		dt = 0
	}
	p := transform{pos: ld(&parentPos), rot: ldq(&parentRot), scale: ld(&parentScale)}
	cp, cr := ld(&centerPos), ldq(&centerRot)
	centred := cp != (v3{}) || cr != (q4{w: 1})
	for i := 0; i < n; i++ {
		lr := ldq(&c.localRot[i])
		w := p.child(ld(&c.localPos[i]), lr, ld(&c.localScale[i]))
		head := w.pos
		// Rest tail offset in world space; its length is the bone length
		// at this frame's scale.
		restOff := w.rot.rot(w.scale.mul(ld(&c.tail[i])))
		length := restOff.len()
		var restDir v3
		if length > 1e-9 {
			restDir = restOff.scale(1 / length)
		} else {
			restDir = w.rot.rot(ld(&c.axis[i]))
		}
		k := maxAbs(w.scale) // runtime scale of forces and hit radius

		cur, prev := ld(&s.CurTail[i]), ld(&s.PrevTail[i])
		if centred {
			cur, prev = cr.rot(cur).add(cp), cr.rot(prev).add(cp)
		}
		ft := dt
		if c.fixed {
			ft = c.force[i]
		}
		force := restDir.scale(c.stiffness[i]).add(ld(&c.gravity[i])).scale(ft * k)
		next := cur.add(cur.sub(prev).scale(c.keep[i])).add(force)
		next = head.add(next.sub(head).norm(restDir).scale(length))
		var lim *limit
		if c.limits != nil && c.limits[i].kind != NoLimit {
			lim = &c.limits[i]
			next = head.add(lim.apply(next.sub(head), w.rot))
		}

		r := c.hitRadius[i] * k
		for j := range colliders {
			q := next.vec()
			if !collide.Push(&q, r, &colliders[j]) {
				continue
			}
			next = head.add(ld(&q).sub(head).norm(restDir).scale(length))
			if c.strict {
				next = clearShape(head, next, length, r, &colliders[j])
			}
			if lim != nil {
				next = head.add(lim.apply(next.sub(head), w.rot))
			}
		}
		if !next.finite() {
			// Only reachable with non-finite input; keep the rest pose.
			next = head.add(restOff)
		}

		s.PrevTail[i] = s.CurTail[i]
		if centred {
			s.CurTail[i] = cr.invRot(next.sub(cp)).vec()
		} else {
			s.CurTail[i] = next.vec()
		}

		// The tail in the joint's rest frame, scale undone.
		to := invScaleDir(w.scale, w.rot.invRot(next.sub(head)))
		local := lr.mul(fromTo(ld(&c.axis[i]), to))
		dstLocalRot[i] = local.quat()
		w.rot = p.rot.mul(local)
		p = w
	}
}
