package chain

import (
	"math"
	"unsafe"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/systems/collide"
)

// Lanes steps LaneCount chains of one shape side by side, one per SIMD
// lane: typically the same chain of eight characters built from one Desc.
// Their state is copied into columns (element s of every array belongs to
// the chain in lane s), every sub-step runs particle by particle for the
// eight at once, and the result is copied back. The lanes compute exactly
// the operations of Step in the same order, so the result is the same bits
// as StepsIn on each chain alone; a particle that touches a collider is
// finished by the same scalar code Step uses. The lane kernels are AVX2
// assembly on amd64 (quad_amd64.s, quadapply_amd64.s) and their Go
// definitions (the functions named ...Go) wherever that cannot run.
//
// ApplyIn applies eight such chains side by side in the same way.
//
// A Lanes value is scratch: keep one per goroutine (it is about 38 KB) and
// reuse it. The zero value is ready.
type Lanes struct {
	q     quad
	links LinkScratch
}

// Links returns the Lanes's scratch for StepLinked: a worker that keeps a
// Lanes steps its linked characters in it.
func (q *Lanes) Links() *LinkScratch { return &q.links }

// Release drops what the Lanes holds of the caller's data (the shapes
// handed to Shapes, and the count of them it bounded), for a Lanes kept
// between frames: it is then as a Lanes given no shapes.
func (q *Lanes) Release() {
	q.q.shapes = [LaneCount][]collide.Shape{}
	q.q.nb, q.q.nbAll = [LaneCount]int{}, 0
	clear(q.links.views)
}

// LaneCount is how many chains Lanes.StepsIn and Lanes.ApplyIn take side
// by side: one per lane of a 256-bit AVX register.
const LaneCount = 8

// quadMaxN is the longest chain a quad takes; longer ones step alone.
const quadMaxN = 32

// quadPart is one particle of the lanes: its state and its animated
// record (see animated), which run derives from the lanes' poses.
type quadPart struct {
	x, y, z    [LaneCount]float32 // position
	px, py, pz [LaneCount]float32 // previous position
	hit        [LaneCount]uint32  // all ones: it touched a collider in the last step
	_          [LaneCount]uint32
	o0, o1, o2 [LaneCount]float32 // the animated offset from the parent
	rl, pl     [LaneCount]float32 // the length to keep and the path length from the root
}

// anim returns lane s's animated record.
func (P *quadPart) anim(s int) animated {
	s &= LaneCount - 1
	return animated{o0: P.o0[s], o1: P.o1[s], o2: P.o2[s], rl: P.rl[s], pl: P.pl[s]}
}

// quadCol is one listed collider of the lanes: its bounding sphere
// and gap (see culled; the gap is NaN where the lane culled it), and which
// lanes can reach it at the particle being stepped.
type quadCol struct {
	c0, c1, c2, r, gap [LaneCount]float32
	reach              [LaneCount]uint32
	b                  boundCols // the lanes' bounding spheres, gathered once per run
	seg                int       // the lanes' segments: q.segs[seg]
}

// boundCols is a bounding sphere (see sphere) for each of the lanes,
// as columns; open is all ones for a shape without a bound.
type boundCols struct {
	bc0, bc1, bc2, br [LaneCount]float32
	open              [LaneCount]uint32
}

// segCols is a segment (see segment) for each of the lanes, as
// columns.
type segCols struct {
	a0, a1, a2, u0, u1, u2, inv, rm [LaneCount]float32
}

