//go:build amd64 && !purego

package prefetch

import "unsafe"

// Range asks the processor to bring the n bytes at p (at least one
// cache line) into its caches without waiting for them. It never faults,
// whatever p is.
//
//go:noescape
func Range(p unsafe.Pointer, n uintptr)
