//go:build !amd64 || purego || amd64.v3

package chain

import "github.com/go-gl/mathgl/mgl32"

// useQuad: without the SIMD kernel a quad would cost what stepping the
// chains alone does, so Lanes.StepsIn and ApplyIn take them alone.
const useQuad = false

func quadKernel(q *quad, i, j int) uint32 { return quadKernelGo(q, i, j) }

func quadLoad(q *quad, n int)         { quadLoadGo(q, n) }
func quadStore(q *quad, n int) uint32 { return quadStoreGo(q, n) }

func quadCull(q *quad, reach *[LaneCount]float32) { quadCullGo(q, reach) }

func quadAnimate(q *quad, lp *quadPoses, bone, parent *int32, lo, hi int, pathMax *[LaneCount]float32) {
	quadAnimateGo(q, lp, bone, parent, lo, hi, pathMax)
}

func quadAnimateEnd(q *quad, lp *quadPoses, local *mgl32.Vec3, i, j, pb int, pathMax *[LaneCount]float32) {
	quadAnimateEndGo(q, lp, local, i, j, pb, pathMax)
}

// applyKernel leaves every lane to turn.
func applyKernel(a *applyQuad, i, j, pb, b int, end *mgl32.Vec3) uint32 { return 0xff }

func applyWorld(a *applyQuad, bone, children *int32, n int) { applyWorldGo(a, bone, children, n) }