type quad struct {
	part [quadMaxN]quadPart
	// Each lane's packed step inputs, from particle 0 (its animated
	// records are in part); ps is the stride of its pk (see
	// paramStride).
	pk [LaneCount][]packed
	ps [LaneCount]int
	// Each lane's first particle in the pool (quadable checked that its
	// n particles are there).
	pos, prev [LaneCount]*mgl32.Vec3
	hit       [LaneCount]*bool
	// The sub-step's integration (see integrator) and the slack of each
	// lane (see constrainer).
	f0, f1, f2, m0, m1, m2, vs [LaneCount]float32
	slack                      [LaneCount]float32
	ncol                       int // colliders listed per chain, at most maxCull
	col                        [maxCull]quadCol
	// Stage A's position (before keep-length), for a lane the scalar code
	// finishes.
	ax, ay, az [LaneCount]float32
	// Spill space of the SIMD kernel: the packed step inputs as columns
	// (tR..tInert, see layout.go).
	t [tCols][LaneCount]float32
	// Every lane's particles share one packed record (ps 0): run sets the
	// kernel's parameter columns (q.t) once, and the SIMD kernel reads no
	// per-particle record.
	shared bool

	chains  [LaneCount]*Chain
	clReach [LaneCount]float32 // the reach each lane's colliders were culled for
	// first[s] is the first lane that holds lane s's chain (firstLane)
	// when a lane's chain is in Variable mode, else s: start moves a
	// Variable chain's root and advances its step (integrator.start
	// writes the Chain) in that lane only, and gives the lanes that
	// repeat the chain its columns. In Fixed mode start writes nothing
	// of the chain, and every lane starts on its own.
	first [LaneCount]uint8

	// The lanes' shapes (Shapes) and the bounding spheres of the first
	// maxBounds of each, shape i of every lane in bounds[i] (lane s's
	// valid for i < nb[s]); a collider past them gets its sphere when
	// gathered. Chains of characters built alike list the same shapes,
	// so gathering a collider is then one copy of bounds[i].
	shapes [LaneCount][]collide.Shape
	bounds [maxBounds]boundCols
	// The segments of the shapes in bounds (segs[i] with bounds[i]), then
	// one per listed collider whose lanes list different shapes
	// (segs[maxBounds+k], see gather).
	segs  [2 * maxBounds]segCols
	nb    [LaneCount]int
	nbAll int // the least nb

	a applyQuad // ApplyIn's
}

// maxBounds is how many shapes of a lane's character Shapes bounds ahead;
// the standard rig has three.
const maxBounds = 16

// Shapes sets the collider shapes of the lanes' characters for the
// StepsIn calls that follow, and works out once what culling needs of
// them (their bounding spheres) instead of once per chain and sub-step.
// Call it again whenever the shapes move (every frame, after placing
// them); the Lanes keeps the slices until then.
func (q *Lanes) Shapes(shapes *[LaneCount][]collide.Shape) {
	inf := float32(math.Inf(1))
	q.q.nbAll = maxBounds
	for s := range LaneCount {
		sh := shapes[s]
		q.q.shapes[s] = sh
		n := min(len(sh), maxBounds)
		q.q.nb[s], q.q.nbAll = n, min(q.q.nbAll, n)
		for i := range n {
			b := sphereOf(&sh[i], inf)
			q.q.bounds[i].set(s, b)
			q.q.segs[i].set(s, segmentOf(&sh[i], &b, inf))
		}
	}
}

// set puts b in lane s.
func (c *boundCols) set(s int, b sphere) {
	s &= LaneCount - 1
	c.bc0[s], c.bc1[s], c.bc2[s], c.br[s], c.open[s] = b.c0, b.c1, b.c2, b.r, 0
	if b.open {
		c.open[s] = ^uint32(0)
	}
}

// set puts g in lane s.
func (c *segCols) set(s int, g segment) {
	s &= LaneCount - 1
	c.a0[s], c.a1[s], c.a2[s], c.u0[s], c.u1[s], c.u2[s], c.inv[s], c.rm[s] = g.a0, g.a1, g.a2, g.u0, g.u1, g.u2, g.inv, g.rm
}

// lane returns lane s's segment.
func (c *segCols) lane(s int) segment {
	s &= LaneCount - 1
	return segment{a0: c.a0[s], a1: c.a1[s], a2: c.a2[s], u0: c.u0[s], u1: c.u1[s], u2: c.u2[s], inv: c.inv[s], rm: c.rm[s]}
}

// StepsIn runs StepsIn on the LaneCount chains cs, each with its pose,
// its steps and the shapes of its lane (Shapes). When they are of one
// shape (same rest data, no freeze axis, the same number of colliders, at
// most 8) and take the same number of sub-steps, they are stepped side by
// side; otherwise each alone. A nil chain is skipped. It reports, as
// StepsIn does, whether each lane's particles are all finite afterwards
// (true for a nil chain).
//
// One chain may sit in several lanes, with the same pose, steps and
// shapes in each: it is stepped once. That fills the lanes when fewer
// chains than LaneCount are at hand: side by side, its lanes compute the
// same bits and store them over each other.
func (q *Lanes) StepsIn(rest, sim *Particles, cs *[LaneCount]*Chain, poses *[LaneCount]*Pose, steps *[LaneCount]int) (finite [LaneCount]bool) {
	if !quadable(rest, sim, cs, poses, steps) {
		return q.q.alone(rest, sim, cs, poses, steps)
	}
	return q.q.run(rest, sim, cs, poses, steps[0])
}

