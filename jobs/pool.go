package jobs

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"
)

// Pool runs parallel-for loops on a fixed set of worker goroutines.
// A Pool is safe for use by several goroutines; For calls are serialised.
type Pool struct {
	mu      sync.Mutex
	workers int
	tasks   chan *task // one send per helper per For; nil when closed
	group   *errgroup.Group
	t       task // reused by every For: no allocation per call
}

// MaxWorkers is the most workers a Pool runs: a larger count, and a
// GOMAXPROCS above it, is cut to it. Each worker is a goroutine of about
// 4 KB waiting for chunks; 1,024 is above the hardware threads of any
// machine today, and a loop gains nothing from more workers than threads.
const MaxWorkers = 1024

// NewPool starts a pool with the given number of workers, the calling
// goroutine of For included; workers <= 0 means runtime.GOMAXPROCS(0).
// Either way the pool runs at most MaxWorkers.
func NewPool(workers int) *Pool {
	p := &Pool{}
	p.start(workers)
	return p
}

func (p *Pool) start(workers int) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, MaxWorkers)
	p.workers = workers
	helpers := workers - 1
	if helpers == 0 {
		return
	}
	tasks := make(chan *task, helpers)
	g := new(errgroup.Group)
	g.SetLimit(helpers)
	for i := 0; i < helpers; i++ {
		g.Go(func() error { return work(tasks) })
	}
	p.tasks, p.group = tasks, g
}

// work is a helper's loop. It holds only the channel, not the Pool.
func work(tasks <-chan *task) error {
	for t := range tasks {
		pprof.SetGoroutineLabels(t.job.labels)
		t.run()
		pprof.SetGoroutineLabels(context.Background())
		t.wg.Done()
	}
	return nil
}

// Workers returns the number of workers, the caller of For included.
func (p *Pool) Workers() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.workers
}

// SetWorkers stops the workers and starts n new ones (n <= 0: GOMAXPROCS;
// at most MaxWorkers).
func (p *Pool) SetWorkers(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stop()
	p.start(n)
}

// Close stops the workers. For keeps working afterwards, on the calling
// goroutine alone.
func (p *Pool) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	err := p.stop()
	p.workers = 1
	return err
}

func (p *Pool) stop() error {
	if p.tasks == nil {
		return nil
	}
	close(p.tasks)
	err := p.group.Wait()
	p.tasks, p.group = nil, nil
	return err
}

// For runs body(lo, hi) for the chunks [k*grain, min(n, (k+1)*grain)) of
// [0, n), on up to Workers() goroutines. Chunks run in no fixed order and
// must not write to each other's data. For returns when every chunk has
// run, or after a panic, with a *PanicError.
//
// body should be a function value made once (a method value stored at
// set-up), not a closure built per call, so that a frame allocates nothing.
func (p *Pool) For(job *Job, n, grain int, body func(lo, hi int)) error {
	if n <= 0 {
		return nil
	}
	if grain < 1 {
		grain = 1
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	start := time.Now()
	chunks := (n + grain - 1) / grain
	t := &p.t
	t.job, t.body, t.n, t.grain, t.chunks, t.err = job, body, n, grain, chunks, nil
	t.next.Store(0)
	helpers := 0
	if p.tasks != nil {
		helpers = min(p.workers, chunks) - 1
	}
	t.wg.Add(helpers)
	for i := 0; i < helpers; i++ {
		p.tasks <- t
	}
	t.run()
	t.wg.Wait()
	err := t.err
	t.job, t.body, t.err = nil, nil, nil
	job.record(time.Since(start), chunks)
	return err
}

// task is one For call's shared state.
type task struct {
	job              *Job
	body             func(lo, hi int)
	n, grain, chunks int
	next             atomic.Int64
	wg               sync.WaitGroup
	errOnce          sync.Mutex
	err              error
}

// run takes chunks until none are left.
func (t *task) run() {
	defer t.recover()
	for {
		c := int(t.next.Add(1) - 1)
		if c >= t.chunks {
			return
		}
		lo := c * t.grain
		t.body(lo, min(lo+t.grain, t.n))
	}
}

func (t *task) recover() {
	r := recover()
	if r == nil {
		return
	}
	t.next.Store(int64(t.chunks)) // stop handing out chunks
	t.errOnce.Lock()
	if t.err == nil {
		t.err = &PanicError{Job: t.job.Name, Value: r, Stack: debug.Stack()}
	}
	t.errOnce.Unlock()
}

// PanicError reports a panic recovered in a job's body.
type PanicError struct {
	Job   string
	Value any
	Stack []byte
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("jobs: %s panicked: %v", e.Job, e.Value)
}
