package spring

import (
	"unsafe"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/systems/collide"
)

// slotCount is the number of slots of a quad.
const slotCount = 8

// noTouch is stage A's result when no slot may touch a collider it left
// to collide1: every byte 0xff.
const noTouch = 1<<(8*slotCount) - 1

// quad (named when it had four slots) is up to slotCount fast-path
// springs stepped side by side. Their state is struct-of-arrays, element s
// of every array belonging to the spring in slot s, so that one SIMD
// instruction serves them all (stageA, stageB); the scalar stageA1,
// touch1 and stageB1 compute exactly the same per slot.
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
	rx, ry, rz, rw [slotCount]float32 // world rotation of the next joint's parent
	hx, hy, hz     [slotCount]float32 // the next joint's head: the previous tail
	k, fk          [slotCount]float32 // uniform scale; force factor dt*k, 0 with FixedStep
	reach          [slotCount]float32 // the chain's reach times k: see reachable
	// Centre position and rotation; the identity for a spring without one.
	cpx, cpy, cpz      [slotCount]float32
	crx, cry, crz, crw [slotCount]float32
	// The settings as columns when every slot has one record for all its
	// joints (perJoint false), so that stage A need not load them per
	// joint: stiffness, gravity, keep, the force factor f = force*k + fk
	// and the hit radius (the r column below, which stage A otherwise
	// writes per joint). A parked or empty slot's are zero.
	stf, gx, gy, gz, kp, f [slotCount]float32
	perJoint               bool
	// full: every slot has a joint at every level (springs of one
	// length), so stage A need not work out which do.
	full bool
	// oneChain: full, and every slot's joints are one slice (the same
	// spring of characters of one rig, built through one VRMShapes), so
	// stage A broadcasts the joint's rest axis and length.
	oneChain bool

	// Stage A's results, which collisions edit: the new tail, its unit
	// direction from the head, the rest direction; and for the collisions
	// the hit radius and bone length at this scale.
	nx, ny, nz [slotCount]float32
	dx, dy, dz [slotCount]float32
	ax, ay, az [slotCount]float32
	r, lk      [slotCount]float32

	// Each slot's chain, tails and output, from joint 0; its settings,
	// one per joint (sstep 32, the bytes from one to the next) or one for
	// all (sstep 0).
	joints    [slotCount][]vrmJoint
	sets      [slotCount][]vrmSet
	sstep     [slotCount]uintptr
	cur, prev [slotCount][]mgl32.Vec3
	dst       [slotCount][]mgl32.Quat

	lanes    [slotCount]int8 // the caller's index of the slot's spring; -1: an empty slot
	active   uint8           // stage A: bit s, slot s has a joint at this level
	centred  bool            // a spring has a centre: stage A and B convert
	identRot bool            // stage B: every slot's joint has the identity rest rotation
	identAll bool            // every slot's chain has only joints with the identity rest rotation
	// Collisions: with aligned collider lists (every slot's as long),
	// cols is slot 0's list, tab the first tabN colliders of every slot's
	// list as columns, and near those some slot may reach. scol holds
	// each slot's list.
	shared bool
	cols   []collide.Shape
	near   uint32
	scol   [slotCount][]collide.Shape
	tab    [tabN]colTab
	tabKey [slotCount]*collide.Shape // the lists tab was filled from
	tabLen int

	// bad: bit patterns ORed from every tail stage A loads and stage B
	// stores; non-zero for a slot when one was not finite.
	bad [slotCount]uint32

	// Scratch of the SIMD kernels: the slots' rows gathered into columns
	// and values that do not fit in registers (vrm_simd_amd64.h names the
	// columns), and where they store for a slot without a joint.
	spill [19][slotCount]float32
	sink  [4]float32
}

