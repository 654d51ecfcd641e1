//go:build amd64 && !purego

package chain

import (
	"unsafe"

	"github.com/go-gl/mathgl/mgl32"
	"golang.org/x/sys/cpu"
)

// hasAVX2 reports whether the AVX2 lane kernels (quad_amd64.s,
// quadapply_amd64.s) can run: the processor has AVX2 and the OS saves
// its registers.
var hasAVX2 = cpu.X86.HasAVX2

// useAVX2 selects the AVX2 kernels for the lanes; without them (false)
// the lanes run the Go definitions, with the same results. Tests switch
// it off to run the Go definitions where the AVX2 kernels could run.
var useAVX2 = hasAVX2

// The lane kernels: each runs its AVX2 version (suffix AVX2, declared
// below) when useAVX2 is set, else its Go definition (suffix Go), which
// the AVX2 version follows operation by operation. The two called per
// particle, quadKernelAVX2 and applyKernelAVX2, are chosen at their call
// sites (quad.run, applyQuad.run): Go would not inline a function that
// chooses, and a call per particle costs.

func quadLoad(q *quad, n int) {
	if useAVX2 {
		quadLoadAVX2(q, n)
		return
	}
	quadLoadGo(q, n)
}

func quadStore(q *quad, n int) uint32 {
	if useAVX2 {
		return quadStoreAVX2(q, n)
	}
	return quadStoreGo(q, n)
}

func quadCull(q *quad, reach *[LaneCount]float32) {
	if useAVX2 {
		quadCullAVX2(q, reach)
		return
	}
	quadCullGo(q, reach)
}

func quadAnimate(q *quad, lp *quadPoses, bone, parent *int32, lo, hi int, pathMax *[LaneCount]float32) {
	if useAVX2 {
		quadAnimateAVX2(q, lp, bone, parent, lo, hi, pathMax)
		return
	}
	quadAnimateGo(q, lp, bone, parent, lo, hi, pathMax)
}

func quadAnimateEnd(q *quad, lp *quadPoses, local *mgl32.Vec3, i, j, pb int, pathMax *[LaneCount]float32) {
	if useAVX2 {
		quadAnimateEndAVX2(q, lp, local, i, j, pb, pathMax)
		return
	}
	quadAnimateEndGo(q, lp, local, i, j, pb, pathMax)
}

func applyWorld(a *applyQuad, bone, children *int32, n int) {
	if useAVX2 {
		applyWorldAVX2(a, bone, children, n)
		return
	}
	applyWorldGo(a, bone, children, n)
}

// The sizes of amd64 the assembly steps by (see layout.go). Each index
// is a constant that must be 0: any other value fails to compile.
var (
	_ = [1]struct{}{}[unsafe.Sizeof(uintptr(0))-ptrBytes]
	_ = [1]struct{}{}[unsafe.Sizeof(int(0))-intBytes]
	_ = [1]struct{}{}[unsafe.Sizeof([]packed{})-sliceBytes]
)

//go:noescape
func quadKernelAVX2(q *quad, i, j int) uint32

//go:noescape
func quadLoadAVX2(q *quad, n int)

//go:noescape
func quadStoreAVX2(q *quad, n int) uint32

//go:noescape
func quadCullAVX2(q *quad, reach *[LaneCount]float32)

//go:noescape
func quadAnimateAVX2(q *quad, lp *quadPoses, bone, parent *int32, lo, hi int, pathMax *[LaneCount]float32)

//go:noescape
func quadAnimateEndAVX2(q *quad, lp *quadPoses, local *mgl32.Vec3, i, j, pb int, pathMax *[LaneCount]float32)

//go:noescape
func applyKernelAVX2(a *applyQuad, i, j, pb, b int, end *mgl32.Vec3) uint32

//go:noescape
func applyWorldAVX2(a *applyQuad, bone, children *int32, n int)
