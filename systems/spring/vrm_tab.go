package spring

import (
	"github.com/sway-anim/sway/systems/collide"
)

// tabN is how many colliders of a quad's aligned lists stage A tests;
// the quad's near mask never names one past them, and collide1 tries the
// rest in Go.
const tabN = 8

// mixed is the bound of a table entry whose slots' colliders differ in
// kind or bound: stage A leaves it to collide1 in every slot.
const mixed = 0xff

// colTab is collider c of every slot's list as columns (element s:
// slot s), the form stage A reads: one load per field serves every slot,
// whichever lists they come from. kind and bound are the slots' common
// ones, bound mixed when they differ.
//
// bcx, bcy, bcz and br are the collider's bounding sphere (bound), for
// the reach test and, with bs (br and a margin for rounding in
// coordinates of this size), for stage A's quick test of a capsule.
type colTab struct {
	ax, ay, az    [slotCount]float32
	bx, by, bz    [slotCount]float32
	ra, rb        [slotCount]float32
	nx, ny, nz    [slotCount]float32
	bcx, bcy, bcz [slotCount]float32
	br, bs        [slotCount]float32
	kind          collide.Kind
	bound         uint8
	_             [14]byte
}

// boundMiss reports that a tail of radius r at p lies beyond the bounding
// sphere of collider t in slot s, with a margin: then misses would report
// a miss too, and stage A skips its capsule test. It is the kernel's
// arithmetic, operation for operation.
func (t *colTab) boundMiss(s int, p v3, r float32) bool {
	s &= slotCount - 1
	d := p.sub(v3{t.bcx[s], t.bcy[s], t.bcz[s]})
	lim := float32(r*boundSlack) + t.bs[s]
	return d.dot(d) >= float32(lim*lim)
}

// boundSlack widens a bound by its relative rounding error: float32(1 +
// 1e-5), as the kernels load it.
const boundSlack = float32(1 + 1e-5)

// fillTab fills q.tab from the slots' lists unless they were filled from
// the same lists already. Slots without a spring copy slot 0's values
// (and count as having its list): stage A computes them but never uses
// them. A collider of one list shared by every slot is worked out once.
func (q *quad) fillTab() {
	key := [slotCount]*collide.Shape{}
	n := min(len(q.cols), tabN)
	if n == 0 {
		// An empty list leaves nothing for stage A: the table must say so,
		// or run's near mask names the previous lists' colliders.
		q.tabKey, q.tabLen = key, 0
		return
	}
	for s := range slotCount {
		key[s] = &q.cols[0]
		if len(q.scol[s]) > 0 {
			key[s] = &q.scol[s][0]
		}
	}
	if key == q.tabKey && n == q.tabLen {
		return
	}
	q.tabKey, q.tabLen = key, n
	one := true
	for _, k := range key[1:] {
		one = one && k == key[0]
	}
	for c := range n {
		t := &q.tab[c]
		first := &q.cols[c]
		t.kind, t.bound = first.Kind, uint8(first.Bound)
		for s := range slotCount {
			col := first
			if !one && len(q.scol[s]) > c {
				col = &q.scol[s][c]
			}
			if col.Kind != t.kind || uint8(col.Bound) != uint8(first.Bound) {
				t.bound = mixed
			}
			if one && s > 0 {
				t.copySlot(s, 0)
				continue
			}
			t.ax[s], t.ay[s], t.az[s] = col.A[0], col.A[1], col.A[2]
			t.bx[s], t.by[s], t.bz[s] = col.B[0], col.B[1], col.B[2]
			t.ra[s], t.rb[s] = col.RA, col.RB
			t.nx[s], t.ny[s], t.nz[s] = col.N[0], col.N[1], col.N[2]
			bc, br := bound(col)
			t.bcx[s], t.bcy[s], t.bcz[s], t.br[s] = bc.x, bc.y, bc.z, br
			t.bs[s] = float32(br*boundSlack) + 1e-5*(1+maxAbs(bc)+br)
		}
	}
}

// copySlot copies slot f's values of t to slot s.
func (t *colTab) copySlot(s, f int) {
	s, f = s&(slotCount-1), f&(slotCount-1)
	t.ax[s], t.ay[s], t.az[s] = t.ax[f], t.ay[f], t.az[f]
	t.bx[s], t.by[s], t.bz[s] = t.bx[f], t.by[f], t.bz[f]
	t.ra[s], t.rb[s] = t.ra[f], t.rb[f]
	t.nx[s], t.ny[s], t.nz[s] = t.nx[f], t.ny[f], t.nz[f]
	t.bcx[s], t.bcy[s], t.bcz[s], t.br[s], t.bs[s] = t.bcx[f], t.bcy[f], t.bcz[f], t.br[f], t.bs[f]
}
