package sway

import (
	"fmt"
	"math"
	"runtime"
	"sync/atomic"

	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"

	"github.com/sway-anim/sway/components"
	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/internal/rig"
	"github.com/sway-anim/sway/jobs"
	"github.com/sway-anim/sway/systems"
	"github.com/sway-anim/sway/systems/chain"
)

// Options configures a World.
type Options struct {
	// Workers is the number of goroutines a frame is spread over, the
	// caller's included: 0 (the default) means GOMAXPROCS, at most
	// MaxWorkers; 1 to MaxWorkers that many. Results do not depend on it.
	Workers int
	// Pipeline replaces the default pipeline; nil (the default) means
	// systems.NewDefaultPipeline().
	Pipeline *systems.Pipeline
	// Characters is how many characters the world is built for: a hint
	// that sizes arche's component storage (NewWorld only; 0, the
	// default: no hint; must not be negative).
	// Arche doubles an archetype's storage when it fills, so 10,000
	// characters would otherwise get room for 16,384.
	Characters int
}

// World is a sway world: an arche world with sway's resources, systems and
// characters.
type World struct {
	ecs      *ecs.World
	pipeline *systems.Pipeline
	jobs     *jobs.Pool
	pool     *rig.Pool
	reg      *rig.Registry
	time     *components.Time
	view     *components.View
	faults   *systems.Faults
	life     *systems.PoseLifetime
	chars    generic.Map2[components.Pose, components.Root]
	poses    generic.Map[components.Pose]
	maps     featureMaps
	closed   bool
	busy     atomic.Bool // a call is running (see enter)
	maxChar  uint32      // the largest entity ID given to a character
	// chainBuilders caches each skeleton's model-space rest pose for
	// building chains (set-up only).
	chainBuilders map[*rig.Skeleton]*chain.Builder
	// skeletons finds the Skeleton a character was added with from the
	// registry's (see World.Skeleton).
	skeletons map[*rig.Skeleton]*Skeleton
	// rigSkeletons shares one skeleton among the characters of one Rig.
	rigSkeletons map[*Rig]*Skeleton
	// snap is what Snapshot and Restore reuse between calls.
	snap snapshotCache
}

// MaxWorkers is the largest worker count Options.Workers and SetWorkers
// accept, and the most that 0 (GOMAXPROCS) resolves to. Each worker is a
// goroutine of about 4 KB that waits for chunks, so the bound caps a
// mistyped count at a few megabytes (1e6 workers took 3 GB) while staying
// above the hardware threads of any machine today: a frame gains nothing
// from more workers than threads.
const MaxWorkers = jobs.MaxWorkers

// NewWorld returns a sway world on a new arche world, or a *FieldError
// for bad options (Workers outside 0..MaxWorkers, negative Characters).
func NewWorld(opts Options) (*World, error) {
	if err := validOptions(opts); err != nil {
		return nil, err
	}
	w := ecs.NewWorld(initialCapacity(opts.Characters))
	return Attach(&w, opts) // a new world has no sway resources yet
}

// validOptions checks what NewWorld and Attach are given.
func validOptions(opts Options) error {
	if err := validWorkers("Options", opts.Workers); err != nil {
		return err
	}
	if opts.Characters < 0 {
		return check.Errorf("Options", "Characters", opts.Characters, "must be >= 0 (0 = no hint)")
	}
	return nil
}

func validWorkers(typ string, n int) error {
	if n < 0 || n > MaxWorkers {
		return check.Errorf(typ, "Workers", n, "must be 0 (GOMAXPROCS) to MaxWorkers (%d)", MaxWorkers)
	}
	return nil
}

// initialCapacity is the first capacity of every archetype for a world of
// n characters: arche's default (128) for small worlds, otherwise n halved
// (rounding up) until it is at most 256, so that the doublings end on the
// first capacity >= n at most 2^k-1 above it.
func initialCapacity(n int) int {
	c := max(n, 128)
	for c > 256 {
		c = (c + 1) / 2
	}
	return c
}

// Attach makes w a sway world: it adds sway's resources and initialises
// the pipeline on it. It fails if w already is one, and with a
// *FieldError for bad options (as NewWorld; Characters is not used).
//
// The game may remove characters with arche's own calls on w
// (RemoveEntity, a batch removal): their storage is freed as by
// RemoveCharacter (see World.RemoveCharacter).
func Attach(w *ecs.World, opts Options) (*World, error) {
	if r := generic.NewResource[rig.Pool](w); r.Has() {
		return nil, fmt.Errorf("sway: the arche world is already a sway world")
	}
	if err := validOptions(opts); err != nil {
		return nil, err
	}
	systems.AddResources(w, opts.Workers)
	p := opts.Pipeline
	if p == nil {
		p = systems.NewDefaultPipeline()
	}
	sw := &World{
		ecs:      w,
		pipeline: p,
		jobs:     ecs.GetResource[jobs.Pool](w),
		pool:     ecs.GetResource[rig.Pool](w),
		reg:      ecs.GetResource[rig.Registry](w),
		time:     ecs.GetResource[components.Time](w),
		view:     ecs.GetResource[components.View](w),
		faults:   ecs.GetResource[systems.Faults](w),
		life:     systems.NewPoseLifetime(w),
		chars:    generic.NewMap2[components.Pose, components.Root](w),
		poses:    generic.NewMap[components.Pose](w),
		maps:     newFeatureMaps(w),
	}
	p.Initialize(w)
	return sw, nil
}