// alone steps each chain of cs on its own, a chain found in an earlier
// lane once (its lanes report its result).
func (q *quad) alone(rest, sim *Particles, cs *[LaneCount]*Chain, poses *[LaneCount]*Pose, steps *[LaneCount]int) (finite [LaneCount]bool) {
	for s, c := range cs {
		switch k := firstLane(cs, s); {
		case c == nil || poses[s] == nil:
			finite[s] = true
		case k < s:
			finite[s] = finite[k]
		default:
			finite[s] = StepsIn(rest, sim, c, poses[s], steps[s], q.shapes[s])
		}
	}
	return finite
}

// firstLane returns the first lane of cs that holds lane s's chain: s
// itself unless an earlier lane holds it too.
func firstLane(cs *[LaneCount]*Chain, s int) int {
	for k := range s {
		if cs[k] == cs[s] {
			return k
		}
	}
	return s
}

// lanesOK reports whether c uses none of the features the lanes do not
// have (they take the scalar path): collision along segments, an angle
// limit.
func (c *Chain) lanesOK() bool {
	return !(c.Settings.SegmentCollision && len(c.Colliders) > 0) && !(c.Settings.LimitAngleDegrees > 0)
}

// quadable reports whether the chains cs can be stepped side by side.
func quadable(rest, sim *Particles, cs *[LaneCount]*Chain, poses *[LaneCount]*Pose, steps *[LaneCount]int) bool {
	c0 := cs[0]
	if c0 == nil || steps[0] < 1 {
		return false
	}
	n := c0.N
	for s, c := range cs {
		if c == nil || steps[s] != steps[0] || c.RestFirst != c0.RestFirst || c.N != n || !c.fits(n) ||
			poses[s] == nil || !poseFits(poses[s], c.maxBone) ||
			c.freeze() != FreezeNone || len(c.Colliders) != len(c0.Colliders) || !c.lanesOK() ||
			c.First < 0 || c.First+n > len(sim.Pos) || c.First+n > len(sim.Prev) || c.First+n > len(sim.Collided) {
			return false
		}
	}
	if r := c0.RestFirst; n < 2 || n > quadMaxN || len(c0.Colliders) > maxCull || r < 0 ||
		r+n > len(rest.Parent) || r+n > len(rest.Bone) || r+n > len(rest.Local) {
		return false
	}
	// Parents first: the lanes share the rest data, so one check serves.
	for i, j := range rest.Parent[c0.RestFirst : c0.RestFirst+n] {
		if i > 0 && uint(j) >= uint(i) {
			return false
		}
	}
	return true
}

// run steps the chains cs, quadable, steps sub-steps each.
func (q *quad) run(rest, sim *Particles, cs *[LaneCount]*Chain, poses *[LaneCount]*Pose, steps int) (finite [LaneCount]bool) {
	n, r := cs[0].N, cs[0].RestFirst
	parent := rest.Parent[r : r+n]
	// What animate reads of the lanes' shared rest data.
	p := Particles{Bone: rest.Bone[r : r+n], Parent: parent, Local: rest.Local[r : r+n]}
	q.ncol = len(cs[0].Colliders)
	q.shared = true
	pathMax, ok := q.animate(&p, poses, n)
	if !ok {
		// A bone outside a lane's pose (rest data another chain's than
		// the lanes' own): each alone, which leaves that lane alone.
		var st [LaneCount]int
		for s := range st {
			st[s] = steps
		}
		return q.alone(rest, sim, cs, poses, &st)
	}
	q.first = [LaneCount]uint8{0, 1, 2, 3, 4, 5, 6, 7}
	variable := false
	for s, c := range cs {
		q.chains[s] = c
		variable = variable || c.variable
		pk := c.packs()
		c.reach = reachOf(pathMax[s], c.rmax, c.scale)
		q.pk[s], q.ps[s] = pk, paramStride(len(pk))
		q.shared = q.shared && q.ps[s] == 0
		q.pos[s], q.prev[s], q.hit[s] = &sim.Pos[c.First], &sim.Prev[c.First], &sim.Collided[c.First]
	}
	if variable {
		// Not for Fixed mode alone: finding the repeated chains costs two
		// per cent of a run of short chains.
		for s := range cs {
			q.first[s] = uint8(firstLane(cs, s))
		}
	}
	if q.shared {
		// The columns the SIMD kernel's ROWS would fill for every
		// particle.
		for s := range LaneCount {
			k := &q.pk[s][0]
			q.t[tR][s], q.t[tE][s], q.t[tSK][s], q.t[tKeep][s] = k.r, k.e, k.sk, k.keep
			q.t[tKeepHit][s], q.t[tFS][s], q.t[tFSHit][s], q.t[tInert][s] = k.keepHit, k.fs, k.fsHit, k.inert
		}
	}
	q.gather()
	quadLoad(q, n)
	avx2 := useAVX2
	for sub := range steps {
		q.start(sub)
		for i := 1; i < n; i++ {
			j := int(parent[i])
			// The kernel chosen here rather than in a function of its own:
			// Go would not inline that, and a call per particle costs.
			var m uint32
			if avx2 {
				m = quadKernelAVX2(q, i, j)
			} else {
				m = quadKernelGo(q, i, j)
			}
			if m != 0 {
				q.finish(i, j, m)
			}
		}
	}
	bad := quadStore(q, n)
	q.chains, q.pk = [LaneCount]*Chain{}, [LaneCount][]packed{}
	q.pos, q.prev, q.hit = [LaneCount]*mgl32.Vec3{}, [LaneCount]*mgl32.Vec3{}, [LaneCount]*bool{}
	for s := range finite {
		finite[s] = bad&(1<<s) == 0
	}
	return finite
}

