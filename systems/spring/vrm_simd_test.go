package spring

import (
	"math"
	"math/rand"
	"slices"
	"testing"
	"unsafe"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/mathx"
	"github.com/sway-anim/sway/systems/collide"
)

// quadCase is a quad with chains and tails of its own, for running stage
// A and B through both implementations from the same start.
type quadCase struct {
	q         quad
	joints    [slotCount][]vrmJoint
	sets      [slotCount][]vrmSet
	cur, prev [slotCount][]mgl32.Vec3
	dst       [slotCount][]mgl32.Quat
}

func randUnitQuat(rng *rand.Rand) q4 {
	q := mgl32.Quat{W: rng.Float32()*2 - 1, V: mgl32.Vec3{rng.Float32()*2 - 1, rng.Float32()*2 - 1, rng.Float32()*2 - 1}}
	q, _ = mathx.NormalizeQuat(q)
	return ldq(&q)
}

func randV3(rng *rand.Rand, s float32) v3 {
	return v3{(rng.Float32()*2 - 1) * s, (rng.Float32()*2 - 1) * s, (rng.Float32()*2 - 1) * s}
}

// newQuadCase fills slot s with a chain of lens[s] random but plausible
// joints (0: an empty slot) and tails; slots without a joint at level i
// are parked, as stepBlock leaves them.
func newQuadCase(rng *rand.Rand, lens [slotCount]int, i int, centred, identRot bool) *quadCase {
	c := &quadCase{}
	q := &c.q
	q.reset()
	uniform := rng.Intn(2) == 0
	q.full = i < lens[0]
	for _, n := range lens {
		q.full = q.full && n == lens[0]
	}
	for s := range slotCount {
		q.park(s)
	}
	q.centred = centred
	// Colliders: aligned lists, one for every slot or one per slot (the
	// same kinds moved, or any kinds), some past the table.
	nc := rng.Intn(tabN + 4)
	base := randShapes(rng, nc)
	for s := range slotCount {
		switch rng.Intn(3) {
		case 0:
			q.scol[s] = base
		case 1:
			q.scol[s] = append([]collide.Shape(nil), base...)
			for c := range q.scol[s] {
				d := randV3(rng, 0.3).vec()
				q.scol[s][c].A = q.scol[s][c].A.Add(d)
				q.scol[s][c].B = q.scol[s][c].B.Add(d)
			}
		default:
			q.scol[s] = randShapes(rng, nc)
		}
	}
	q.cols = q.scol[0]
	q.fillTab()
	q.near = rng.Uint32() & (1<<min(nc, tabN) - 1)
	for s, n := range lens {
		c.joints[s] = make([]vrmJoint, n)
		// Settings per joint, or one for all (in every slot, half the
		// time: the kernel's columns).
		c.sets[s] = make([]vrmSet, max(n, 1))
		if uniform || rng.Intn(2) == 0 {
			c.sets[s] = c.sets[s][:1]
		}
		q.sets[s], q.sstep[s] = c.sets[s], 0
		if len(c.sets[s]) > 1 {
			q.sstep[s] = unsafe.Sizeof(vrmSet{})
		}
		c.cur[s], c.prev[s], c.dst[s] = make([]mgl32.Vec3, n), make([]mgl32.Vec3, n), make([]mgl32.Quat, n)
		q.joints[s], q.cur[s], q.prev[s], q.dst[s] = c.joints[s], c.cur[s], c.prev[s], c.dst[s]
		if i > n || i == n && n == 0 {
			continue // parked before; a spring that ends here is parked by stage A
		}
		r := randUnitQuat(rng)
		q.rx[s], q.ry[s], q.rz[s], q.rw[s] = r.x, r.y, r.z, r.w
		h := randV3(rng, 2)
		q.hx[s], q.hy[s], q.hz[s] = h.x, h.y, h.z
		q.k[s], q.fk[s] = 0.2+rng.Float32()*2, rng.Float32()*0.05
		if centred && rng.Intn(2) == 0 {
			cr, cp := randUnitQuat(rng), randV3(rng, 3)
			q.crx[s], q.cry[s], q.crz[s], q.crw[s] = cr.x, cr.y, cr.z, cr.w
			q.cpx[s], q.cpy[s], q.cpz[s] = cp.x, cp.y, cp.z
		}
		for k := range n {
			lr := q4{w: 1}
			if !identRot {
				lr = randUnitQuat(rng)
			}
			axis := randV3(rng, 1)
			axis = axis.scale(1 / axis.len())
			c.joints[s][k] = vrmJoint{restAxis: lr.rot(axis), length: rng.Float32() * 0.2, localRot: lr, identRot: identRot}
			if k < len(c.sets[s]) {
				c.sets[s][k] = vrmSet{
					stiffness: rng.Float32() * 2, gravity: randV3(rng, 1), keep: rng.Float32(),
					force: rng.Float32() * 0.02 * float32(rng.Intn(2)), hitRadius: rng.Float32() * 0.05,
				}
			}
			// Tails near the head, sometimes on it (a zero-length offset).
			c.cur[s][k] = h.add(randV3(rng, 0.3)).vec()
			c.prev[s][k] = ld(&c.cur[s][k]).add(randV3(rng, 0.05)).vec()
			if rng.Intn(50) == 0 {
				c.cur[s][k], c.prev[s][k] = h.vec(), h.vec()
			}
		}
		q.setCols(s)
	}
	// Half the full quads hold one chain in every slot, as quad.run finds
	// for the same spring of characters of one rig.
	if q.full && rng.Intn(2) == 0 {
		for s := range slotCount {
			c.joints[s], q.joints[s] = c.joints[0], c.joints[0]
		}
		q.oneChain = true
	}
	// identAll as quad.load sets it: every joint of every slot's chain.
	for s := range slotCount {
		for k := range c.joints[s] {
			q.identAll = q.identAll && c.joints[s][k].identRot
		}
	}
	return c
}

