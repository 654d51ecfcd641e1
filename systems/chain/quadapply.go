package chain

import (
	"unsafe"

	"github.com/go-gl/mathgl/mgl32"
)

// applyQuad is Lanes.ApplyIn's state: each lane's pose arrays and
// particles, held by their first element, and per particle, as columns,
// the world rotation of its bone in its parent's new frame (apply's rot
// when the parent turns it) and, for a particle with a child, the bone's
// new world rotation after its own turn. It keeps no pointer to the
// caller's poses: they may be on its stack, which a pointer stored here
// would move to the heap.
type applyQuad struct {
	lp, ws, wp [LaneCount]*mgl32.Vec3 // LocalPos, WorldScale, WorldPos
	lr, wr     [LaneCount]*mgl32.Quat // LocalRot, WorldRot
	pos        [LaneCount]*mgl32.Vec3 // each lane's particle 0
	w          [quadMaxN]quatCols
	turned     [quadMaxN]quatCols
	// Spill space of the SIMD kernel (aT0..aLZ, see layout.go).
	t [aCols][LaneCount]float32
}

// quatCols is one quaternion of each of the lanes, as columns.
type quatCols struct{ w, x, y, z [LaneCount]float32 }

func (c *quatCols) set(s int, w, x, y, z float32) {
	s &= LaneCount - 1
	c.w[s], c.x[s], c.y[s], c.z[s] = w, x, y, z
}

// ApplyIn runs ApplyIn on the chains cs, each on its lane's pose, and
// returns what each returns (-1 for a nil chain or pose). When they are
// of one shape (same rest data, every parent with one child particle)
// and their poses fit, the lanes are applied side by side,
// with the same results as alone: the SIMD kernel computes apply's
// operations in the same order, and a lane it cannot take at a particle
// (FromToRotation near opposite directions, a local rotation far from
// unit length) is finished there by apply's own code. Like Apply it
// writes the chain bones' world pose; bones under a chain that does not
// cover its root's subtree need forward kinematics from the returned
// bone. One chain may sit in several lanes, with the same pose in each,
// as for StepsIn: it is applied once.
func (q *Lanes) ApplyIn(rest, sim *Particles, cs *[LaneCount]*Chain, poses *[LaneCount]*Pose) (lowest [LaneCount]int) {
	lo := appliable(rest, sim, cs, poses)
	if lo < 0 {
		for s, c := range cs {
			switch k := firstLane(cs, s); {
			case c == nil || poses[s] == nil:
				lowest[s] = -1
			case k < s:
				lowest[s] = lowest[k] // applied once
			default:
				lowest[s] = ApplyIn(rest, sim, c, poses[s])
			}
		}
		return lowest
	}
	q.q.a.run(rest, sim, cs, poses)
	for s := range lowest {
		lowest[s] = lo
	}
	return lowest
}

// appliable returns the lowest bone that applying the chains cs writes
// when they can be applied side by side, and -1 when they cannot.
func appliable(rest, sim *Particles, cs *[LaneCount]*Chain, poses *[LaneCount]*Pose) int {
	c0 := cs[0]
	if c0 == nil {
		return -1
	}
	n, r := c0.N, c0.RestFirst
	if n < 2 || n > quadMaxN || r < 0 || r+n > len(rest.Bone) || r+n > len(rest.Parent) ||
		r+n > len(rest.Children) || r+n > len(rest.Local) {
		return -1
	}
	// The lanes share the rest data, so one look at it serves them all:
	// parents first, every parent a bone with one child particle (apply's
	// turn, not the one-child rule's move).
	bone, parent, children := rest.Bone[r:r+n], rest.Parent[r:r+n], rest.Children[r:r+n]
	lo, hi := bone[0], bone[0]
	for i := 1; i < n; i++ {
		j := parent[i]
		if uint(j) >= uint(i) || bone[j] < 0 || children[j] != 1 {
			return -1
		}
		if b := bone[i]; b >= 0 {
			lo, hi = min(lo, b), max(hi, b)
		}
	}
	if lo < 0 {
		return -1
	}
	for s, c := range cs {
		// Apply checks the pose against maxBone: with the bones within
		// it, the two agree.
		if c == nil || c.RestFirst != r || c.N != n || c.First < 0 || c.First+n > len(sim.Pos) ||
			hi > c.maxBone || poses[s] == nil || !poseFits(poses[s], c.maxBone) {
			return -1
		}
	}
	return int(lo)
}

