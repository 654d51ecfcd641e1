//go:build amd64 && !purego

package skin

import "github.com/go-gl/mathgl/mgl32"

// matricesSSE computes joints[0:m] of a character of n bones with SSE,
// one matrix column per vector (kernel_amd64.s), in matricesGo's
// sequence of operations, so bit for bit alike. It returns the number of
// joints given the identity, and -1, or the first joint whose bone is
// outside [0, n), leaving it and the joints after it to compute.
//
//go:noescape
func matricesSSE(dst *mgl32.Mat4, pos *mgl32.Vec3, rot *mgl32.Quat, scale *mgl32.Vec3,
	joints *int32, inv *mgl32.Mat4, m, n int) (bad, stop int)

// matrices checks the lengths as the Go kernel does and runs the SSE
// kernel; a bad index is left to the Go kernel (which panics on it).
func matrices(dst []mgl32.Mat4, pos []mgl32.Vec3, rot []mgl32.Quat, scale []mgl32.Vec3, joints []int32, inv []mgl32.Mat4) int {
	m, n := len(joints), len(pos)
	dst, inv = dst[:m], inv[:m]
	rot, scale = rot[:n], scale[:n]
	if m == 0 {
		return 0
	}
	if n == 0 {
		return matricesGo(dst, pos, rot, scale, joints, inv)
	}
	bad, k := matricesSSE(&dst[0], &pos[0], &rot[0], &scale[0], &joints[0], &inv[0], m, n)
	if k >= 0 {
		bad += matricesGo(dst[k:], pos, rot, scale, joints[k:], inv[k:])
	}
	return bad
}
