//go:build amd64 && !purego

package skin

import "testing"

// forEachKernel runs f with each kernel selection this machine can run:
// AVX2 with SSE for the rest, and SSE alone.
func forEachKernel(t *testing.T, f func(t *testing.T)) {
	if hasAVX2 {
		t.Run("avx2", f)
	} else {
		t.Log("no AVX2: the AVX2 kernel is not tested")
	}
	defer func(u bool) { useAVX2 = u }(useAVX2)
	useAVX2 = false
	t.Run("sse", f)
}
