package systems

import "sync"

// scratchPool keeps a system's large per-chunk scratch values between
// chunks and frames, one per chunk running at a time: a fresh value per
// chunk would be zeroed on the worker's stack, and for a chain.Lanes
// (38 KB) those stores alone push the chunk's data out of the L1 cache
// on every call. The kernels write every part of the scratch they read,
// so what a value held before does not change a result.
type scratchPool[T any] struct {
	mu   sync.Mutex
	free []*T
}

// get returns a value from the pool, or a new one (allocated while the
// pool grows to the number of workers: the first frame).
func (p *scratchPool[T]) get() *T {
	p.mu.Lock()
	defer p.mu.Unlock()
	if n := len(p.free); n > 0 {
		v := p.free[n-1]
		p.free = p.free[:n-1]
		return v
	}
	return new(T)
}

// put returns v to the pool.
func (p *scratchPool[T]) put(v *T) {
	p.mu.Lock()
	p.free = append(p.free, v)
	p.mu.Unlock()
}
