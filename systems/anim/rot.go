package anim

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// accumulateRot adds w times the clip's rotation keys to the accumulator
// acc, bone bones[i] taking key i: k0 on a key (k1 nil), else the nlerp of
// k0 and k1 at a. The first multiple of four of them go through the SIMD
// kernels when simd allows (every bone within acc); those compute the Go
// definitions' operations in the same order, so the result is the same
// bits either way.
func accumulateRot(acc []mgl32.Quat, bones []int32, k0, k1 []mgl32.Quat, a, w float32, simd bool) {
	n := 0
	if useSIMDRot && simd && len(bones) >= 4 {
		n = len(bones) &^ 3
		if k1 == nil {
			addQuats(&acc[0], &bones[0], &k0[0], n, w)
		} else {
			nlerpAdd(&acc[0], &bones[0], &k0[0], &k1[0], n, a, w)
		}
	}
	if k1 == nil {
		addQuatsGo(acc, bones[n:], k0[n:], w)
	} else {
		nlerpAddGo(acc, bones[n:], k0[n:], k1[n:], a, w)
	}
}

// addQuatsGo adds w times k0[i] to acc[bones[i]], turned to acc's side
// (addQuatTo): accumulate's work on a key.
func addQuatsGo(acc []mgl32.Quat, bones []int32, k0 []mgl32.Quat, w float32) {
	k0 = k0[:len(bones)]
	for i, b := range bones {
		addQuatTo(&acc[b], &k0[i], w)
	}
}

// nlerpAddGo adds w times the nlerp of k0[i] and k1[i] at a (along the
// shorter arc, normalised) to acc[bones[i]], turned to acc's side:
// accumulate's work between two keys.
func nlerpAddGo(acc []mgl32.Quat, bones []int32, k0, k1 []mgl32.Quat, a, w float32) {
	k0, k1 = k0[:len(bones)], k1[:len(bones)]
	for i, b := range bones {
		qw, qx, qy, qz := lerpKeys(&k0[i], &k1[i], a)
		// The nlerp's normalisation folded into the weight.
		s := w / float32(math.Sqrt(float64(qw*qw+qx*qx+qy*qy+qz*qz)))
		r := &acc[b]
		if r.W*qw+r.V[0]*qx+r.V[1]*qy+r.V[2]*qz < 0 {
			s = -s
		}
		r.W += s * qw
		r.V[0] += s * qx
		r.V[1] += s * qy
		r.V[2] += s * qz
	}
}

// lerpKeys returns the nlerp of q0 and q1 at a before its normalisation:
// (1-a) q0 + a q1, with q1 negated when the two point apart (the shorter
// arc).
func lerpKeys(q0, q1 *mgl32.Quat, a float32) (w, x, y, z float32) {
	a0, a1 := 1-a, a
	if q0.W*q1.W+q0.V[0]*q1.V[0]+q0.V[1]*q1.V[1]+q0.V[2]*q1.V[2] < 0 {
		a1 = -a
	}
	return a0*q0.W + a1*q1.W, a0*q0.V[0] + a1*q1.V[0], a0*q0.V[1] + a1*q1.V[1], a0*q0.V[2] + a1*q1.V[2]
}
