//go:build !unix

package anim

import "time"

// cpuNanos falls back to the wall clock where getrusage is missing.
func cpuNanos() int64 { return time.Now().UnixNano() }