// randShapes returns n shapes of every kind and bound around the origin,
// where the test tails are, with an unknown kind now and then.
func randShapes(rng *rand.Rand, n int) []collide.Shape {
	cols := make([]collide.Shape, n)
	for c := range cols {
		a, b := randV3(rng, 2), randV3(rng, 2)
		col := collide.Shape{Kind: collide.Kind(rng.Intn(3)), A: a.vec(), B: a.vec(), RA: rng.Float32() * 1.5}
		col.RB = col.RA
		switch col.Kind {
		case collide.Capsule:
			col.B, col.RB = b.vec(), rng.Float32()*1.5
		case collide.Plane:
			col.N = mathx.NormalizeOr(b.vec(), mgl32.Vec3{0, 1, 0})
		}
		if rng.Intn(10) == 0 {
			col.Bound = collide.Inside
		}
		if rng.Intn(20) == 0 {
			col.Kind = 7
		}
		if rng.Intn(40) == 0 {
			col.RA = float32(math.NaN()) // garbage in: both paths alike, finite out
		}
		cols[c] = col
	}
	return cols
}

// clone copies c deeply, the copy's quad pointing at its own slices.
func (c *quadCase) clone() *quadCase {
	d := *c
	for s := range slotCount {
		d.joints[s] = append([]vrmJoint(nil), c.joints[s]...)
		d.cur[s] = append([]mgl32.Vec3(nil), c.cur[s]...)
		d.prev[s] = append([]mgl32.Vec3(nil), c.prev[s]...)
		d.dst[s] = append([]mgl32.Quat(nil), c.dst[s]...)
		d.q.joints[s], d.q.cur[s], d.q.prev[s], d.q.dst[s] = d.joints[s], d.cur[s], d.prev[s], d.dst[s]
	}
	return &d
}

