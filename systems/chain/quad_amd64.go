//go:build amd64 && !purego && !amd64.v3

package chain

import (
	"github.com/go-gl/mathgl/mgl32"
	"golang.org/x/sys/cpu"
)

// useQuad: Lanes.StepsIn and Lanes.ApplyIn take chains side by side with
// the AVX2 kernels (quad_amd64.s, quadapply_amd64.s) on a processor that
// has AVX2 (and an OS that saves its registers); without it each chain
// steps and applies alone, with the same results. Not with GOAMD64=v3 or above: Go then fuses the scalar code's
// multiply-adds, which the kernel does not, and the two would differ in
// the last bit.
var useQuad = cpu.X86.HasAVX2

// quadKernel steps particle i, whose parent is j < i, of the eight lanes:
// integration, elasticity and stiffness, the collider test, keep-length,
// the collider test again and the finite check. It stores every lane's
// result and returns the lanes the scalar code must finish: bit s for a
// lane whose stage-A position (q.ax..) touches a collider, bit 8+s for
// one whose kept-length position touches one, bit 16+s for one whose
// result is not finite. quadKernelGo is its definition.
//
//go:noescape
func quadKernel(q *quad, i, j int) uint32

// quadLoad and quadStore are quadLoadGo and quadStoreGo, n >= 1.
//
//go:noescape
func quadLoad(q *quad, n int)

//go:noescape
func quadStore(q *quad, n int) uint32

// quadAnimate is quadAnimateGo and quadAnimateEnd quadAnimateEndGo: the
// same operations, so the same bits.
//
//go:noescape
func quadAnimate(q *quad, lp *quadPoses, bone, parent *int32, lo, hi int, pathMax *[LaneCount]float32)

//go:noescape
func quadAnimateEnd(q *quad, lp *quadPoses, local *mgl32.Vec3, i, j, pb int, pathMax *[LaneCount]float32)

// quadCull is quadCullGo.
//
//go:noescape
func quadCull(q *quad, reach *[LaneCount]float32)

// applyKernel applies particle i, of bone b (-1 for an end particle, at
// offset end in its parent's frame), whose parent particle j has one child,
// of bone pb, for the eight lanes: apply's turn and the child's rotation, by
// the same operations in the same order. It stores the results of the
// lanes whose FromToRotation takes the float32 path and whose new local
// rotation takes the Newton step, and returns the others (bit s: lane s),
// untouched, for turn to do.
//
//go:noescape
func applyKernel(a *applyQuad, i, j, pb, b int, end *mgl32.Vec3) uint32

// applyWorld is applyWorldGo, n >= 1.
//
//go:noescape
func applyWorld(a *applyQuad, bone, children *int32, n int)
