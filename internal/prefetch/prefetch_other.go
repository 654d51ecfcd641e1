//go:build !amd64 || purego

package prefetch

import "unsafe"

// Range asks the processor to bring the n bytes at p into its caches
// without waiting for them; here it does nothing.
func Range(p unsafe.Pointer, n uintptr) {}