// animate writes the lanes' animated records for their first n particles
// into the columns, with animate's operations, and returns each lane's
// longest path; false if a bone is outside a lane's pose. The lanes share
// p's rest data (quadable: parents first). quadAnimate takes the runs of
// particles of a bone whose parent particle has one, quadAnimateEnd the
// end particles under a bone, animateOne any other.
func (q *quad) animate(p *Particles, poses *[LaneCount]*Pose, n int) (pathMax [LaneCount]float32, ok bool) {
	bone, parent := p.Bone[:n], p.Parent[:n]
	P0 := &q.part[0]
	P0.o0, P0.o1, P0.o2, P0.rl, P0.pl = [LaneCount]float32{}, [LaneCount]float32{}, [LaneCount]float32{}, [LaneCount]float32{}, [LaneCount]float32{}
	var lp quadPoses
	lim := math.MaxInt32
	for s, pose := range poses {
		lim = min(lim, len(pose.WorldPos), len(pose.WorldRot), len(pose.WorldScale))
		if lim == 0 {
			return pathMax, false
		}
		lp.wp[s], lp.wr[s], lp.ws[s] = &pose.WorldPos[0], &pose.WorldRot[0], &pose.WorldScale[0]
	}
	lo := 1
	for i := 1; i <= n; i++ {
		var b, j, pb int
		if i < n {
			b, j = int(bone[i]), int(parent[i]) // j < i: quadable
			pb = int(bone[j])
			if b >= lim || pb >= lim {
				return pathMax, false
			}
			if b >= 0 && pb >= 0 {
				continue
			}
		}
		if lo < i {
			quadAnimate(q, &lp, &bone[0], &parent[0], lo, i, &pathMax)
		}
		switch {
		case i == n:
		case pb >= 0: // b < 0: an end particle
			quadAnimateEnd(q, &lp, &p.Local[i], i, j, pb, &pathMax)
		default:
			q.animateOne(p, poses, i, &pathMax)
		}
		lo = i + 1
	}
	return pathMax, true
}

// quadPoses holds the lanes' pose arrays by their first element, for the
// SIMD kernels.
type quadPoses struct {
	wp [LaneCount]*mgl32.Vec3
	wr [LaneCount]*mgl32.Quat
	ws [LaneCount]*mgl32.Vec3
}

// animateOne is animate's work on particle i of every lane.
func (q *quad) animateOne(p *Particles, poses *[LaneCount]*Pose, i int, pathMax *[LaneCount]float32) {
	b, j := p.Bone[i], int(p.Parent[i])
	for s, pose := range poses {
		var x mgl32.Vec3
		if b >= 0 {
			x = pose.WorldPos[b]
		} else {
			x = animAt(p, pose, i)
		}
		var o mgl32.Vec3
		if pb := p.Bone[j]; pb >= 0 {
			o = x.Sub(pose.WorldPos[pb])
		} else {
			o = x.Sub(animAt(p, pose, j))
		}
		q.record(s, i, j, o, pathMax)
	}
}

// record is the end of animate's work on particle i (parent j) of lane s,
// its offset o from the parent known.
func (q *quad) record(s, i, j int, o mgl32.Vec3, pathMax *[LaneCount]float32) {
	s &= LaneCount - 1
	P, J := &q.part[i&(quadMaxN-1)], &q.part[j&(quadMaxN-1)]
	l := sqrt32(dot3(o[0], o[1], o[2]))
	pl := J.pl[s] + l
	P.o0[s], P.o1[s], P.o2[s], P.rl[s], P.pl[s] = o[0], o[1], o[2], l, pl
	if pl > pathMax[s] {
		pathMax[s] = pl
	}
}

