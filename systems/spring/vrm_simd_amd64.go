//go:build amd64 && !purego

package spring

import "golang.org/x/sys/cpu"

// stageA and stageB run stage A (with the collider test) and stage B of a
// quad's eight slots at joint i with AVX2, one slot per lane
// (vrm_stagea_amd64.s, vrm_stageb_amd64.s); stageB reports false, storing
// nothing, when a slot needs the float64 fromTo. Without AVX2 the scalar
// definitions serve, with the same bits.
func stageA(q *quad, i int) uint64 {
	if simdStages {
		return stageAVX(q, i)
	}
	return stageAGo(q, i)
}

func stageB(q *quad, i int) bool {
	if simdStages {
		return stageBVX(q, i)
	}
	stageBGo(q, i)
	return true
}

//go:noescape
func stageAVX(q *quad, i int) uint64

//go:noescape
func stageBVX(q *quad, i int) bool

// simdStages tells whether the stages are the SIMD kernels.
var simdStages = cpu.X86.HasAVX2
