package anim

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// The SIMD kernels of accumulateRot give the Go definitions' bits, for
// every count of bones (the kernels take fours, Go the rest), bones in any
// order, keys on either side of each other and of the accumulator, and
// non-finite input (NaN where the definition gives NaN).
func TestAccumulateRotMatchesTheGoDefinitions(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 13))
	f := func() float32 { return 2*rng.Float32() - 1 }
	quat := func() mgl32.Quat { return mgl32.Quat{W: f(), V: mgl32.Vec3{f(), f(), f()}} }
	const nBones = 40
	for trial := range 400 {
		n := trial % 14
		bones := make([]int32, n)
		for i, b := range rng.Perm(nBones)[:n] {
			bones[i] = int32(b)
		}
		k0, k1 := make([]mgl32.Quat, n), make([]mgl32.Quat, n)
		for i := range k0 {
			k0[i], k1[i] = quat(), quat()
		}
		acc := make([]mgl32.Quat, nBones)
		for i := range acc {
			acc[i] = quat()
		}
		if trial%50 == 7 && n > 0 {
			k1[n-1].V[1] = float32(math.NaN())
			acc[bones[0]].W = float32(math.Inf(1))
		}
		a, w := rng.Float32(), 2*rng.Float32()
		for _, onKey := range []bool{true, false} {
			var k []mgl32.Quat
			if !onKey {
				k = k1
			}
			got, want := append([]mgl32.Quat(nil), acc...), append([]mgl32.Quat(nil), acc...)
			accumulateRot(got, bones, k0, k, a, w, true)
			if onKey {
				addQuatsGo(want, bones, k0, w)
			} else {
				nlerpAddGo(want, bones, k0, k1, a, w)
			}
			for b := range got {
				if !sameQuatBits(got[b], want[b]) {
					t.Fatalf("trial %d (%d bones, on a key %v) bone %d: %v, want %v", trial, n, onKey, b, got[b], want[b])
				}
			}
		}
	}
}

func sameQuatBits(a, b mgl32.Quat) bool {
	x := [4]float32{a.W, a.V[0], a.V[1], a.V[2]}
	y := [4]float32{b.W, b.V[0], b.V[1], b.V[2]}
	for i := range x {
		nx, ny := x[i] != x[i], y[i] != y[i]
		if nx != ny || !nx && math.Float32bits(x[i]) != math.Float32bits(y[i]) {
			return false
		}
	}
	return true
}