// What a slot without a joint reads; nothing writes them.
var (
	idleJoint = vrmJoint{localRot: q4{w: 1}, restAxis: v3{y: 1}, identRot: true}
	idleSet   vrmSet
	idleVec   mgl32.Vec3
	idleQuat  mgl32.Quat
)

// reset empties q of springs; add fills a slot, and stepBlock parks the
// empty ones.
func (q *quad) reset() {
	for s := range q.lanes {
		q.lanes[s] = -1
	}
	q.centred, q.shared, q.cols, q.near = false, true, nil, 0
	q.perJoint, q.full, q.identAll = false, false, true
	q.scol = [slotCount][]collide.Shape{}
	q.bad = [slotCount]uint32{}
}

// empty makes slot s an empty one, parked: no joints, so that nothing
// reads its other slices.
func (q *quad) empty(s int) {
	s &= slotCount - 1
	q.joints[s], q.scol[s] = nil, nil
	q.k[s], q.fk[s], q.reach[s] = 0, 0, 0
	q.park(s)
}

// park puts slot s at the idle fixed point: the kernels map it to itself,
// so an idle slot costs nothing but its share of the arithmetic.
func (q *quad) park(s int) {
	s &= slotCount - 1
	q.rx[s], q.ry[s], q.rz[s], q.rw[s] = 0, 0, 0, 1
	q.hx[s], q.hy[s], q.hz[s] = 0, 0, 0
	q.cpx[s], q.cpy[s], q.cpz[s] = 0, 0, 0
	q.crx[s], q.cry[s], q.crz[s], q.crw[s] = 0, 0, 0, 1
	q.stf[s], q.gx[s], q.gy[s], q.gz[s], q.kp[s], q.f[s], q.r[s] = 0, 0, 0, 0, 0, 0, 0
}

// setCols fills slot s's settings columns from its one settings record,
// or notes that it has one per joint; k and fk must be set.
func (q *quad) setCols(s int) {
	s &= slotCount - 1
	if q.sstep[s] != 0 {
		q.perJoint = true
		return
	}
	set := &q.sets[s][0]
	q.stf[s], q.kp[s] = set.stiffness, set.keep
	q.gx[s], q.gy[s], q.gz[s] = set.gravity.x, set.gravity.y, set.gravity.z
	q.f[s] = float32(set.force*q.k[s]) + q.fk[s]
	q.r[s] = set.hitRadius * q.k[s]
}

// add puts the fast lane l, index li of the block, into slot s.
func (q *quad) add(s int, l *lane, li int) {
	s &= slotCount - 1
	q.lanes[s] = int8(li)
	q.joints[s], q.cur[s], q.prev[s], q.dst[s] = l.c.joints, l.st.CurTail, l.st.PrevTail, l.dst
	q.identAll = q.identAll && l.c.identAll
	q.sets[s], q.sstep[s] = l.c.sets, 0
	if len(l.c.sets) > 1 {
		q.sstep[s] = unsafe.Sizeof(vrmSet{})
	}
	r := l.parent.rot
	q.rx[s], q.ry[s], q.rz[s], q.rw[s] = r.x, r.y, r.z, r.w
	q.hx[s], q.hy[s], q.hz[s] = l.head.x, l.head.y, l.head.z
	q.k[s], q.fk[s], q.reach[s] = l.k, l.fk, l.c.reach*l.k
	q.setCols(s)
	q.cpx[s], q.cpy[s], q.cpz[s] = l.cp.x, l.cp.y, l.cp.z
	q.crx[s], q.cry[s], q.crz[s], q.crw[s] = l.cr.x, l.cr.y, l.cr.z, l.cr.w
	q.centred = q.centred || l.centred
	if s == 0 {
		q.cols = l.cols
	}
	q.scol[s] = l.cols
	q.shared = q.shared && len(l.cols) == len(q.cols)
}