// run applies the chains cs, appliable.
func (a *applyQuad) run(rest, sim *Particles, cs *[LaneCount]*Chain, poses *[LaneCount]*Pose) {
	n, r := cs[0].N, cs[0].RestFirst
	bone, parent, local := rest.Bone[r:r+n], rest.Parent[r:r+n], rest.Local[r:r+n]
	b0 := bone[0]
	for s, c := range cs {
		p := poses[s]
		a.lp[s], a.ws[s], a.lr[s] = &p.LocalPos[0], &p.WorldScale[0], &p.LocalRot[0]
		a.wp[s], a.wr[s] = &p.WorldPos[0], &p.WorldRot[0]
		a.pos[s] = &sim.Pos[c.First]
		w := &p.WorldRot[b0]
		a.w[0].set(s, w.W, w.V[0], w.V[1], w.V[2])
	}
	avx2 := useAVX2
	for i := 1; i < n; i++ {
		j, b := int(parent[i]), bone[i]
		// The kernel chosen here, as in quad.run.
		var m uint32
		if avx2 {
			m = applyKernelAVX2(a, i, j, int(bone[j]), int(b), &local[i])
		} else {
			m = applyKernelGo(a, i, j, int(bone[j]), int(b), &local[i])
		}
		if m != 0 {
			a.turnLanes(m, cs, i, j, bone[j], b, &local[i], poses)
		}
	}
	applyWorld(a, &bone[0], &rest.Children[r], n)
	a.pos = [LaneCount]*mgl32.Vec3{}
	a.lp, a.ws, a.wp = [LaneCount]*mgl32.Vec3{}, [LaneCount]*mgl32.Vec3{}, [LaneCount]*mgl32.Vec3{}
	a.lr, a.wr = [LaneCount]*mgl32.Quat{}, [LaneCount]*mgl32.Quat{}
}

// applyKernelGo is the apply kernel in Go, lane by lane: the definition the
// SIMD kernel follows. For every lane it computes turn's float32 path at
// particle i and the child's rotation: the parent's turned rotation into
// a.turned[j] and, for a particle with a bone, the bone's world rotation
// into a.w[i]. A lane where turn would take another path (FromToRotation
// near opposite directions, a zero or huge vector, a new local rotation
// far from unit length, NaN) is returned (bit s: lane s) with its pose
// untouched; the others get their parent bone's new local rotation and,
// with a bone, its local position. As the SIMD kernel, it reads every
// lane's pose before it writes any: lanes that repeat a chain and its
// pose read what the first of them read.
func applyKernelGo(a *applyQuad, i, j, pb, b int, end *mgl32.Vec3) uint32 {
	var left uint32
	var nq [LaneCount][4]float32 // the parent bone's new local rotation
	var nl [LaneCount][3]float32 // the bone's new local position
	W, T := &a.w[j&(quadMaxN-1)], &a.turned[j&(quadMaxN-1)]
	for s := range LaneCount {
		pos := a.pos[s]
		pi := (*mgl32.Vec3)(unsafe.Add(unsafe.Pointer(pos), uintptr(i)*12))
		pj := (*mgl32.Vec3)(unsafe.Add(unsafe.Pointer(pos), uintptr(j)*12))
		sc := (*mgl32.Vec3)(unsafe.Add(unsafe.Pointer(a.ws[s]), uintptr(pb)*12))
		L := (*mgl32.Quat)(unsafe.Add(unsafe.Pointer(a.lr[s]), uintptr(pb)*16))
		l := end
		if b >= 0 {
			l = (*mgl32.Vec3)(unsafe.Add(unsafe.Pointer(a.lp[s]), uintptr(b)*12))
		}
		// turn's operations, in its order.
		ww, wx, wy, wz := W.w[s], W.x[s], W.y[s], W.z[s]
		v0, v1, v2 := sc[0]*l[0], sc[1]*l[1], sc[2]*l[2]
		t0, t1, t2 := pi[0]-pj[0], pi[1]-pj[1], pi[2]-pj[2]
		la2, lb2 := dot3(v0, v1, v2), dot3(t0, t1, t2)
		m2 := la2 * lb2
		m := sqrt32(m2)
		f := lb2 / m
		nl[s] = [3]float32{l[0] * f, l[1] * f, l[2] * f}
		u0, u1, u2 := rotate(ww, -wx, -wy, -wz, t0, t1, t2)
		hw := m + float32(v0*u0) + float32(v1*u1) + float32(v2*u2)
		ok := m2 > 1e-24 && m2 < 1e30 && hw > 1e-3*m
		c0, c1, c2 := float32(v1*u2)-float32(v2*u1), float32(v2*u0)-float32(v0*u2), float32(v0*u1)-float32(v1*u0)
		k := 1 / sqrt32(float32(hw*hw)+float32(c0*c0)+float32(c1*c1)+float32(c2*c2))
		rw, rx, ry, rz := hw*k, c0*k, c1*k, c2*k
		nw, nx, ny, nz := qmul(ww, wx, wy, wz, rw, rx, ry, rz)
		T.set(s, nw, nx, ny, nz)
		if b >= 0 {
			C := (*mgl32.Quat)(unsafe.Add(unsafe.Pointer(a.lr[s]), uintptr(b)*16))
			cw, cx, cy, cz := qmul(nw, nx, ny, nz, C.W, C.V[0], C.V[1], C.V[2])
			a.w[i&(quadMaxN-1)].set(s, cw, cx, cy, cz)
		}
		qw, qx, qy, qz := qmul(L.W, L.V[0], L.V[1], L.V[2], rw, rx, ry, rz)
		d := float32(qw*qw) + float32(qx*qx) + float32(qy*qy) + float32(qz*qz) - 1
		kq := 1 - float32(0.5*d)
		nq[s] = [4]float32{qw * kq, qx * kq, qy * kq, qz * kq}
		if !(ok && d < 1e-3 && d > -1e-3) {
			left |= 1 << s
		}
	}
	for s := range LaneCount {
		if left&(1<<s) != 0 {
			continue
		}
		q := &nq[s]
		*(*mgl32.Quat)(unsafe.Add(unsafe.Pointer(a.lr[s]), uintptr(pb)*16)) = mgl32.Quat{W: q[0], V: mgl32.Vec3{q[1], q[2], q[3]}}
		if b >= 0 {
			*(*mgl32.Vec3)(unsafe.Add(unsafe.Pointer(a.lp[s]), uintptr(b)*12)) = nl[s]
		}
	}
	return left
}

