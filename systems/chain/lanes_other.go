//go:build !amd64 || purego

package chain

import "github.com/go-gl/mathgl/mgl32"

// Without the AVX2 kernels (another architecture, or the purego build
// tag) the lanes run the kernels' Go definitions.

// hasAVX2 is false: this build has no AVX2 kernels.
const hasAVX2 = false

// useAVX2 is never set in this build; tests that switch it find hasAVX2
// false and say so.
var useAVX2 = false

// quadKernelAVX2 and applyKernelAVX2, which quad.run and applyQuad.run
// name where useAVX2 is set (never in this build), are the Go definitions.
func quadKernelAVX2(q *quad, i, j int) uint32 { return quadKernelGo(q, i, j) }

func applyKernelAVX2(a *applyQuad, i, j, pb, b int, end *mgl32.Vec3) uint32 {
	return applyKernelGo(a, i, j, pb, b, end)
}

func quadLoad(q *quad, n int)         { quadLoadGo(q, n) }
func quadStore(q *quad, n int) uint32 { return quadStoreGo(q, n) }

func quadCull(q *quad, reach *[LaneCount]float32) { quadCullGo(q, reach) }

func quadAnimate(q *quad, lp *quadPoses, bone, parent *int32, lo, hi int, pathMax *[LaneCount]float32) {
	quadAnimateGo(q, lp, bone, parent, lo, hi, pathMax)
}

func quadAnimateEnd(q *quad, lp *quadPoses, local *mgl32.Vec3, i, j, pb int, pathMax *[LaneCount]float32) {
	quadAnimateEndGo(q, lp, local, i, j, pb, pathMax)
}

func applyWorld(a *applyQuad, bone, children *int32, n int) { applyWorldGo(a, bone, children, n) }
