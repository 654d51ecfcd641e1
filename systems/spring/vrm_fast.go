package spring

import (
	"math"
	"math/bits"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/systems/collide"
)

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
// A joint takes three steps. Stage A integrates and renormalises the tail
// (stageA1), then pushes it out of the spheres it touches (touch1) up to
// the first collider of another kind; collide1 goes on from there in Go;
// stage B turns the joint (stageB1). Stage A and B run on the slots
// of a quad at once (stageA, stageB; AVX2 on amd64). The functions below
// are their scalar definition: the kernels perform the same operations in
// the same order, so both give the same bits, and they serve as the
// implementation elsewhere and for a quad with one spring left (step1).

// slot returns the joint i of slot s and where its tails and output are,
// or idle data for a slot without one.
func (q *quad) slot(s, i int) (j *vrmJoint, cur, prev *mgl32.Vec3, dst *mgl32.Quat, ok bool) {
	s &= slotCount - 1
	if i < len(q.joints[s]) {
		return &q.joints[s][i], &q.cur[s][i], &q.prev[s][i], &q.dst[s][i], true
	}
	return &idleJoint, &idleVec, &idleVec, &idleQuat, false
}

// set returns the settings of joint i of slot s, or idle ones.
func (q *quad) set(s, i int) *vrmSet {
	s &= slotCount - 1
	if i >= len(q.joints[s]) {
		return &idleSet
	}
	if q.sstep[s] == 0 {
		return &q.sets[s][0]
	}
	return &q.sets[s][i]
}

// stageA1 integrates the tail of slot s at joint i: the velocity kept,
// stiffness and gravity, then back to bone length from the head.
func (q *quad) stageA1(s, i int) {
	s &= slotCount - 1
	j, cur, prev, _, ok := q.slot(s, i)
	set := q.set(s, i)
	c, p := ld(cur), ld(prev)
	if ok {
		*prev = c.vec()
	}
	q.bad[s] |= notFinite(c)
	if q.centred {
		cr, cp := q4{q.crw[s], q.crx[s], q.cry[s], q.crz[s]}, v3{q.cpx[s], q.cpy[s], q.cpz[s]}
		c = cr.rotFin(c, cr.rotT(c)).add(cp)
		p = cr.rotFin(p, cr.rotT(p)).add(cp)
	}
	next := c.add(c.sub(p).scale(set.keep))
	pr := q4{q.rw[s], q.rx[s], q.ry[s], q.rz[s]}
	rest := pr.rotFin(j.restAxis, pr.rotT(j.restAxis))
	k := q.k[s]
	next = next.add(rest.scale(set.stiffness).add(set.gravity).scale(float32(set.force*k) + q.fk[s]))
	head := v3{q.hx[s], q.hy[s], q.hz[s]}
	d := next.sub(head)
	dir := rest
	if l2 := d.dot(d); l2 > 1e-12 && l2 <= math.MaxFloat32 {
		dir = d.scale(1 / sqrt(l2))
	}
	lk := j.length * k
	next = head.add(dir.scale(lk))
	q.nx[s], q.ny[s], q.nz[s] = next.x, next.y, next.z
	q.dx[s], q.dy[s], q.dz[s] = dir.x, dir.y, dir.z
	q.ax[s], q.ay[s], q.az[s] = rest.x, rest.y, rest.z
	q.r[s], q.lk[s] = set.hitRadius*k, lk
	if ok {
		q.active |= 1 << s
	}
}

// stageB1 turns the joint i of slot s onto its tail, writes its local
// rotation and tail, and makes it the parent of the next joint.
//
// r = FromTo(rest, dir) by the half-way vector h: (rest·h, rest×h) /
// (|rest||h|). Dividing by |rest|, 1 to rounding, matters: rest comes from
// the parent's rotation, and a norm error passed on to r would grow
// threefold per joint. Within about 25° of opposite (|h|² < 0.2) the
// float64 fromTo takes over.
func (q *quad) stageB1(s, i int) {
	s &= slotCount - 1
	j, cur, _, dst, ok := q.slot(s, i)
	rest := v3{q.ax[s], q.ay[s], q.az[s]}
	dir := v3{q.dx[s], q.dy[s], q.dz[s]}
	var r q4
	if h := rest.add(dir); h.dot(h) >= 0.2 {
		inv := 1 / sqrt(h.dot(h)*rest.dot(rest))
		r = rest.cross(h).scale(inv).q(rest.dot(h) * inv)
	} else {
		r = fromTo(rest, dir)
	}
	pr := q4{q.rw[s], q.rx[s], q.ry[s], q.rz[s]}
	restRot := pr
	if !q.identRot {
		lr := j.localRot
		restRot = q4{pr.mulW(lr), pr.mulX(lr), pr.mulY(lr), pr.mulZ(lr)}
	}
	world := q4{r.mulW(restRot), r.mulX(restRot), r.mulY(restRot), r.mulZ(restRot)}
	pr = pr.conj()
	local := q4{pr.mulW(world), pr.mulX(world), pr.mulY(world), pr.mulZ(world)}
	q.rx[s], q.ry[s], q.rz[s], q.rw[s] = world.x, world.y, world.z, world.w
	next := v3{q.nx[s], q.ny[s], q.nz[s]}
	q.hx[s], q.hy[s], q.hz[s] = next.x, next.y, next.z
	if q.centred {
		cr, cp := q4{q.crw[s], -q.crx[s], -q.cry[s], -q.crz[s]}, v3{q.cpx[s], q.cpy[s], q.cpz[s]}
		next = next.sub(cp)
		next = cr.rotFin(next, cr.rotT(next))
	}
	q.bad[s] |= notFinite(next)
	if ok {
		*dst = local.quat()
		*cur = next.vec()
	}
}