// ECS returns the underlying arche world, for the game's own components
// and queries.
func (w *World) ECS() *ecs.World { return w.ecs }

// Pipeline returns the world's pipeline, to add systems or read timings.
func (w *World) Pipeline() *systems.Pipeline { return w.pipeline }

// Workers returns the number of workers a frame is spread over.
func (w *World) Workers() int { return w.jobs.Workers() }

// SetWorkers changes the number of workers: 0 means GOMAXPROCS (at most
// MaxWorkers), 1 to MaxWorkers that many; others are a *FieldError.
func (w *World) SetWorkers(n int) error {
	if err := w.enter("SetWorkers"); err != nil {
		return err
	}
	defer w.leave()
	if err := validWorkers("World", n); err != nil {
		return err
	}
	w.jobs.SetWorkers(n)
	return nil
}

// Time returns the frame clock.
func (w *World) Time() components.Time { return *w.time }

// MaxDt is the largest frame time Step accepts; a longer hitch is stepped
// as MaxDt (the documented clamp), so one stall of seconds cannot fling
// the simulation.
const MaxDt = 0.25

// Step runs one frame of dt seconds. A negative or non-finite dt is
// rejected with a *FieldError and nothing runs; dt above MaxDt is clamped
// to MaxDt. Step returns the first fault the systems recovered from during
// the frame (a recovered panic), after finishing the frame. On a closed
// world, or while another call runs on another goroutine, nothing runs
// and Step returns a *CallError (ErrClosed, ErrConcurrentCall).
func (w *World) Step(dt float32) error {
	if err := w.enter("Step"); err != nil {
		return err
	}
	defer w.leave()
	if math.IsNaN(float64(dt)) || math.IsInf(float64(dt), 0) || dt < 0 {
		return check.Errorf("World", "Step.dt", dt, "must be finite and >= 0")
	}
	dt = min(dt, MaxDt)
	w.time.Dt = dt
	w.time.Elapsed += float64(dt)
	w.time.Frame++
	w.life.Reclaim(w.ecs)
	w.pipeline.Update(w.ecs)
	return w.faults.Take()
}

// Trim releases the spare capacity of the world's pools (the pose pool and
// the chain and spring stores). Pools grow by appending, which can leave up
// to half of their memory unused after many characters are added at once;
// call Trim after such a set-up. It also closes the gaps that removed
// characters left (in the pose pool, gaps only same-sized characters
// reuse), so that after add/remove churn the pools are as compact as if
// the remaining characters had been added alone; it frees at once what
// characters removed with arche's own calls left. It copies the pools
// (set-up code, not per frame). It fails only as every call does (see
// CallError).
func (w *World) Trim() error {
	if err := w.enter("Trim"); err != nil {
		return err
	}
	defer w.leave()
	w.compactStores()
	w.pool.Trim()
	w.chainStore().Trim()
	w.springStore().Trim()
	runtime.GC()
	return nil
}

// Close finalises the pipeline and stops the workers. Every later call
// returns ErrClosed (see CallError); closing a closed world does nothing
// and returns nil. The arche world is left as it is: with Attach it is
// the game's.
func (w *World) Close() error {
	if !w.busy.CompareAndSwap(false, true) {
		return &CallError{Method: "Close", Reason: ErrConcurrentCall}
	}
	defer w.leave()
	if w.closed {
		return nil
	}
	w.closed = true
	w.pipeline.Finalize(w.ecs)
	return w.jobs.Close()
}

// featureMaps are the feature components' accessors, made once: making one
// costs a reflection lookup, too much for setters a game calls every frame.
type featureMaps struct {
	anim   generic.Map[components.Animation]
	breath generic.Map[components.Breath]
	chains generic.Map[components.Chains]
	ik     generic.Map[components.IK]
	lookAt generic.Map[components.LookAt]
	vrm    generic.Map[components.VRMSprings]
	simple generic.Map[components.SimpleSprings]
}

func newFeatureMaps(w *ecs.World) featureMaps {
	return featureMaps{
		anim:   generic.NewMap[components.Animation](w),
		breath: generic.NewMap[components.Breath](w),
		chains: generic.NewMap[components.Chains](w),
		ik:     generic.NewMap[components.IK](w),
		lookAt: generic.NewMap[components.LookAt](w),
		vrm:    generic.NewMap[components.VRMSprings](w),
		simple: generic.NewMap[components.SimpleSprings](w),
	}
}
