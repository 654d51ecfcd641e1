package spring

import (
	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/systems/collide"
)

// quad is up to four fast-path springs stepped side by side. Their state
// is struct-of-arrays, element s of every array belonging to the spring in
// slot s, so that one SIMD instruction serves all four (stageA, stageB);
// the scalar stageA1, touch1 and stageB1 compute exactly the same per
// slot.
//
// At joint i, slot s has a joint when i < len(joints[s]). One that has
// none (empty, or its spring is shorter) reads idleJoint, idleVec and
// idleQuat, stores nothing, and is parked where the kernels leave its
// state unchanged: identity rotation, head at the origin.
//
// A quad holds no pointer to itself or to a lane, only indices: a pointer
// to stack memory stored through a pointer would make the compiler move
// the caller's arrays to the heap. The kernels store no pointers at all.
type quad struct {
	rx, ry, rz, rw [4]float32 // world rotation of the next joint's parent
	hx, hy, hz     [4]float32 // the next joint's head: the previous tail
	k, fk          [4]float32 // uniform scale; force factor dt*k, 0 with FixedStep
	// Centre position and rotation; the identity for a spring without one.
	cpx, cpy, cpz      [4]float32
	crx, cry, crz, crw [4]float32
	// Stage A's results, which collisions edit: the new tail, its unit
	// direction from the head, the rest direction; and for the collisions
	// the hit radius and bone length at this scale.
	nx, ny, nz [4]float32
	dx, dy, dz [4]float32
	ax, ay, az [4]float32
	r, lk      [4]float32

	// Each slot's chain, tails and output, from joint 0.
	joints    [4][]vrmJoint
	cur, prev [4][]mgl32.Vec3
	dst       [4][]mgl32.Quat

	lanes    [4]int8 // index in the block's lanes; -1: an empty slot
	active   uint8   // stage A: bit s, slot s has a joint at this level
	centred  bool    // a spring has a centre: stage A and B convert
	identRot bool    // stage B: every slot's joint has the identity rest rotation
	// Collisions: with a shared collider list (every slot's the same),
	// cols is that list and near the colliders some slot may reach.
	shared bool
	cols   []collide.Shape
	near   uint32

	// Scratch of the SIMD kernels: values that do not fit in registers,
	// and where they store for a slot without a joint.
	spill [4][4]float32
	sink  [4]float32
}

// What a slot without a joint reads; nothing writes them.
var (
	idleJoint = vrmJoint{localRot: q4{w: 1}, restAxis: v3{y: 1}, identRot: true}
	idleVec   mgl32.Vec3
	idleQuat  mgl32.Quat
)

// reset empties q of springs; add fills a slot, and stepBlock parks the
// empty ones.
func (q *quad) reset() {
	q.lanes = [4]int8{-1, -1, -1, -1}
	q.centred, q.shared, q.cols, q.near = false, true, nil, 0
}

// empty makes slot s an empty one, parked: no joints, so that nothing
// reads its other slices.
func (q *quad) empty(s int) {
	s &= 3
	q.joints[s] = nil
	q.k[s], q.fk[s] = 0, 0
	q.park(s)
}

// park puts slot s at the idle fixed point: the kernels map it to itself,
// so an idle slot costs nothing but its share of the arithmetic.
func (q *quad) park(s int) {
	s &= 3
	q.rx[s], q.ry[s], q.rz[s], q.rw[s] = 0, 0, 0, 1
	q.hx[s], q.hy[s], q.hz[s] = 0, 0, 0
	q.cpx[s], q.cpy[s], q.cpz[s] = 0, 0, 0
	q.crx[s], q.cry[s], q.crz[s], q.crw[s] = 0, 0, 0, 1
}

