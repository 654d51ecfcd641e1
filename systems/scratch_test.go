package systems

import (
	"testing"

	"github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/jobs"
)

// The chain step and apply reserve one side-by-side scratch per worker
// when they gather a frame (the prepare none), so that no later frame
// allocates one, however its chunks overlap; reserving again adds none.
func TestChainScratchReservedPerWorker(t *testing.T) {
	const workers = 4
	w := ecs.NewWorld()
	AddResources(&w, workers)
	defer ecs.GetResource[jobs.Pool](&w).Close()
	for _, c := range []struct {
		s    *chainSystem
		want int
	}{{NewChainPrepare().chainSystem, 0}, {NewChainStep().chainSystem, workers}, {NewChainApply().chainSystem, workers}} {
		c.s.Initialize(&w)
		for range 2 {
			c.s.GatherFrame(&w)
			c.s.ReleaseFrame()
		}
		if c.s.lanes.made != c.want || len(c.s.lanes.free) != c.want {
			t.Errorf("%s: %d made, %d free; want %d", c.s.job.Name, c.s.lanes.made, len(c.s.lanes.free), c.want)
		}
	}
}

// A pool hands out distinct values, reserved ones first, and makes one
// only when more are out at once than it holds.
func TestScratchPoolGrowsOnlyPastItsReserve(t *testing.T) {
	var p scratchPool[[64]byte]
	p.reserve(3)
	a, b, c := p.get(), p.get(), p.get()
	if p.made != 3 || a == b || b == c || a == c {
		t.Fatalf("three gets after reserving three: %d made, values %p %p %p", p.made, a, b, c)
	}
	d := p.get()
	if p.made != 4 || d == a || d == b || d == c {
		t.Fatalf("a fourth at once: %d made, value %p", p.made, d)
	}
	for _, v := range []*[64]byte{a, b, c, d} {
		p.put(v)
	}
	p.reserve(3)
	if p.made != 4 || len(p.free) != 4 {
		t.Fatalf("reserving fewer than it holds: %d made, %d free", p.made, len(p.free))
	}
}
