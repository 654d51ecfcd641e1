//go:build unix

package anim

import "syscall"

// cpuNanos returns the process's user+system CPU time. Benchmarks report it
// next to wall time because the wall clock also counts time the benchmark
// waited for a core on a shared machine; with no allocation and no other
// goroutines the process CPU time is the kernel's own.
func cpuNanos() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
