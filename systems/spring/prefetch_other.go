//go:build !amd64 || purego

package spring

import "unsafe"

// Prefetch asks the processor to bring the n bytes at p into its caches
// without waiting for them; here it does nothing.
func Prefetch(p unsafe.Pointer, n uintptr) {}
