package jobs

import (
	"errors"
	"math"
	"sync/atomic"
	"testing"
	"time"
)

func TestForCoversEveryIndexOnce(t *testing.T) {
	for _, workers := range []int{1, 2, 3, 8} {
		p := NewPool(workers)
		job := NewJob("cover")
		for _, n := range []int{1, 7, 64, 1000} {
			for _, grain := range []int{1, 3, 16, 5000} {
				hits := make([]int32, n)
				err := p.For(job, n, grain, func(lo, hi int) {
					if hi-lo > grain || lo%grain != 0 {
						t.Errorf("chunk [%d,%d) not on the grain %d", lo, hi, grain)
					}
					for i := lo; i < hi; i++ {
						atomic.AddInt32(&hits[i], 1)
					}
				})
				if err != nil {
					t.Fatal(err)
				}
				for i, h := range hits {
					if h != 1 {
						t.Fatalf("workers=%d n=%d grain=%d: index %d ran %d times", workers, n, grain, i, h)
					}
				}
			}
		}
		if err := p.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestForRunsChunksInParallel needs two chunks to be running at once:
// each waits for the other to start.
func TestForRunsChunksInParallel(t *testing.T) {
	p := NewPool(2)
	defer p.Close()
	var started atomic.Int32
	var timedOut atomic.Bool
	err := p.For(NewJob("parallel"), 2, 1, func(lo, hi int) {
		started.Add(1)
		deadline := time.Now().Add(10 * time.Second)
		for started.Load() < 2 {
			if time.Now().After(deadline) {
				timedOut.Store(true)
				return
			}
			time.Sleep(time.Millisecond)
		}
	})
	if err != nil || timedOut.Load() {
		t.Fatalf("chunks did not overlap (err %v)", err)
	}
}

func TestForRecoversPanic(t *testing.T) {
	p := NewPool(2)
	defer p.Close()
	job := NewJob("boom")
	err := p.For(job, 100, 1, func(lo, hi int) {
		if lo == 37 {
			panic("bad chunk")
		}
	})
	var pe *PanicError
	if !errors.As(err, &pe) || pe.Job != "boom" || pe.Value != "bad chunk" {
		t.Fatalf("got %v, want PanicError from boom", err)
	}
	// The pool is still usable.
	var sum atomic.Int64
	if err := p.For(job, 10, 2, func(lo, hi int) { sum.Add(int64(hi - lo)) }); err != nil || sum.Load() != 10 {
		t.Fatalf("after panic: err %v sum %d", err, sum.Load())
	}
}

type counter struct{ hits []int32 }

func (c *counter) body(lo, hi int) {
	for i := lo; i < hi; i++ {
		c.hits[i]++ // chunks are disjoint: no atomics needed
	}
}

func TestForDoesNotAllocate(t *testing.T) {
	for _, workers := range []int{1, 2, 4} {
		p := NewPool(workers)
		c := &counter{hits: make([]int32, 4096)}
		body := c.body // made once
		job := NewJob("alloc")
		allocs := testing.AllocsPerRun(200, func() {
			if err := p.For(job, 4096, 64, body); err != nil {
				t.Fatal(err)
			}
		})
		p.Close()
		if allocs != 0 {
			t.Fatalf("workers=%d: For allocates %v times per call", workers, allocs)
		}
	}
}

func TestCloseAndSetWorkers(t *testing.T) {
	p := NewPool(3)
	if p.Workers() != 3 {
		t.Fatalf("Workers = %d", p.Workers())
	}
	p.SetWorkers(2)
	if p.Workers() != 2 {
		t.Fatalf("after SetWorkers(2): %d", p.Workers())
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	var n atomic.Int64
	if err := p.For(NewJob("closed"), 50, 7, func(lo, hi int) { n.Add(int64(hi - lo)) }); err != nil || n.Load() != 50 {
		t.Fatalf("For after Close: err %v n %d", err, n.Load())
	}
}

func TestJobStats(t *testing.T) {
	p := NewPool(2)
	defer p.Close()
	job := NewJob("stats")
	for i := 0; i < 3; i++ {
		_ = p.For(job, 10, 4, func(lo, hi int) { time.Sleep(time.Microsecond) })
	}
	if job.Stats.Calls != 3 || job.Stats.Chunks != 9 || job.Stats.Last <= 0 || job.Stats.Total < job.Stats.Last {
		t.Fatalf("stats = %+v", job.Stats)
	}
	if job.Labels() == nil {
		t.Fatal("no label context")
	}
}

func BenchmarkForOverhead(b *testing.B) {
	for _, workers := range []int{1, 2} {
		b.Run("workers="+string(rune('0'+workers)), func(b *testing.B) {
			p := NewPool(workers)
			defer p.Close()
			c := &counter{hits: make([]int32, 1024)}
			body := c.body
			job := NewJob("overhead")
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				_ = p.For(job, 1024, 64, body)
			}
		})
	}
}

// A pool runs at most MaxWorkers, however many it is asked for.
func TestPoolBoundsWorkers(t *testing.T) {
	p := NewPool(MaxWorkers + 5)
	defer p.Close()
	if n := p.Workers(); n != MaxWorkers {
		t.Fatalf("NewPool(MaxWorkers+5).Workers() = %d, want %d", n, MaxWorkers)
	}
	p.SetWorkers(math.MaxInt)
	if n := p.Workers(); n != MaxWorkers {
		t.Fatalf("after SetWorkers(MaxInt): Workers() = %d, want %d", n, MaxWorkers)
	}
}
