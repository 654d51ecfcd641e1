//go:build amd64 && !purego

package spring

// stageA and stageB run stage A (with the collider test) and stage B of a
// quad's four slots at joint i with SSE, one slot per lane
// (vrm_simd_amd64.s); stageB reports false, storing nothing, when a slot
// needs the float64 fromTo.

//go:noescape
func stageA(q *quad, i int) uint64

//go:noescape
func stageB(q *quad, i int) bool

// simdStages tells tests that the stages are the SIMD kernels.
const simdStages = true
