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
	made int
}

// reserve makes the pool hold n values, on the calling goroutine before
// the chunks run (n: the workers, at most that many chunks run at once),
// so that get finds one whichever chunks happen to overlap: the values
// are made in the first frame (or when the workers grow), not in
// whichever later frame first runs that many chunks at once.
func (p *scratchPool[T]) reserve(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for ; p.made < n; p.made++ {
		p.free = append(p.free, new(T))
	}
}

// get returns a value from the pool, or a new one if more chunks run at
// once than reserve was told.
func (p *scratchPool[T]) get() *T {
	p.mu.Lock()
	defer p.mu.Unlock()
	if n := len(p.free); n > 0 {
		v := p.free[n-1]
		p.free = p.free[:n-1]
		return v
	}
	p.made++
	return new(T)
}

// put returns v to the pool.
func (p *scratchPool[T]) put(v *T) {
	p.mu.Lock()
	p.free = append(p.free, v)
	p.mu.Unlock()
}
