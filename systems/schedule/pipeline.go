// Package schedule runs sway's systems: [Phase] orders a frame, a
// [Pipeline] runs systems phase by phase, with per-system timing and pprof
// labels, and runs consecutive [Chunked] character systems fused, chunk by
// chunk of [CharacterGrain] characters. It knows the System interface, the
// job pool and a character's components.Pose, and no system: package
// systems registers the standard ones and builds the default pipeline
// (systems.NewDefaultPipeline).
package schedule

import (
	"context"
	"runtime/pprof"
	"time"

	"github.com/mlange-42/arche/ecs"
)

// System is the shape of arche-model's model.System.
type System interface {
	Initialize(w *ecs.World)
	Update(w *ecs.World)
	Finalize(w *ecs.World)
}

// Phase orders the systems of a frame.
type Phase uint8

// The phases of a frame, in the order they run.
const (
	PhaseAnimation   Phase = iota // pose reset or the animation layer; then FK of the animated pose
	PhaseProcedural               // breath, look-at, IK; then FK
	PhasePrepare                  // secondary motion: per-frame inputs of chains and springs
	PhaseIntegrate                // secondary motion: Verlet integration
	PhaseConstraints              // secondary motion: constraints and colliders
	PhaseSprings                  // secondary motion: spring bones
	PhaseApply                    // simulated particles back into the pose
	PhaseFinal                    // final FK: the pose the game reads
	NumPhases
)

var phaseNames = [NumPhases]string{"animation", "procedural", "prepare", "integrate", "constraints", "springs", "apply", "final"}

func (p Phase) String() string {
	if p < NumPhases {
		return phaseNames[p]
	}
	return "phase?"
}

// SystemStats is one system's timing.
type SystemStats struct {
	Name     string
	Phase    Phase
	Calls    uint64
	Last     time.Duration // wall time of the last Update
	Total    time.Duration
	Disabled bool // switched off with SetEnabled
}

type entry struct {
	sys      System
	labels   context.Context
	stats    SystemStats
	disabled bool
	// While its stretch runs fused (see fusion): the system's characters
	// in each chunk, and its time summed over the workers, in ns.
	off []int32
	ns  int64
}

// record counts one Update of the system that took d.
func (e *entry) record(d time.Duration) {
	e.stats.Calls++
	e.stats.Last = d
	e.stats.Total += d
}

// Pipeline runs systems phase by phase, in the order they were added within
// a phase. It is itself a System, so a whole sway frame can be one system
// of an arche-model Model.
//
// Consecutive character systems (every standard one) run fused: chunk by
// chunk of characters, each chunk through all of them in order, so that a
// character's pose and chains are still in cache when the next system
// reads them (see fusion). The results are the same bits as running each
// system over every character before the next starts (SetFusion(false)).
type Pipeline struct {
	entries []entry
	world   *ecs.World
	fusion  fusion
	unfused bool
}

// Add appends sys to phase under name. Systems added after Initialize are
// initialised at once.
func (p *Pipeline) Add(phase Phase, name string, sys System) {
	e := entry{
		sys:    sys,
		labels: pprof.WithLabels(context.Background(), pprof.Labels("system", name)),
		stats:  SystemStats{Name: name, Phase: phase},
	}
	i := len(p.entries)
	for i > 0 && p.entries[i-1].stats.Phase > phase {
		i--
	}
	p.entries = append(p.entries, entry{})
	copy(p.entries[i+1:], p.entries[i:])
	p.entries[i] = e
	if p.world != nil {
		sys.Initialize(p.world)
	}
}

// Initialize initialises every system.
func (p *Pipeline) Initialize(w *ecs.World) {
	p.world = w
	p.fusion.init(w)
	for i := range p.entries {
		p.entries[i].sys.Initialize(w)
	}
}

// Update runs every system once, in phase order, timing each and labelling
// the goroutines that run it with the system's name for pprof. Runs of
// character systems run fused (see Pipeline); a system that reads other
// characters' poses in its set-up (an entity target) starts a new run, so
// it sees every earlier system's work on every character.
func (p *Pipeline) Update(w *ecs.World) {
	f := &p.fusion
	f.gathered = false
	for i := 0; i < len(p.entries); {
		e := &p.entries[i]
		if _, ok := e.sys.(Chunked); ok && !e.disabled && !p.unfused && f.w != nil {
			i = p.runStretch(w, i)
			continue
		}
		if !e.disabled {
			pprof.SetGoroutineLabels(e.labels)
			start := time.Now()
			e.sys.Update(w)
			e.record(time.Since(start))
			f.gathered = false // it may have added or removed characters
		}
		i++
	}
	f.release()
	pprof.SetGoroutineLabels(context.Background())
}

// SetFusion switches fused runs of character systems on (the default) or
// off. The results are the same bits either way; off, every system runs
// over all characters before the next starts, for comparison and
// measurement.
func (p *Pipeline) SetFusion(on bool) { p.unfused = !on }

// Finalize finalises every system.
func (p *Pipeline) Finalize(w *ecs.World) {
	for i := range p.entries {
		p.entries[i].sys.Finalize(w)
	}
	p.world = nil
}

// Stats appends every system's timing to dst, in run order.
func (p *Pipeline) Stats(dst []SystemStats) []SystemStats {
	for i := range p.entries {
		s := p.entries[i].stats
		s.Disabled = p.entries[i].disabled
		dst = append(dst, s)
	}
	return dst
}

// SetEnabled switches the named system on or off; a disabled system is
// skipped by Update (for tools and measurements: the forward-kinematics
// systems should stay on). It reports whether a system has that name.
func (p *Pipeline) SetEnabled(name string, on bool) bool {
	found := false
	for i := range p.entries {
		if p.entries[i].stats.Name == name {
			p.entries[i].disabled = !on
			found = true
		}
	}
	return found
}

// Names returns the systems' names in run order.
func (p *Pipeline) Names() []string {
	names := make([]string, len(p.entries))
	for i := range p.entries {
		names[i] = p.entries[i].stats.Name
	}
	return names
}

// Len returns the number of systems.
func (p *Pipeline) Len() int { return len(p.entries) }
