package spring

import (
	"unsafe"
)

// SetLanes is how many sets StepVRMSpringSets steps side by side: a caller
// that groups its characters by SetLanes fills every SIMD slot.
const SetLanes = slotCount

// StepVRMSpringSets advances every spring of every set by dt, as
// StepVRMSprings would each set, with the same results. A set is
// typically one character's springs.
//
// Why across sets: StepVRMSprings fills the SIMD slots of a quad with one
// character's springs, which leaves slots idle wherever its springs
// differ in length (a tail of 8 among hair of 6: the last joints step
// alone). Here spring k of up to SetLanes sets share a quad: with sets
// alike (the characters of one rig) every slot has a joint at every
// level, and the quad's collider columns, filled once from the sets'
// colliders, serve all their springs.
func StepVRMSpringSets(sets [][]VRMSpring, dt float32) {
	dt = stepDt(dt)
	var q quad
	for len(sets) > 0 {
		g := sets[:min(len(sets), SetLanes)]
		sets = sets[len(g):]
		n := 0
		for _, s := range g {
			n = max(n, len(s))
		}
		for k := range n {
			stepAcross(g, k, &q, dt)
		}
	}
}

// stepAcross steps spring k of every set in g (at most SetLanes): the fast
// ones in q, longest first, the others on their own.
func stepAcross(g [][]VRMSpring, k int, q *quad, dt float32) {
	// Slots in order of decreasing length, as run needs.
	var order [slotCount]*VRMSpring
	var lens [slotCount]int
	m := 0
	for s := range g {
		if k >= len(g[s]) {
			continue
		}
		sp := &g[s][k]
		sp.Bad = false
		n := 0
		if sp.Chain != nil {
			n = len(sp.Chain.joints)
		}
		p := m
		for ; p > 0 && lens[p-1] < n; p-- {
			order[p], lens[p] = order[p-1], lens[p-1]
		}
		order[p], lens[p] = sp, n
		m++
	}
	q.reset()
	var slot [slotCount]*VRMSpring
	nf := 0
	for _, sp := range order[:m] {
		switch q.load(nf, sp, dt) {
		case loadedFast:
			slot[nf&(slotCount-1)] = sp
			nf++
		case loadedGeneral:
			var l lane
			l.load(sp, dt)
			for i := range l.n {
				l.stepGeneral(i, dt)
			}
			sp.Bad = l.bad
		}
	}
	if nf == 0 {
		return
	}
	for s := nf; s < slotCount; s++ {
		q.empty(s)
	}
	q.run()
	for s, sp := range slot[:nf] {
		sp.Bad = q.bad[s] != 0
	}
}

// What quad.load did with a spring.
const (
	leftAlone = iota
	loadedFast
	loadedGeneral
)

// load puts sp into slot s when it takes the fast path, with the values
// lane.load and add would give the slot, and reports what it did: a
// spring StepVRM leaves alone, one in slot s, or one for the general
// path (slot s untouched).
func (q *quad) load(s int, sp *VRMSpring, dt float32) int {
	s &= slotCount - 1
	c, st := sp.Chain, sp.State
	if c == nil || st == nil {
		return leftAlone
	}
	n := len(c.joints)
	if n == 0 || len(sp.DstLocalRot) < n || len(st.CurTail) < n || len(st.PrevTail) < n {
		return leftAlone
	}
	pr, ps := ldq(&sp.ParentRot), ld(&sp.ParentScale)
	k := ps.x
	if !fastPath || !c.fastShape || !(k > 0) || ps.y != k || ps.z != k || !(pr.dot(pr) < 1e30) {
		return loadedGeneral
	}
	lp := c.joints[0].localPos
	head := ld(&sp.ParentPos).add(pr.rotFin(lp, pr.rotT(lp)).scale(k))
	if size := maxAbs(head) + c.joints[n-1].reach*k; !(size < 1e30) {
		return loadedGeneral
	}
	q.joints[s], q.cur[s], q.prev[s], q.dst[s] = c.joints, st.CurTail, st.PrevTail, sp.DstLocalRot
	q.identAll = q.identAll && c.identAll
	q.sets[s], q.sstep[s] = c.sets, 0
	if len(c.sets) > 1 {
		q.sstep[s] = unsafe.Sizeof(vrmSet{})
	}
	q.rx[s], q.ry[s], q.rz[s], q.rw[s] = pr.x, pr.y, pr.z, pr.w
	q.hx[s], q.hy[s], q.hz[s] = head.x, head.y, head.z
	q.k[s], q.fk[s], q.reach[s] = k, dt*k, c.reach*k
	if c.fixed {
		q.fk[s] = 0
	}
	q.setCols(s)
	cp, cr := v3{}, q4{w: 1}
	if hasCentre(sp) {
		cp, cr = centre(sp)
		q.centred = true
	}
	q.cpx[s], q.cpy[s], q.cpz[s] = cp.x, cp.y, cp.z
	q.crx[s], q.cry[s], q.crz[s], q.crw[s] = cr.x, cr.y, cr.z, cr.w
	if s == 0 {
		q.cols = sp.Colliders
	}
	q.scol[s] = sp.Colliders
	q.shared = q.shared && len(sp.Colliders) == len(q.cols)
	return loadedFast
}
