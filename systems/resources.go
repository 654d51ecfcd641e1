package systems

import (
	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"

	"github.com/sway-anim/sway/components"
	"github.com/sway-anim/sway/internal/rig"
	"github.com/sway-anim/sway/internal/store"
	"github.com/sway-anim/sway/jobs"
	"github.com/sway-anim/sway/systems/schedule"
)

// Faults is the world resource where systems report what they recovered
// from during a frame; the facade returns Err from Step.
type Faults = schedule.Faults

// AddResources adds the resources sway's systems need to w (a pose pool, a
// skeleton registry, the frame clock, the view point distance culling
// measures from, a fault record, the chain store, the
// animation library and a job pool of the given size), unless w has them
// already.
func AddResources(w *ecs.World, workers int) {
	addIfMissing(w, &rig.Pool{})
	addIfMissing(w, &rig.Registry{})
	addIfMissing(w, &components.Time{})
	addIfMissing(w, &components.View{})
	addIfMissing(w, &Faults{})
	addIfMissing(w, &store.ChainStore{})
	addIfMissing(w, &store.SpringStore{})
	addIfMissing(w, &AnimLibrary{})
	if r := generic.NewResource[jobs.Pool](w); !r.Has() {
		r.Add(jobs.NewPool(workers))
	}
}

func addIfMissing[T any](w *ecs.World, res *T) {
	if r := generic.NewResource[T](w); !r.Has() {
		r.Add(res)
	}
}

// frame is what every character system fetches at Initialize.
type frame struct {
	pool   generic.Resource[rig.Pool]
	reg    generic.Resource[rig.Registry]
	jobs   generic.Resource[jobs.Pool]
	faults generic.Resource[Faults]
	time   generic.Resource[components.Time]
	view   generic.Resource[components.View]
}

func newFrame(w *ecs.World) frame {
	return frame{
		pool:   generic.NewResource[rig.Pool](w),
		reg:    generic.NewResource[rig.Registry](w),
		jobs:   generic.NewResource[jobs.Pool](w),
		faults: generic.NewResource[Faults](w),
		time:   generic.NewResource[components.Time](w),
		view:   generic.NewResource[components.View](w),
	}
}

// Clock advances the components.Time resource by a fixed Dt each Update.
// The facade sets the clock itself; Clock is for worlds run by an
// arche-model Model, where it must come before the sway systems.
type Clock struct {
	Dt   float32
	time generic.Resource[components.Time]
}

// Initialize implements System.
func (c *Clock) Initialize(w *ecs.World) { c.time = generic.NewResource[components.Time](w) }

// Update implements System.
func (c *Clock) Update(w *ecs.World) {
	t := c.time.Get()
	t.Dt = c.Dt
	t.Elapsed += float64(c.Dt)
	t.Frame++
}

// Finalize implements System.
func (c *Clock) Finalize(w *ecs.World) {}
