//go:build linux

// Package memguard gives tests memory that ends at a page no one may
// read or write, so that a kernel touching a byte past an array faults
// instead of reading its neighbour unnoticed.
package memguard

import (
	"fmt"
	"syscall"
	"unsafe"
)

// End returns n elements of T whose last byte is the last before an
// inaccessible page, and a function that unmaps them. n elements must
// fit in one page.
func End[T any](n int) ([]T, func(), error) {
	pg := syscall.Getpagesize()
	var z T
	size := n * int(unsafe.Sizeof(z))
	if n <= 0 || size > pg {
		return nil, nil, fmt.Errorf("memguard: %d elements of %d bytes do not fit a page of %d", n, unsafe.Sizeof(z), pg)
	}
	mem, err := syscall.Mmap(-1, 0, 2*pg, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return nil, nil, err
	}
	if err := syscall.Mprotect(mem[pg:], syscall.PROT_NONE); err != nil {
		syscall.Munmap(mem)
		return nil, nil, err
	}
	s := unsafe.Slice((*T)(unsafe.Pointer(&mem[pg-size])), n)
	return s, func() { syscall.Munmap(mem) }, nil
}