// quadAnimateGo is animate's work, lane by lane, on particles lo..hi-1
// (0 < lo), each of a bone whose parent particle has a bone, which every
// lane's pose holds: the definition the SIMD kernel follows.
func quadAnimateGo(q *quad, lp *quadPoses, bone, parent *int32, lo, hi int, pathMax *[LaneCount]float32) {
	bs, ps := unsafe.Slice(bone, hi), unsafe.Slice(parent, hi)
	for i := lo; i < hi; i++ {
		j := int(ps[i])
		for s := range LaneCount {
			x := *lp.pos(s, int(bs[i]))
			q.record(s, i, j, x.Sub(*lp.pos(s, int(bs[j]))), pathMax)
		}
	}
}

// quadAnimateEndGo is animate's work, lane by lane, on the end particle i
// (at local in the parent bone's frame) whose parent j has bone pb, which
// every lane's pose holds: animAt's end particle, minus the parent's
// position.
func quadAnimateEndGo(q *quad, lp *quadPoses, local *mgl32.Vec3, i, j, pb int, pathMax *[LaneCount]float32) {
	l := local
	for s := range LaneCount {
		r := (*mgl32.Quat)(unsafe.Add(unsafe.Pointer(lp.wr[s]), 16*pb))
		sc := (*mgl32.Vec3)(unsafe.Add(unsafe.Pointer(lp.ws[s]), 12*pb))
		x0, x1, x2 := rotate(r.W, r.V[0], r.V[1], r.V[2], sc[0]*l[0], sc[1]*l[1], sc[2]*l[2])
		p := lp.pos(s, pb)
		x := p.Add(mgl32.Vec3{x0, x1, x2})
		q.record(s, i, j, x.Sub(*p), pathMax)
	}
}

// pos returns lane s's world position of bone b, which its pose holds.
func (lp *quadPoses) pos(s, b int) *mgl32.Vec3 {
	return (*mgl32.Vec3)(unsafe.Add(unsafe.Pointer(lp.wp[s&(LaneCount-1)]), 12*b))
}

// quadLoadGo copies the first n particles of the lanes' state (q.pos,
// q.prev, q.hit) into the columns.
func quadLoadGo(q *quad, n int) {
	for s := range LaneCount {
		pos, prev, hit := unsafe.Slice(q.pos[s], n), unsafe.Slice(q.prev[s], n), unsafe.Slice(q.hit[s], n)
		for i := range pos {
			P := &q.part[i]
			P.x[s], P.y[s], P.z[s] = pos[i][0], pos[i][1], pos[i][2]
			P.px[s], P.py[s], P.pz[s] = prev[i][0], prev[i][1], prev[i][2]
			P.hit[s] = 0
			if hit[i] {
				P.hit[s] = ^uint32(0)
			}
		}
	}
}

// quadStoreGo copies the columns back into the lanes' state and returns
// the lanes of which a position or previous position is not finite (bit
// s: lane s).
func quadStoreGo(q *quad, n int) (bad uint32) {
	for s := range LaneCount {
		pos, prev, hit := unsafe.Slice(q.pos[s], n), unsafe.Slice(q.prev[s], n), unsafe.Slice(q.hit[s], n)
		for i := range pos {
			P := &q.part[i]
			pos[i] = mgl32.Vec3{P.x[s], P.y[s], P.z[s]}
			prev[i] = mgl32.Vec3{P.px[s], P.py[s], P.pz[s]}
			hit[i] = P.hit[s] != 0
			if !finite3(P.x[s], P.y[s], P.z[s]) || !finite3(P.px[s], P.py[s], P.pz[s]) {
				bad |= 1 << s
			}
		}
	}
	return bad
}

