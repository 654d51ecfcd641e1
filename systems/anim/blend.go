package anim

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/mathx"
)

// weightSlack is how far a weight total may fall below one and still count
// as one: the weight functions round, and a 1e-7 share of the rest pose
// would only cost precision.
const weightSlack = 1e-5

// activeWeight returns w if it takes part in a blend, else 0: NaN, ±Inf and
// non-positive weights are left out.
func activeWeight(w float32) float32 {
	if w > 0 && mathx.IsFinite(w) {
		return w
	}
	return 0
}

// BlendPoses writes into dst the blend of poses by weights (one weight per
// pose, the first n bones where n = rest.Len()). Translations and scales are
// weighted sums; rotations are summed after aligning each to the running sum's
// hemisphere, then normalised. Poses with a zero, negative or non-finite
// weight are not read. If the weights sum to less than one (by more than
// 1e-5) the rest pose takes the remainder; otherwise the blend is normalised
// by the sum. A single pose with weight >= 1 is copied exactly. Returns false
// and writes nothing when a slice is too short or dst shares its first bone
// with rest or a weighted pose (dst is cleared before they are read).
func BlendPoses(dst Pose, poses []Pose, weights []float32, rest Pose) bool {
	n := rest.Len()
	if n == 0 || dst.Len() < n || len(weights) < len(poses) || aliases(dst, rest) {
		return false
	}
	single, count := -1, 0
	for i := range poses {
		if activeWeight(weights[i]) > 0 {
			if poses[i].Len() < n || aliases(dst, poses[i]) {
				return false
			}
			single = i
			count++
		}
	}
	if count == 1 && weights[single] >= 1-weightSlack {
		copyPose(dst, poses[single], n)
		return true
	}
	div, rem := weightTotal(weights[:len(poses)])
	blendBegin(dst, n)
	for i := range poses {
		if w := activeWeight(weights[i]); w > 0 {
			blendAdd(dst, poses[i], n, float32(float64(w)/div))
		}
	}
	blendEnd(dst, rest, n, rem)
	return true
}

// weightTotal returns the divisor that brings the active weights' total
// down to one when it is above one, and the remainder left to the rest pose
// when it is below. The total is summed in float64 so huge weights cannot
// overflow it.
func weightTotal(weights []float32) (div float64, rem float32) {
	var total float64
	for _, w := range weights {
		total += float64(activeWeight(w))
	}
	if total < 1-weightSlack {
		return 1, float32(1 - total)
	}
	return total, 0
}

// aliases reports whether two non-empty poses share a first element in any
// channel: the cheap check that catches passing one pose twice.
func aliases(a, b Pose) bool {
	return &a.Pos[0] == &b.Pos[0] || &a.Rot[0] == &b.Rot[0] || &a.Scale[0] == &b.Scale[0]
}

func copyPose(dst, src Pose, n int) {
	copy(dst.Pos[:n], src.Pos[:n])
	copy(dst.Rot[:n], src.Rot[:n])
	copy(dst.Scale[:n], src.Scale[:n])
}

// blendBegin clears the accumulator dst.
func blendBegin(dst Pose, n int) {
	clear(dst.Pos[:n])
	clear(dst.Rot[:n])
	clear(dst.Scale[:n])
}

// blendAdd adds w times src into the accumulator dst.
func blendAdd(dst, src Pose, n int, w float32) {
	dp, dr, ds := dst.Pos[:n], dst.Rot[:n], dst.Scale[:n]
	sp, sr, ss := src.Pos[:n], src.Rot[:n], src.Scale[:n]
	for i := range dp {
		addVecTo(&dp[i], &sp[i], w)
	}
	for i := range dr {
		addQuatTo(&dr[i], &sr[i], w)
	}
	for i := range ds {
		addVecTo(&ds[i], &ss[i], w)
	}
}

// addVecTo adds w*v to *acc component by component (see accumulate for why
// through pointers).
func addVecTo(acc, v *mgl32.Vec3, w float32) {
	acc[0] += w * v[0]
	acc[1] += w * v[1]
	acc[2] += w * v[2]
}

// addQuatTo adds w*q to the sum *acc after aligning q with the sum's
// hemisphere, so q and -q (one rotation) add up instead of cancelling; a
// zero sum (the first pose) takes q as is.
func addQuatTo(acc, q *mgl32.Quat, w float32) {
	if acc.W*q.W+acc.V[0]*q.V[0]+acc.V[1]*q.V[1]+acc.V[2]*q.V[2] < 0 {
		w = -w
	}
	acc.W += w * q.W
	acc.V[0] += w * q.V[0]
	acc.V[1] += w * q.V[1]
	acc.V[2] += w * q.V[2]
}

// blendEnd gives the rest pose its remainder weight and normalises the
// rotations.
func blendEnd(dst, rest Pose, n int, rem float32) {
	if rem > 0 {
		blendAdd(dst, rest, n, rem)
	}
	dr, rr := dst.Rot[:n], rest.Rot[:n]
	for i := range dr {
		normalizeOrRest(&dr[i], &rr[i])
	}
}

// normalizeOrRest normalises the rotation sum q, or sets it to rest if it
// is too short to normalise.
func normalizeOrRest(q, rest *mgl32.Quat) {
	l2 := q.W*q.W + q.V[0]*q.V[0] + q.V[1]*q.V[1] + q.V[2]*q.V[2]
	if !(l2 > mathx.Epsilon) || !mathx.IsFinite(l2) {
		// Unreachable for unit inputs (aligned unit quaternions never
		// cancel); keeps non-unit input from producing NaN.
		*q = *rest
		return
	}
	inv := 1 / float32(math.Sqrt(float64(l2)))
	q.W *= inv
	q.V[0] *= inv
	q.V[1] *= inv
	q.V[2] *= inv
}