// collide pushes the tails of the slots with a joint out of their
// colliders, given stage A's first-touch bytes ft: with aligned lists only
// the slots that may touch one of the colliders stage A tested go through
// collide1, from that collider on, besides every slot for colliders past
// the first tabN.
func (q *quad) collide(ft uint64) {
	for s := range slotCount {
		if q.active&(1<<s) != 0 {
			q.collide1(s, q.from(s, ft))
		}
	}
}

// from returns the first collider collide1 must try for slot s given
// stage A's first-touch bytes: all of them without aligned lists, else the
// first one stage A left to Go, else the first one past those stage A
// tries (len(cols) when it tries them all).
func (q *quad) from(s int, ft uint64) int {
	s &= slotCount - 1
	switch c := int(ft >> (8 * s) & 0xff); {
	case !q.shared:
		return 0
	case c != 0xff:
		return c
	default:
		return min(len(q.scol[s]), tabN)
	}
}

// step1 steps slot 0 alone at joint i with the scalar definitions,
// leaving the other slots as they are: none of them has a joint at i or
// after, so no SIMD step will read them again.
func (q *quad) step1(i int) {
	q.active = 1
	q.stageA1(0, i)
	q.collide1(0, q.from(0, noTouch&^0xff|uint64(q.touch1(0))))
	q.identRot = q.joints[0][i].identRot
	q.stageB1(0, i)
}

// stepBlock advances springs (at most len(lanes) of them): it loads
// them, puts the fast ones into quads longest first, so that quads stay
// full for as long as possible, and steps the quads one after the other
// in q, then the other springs.
func stepBlock(springs []VRMSpring, lanes []lane, q *quad, dt float32) {
	n := 0
	var order [laneCount]int8 // fast lanes by decreasing length
	nf := 0
	for k := range springs {
		l := &lanes[n]
		springs[k].Bad = false
		if !l.load(&springs[k], dt) {
			continue
		}
		l.idx = k
		if l.fast {
			p := nf
			for ; p > 0 && lanes[order[p-1]].n < l.n; p-- {
				order[p] = order[p-1]
			}
			order[p] = int8(n)
			nf++
		}
		n++
	}
	for f := 0; f < nf; f += slotCount {
		q.reset()
		m := min(nf-f, slotCount)
		for s := range m {
			q.add(s, &lanes[order[f+s]], int(order[f+s]))
		}
		for s := m; s < slotCount; s++ {
			q.empty(s)
		}
		q.run()
		for s, li := range q.lanes {
			if li >= 0 {
				lanes[li].bad = q.bad[s] != 0
			}
		}
	}
	for k := range lanes[:n] {
		l := &lanes[k]
		if !l.fast {
			for i := range l.n {
				l.stepGeneral(i, dt)
			}
		}
		springs[l.idx].Bad = l.bad
	}
}

// fewColliders is the most colliders stage A tries without a reach test.
const fewColliders = 4

// run steps the springs of q, filled in slots of decreasing length, joint
// by joint: every slot by the SIMD stages while slot 1 has a joint, then
// slot 0 alone by the scalar ones, which cost less than all slots' SIMD
// ones.
func (q *quad) run() {
	if q.shared {
		// Stage A tests a collider (one that misses) in about what the
		// reach test costs per collider: for a few it tests them all.
		q.fillTab()
		q.near = 1<<q.tabLen - 1
		if q.tabLen > fewColliders {
			q.near = q.reachable()
		}
	}
	n0, n1 := len(q.joints[0]), len(q.joints[1])
	q.full = len(q.joints[slotCount-1]) == n0
	q.oneChain = q.full
	for s := range slotCount {
		q.oneChain = q.oneChain && &q.joints[s][0] == &q.joints[0][0]
	}
	for i := range n1 {
		if ft := stageA(q, i); ft != noTouch || !q.shared || len(q.cols) > tabN {
			q.collide(ft)
		}
		if !stageB(q, i) {
			stageBGo(q, i)
		}
	}
	for i := n1; i < n0; i++ {
		q.step1(i)
	}
}
