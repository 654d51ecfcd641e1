//go:build !amd64 || purego

package spring

// stageA and stageB run stage A (with the collider test) and stage B of a
// quad's slots at joint i; stageB reports false, storing nothing,
// when a slot needs the float64 fromTo. Without SIMD kernels the scalar
// definitions serve, and stageB never declines.
func stageA(q *quad, i int) uint64 { return stageAGo(q, i) }

func stageB(q *quad, i int) bool {
	stageBGo(q, i)
	return true
}

// simdStages tells whether the stages are the SIMD kernels.
var simdStages = false