// sameBits reports whether c and d hold the same state, tails and
// outputs, bit for bit; it names the first difference.
func (c *quadCase) sameBits(d *quadCase) (bool, string) {
	arrays := []struct {
		name string
		a, b *[slotCount]float32
	}{
		{"rx", &c.q.rx, &d.q.rx}, {"ry", &c.q.ry, &d.q.ry}, {"rz", &c.q.rz, &d.q.rz}, {"rw", &c.q.rw, &d.q.rw},
		{"hx", &c.q.hx, &d.q.hx}, {"hy", &c.q.hy, &d.q.hy}, {"hz", &c.q.hz, &d.q.hz},
		{"nx", &c.q.nx, &d.q.nx}, {"ny", &c.q.ny, &d.q.ny}, {"nz", &c.q.nz, &d.q.nz},
		{"dx", &c.q.dx, &d.q.dx}, {"dy", &c.q.dy, &d.q.dy}, {"dz", &c.q.dz, &d.q.dz},
		{"ax", &c.q.ax, &d.q.ax}, {"ay", &c.q.ay, &d.q.ay}, {"az", &c.q.az, &d.q.az},
		{"r", &c.q.r, &d.q.r}, {"lk", &c.q.lk, &d.q.lk},
	}
	b := math.Float32bits
	if c.q.active != d.q.active {
		return false, "active"
	}
	if c.q.bad != d.q.bad {
		return false, "bad"
	}
	for s := range slotCount {
		for k, a := range arrays {
			// A slot without a joint: only its state, parked, counts.
			if (c.q.active&(1<<s) != 0 || k < 7) && b(a.a[s]) != b(a.b[s]) {
				return false, a.name
			}
		}
		for k := range c.cur[s] {
			for e := range 3 {
				if b(c.cur[s][k][e]) != b(d.cur[s][k][e]) || b(c.prev[s][k][e]) != b(d.prev[s][k][e]) {
					return false, "tail"
				}
				if b(c.dst[s][k].V[e]) != b(d.dst[s][k].V[e]) {
					return false, "dst"
				}
			}
			if b(c.dst[s][k].W) != b(d.dst[s][k].W) {
				return false, "dst"
			}
		}
	}
	return true, ""
}

// TestStagesMatchScalar runs stage A and B (SIMD on amd64) and their
// scalar definitions from the same random quads and requires the same
// bits, for every mix of slot lengths, centres and rest rotations.
func TestStagesMatchScalar(t *testing.T) {
	if !simdStages {
		t.Log("no SIMD stages on this machine: the scalar definitions are compared with themselves")
	}
	rng := rand.New(rand.NewSource(9))
	var st stageStats
	for n := range 20000 {
		stageCase(t, rng, n, &st)
	}
	if simdStages && st.declined == 0 {
		t.Error("stage B never declined: the opposite case is not tested")
	}
	if st.centre < 100 {
		t.Errorf("only %d tails at a sphere's centre", st.centre)
	}
	if st.touched < 5000 || st.exact < 2000 {
		t.Errorf("tails touched %d colliders (%d by a test, not by kind): too few to test the collider test", st.touched, st.exact)
	}
}

// FuzzStagesMatchScalar runs one case of TestStagesMatchScalar from a
// fuzzed seed; n picks the kind of case (full, centred, rest rotations).
func FuzzStagesMatchScalar(f *testing.F) {
	for n := range 8 {
		f.Add(int64(n), uint16(n))
	}
	f.Fuzz(func(t *testing.T, seed int64, n uint16) {
		var st stageStats
		stageCase(t, rand.New(rand.NewSource(seed)), int(n), &st)
	})
}

// stageStats counts what the stage cases exercised.
type stageStats struct {
	declined, touched, exact, centre int
}