// start moves each lane's root particle and sets its integration and
// colliders for sub-step sub, as step and constrain do. A chain in
// several lanes starts once, in its first: in Variable mode
// integrator.start advances the chain's step lengths (prevH), and a
// second start would rescale the velocity as if the step length had not
// changed since the first.
func (q *quad) start(sub int) {
	P := &q.part[0]
	var reach [LaneCount]float32
	for s, c := range q.chains {
		s &= LaneCount - 1
		if k := int(q.first[s]) & (LaneCount - 1); k != s {
			P.x[s], P.y[s], P.z[s] = P.x[k], P.y[k], P.z[k]
			P.px[s], P.py[s], P.pz[s] = P.px[k], P.py[k], P.pz[k]
			q.f0[s], q.f1[s], q.f2[s] = q.f0[k], q.f1[k], q.f2[k]
			q.m0[s], q.m1[s], q.m2[s] = q.m0[k], q.m1[k], q.m2[k]
			q.vs[s], q.slack[s], reach[s] = q.vs[k], 0, reach[k]
			continue
		}
		if c.variable {
			pos := mgl32.Vec3{P.x[s], P.y[s], P.z[s]}
			prev := mgl32.Vec3{P.px[s], P.py[s], P.pz[s]}
			var in integrator
			in.start(&pos, &prev, c, sub)
			P.x[s], P.y[s], P.z[s] = pos[0], pos[1], pos[2]
			P.px[s], P.py[s], P.pz[s] = prev[0], prev[1], prev[2]
			q.f0[s], q.f1[s], q.f2[s] = in.f0, in.f1, in.f2
			q.m0[s], q.m1[s], q.m2[s] = in.m0, in.m1, in.m2
			q.vs[s] = in.vs
		} else {
			// integrator.start in Fixed mode, straight into the columns:
			// through its Vec3s, the loads of each lane waited on the
			// stores of the last.
			P.px[s], P.py[s], P.pz[s] = P.x[s], P.y[s], P.z[s]
			P.x[s], P.y[s], P.z[s] = c.animRoot[0], c.animRoot[1], c.animRoot[2]
			q.f0[s], q.f1[s], q.f2[s] = c.force[0], c.force[1], c.force[2]
			q.m0[s], q.m1[s], q.m2[s] = 0, 0, 0
			if sub == 0 {
				q.m0[s], q.m1[s], q.m2[s] = c.move[0], c.move[1], c.move[2]
			}
			q.vs[s] = 1
		}
		q.slack[s] = 0
		reach[s] = c.reach * (1 + cullMargin)
	}
	quadCull(q, &reach)
}

// gather puts the bounding sphere of each lane's listed colliders into the
// columns quadCull reads: NaN for an index outside the lane's shapes, which
// then culls it as culled.set skips it.
func (q *quad) gather() {
	inf, nan := float32(math.Inf(1)), float32(math.NaN())
	for k := range q.ncol {
		C := &q.col[k&(maxCull-1)]
		if i := q.chains[0].Colliders[k]; q.listAlike(k, i) && uint(i) < uint(q.nbAll) {
			// Every lane lists the same shape: its segments are Shapes'.
			C.b, C.seg = q.bounds[i&(maxBounds-1)], int(i)
			continue
		}
		C.seg = maxBounds + k
		G := &q.segs[C.seg&(2*maxBounds-1)]
		for s := range LaneCount {
			i := q.chains[s].Colliders[k]
			switch {
			case uint(i) < uint(q.nb[s]):
				B := &q.bounds[i&(maxBounds-1)]
				C.b.bc0[s], C.b.bc1[s], C.b.bc2[s], C.b.br[s], C.b.open[s] = B.bc0[s], B.bc1[s], B.bc2[s], B.br[s], B.open[s]
				G.set(s, q.segs[i&(maxBounds-1)].lane(s))
			case uint(i) < uint(len(q.shapes[s])):
				sh := &q.shapes[s][i]
				b := sphereOf(sh, inf)
				C.b.set(s, b)
				G.set(s, segmentOf(sh, &b, inf))
			default:
				C.b.set(s, sphere{c0: nan, c1: nan, c2: nan, r: nan})
				G.set(s, segment{a0: nan, a1: nan, a2: nan, rm: nan})
			}
		}
	}
}

// listAlike reports whether every lane lists shape i as its collider k.
func (q *quad) listAlike(k int, i int32) bool {
	for _, c := range q.chains[1:] {
		if c.Colliders[k] != i {
			return false
		}
	}
	return true
}

// quadCullGo sets the collider columns for the lanes' roots (part 0) as
// culled.set does for each lane's reach: a collider it leaves out gets a
// zero sphere and a NaN gap, which no path passes.
func quadCullGo(q *quad, reach *[LaneCount]float32) {
	for s := range LaneCount {
		q.cull(s, reach[s])
	}
}

// cull is quadCullGo for lane s alone.
func (q *quad) cull(s int, reach float32) {
	s &= LaneCount - 1
	inf, nan := float32(math.Inf(1)), float32(math.NaN())
	P := &q.part[0]
	for k := range q.ncol {
		C := &q.col[k&(maxCull-1)]
		B := &C.b
		d0, d1, d2 := B.bc0[s]-P.x[s], B.bc1[s]-P.y[s], B.bc2[s]-P.z[s]
		gap := sqrt32(dot3(d0, d1, d2)) - B.br[s]
		if B.open[s] != 0 {
			gap = -inf
		}
		if gap < reach || gap == -inf {
			C.c0[s], C.c1[s], C.c2[s], C.r[s], C.gap[s] = B.bc0[s], B.bc1[s], B.bc2[s], B.br[s], gap
		} else {
			C.c0[s], C.c1[s], C.c2[s], C.r[s], C.gap[s] = 0, 0, 0, 0, nan
		}
	}
	q.clReach[s] = reach
}

