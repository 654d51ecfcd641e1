//go:build !amd64 || purego

package skin

import "testing"

// forEachKernel runs f with the one kernel there is: matricesGo.
func forEachKernel(t *testing.T, f func(t *testing.T)) {
	f(t)
}
