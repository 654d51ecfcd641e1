package chain

import (
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/go-gl/mathgl/mgl32"
)

// fillBytes fills the n bytes at p with random bits.
func fillBytes(rng *rand.Rand, p unsafe.Pointer, n uintptr) {
	b := unsafe.Slice((*byte)(p), n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
}

// poison fills every non-pointer scratch field of q with random bits, as
// a Lanes kept from another chunk or frame may hold anything (the chain
// systems keep theirs in a pool).
func poison(rng *rand.Rand, q *Lanes) {
	Q := &q.q
	f := func(p unsafe.Pointer, n uintptr) { fillBytes(rng, p, n) }
	f(unsafe.Pointer(&Q.part), unsafe.Sizeof(Q.part))
	f(unsafe.Pointer(&Q.f0), unsafe.Sizeof(Q.f0)*7)
	f(unsafe.Pointer(&Q.slack), unsafe.Sizeof(Q.slack))
	f(unsafe.Pointer(&Q.ncol), unsafe.Sizeof(Q.ncol))
	for k := range Q.col {
		C := &Q.col[k]
		f(unsafe.Pointer(C), unsafe.Offsetof(C.seg))
		C.seg = int(rng.Uint64())
	}
	f(unsafe.Pointer(&Q.ax), unsafe.Sizeof(Q.ax)*3)
	f(unsafe.Pointer(&Q.t), unsafe.Sizeof(Q.t))
	Q.shared = rng.IntN(2) == 0
	f(unsafe.Pointer(&Q.clReach), unsafe.Sizeof(Q.clReach))
	f(unsafe.Pointer(&Q.bounds), unsafe.Sizeof(Q.bounds))
	f(unsafe.Pointer(&Q.segs), unsafe.Sizeof(Q.segs))
	for s := range Q.nb {
		Q.nb[s] = rng.IntN(maxBounds + 1)
	}
	Q.nbAll = rng.IntN(maxBounds + 1)
	A := &Q.a
	f(unsafe.Pointer(&A.w), unsafe.Sizeof(A.w))
	f(unsafe.Pointer(&A.turned), unsafe.Sizeof(A.turned))
	f(unsafe.Pointer(&A.t), unsafe.Sizeof(A.t))
}

// A Lanes whose scratch holds anything applies as a fresh one: the poses
// are ApplyIn's on each chain alone, bit for bit.
func TestQuadLanesReusedAppliesAlike(t *testing.T) { forEachLanes(t, testQuadLanesReusedAppliesAlike) }

func testQuadLanesReusedAppliesAlike(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, d := range []Desc{{Root: 1, Settings: DefaultSettings()}, {Root: 1, Settings: DefaultSettings(), EndLength: 0.5},
		{Root: 1, Settings: DefaultSettings(), EndOffset: mgl32.Vec3{0.03, -0.05, 0.02}}} {
		for _, frames := range []int{0, 1, 7, 30} {
			l := newApplyLanes(t, applyLine, d, frames)
			var quad, alone [LaneCount]Pose
			var qp [LaneCount]*Pose
			for s, r := range l.rigs {
				quad[s], alone[s] = clonePose(r.pose), clonePose(r.pose)
				qp[s] = &quad[s]
			}
			var q Lanes
			poison(rng, &q)
			q.ApplyIn(l.pool, l.pool, &l.cs, &qp)
			for s, c := range l.cs {
				ApplyIn(l.pool, l.pool, c, &alone[s])
				for b := range alone[s].LocalPos {
					if !sameBits(quad[s].LocalPos[b], alone[s].LocalPos[b]) || !sameQuatBits(quad[s].LocalRot[b], alone[s].LocalRot[b]) ||
						!sameBits(quad[s].WorldPos[b], alone[s].WorldPos[b]) || !sameQuatBits(quad[s].WorldRot[b], alone[s].WorldRot[b]) {
						t.Fatalf("frames %d lane %d bone %d differs", frames, s, b)
					}
				}
			}
		}
	}
}
