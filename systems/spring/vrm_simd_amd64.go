//go:build amd64 && !purego

package spring

import "golang.org/x/sys/cpu"

// stageA and stageB run stage A (with the collider test) and stage B of a
// quad's eight slots at joint i with AVX2, one slot per lane
// (vrm_stagea_amd64.s, vrm_stageb_amd64.s); stageB reports false, storing
// nothing, when a slot needs the float64 fromTo. Without AVX2 they jump
// to the scalar definitions, which give the same bits: one call either
// way, as the kernels run once per joint.

//go:noescape
func stageA(q *quad, i int) uint64

//go:noescape
func stageB(q *quad, i int) bool

// stageBScalar is stageBGo with stageB's signature, for its jump.
func stageBScalar(q *quad, i int) bool {
	stageBGo(q, i)
	return true
}

// simdStages tells whether the stages are the SIMD kernels; the kernels
// read it.
var simdStages = cpu.X86.HasAVX2
