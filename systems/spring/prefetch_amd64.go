//go:build amd64 && !purego

package spring

import "unsafe"

// Prefetch asks the processor to bring the n bytes at p (at least one
// cache line) into its caches without waiting for them: for a caller that
// knows which springs' state it steps next, while it still works on
// others. It never faults, whatever p is.
//
//go:noescape
func Prefetch(p unsafe.Pointer, n uintptr)