// notFinite returns the bits of v-v, 0 for a finite v: the kernels OR
// them into quad.bad for every tail they load or store.
func notFinite(v v3) uint32 {
	b := math.Float32bits
	return b(v.x-v.x) | b(v.y-v.y) | b(v.z-v.z)
}

// stageAGo is stageA in Go. Like the kernel, it first parks the slots
// whose spring ended at the previous joint.
func stageAGo(q *quad, i int) uint64 {
	q.active = 0
	for s := range slotCount {
		if i == len(q.joints[s]) {
			q.park(s)
		}
		q.stageA1(s, i)
	}
	ft := uint64(noTouch)
	for s := range slotCount {
		if q.active&(1<<s) != 0 {
			ft = ft&^(0xff<<(8*s)) | uint64(q.touch1(s))<<(8*s)
		}
	}
	return ft
}

// stageBGo is stageB in Go; it also serves the quads whose SIMD stageB
// declines because a slot needs the float64 fromTo. As the kernel, it
// skips the rest rotation only when no slot's joint has one.
func stageBGo(q *quad, i int) {
	q.identRot = true
	for s := range slotCount {
		j, _, _, _, _ := q.slot(s, i)
		q.identRot = q.identRot && j.identRot
	}
	for s := range slotCount {
		q.stageB1(s, i)
	}
}

// touch1 is stage A's collider pass for slot s: it pushes the tail out
// of the spheres in q.near that it touches, renormalising it after each
// push, until it may touch a collider of another kind (or of kinds that
// differ between the slots), which it returns for collide1 to go on from
// (0xff: none). The SIMD kernel does the same from q.tab, which holds the
// same values, with collide.Push's sphere arithmetic inline.
func (q *quad) touch1(s int) uint32 {
	s &= slotCount - 1
	r := q.r[s]
	p := v3{q.nx[s], q.ny[s], q.nz[s]}
	cols := q.scol[s]
	for m := q.near; m != 0; m &= m - 1 {
		c := bits.TrailingZeros32(m) & (tabN - 1)
		t, col := &q.tab[c], &cols[c]
		if t.bound != uint8(collide.Outside) || t.kind != collide.Sphere {
			if t.bound == uint8(collide.Outside) &&
				(t.kind == collide.Capsule && t.boundMiss(s, p, r) || misses(p, r, col)) {
				continue
			}
			return uint32(c)
		}
		// misses for a sphere, inline: most tails miss most colliders.
		if d, R := p.sub(ld(&col.A)), col.RA+r; d.dot(d) >= R*R {
			continue
		}
		pushed := p.vec()
		collide.Push(&pushed, r, col)
		head, rest := v3{q.hx[s], q.hy[s], q.hz[s]}, v3{q.ax[s], q.ay[s], q.az[s]}
		dir := ld(&pushed).sub(head).norm(rest)
		p = head.add(dir.scale(q.lk[s]))
		q.nx[s], q.ny[s], q.nz[s] = p.x, p.y, p.z
		q.dx[s], q.dy[s], q.dz[s] = dir.x, dir.y, dir.z
	}
	return 0xff
}

// collide1 pushes the tail of slot s out of the colliders from
// index from on, skipping those out of the quad's reach with aligned
// lists, and renormalises it after each push.
func (q *quad) collide1(s int, from int) {
	s &= slotCount - 1
	r := q.r[s]
	next := v3{q.nx[s], q.ny[s], q.nz[s]}
	moved := false
	cols := q.scol[s]
	for ci := from; ci < len(cols); ci++ {
		if q.shared && ci < tabN && q.near&(1<<ci) == 0 {
			continue
		}
		c := &cols[ci]
		if c.Bound == collide.Outside && misses(next, r, c) {
			continue
		}
		p := next.vec()
		if !collide.Push(&p, r, c) {
			continue
		}
		head, rest := v3{q.hx[s], q.hy[s], q.hz[s]}, v3{q.ax[s], q.ay[s], q.az[s]}
		dir := ld(&p).sub(head).norm(rest)
		next = head.add(dir.scale(q.lk[s]))
		q.dx[s], q.dy[s], q.dz[s] = dir.x, dir.y, dir.z
		moved = true
	}
	if moved {
		q.nx[s], q.ny[s], q.nz[s] = next.x, next.y, next.z
	}
}

// misses reports that collide.Push would not move a particle of radius r
// at p out of the Outside shape c: Push's own test for spheres and
// planes, a bound for capsules (the round cone lies within the capsule of
// its larger radius). Most tails near a collider miss it, and this costs
// less than the call.
func misses(p v3, r float32, c *collide.Shape) bool {
	a := ld(&c.A)
	d := p.sub(a)
	switch c.Kind {
	case collide.Sphere:
		R := c.RA + r
		return d.dot(d) >= R*R
	case collide.Capsule:
		ab := ld(&c.B).sub(a)
		if t := d.dot(ab); t > 0 {
			if l2 := ab.dot(ab); t >= l2 {
				d = d.sub(ab)
			} else {
				d = d.sub(ab.scale(t / l2))
			}
		}
		R := c.RA
		if c.RB > R {
			R = c.RB
		}
		R += r
		return d.dot(d) > R*R*(1+1e-5)
	case collide.Plane:
		return d.dot(ld(&c.N))-r >= 0
	}
	return false
}
