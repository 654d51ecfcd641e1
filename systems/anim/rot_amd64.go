//go:build amd64 && !purego && !amd64.v3

package anim

import "github.com/go-gl/mathgl/mgl32"

// useSIMDRot: accumulateRot runs four bones at a time through the SSE
// kernels (rot_amd64.s). Not with GOAMD64=v3 or above: Go then fuses the
// Go definitions' multiply-adds, which the kernels do not.
const useSIMDRot = true

// addQuats is addQuatsGo on the first n bones (n a multiple of 4, every
// bone distinct and within acc), one bone per SSE lane.
//
//go:noescape
func addQuats(acc *mgl32.Quat, bones *int32, k0 *mgl32.Quat, n int, w float32)

// nlerpAdd is nlerpAddGo on the first n bones, as addQuats.
//
//go:noescape
func nlerpAdd(acc *mgl32.Quat, bones *int32, k0, k1 *mgl32.Quat, n int, a, w float32)