// stageCase runs stage A and B (SIMD on amd64) and their scalar
// definitions on case n, a random quad from rng, and fails t unless they
// give the same bits.
func stageCase(t testing.TB, rng *rand.Rand, n int, st *stageStats) {
	t.Helper()
	var lens [slotCount]int
	for s := range lens {
		lens[s] = rng.Intn(4)
	}
	lens[rng.Intn(slotCount)] = 1 + rng.Intn(4)
	if n%4 == 0 { // a full quad: springs of one length
		for s := range lens {
			lens[s] = lens[0] + 1
		}
	}
	i := rng.Intn(slices.Max(lens[:]))
	a := newQuadCase(rng, lens, i, n%3 == 0, n%2 == 0)
	if n%50 == 0 && len(a.q.cols) > 0 {
		// A zero-length bone whose tail is the centre of a sphere:
		// Push's push along +Y.
		for s := range slotCount {
			if i < lens[s] {
				a.joints[s][i].length = 0
				h := mgl32.Vec3{a.q.hx[s], a.q.hy[s], a.q.hz[s]}
				a.q.scol[s] = append([]collide.Shape(nil), a.q.scol[s]...)
				a.q.scol[s][0] = collide.Shape{Kind: collide.Sphere, A: h, B: h, RA: 0.1, RB: 0.1}
				a.q.cols = a.q.scol[0]
				a.q.tabKey = [slotCount]*collide.Shape{}
				a.q.fillTab()
				a.q.near |= 1
				st.centre++
				break
			}
		}
	}
	g := a.clone()
	fa, fg := stageA(&a.q, i), stageAGo(&g.q, i)
	if ok, what := a.sameBits(g); !ok {
		t.Fatalf("case %d: stage A differs from stageA1 in %s", n, what)
	}
	if fa != fg {
		t.Fatalf("case %d: stage A's first touches %#x, firstTouchGo %#x", n, fa, fg)
	}
	for s := range slotCount {
		if c := fa >> (8 * s) & 0xff; c != 0xff {
			st.touched++
			if col := &a.q.tab[c]; col.kind <= collide.Plane && col.bound == uint8(collide.Outside) {
				st.exact++
			}
		}
	}
	if rng.Intn(20) == 0 {
		// A tail pushed onto the far side: the float64 fromTo.
		s := rng.Intn(slotCount)
		if a.q.active&(1<<s) != 0 {
			a.q.dx[s], a.q.dy[s], a.q.dz[s] = -a.q.ax[s], -a.q.ay[s], -a.q.az[s]
			g.q.dx[s], g.q.dy[s], g.q.dz[s] = -g.q.ax[s], -g.q.ay[s], -g.q.az[s]
		}
	}
	if !stageB(&a.q, i) {
		st.declined++
		if ok, what := a.sameBits(g); !ok {
			t.Fatalf("case %d: stage B declined but changed %s", n, what)
		}
		stageBGo(&a.q, i)
	}
	stageBGo(&g.q, i)
	if ok, what := a.sameBits(g); !ok {
		t.Fatalf("case %d: stage B differs from stageB1 in %s", n, what)
	}
	for s := range slotCount {
		if i < lens[s] {
			allFinite(t, "stage B", a.cur[s][i:i+1], a.dst[s][i:i+1])
		}
	}
}

// TestIdleSlotsStayParked checks the fixed point idle slots rely on: a
// parked slot keeps its state, and stage B declines for no idle slot.
func TestIdleSlotsStayParked(t *testing.T) {
	c := newQuadCase(rand.New(rand.NewSource(3)), [slotCount]int{3, 0, 2, 1}, 1, true, false)
	for i := 1; i < 3; i++ {
		if i == 2 {
			c.q.park(2)
		}
		stageA(&c.q, i)
		if !stageB(&c.q, i) {
			t.Errorf("level %d: stage B declined", i)
			stageBGo(&c.q, i)
		}
	}
	for _, s := range []int{1, 2, 3} {
		q := &c.q
		if q.rx[s] != 0 || q.ry[s] != 0 || q.rz[s] != 0 || q.rw[s] != 1 || q.hx[s] != 0 || q.hy[s] != 0 || q.hz[s] != 0 {
			t.Errorf("idle slot %d moved: rotation (%v %v %v %v), head (%v %v %v)", s, q.rx[s], q.ry[s], q.rz[s], q.rw[s], q.hx[s], q.hy[s], q.hz[s])
		}
	}
	if idleVec != (mgl32.Vec3{}) || idleQuat != (mgl32.Quat{}) || idleJoint != (vrmJoint{localRot: q4{w: 1}, restAxis: v3{y: 1}, identRot: true}) {
		t.Errorf("idle data were written: %v %v %+v", idleVec, idleQuat, idleJoint)
	}
}
