package fk

import (
	"math"
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// refRunOrder is the kernel as first written, component by component on
// mgl32 values: the optimised kernel must give the same bits.
func refRunOrder(worldPos []mgl32.Vec3, worldRot []mgl32.Quat, worldScale []mgl32.Vec3,
	parents []int32, localPos []mgl32.Vec3, localRot []mgl32.Quat, localScale []mgl32.Vec3,
	rootPos mgl32.Vec3, rootRot mgl32.Quat, rootScale mgl32.Vec3, order []int32) {
	for _, i := range order {
		pp, pr, ps := rootPos, rootRot, rootScale
		if p := parents[i]; p >= 0 {
			pp, pr, ps = worldPos[p], worldRot[p], worldScale[p]
		}
		lp, lr, ls := localPos[i], localRot[i], localScale[i]
		// Every product rounded before it is summed, as the kernels do (Go
		// would otherwise fuse them at GOAMD64=v3).
		x, y, z := float32(ps[0]*lp[0]), float32(ps[1]*lp[1]), float32(ps[2]*lp[2])
		qw, qx, qy, qz := pr.W, pr.V[0], pr.V[1], pr.V[2]
		tx := 2 * (float32(qy*z) - float32(qz*y))
		ty := 2 * (float32(qz*x) - float32(qx*z))
		tz := 2 * (float32(qx*y) - float32(qy*x))
		worldPos[i] = mgl32.Vec3{
			pp[0] + x + float32(qw*tx) + (float32(qy*tz) - float32(qz*ty)),
			pp[1] + y + float32(qw*ty) + (float32(qz*tx) - float32(qx*tz)),
			pp[2] + z + float32(qw*tz) + (float32(qx*ty) - float32(qy*tx)),
		}
		worldRot[i] = mgl32.Quat{
			W: float32(qw*lr.W) - float32(qx*lr.V[0]) - float32(qy*lr.V[1]) - float32(qz*lr.V[2]),
			V: mgl32.Vec3{
				float32(qw*lr.V[0]) + float32(qx*lr.W) + float32(qy*lr.V[2]) - float32(qz*lr.V[1]),
				float32(qw*lr.V[1]) + float32(qy*lr.W) + float32(qz*lr.V[0]) - float32(qx*lr.V[2]),
				float32(qw*lr.V[2]) + float32(qz*lr.W) + float32(qx*lr.V[1]) - float32(qy*lr.V[0]),
			},
		}
		worldScale[i] = mgl32.Vec3{ps[0] * ls[0], ps[1] * ls[1], ps[2] * ls[2]}
	}
}

// scaleCase gives the bones of a random job one kind of scale.
func scaleCase(rng *rand.Rand, j *Job, kind int) {
	j.RootScale = mgl32.Vec3{1, 1, 1}
	for i := range j.LocalScale {
		switch kind {
		case 0: // all exactly one: the fast path throughout
			j.LocalScale[i] = mgl32.Vec3{1, 1, 1}
		case 1: // uniform, as randomJob
		case 2: // non-uniform, some mirrored, some exactly one
			if rng.Intn(3) == 0 {
				j.LocalScale[i] = mgl32.Vec3{1, 1, 1}
			} else {
				j.LocalScale[i] = mgl32.Vec3{0.5 + rng.Float32(), -0.5 - rng.Float32(), 0.5 + rng.Float32()}
			}
		case 3: // one in a subtree: ones below non-ones, -0 and huge values
			j.LocalScale[i] = mgl32.Vec3{1, 1, 1}
			if rng.Intn(8) == 0 {
				j.LocalScale[i] = mgl32.Vec3{float32(math.Copysign(0, -1)), 1e30, 1}
			}
		}
	}
	if kind == 1 || kind == 2 {
		j.RootScale = mgl32.Vec3{1.5, 1.5, 0.75}
	}
}

// TestRunOrderMatchesReferenceBitForBit runs the kernels (RunOrder's and
// the Go one on alternate trials) and the reference
// on random skeletons in storage order, level order, sub-ranges and
// ancestor paths, with every kind of scale, and compares the bits.
func TestRunOrderMatchesReferenceBitForBit(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	for trial := 0; trial < 200; trial++ {
		n := 1 + rng.Intn(120)
		j := randomJob(rng, n)
		scaleCase(rng, j, trial%4)
		if trial%5 == 0 { // a chain: every bone waits for the one before
			for i := range j.Parents {
				j.Parents[i] = int32(i) - 1
			}
		}
		if trial%7 == 0 {
			j.RootRot = mgl32.Quat{W: 1}
			j.RootPos = mgl32.Vec3{}
		}
		ref := *j
		ref.WorldPos, ref.WorldRot, ref.WorldScale = make([]mgl32.Vec3, n), make([]mgl32.Quat, n), make([]mgl32.Vec3, n)
		full := StorageOrder(0, n)
		refRunOrder(ref.WorldPos, ref.WorldRot, ref.WorldScale, ref.Parents, ref.LocalPos, ref.LocalRot, ref.LocalScale,
			ref.RootPos, ref.RootRot, ref.RootScale, full)
		orders := [][]int32{full, levelOrder(j.Parents)}
		lo := rng.Intn(n)
		orders = append(orders, StorageOrder(lo, n))
		var path []int32
		for b := int32(n - 1); b >= 0; b = j.Parents[b] {
			path = append([]int32{b}, path...)
		}
		orders = append(orders, path)
		for k, order := range orders {
			// Seed the outputs with the reference so that a partial
			// order finds current parents, then poison what it computes.
			copy(j.WorldPos, ref.WorldPos)
			copy(j.WorldRot, ref.WorldRot)
			copy(j.WorldScale, ref.WorldScale)
			for _, b := range order {
				j.WorldPos[b], j.WorldRot[b], j.WorldScale[b] = mgl32.Vec3{7, 7, 7}, mgl32.Quat{W: 7}, mgl32.Vec3{7, 7, 7}
			}
			switch {
			case k == 0:
				j.Lo, j.Hi, j.Order = 0, n, nil
				j.Run()
			case trial%2 == 0:
				RunOrder(j.WorldPos, j.WorldRot, j.WorldScale, j.Parents, j.LocalPos, j.LocalRot, j.LocalScale,
					j.RootPos, j.RootRot, j.RootScale, order)
			default: // the Go kernel, whichever RunOrder uses
				runOrderGo(j.WorldPos, j.WorldRot, j.WorldScale, j.Parents, j.LocalPos, j.LocalRot, j.LocalScale,
					j.RootPos, j.RootRot, j.RootScale, order)
			}
			for i := 0; i < n; i++ {
				if !sameBits3(j.WorldPos[i], ref.WorldPos[i]) || !sameBitsQ(j.WorldRot[i], ref.WorldRot[i]) ||
					!sameBits3(j.WorldScale[i], ref.WorldScale[i]) {
					t.Fatalf("trial %d order %d bone %d: got %v %v %v, want %v %v %v", trial, k, i,
						j.WorldPos[i], j.WorldRot[i], j.WorldScale[i], ref.WorldPos[i], ref.WorldRot[i], ref.WorldScale[i])
				}
			}
		}
	}
}

func sameBits3(a, b mgl32.Vec3) bool {
	for k := range a {
		if math.Float32bits(a[k]) != math.Float32bits(b[k]) {
			return false
		}
	}
	return true
}

func sameBitsQ(a, b mgl32.Quat) bool {
	return math.Float32bits(a.W) == math.Float32bits(b.W) && sameBits3(a.V, b.V)
}

// TestRunOrderPanicsOnBadIndex: an order or parent out of range panics, as
// an index does, after the bones before it are computed.
func TestRunOrderPanicsOnBadIndex(t *testing.T) {
	for _, tc := range []struct {
		name    string
		order   []int32
		parent2 int32
	}{
		{"order past the end", []int32{0, 1, 9}, 1},
		{"negative order", []int32{0, 1, -2}, 1},
		{"parent past the end", []int32{0, 1, 2}, 7},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j := randomJob(rand.New(rand.NewSource(9)), 3)
			j.Parents[2] = tc.parent2
			for i := range j.WorldPos {
				j.WorldPos[i] = mgl32.Vec3{7, 7, 7}
			}
			defer func() {
				if recover() == nil {
					t.Fatal("no panic")
				}
				if j.WorldPos[1] == (mgl32.Vec3{7, 7, 7}) {
					t.Fatal("bones before the bad one not computed")
				}
			}()
			RunOrder(j.WorldPos, j.WorldRot, j.WorldScale, j.Parents, j.LocalPos, j.LocalRot, j.LocalScale,
				j.RootPos, j.RootRot, j.RootScale, tc.order)
		})
	}
}
