//go:build !amd64 || purego

package breath

import "github.com/go-gl/mathgl/mgl32"

// simdApply tells ApplyGathered (and tests) whether applySimple is a SIMD
// kernel; without one ApplyGathered runs applyGo directly.
const simdApply = false

func applySimple(p *Plan, a *[MaxSegments]float32, local *mgl32.Quat) bool { return false }

func prefetchBones(local *mgl32.Quat, bones *[maxBones]int32) {}
