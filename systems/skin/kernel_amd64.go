//go:build amd64 && !purego

package skin

import (
	"github.com/go-gl/mathgl/mgl32"
	"golang.org/x/sys/cpu"
)

// hasAVX2 reports whether the AVX2 kernel can run: the processor has
// AVX2 and the OS saves its registers.
var hasAVX2 = cpu.X86.HasAVX2

// useAVX2 selects the AVX2 kernel for whole groups of eight joints;
// without it (false) the SSE kernel takes every joint, with the same
// results. Tests switch it off to run the SSE kernel where the AVX2 one
// could run.
var useAVX2 = hasAVX2

// matricesAVX2 computes joints[0:m] (m a multiple of 8) of a character
// of n bones eight joints at a time, one per lane (kernel8_amd64.s), in
// matricesGo's sequence of operations, so bit for bit alike. It returns
// the number of joints given the identity, and -1, or the first joint of
// the first group with a bone outside [0, n), leaving that group and the
// joints after it to compute.
//
//go:noescape
func matricesAVX2(dst *mgl32.Mat4, pos *mgl32.Vec3, rot *mgl32.Quat, scale *mgl32.Vec3,
	joints *int32, inv *mgl32.Mat4, m, n int) (bad, stop int)

// matricesSSE computes joints[0:m] of a character of n bones with SSE,
// one matrix column per vector (kernel_amd64.s), in matricesGo's
// sequence of operations, so bit for bit alike. It returns the number of
// joints given the identity, and -1, or the first joint whose bone is
// outside [0, n), leaving it and the joints after it to compute.
//
//go:noescape
func matricesSSE(dst *mgl32.Mat4, pos *mgl32.Vec3, rot *mgl32.Quat, scale *mgl32.Vec3,
	joints *int32, inv *mgl32.Mat4, m, n int) (bad, stop int)

// matrices checks the lengths as the Go kernel does and runs the AVX2
// kernel on the whole groups of eight joints, the SSE one on the rest; a
// bad index is left to the Go kernel (which panics on it).
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
	bad, k := 0, 0
	if m8 := m &^ 7; useAVX2 && m8 > 0 {
		bad, k = matricesAVX2(&dst[0], &pos[0], &rot[0], &scale[0], &joints[0], &inv[0], m8, n)
		if k < 0 {
			k = m8
		}
	}
	if k == m {
		return bad
	}
	b, s := matricesSSE(&dst[k], &pos[0], &rot[0], &scale[0], &joints[k], &inv[k], m-k, n)
	bad += b
	if s >= 0 {
		bad += matricesGo(dst[k+s:], pos, rot, scale, joints[k+s:], inv[k+s:])
	}
	return bad
}
