//go:build amd64 && !purego

package breath

import "github.com/go-gl/mathgl/mgl32"

// simdApply tells ApplyGathered (and tests) whether applySimple is a SIMD
// kernel.
const simdApply = true

// applySimple is applyGo for a plan of the simple shape (Plan.simple) on
// amd64, with SSE2 (plan_amd64.s): a holds each segment's angle (Angle,
// minus Prev in Additive mode, by slot) and local points at the pose's
// bone 0 (the plan's bones within the pose). It reports false, writing
// nothing, when a segment's half angle is beyond 0.1 rad, for applyGo to
// handle.
//
//go:noescape
func applySimple(p *Plan, a *[MaxSegments]float32, local *mgl32.Quat) bool

// prefetchBones issues PREFETCHT0 for local[bones[i]], i < maxBones.
//
//go:noescape
func prefetchBones(local *mgl32.Quat, bones *[maxBones]int32)