// mask returns lane s's colliders in reach of particle i, as
// culled.reachable gives them but by listed index.
func (q *quad) mask(s int) uint32 {
	var m uint32
	for k := range q.ncol {
		if q.col[k&(maxCull-1)].reach[s&(LaneCount-1)] != 0 {
			m |= 1 << k
		}
	}
	return m
}

// hits is culled.hits for lane s, with each collider's segment test
// (segment.near) after its bounding sphere's: a position it leaves out,
// push would not move, so the lane needs no scalar finish there.
func (q *quad) hits(s int, mask uint32, x0, x1, x2, r float32) bool {
	for k := range q.ncol {
		if mask&(1<<k) == 0 {
			continue
		}
		C := &q.col[k&(maxCull-1)]
		d0, d1, d2 := x0-C.c0[s], x1-C.c1[s], x2-C.c2[s]
		if lim := C.r[s] + r; dot3(d0, d1, d2) < lim*lim {
			if g := q.segs[C.seg&(2*maxBounds-1)].lane(s); g.near(x0, x1, x2, r) {
				return true
			}
		}
	}
	return false
}

// push is culled.push for lane s.
func (q *quad) push(s int, mask uint32, x0, x1, x2, r float32) (float32, float32, float32, bool) {
	touched := false
	idx, shapes := q.chains[s].Colliders, q.shapes[s]
	for k := range q.ncol {
		if mask&(1<<k) == 0 {
			continue
		}
		C := &q.col[k&(maxCull-1)]
		d0, d1, d2 := x0-C.c0[s], x1-C.c1[s], x2-C.c2[s]
		if lim := C.r[s] + r; dot3(d0, d1, d2) >= lim*lim {
			continue
		}
		if i := idx[k]; uint(i) < uint(len(shapes)) {
			v := mgl32.Vec3{x0, x1, x2}
			if collide.Push(&v, r, &shapes[i]) {
				x0, x1, x2, touched = v[0], v[1], v[2], true
			}
		}
	}
	return x0, x1, x2, touched
}

// finish completes particle i (parent j) of the lanes in m (see
// quadKernelGo) with the scalar code of constrainer.finish and again.
func (q *quad) finish(i, j int, m uint32) {
	P, J := &q.part[i&(quadMaxN-1)], &q.part[j&(quadMaxN-1)]
	for s := range LaneCount {
		if m&(0x10101<<s) == 0 {
			continue
		}
		ka := P.anim(s)
		p0, p1, p2 := J.x[s], J.y[s], J.z[s]
		if m&(0x10000<<s) != 0 {
			// Not finite: the animated shape, as constrain falls back.
			x0, x1, x2 := p0+ka.o0, p1+ka.o1, p2+ka.o2
			P.x[s], P.y[s], P.z[s] = x0, x1, x2
			P.px[s], P.py[s], P.pz[s] = x0, x1, x2
			continue
		}
		mask, r := q.mask(s), q.pk[s][i*q.ps[s]].r
		var x0, x1, x2 float32
		touched := false
		if m&(1<<s) != 0 {
			// The kernel found stage A's position in a bound (hits): push
			// tests the bounds again, collider by collider.
			x0, x1, x2 = q.ax[s], q.ay[s], q.az[s]
			x0, x1, x2, touched = q.push(s, mask, x0, x1, x2, r)
			x0, x1, x2 = keepLength3(x0, x1, x2, p0, p1, p2, ka.o0, ka.o1, ka.o2, ka.rl)
		} else {
			x0, x1, x2 = P.x[s], P.y[s], P.z[s]
		}
		q.again(s, i, x0, x1, x2, p0, p1, p2, mask, touched)
	}
}