// add puts the fast lane l, index li of the block, into slot s.
func (q *quad) add(s int, l *lane, li int) {
	s &= 3
	q.lanes[s] = int8(li)
	q.joints[s], q.cur[s], q.prev[s], q.dst[s] = l.c.joints, l.st.CurTail, l.st.PrevTail, l.dst
	r := l.parent.rot
	q.rx[s], q.ry[s], q.rz[s], q.rw[s] = r.x, r.y, r.z, r.w
	q.hx[s], q.hy[s], q.hz[s] = l.head.x, l.head.y, l.head.z
	q.k[s], q.fk[s] = l.k, l.fk
	q.cpx[s], q.cpy[s], q.cpz[s] = l.cp.x, l.cp.y, l.cp.z
	q.crx[s], q.cry[s], q.crz[s], q.crw[s] = l.cr.x, l.cr.y, l.cr.z, l.cr.w
	q.centred = q.centred || l.centred
	if s == 0 {
		q.cols = l.cols
	}
	q.shared = q.shared && len(l.cols) == len(q.cols) &&
		(len(q.cols) == 0 || &l.cols[0] == &q.cols[0])
}

// collide pushes the tails of the slots with a joint out of their
// colliders, given stage A's first-touch bytes ft: with a shared list only
// the slots that may touch one of the colliders stage A tested go through
// collide1, from that collider on, besides every slot for colliders past
// the first 32.
func (q *quad) collide(ft uint32, lanes []lane) {
	for s, li := range q.lanes {
		if q.active&(1<<s) != 0 {
			q.collide1(s, &lanes[li], q.from(s, ft, &lanes[li]))
		}
	}
}

// from returns the first collider collide1 must try for slot s given
// stage A's first-touch bytes: all of them without a shared list, else the
// first one stage A left to Go, else the first one past those stage A
// tries (len(cols) when it tries them all).
func (q *quad) from(s int, ft uint32, l *lane) int {
	switch c := int(ft >> (8 * (s & 3)) & 0xff); {
	case !q.shared:
		return 0
	case c != 0xff:
		return c
	default:
		return min(len(l.cols), 32)
	}
}

// step1 steps slot 0 alone at joint i with the scalar definitions,
// leaving the other slots as they are: none of them has a joint at i or
// after, so no SIMD step will read them again.
func (q *quad) step1(i int, lanes []lane) {
	q.active = 1
	q.stageA1(0, i)
	l := &lanes[q.lanes[0]]
	q.collide1(0, l, q.from(0, 0xffffff00|q.touch1(0), l))
	q.identRot = q.joints[0][i].identRot
	q.stageB1(0, i)
}

// stepBlock advances springs (at most len(lanes) of them, and len(quads)
// >= len(lanes)/4): it loads them, puts the fast ones into quads longest
// first, so that quads stay full for as long as possible, and steps all of
// them joint by joint.
func stepBlock(springs []VRMSpring, lanes []lane, quads []quad, dt float32) {
	n, depth, general := 0, 0, 0
	var order [laneCount]int8 // fast lanes by decreasing length
	nf := 0
	for k := range springs {
		l := &lanes[n]
		if !l.load(&springs[k], dt) {
			continue
		}
		depth = max(depth, l.n)
		if l.fast {
			p := nf
			for ; p > 0 && lanes[order[p-1]].n < l.n; p-- {
				order[p] = order[p-1]
			}
			order[p] = int8(n)
			nf++
		} else {
			general++
		}
		n++
	}
	nq := (nf + 3) / 4
	for k := range quads[:nq] {
		quads[k].reset()
	}
	for f := range nf {
		quads[f/4].add(f%4, &lanes[order[f]], int(order[f]))
	}
	for s := nf % 4; s > 0 && s < 4; s++ {
		quads[nq-1].empty(s)
	}
	// The colliders each quad may reach.
	for k := range quads[:nq] {
		if q := &quads[k]; q.shared {
			q.near = q.reachable(lanes)
		}
	}
	for i := range depth {
		for k := range quads[:nq] {
			q := &quads[k]
			if i >= len(q.joints[0]) {
				break // quads are ordered by their longest spring, in slot 0
			}
			if i >= len(q.joints[1]) {
				// Slot 0 alone (slots are ordered too): the scalar steps
				// cost less than four slots' SIMD ones.
				q.step1(i, lanes)
				continue
			}
			if ft := stageA(q, i); ft != 0xffffffff || !q.shared || len(q.cols) > 32 {
				q.collide(ft, lanes)
			}
			if !stageB(q, i) {
				stageBGo(q, i)
			}
		}
		if general == 0 {
			continue
		}
		for k := range lanes[:n] {
			if l := &lanes[k]; !l.fast && i < l.n {
				l.stepGeneral(i, dt)
			}
		}
	}
}