// applyWorldGo writes each lane's chain bones' world pose as apply does,
// for the n particles of an appliable chain (its bones within every
// lane's pose, every parent with one child particle, which turned it):
// a bone on its particle (the root stays), with the world rotation it was
// last given.
func applyWorldGo(a *applyQuad, bone, children *int32, n int) {
	bs, ch := unsafe.Slice(bone, n), unsafe.Slice(children, n)
	for s := range LaneCount {
		pos, wp, wr := unsafe.Slice(a.pos[s], n), a.wp[s], a.wr[s]
		for k, b := range bs {
			if b < 0 {
				continue // an end particle
			}
			q := &a.w[k&(quadMaxN-1)]
			if ch[k] > 0 {
				q = &a.turned[k&(quadMaxN-1)]
			}
			*(*mgl32.Quat)(unsafe.Add(unsafe.Pointer(wr), uintptr(b)*16)) = mgl32.Quat{W: q.w[s], V: mgl32.Vec3{q.x[s], q.y[s], q.z[s]}}
			if k > 0 {
				*(*mgl32.Vec3)(unsafe.Add(unsafe.Pointer(wp), uintptr(b)*12)) = pos[k]
			}
		}
	}
}

// turnLanes is apply's work at particle i (parent j, bones b and pb) on
// the lanes the kernel left (bit s of m: lane s). A chain in several lanes
// (with one pose) is turned once: its later lanes copy the first one's
// columns.
func (a *applyQuad) turnLanes(m uint32, cs *[LaneCount]*Chain, i, j int, pb, b int32, local *mgl32.Vec3, poses *[LaneCount]*Pose) {
	for s := range LaneCount {
		if m&(1<<s) == 0 {
			continue
		}
		if k := firstLane(cs, s); k == s {
			a.lane(s, i, j, pb, b, local, poses[s])
		} else {
			a.copyLane(s, k, i, j, b)
		}
	}
}

// copyLane gives lane s lane k's results at particle i (parent j, bone
// b): the parent's turn and the child's rotation.
func (a *applyQuad) copyLane(s, k, i, j int, b int32) {
	T := &a.turned[j&(quadMaxN-1)]
	T.set(s, T.w[k&(LaneCount-1)], T.x[k&(LaneCount-1)], T.y[k&(LaneCount-1)], T.z[k&(LaneCount-1)])
	if b >= 0 {
		W := &a.w[i&(quadMaxN-1)]
		W.set(s, W.w[k&(LaneCount-1)], W.x[k&(LaneCount-1)], W.y[k&(LaneCount-1)], W.z[k&(LaneCount-1)])
	}
}

// lane is apply's work on particle i (parent j, bones b and pb) of lane s
// alone: its turn from the parent's rotation in the columns, and the
// child's rotation into them.
func (a *applyQuad) lane(s, i, j int, pb, b int32, local *mgl32.Vec3, pose *Pose) {
	s &= LaneCount - 1
	W := &a.w[j&(quadMaxN-1)]
	pos := unsafe.Slice(a.pos[s], i+1)
	w := mgl32.Quat{W: W.w[s], V: mgl32.Vec3{W.x[s], W.y[s], W.z[s]}}
	l := local
	if b >= 0 {
		l = &pose.LocalPos[b]
	}
	nw, nx, ny, nz := turn(pose, &w, l, &pos[i], &pos[j], pb, b)
	a.turned[j&(quadMaxN-1)].set(s, nw, nx, ny, nz)
	if b >= 0 {
		C := &pose.LocalRot[b]
		cw, cx, cy, cz := qmul(nw, nx, ny, nz, C.W, C.V[0], C.V[1], C.V[2])
		a.w[i&(quadMaxN-1)].set(s, cw, cx, cy, cz)
	}
}