// again is constrainer.again for lane s.
func (q *quad) again(s, i int, x0, x1, x2, p0, p1, p2 float32, mask uint32, touched bool) {
	P, r := &q.part[i&(quadMaxN-1)], q.pk[s][i*q.ps[s]].r
	ka := P.anim(s)
	// Push itself skips the colliders whose bound x is outside: no hits
	// first, as the scalar again has (there it saves a call).
	if y0, y1, y2, moved := q.push(s, mask, x0, x1, x2, r); moved {
		d0, d1, d2 := y0-x0, y1-x1, y2-x2
		q.slack[s] += sqrt32(dot3(d0, d1, d2))
		if reach := q.chains[s].reach; !(reach+q.slack[s] <= q.clReach[s]) {
			q.cull(s, (reach+float32(2*q.slack[s]))*(1+cullMargin))
		}
		x0, x1, x2, touched = y0, y1, y2, true
	}
	if touched {
		P.hit[s] = ^uint32(0)
	}
	if !finite3(x0, x1, x2) {
		x0, x1, x2 = p0+ka.o0, p1+ka.o1, p2+ka.o2
		P.px[s], P.py[s], P.pz[s] = x0, x1, x2
	}
	P.x[s], P.y[s], P.z[s] = x0, x1, x2
}

// quadKernelGo is the step kernel in Go, lane by lane: the definition the SIMD
// kernel follows. It steps particle i, whose parent is j < i, of the
// eight lanes: integration, elasticity and stiffness, the collider test,
// keep-length, the collider test again and the finite check. It stores
// every lane's result and returns the lanes the scalar code must finish
// (quad.finish): bit s for a lane whose stage-A position (q.ax..) touches
// a collider, bit 8+s for one whose kept-length position touches one, bit
// 16+s for one whose result is not finite.
func quadKernelGo(q *quad, i, j int) uint32 {
	P, J := &q.part[i&(quadMaxN-1)], &q.part[j&(quadMaxN-1)]
	var m uint32
	for s := range LaneCount {
		ka, kp := P.anim(s), &q.pk[s][i*q.ps[s]]
		// Integrate.
		x0, x1, x2 := P.x[s], P.y[s], P.z[s]
		a := kp.inert
		r0, r1, r2 := float32(q.m0[s]*a), float32(q.m1[s]*a), float32(q.m2[s]*a)
		keep, fs := kp.keep, kp.fs
		if P.hit[s] != 0 {
			keep, fs = kp.keepHit, kp.fsHit
		}
		P.hit[s] = 0
		keep *= q.vs[s]
		q0, q1, q2 := P.px[s], P.py[s], P.pz[s]
		P.px[s], P.py[s], P.pz[s] = x0+r0, x1+r1, x2+r2
		x0, x1, x2 = x0+float32((x0-q0)*keep)+float32(q.f0[s]*fs)+r0, x1+float32((x1-q1)*keep)+float32(q.f1[s]*fs)+r1, x2+float32((x2-q2)*keep)+float32(q.f2[s]*fs)+r2
		p0, p1, p2 := J.x[s], J.y[s], J.z[s]
		// The colliders in reach of the parent.
		path, reach := ka.pl+kp.r+q.slack[s], ka.rl+kp.r
		var mask uint32
		for k := range q.ncol {
			C := &q.col[k&(maxCull-1)]
			C.reach[s] = 0
			d0, d1, d2 := p0-C.c0[s], p1-C.c1[s], p2-C.c2[s]
			if lim := C.r[s] + reach; C.gap[s] < path && dot3(d0, d1, d2) < lim*lim {
				C.reach[s] = ^uint32(0)
				mask |= 1 << k
			}
		}
		// Elasticity and stiffness.
		o0, o1, o2 := ka.o0, ka.o1, ka.o2
		rest0, rest1, rest2 := p0+o0, p1+o1, p2+o2
		e := kp.e
		x0 += float32((rest0 - x0) * e)
		x1 += float32((rest1 - x1) * e)
		x2 += float32((rest2 - x2) * e)
		if d0, d1, d2, maxLen := rest0-x0, rest1-x1, rest2-x2, ka.rl*kp.sk; dot3(d0, d1, d2) > maxLen*maxLen {
			l := sqrt32(dot3(d0, d1, d2))
			s := (l - maxLen) / l
			x0, x1, x2 = x0+float32(d0*s), x1+float32(d1*s), x2+float32(d2*s)
		}
		q.ax[s], q.ay[s], q.az[s] = x0, x1, x2
		if q.hits(s, mask, x0, x1, x2, kp.r) {
			m |= 1 << s
		}
		// Keep-length.
		x0, x1, x2 = keepLength3(x0, x1, x2, p0, p1, p2, o0, o1, o2, ka.rl)
		if m&(1<<s) == 0 {
			if q.hits(s, mask, x0, x1, x2, kp.r) {
				m |= 0x100 << s
			} else if !finite3(x0, x1, x2) {
				m |= 0x10000 << s
			}
		}
		P.x[s], P.y[s], P.z[s] = x0, x1, x2
	}
	return m
}
