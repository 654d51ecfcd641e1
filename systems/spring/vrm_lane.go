package spring

import (
	"unsafe"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/systems/collide"
)

// lane is one spring being stepped: where its data are, and the transform
// its next joint hangs from. It holds the spring's fields rather than a
// pointer to it: that would move StepVRM's spring to the heap.
type lane struct {
	c       *VRMChain
	st      *VRMState
	dst     []mgl32.Quat
	cols    []collide.Shape
	parent  transform // world transform of the next joint's parent (fast: its rotation only)
	cp      v3        // centre; cr the identity for none
	cr      q4
	head    v3      // fast: the next joint's head, the previous joint's tail
	k       float32 // fast: the uniform world scale of every joint
	fk      float32 // fast: the force factor dt*k; 0 with FixedStep, whose joints carry theirs
	n       int     // joints
	idx     int     // the spring's index in the caller's slice
	centred bool
	fast    bool
	bad     bool // after the step: a tail is not finite
}

// fastPath turns the fast path off for tests that compare it with the
// general one.
var fastPath = true

// load loads a spring; it reports false for a spring StepVRM leaves alone.
func (l *lane) load(sp *VRMSpring, dt float32) bool {
	c, s := sp.Chain, sp.State
	if c == nil || s == nil {
		return false
	}
	n := len(c.joints)
	if n == 0 || len(sp.DstLocalRot) < n || len(s.CurTail) < n || len(s.PrevTail) < n {
		return false
	}
	p := transform{pos: ld(&sp.ParentPos), rot: ldq(&sp.ParentRot), scale: ld(&sp.ParentScale)}
	l.c, l.st, l.dst, l.cols, l.n, l.parent, l.fast, l.bad = c, s, sp.DstLocalRot, sp.Colliders, n, p, false, false
	l.centred = hasCentre(sp)
	l.cp, l.cr = v3{}, q4{w: 1}
	if l.centred {
		l.cp, l.cr = centre(sp)
	}

	// The fast path: every joint has the same uniform scale, so bone
	// lengths and forces scale by one number, rest directions need no
	// scale undone, and each joint's head is its parent's tail.
	k := p.scale.x
	if !fastPath || !c.fastShape || !(k > 0) || p.scale.y != k || p.scale.z != k || !(p.rot.dot(p.rot) < 1e30) {
		return true
	}
	lp := c.joints[0].localPos
	head := p.pos.add(p.rot.rotFin(lp, p.rot.rotT(lp)).scale(k))
	// Every tail lies within the chain's reach of joint 0's head: with
	// that region far from overflow (and finite), no tail can leave it.
	size := maxAbs(head) + c.joints[n-1].reach*k
	if !(size < 1e30) {
		return true
	}
	l.fast, l.k, l.head, l.fk = true, k, head, dt*k
	if c.fixed {
		l.fk = 0
	}
	return true
}

// hasCentre reports whether sp has a centre other than the world origin.
// It compares bits: a negative zero counts as a centre, which only costs
// the conversion. The centre's seven words are read as one array
// (CenterPos x, y, z, CenterRot w, x, y, z; vrm_layout.go checks), which
// keeps the function small enough to inline.
func hasCentre(sp *VRMSpring) bool {
	c := (*[7]uint32)(unsafe.Pointer(&sp.CenterPos))
	return c[0]|c[1]|c[2]|c[4]|c[5]|c[6] != 0 || c[3] != 0 && c[3] != 0x3f800000
}

// centre returns the centre of sp, the zero rotation read as the identity.
func centre(sp *VRMSpring) (v3, q4) {
	cr := ldq(&sp.CenterRot)
	if cr == (q4{}) {
		cr = q4{w: 1}
	}
	return ld(&sp.CenterPos), cr
}

// stepGeneral advances joint i for any chain and input: non-uniform scale,
// limits, StrictCollision.
func (l *lane) stepGeneral(i int, dt float32) {
	c := l.c
	j := &c.joints[i]
	p := &l.parent
	w := p.child(j.localPos, j.localRot, j.localScale)
	head := w.pos
	// Rest tail offset in world space; its length is the bone length at
	// this frame's scale.
	restOff := w.rot.rot(w.scale.mul(j.tail))
	length := restOff.len()
	var restDir v3
	if length > 1e-9 {
		restDir = restOff.scale(1 / length)
	} else {
		restDir = w.rot.rot(j.axis)
	}
	k := maxAbs(w.scale) // runtime scale of forces and hit radius

	curs, prevs := l.st.CurTail, l.st.PrevTail
	cur, prev := ld(&curs[i]), ld(&prevs[i])
	cp, cr := l.cp, l.cr
	if l.centred {
		cur, prev = cr.rot(cur).add(cp), cr.rot(prev).add(cp)
	}
	set := c.setAt(i)
	ft := dt
	if c.fixed {
		ft = set.force
	}
	force := restDir.scale(set.stiffness).add(set.gravity).scale(ft * k)
	next := cur.add(cur.sub(prev).scale(set.keep)).add(force)
	next = head.add(next.sub(head).norm(restDir).scale(length))
	var lim *limit
	if c.limits != nil && c.limits[i].kind != NoLimit {
		lim = &c.limits[i]
		next = head.add(lim.apply(next.sub(head), w.rot))
	}

	r := set.hitRadius * k
	for ci := range l.cols {
		s := &l.cols[ci]
		q := next.vec()
		if !collide.Push(&q, r, s) {
			continue
		}
		next = head.add(ld(&q).sub(head).norm(restDir).scale(length))
		if c.strict {
			next = clearShape(head, next, length, r, s)
		}
		if lim != nil {
			next = head.add(lim.apply(next.sub(head), w.rot))
		}
	}
	if !next.finite() {
		// Only reachable with non-finite input; keep the rest pose.
		next = head.add(restOff)
	}

	prevs[i] = curs[i]
	if l.centred {
		curs[i] = cr.invRot(next.sub(cp)).vec()
	} else {
		curs[i] = next.vec()
	}
	l.bad = l.bad || notFinite(ld(&prevs[i])) != 0 || notFinite(ld(&curs[i])) != 0

	// The tail in the joint's rest frame, scale undone; the scale is taken
	// relative to its largest component so that the cofactors keep the
	// direction's size (at a scale of 0.0025 they would fall below
	// fromTo's zero test).
	ws := w.scale
	if k > 0 && k != 1 {
		ws = ws.scale(1 / k)
	}
	to := invScaleDir(ws, w.rot.invRot(next.sub(head)))
	local := j.localRot.mul(fromTo(j.axis, to))
	l.dst[i] = local.quat()
	w.rot = p.rot.mul(local)
	*p = w
}
