package systems

import (
	"sort"

	"github.com/sway-anim/sway/systems/schedule"
)

// The scheduler's types, for the systems' users: a Pipeline runs Systems
// in Phases (package schedule).
type (
	// System is the shape of arche-model's model.System.
	System = schedule.System
	// Phase orders the systems of a frame.
	Phase = schedule.Phase
	// Pipeline runs systems phase by phase (see schedule.Pipeline).
	Pipeline = schedule.Pipeline
	// SystemStats is one system's timing.
	SystemStats = schedule.SystemStats
)

// The phases of a frame, in the order they run (see schedule.Phase).
const (
	PhaseAnimation   = schedule.PhaseAnimation
	PhaseProcedural  = schedule.PhaseProcedural
	PhasePrepare     = schedule.PhasePrepare
	PhaseIntegrate   = schedule.PhaseIntegrate
	PhaseConstraints = schedule.PhaseConstraints
	PhaseSprings     = schedule.PhaseSprings
	PhaseApply       = schedule.PhaseApply
	PhaseFinal       = schedule.PhaseFinal
	NumPhases        = schedule.NumPhases
)

// CharacterGrain is the number of characters in one chunk of a parallel
// system (see schedule.CharacterGrain).
const CharacterGrain = schedule.CharacterGrain

// defaultSystem is a standard system's place in the default pipeline.
type defaultSystem struct {
	order int // position within the phase, smaller first
	name  string
	make  func() System
}

// defaultSystems lists, per phase, the standard systems. Each feature
// registers itself from its own file (an init function), so adding a
// system does not edit a shared list. Orders in use:
//
//	animation: the animation layer 10 (after pose.reset)
//	procedural: breath 10, look-at 20, IK 30
//	prepare .. apply: dynamic chains 10, VRM springs 20, simple springs 30
var defaultSystems [NumPhases][]defaultSystem

// registerDefault adds a system to the default pipeline of every world
// created afterwards; features call it from init.
func registerDefault(phase Phase, order int, name string, make func() System) {
	defaultSystems[phase] = append(defaultSystems[phase], defaultSystem{order, name, make})
}

// AddDefaults adds the registered standard systems of one phase to p, by
// order, then name.
func AddDefaults(p *Pipeline, phase Phase) {
	list := append([]defaultSystem(nil), defaultSystems[phase]...)
	sort.Slice(list, func(i, j int) bool {
		if list[i].order != list[j].order {
			return list[i].order < list[j].order
		}
		return list[i].name < list[j].name
	})
	for _, d := range list {
		p.Add(phase, d.name, d.make())
	}
}

// NewDefaultPipeline returns the standard frame: pose reset, forward
// kinematics after the procedural phase (the chains read the whole
// animated pose) and a final forward-kinematics pass. Later features add
// their systems to the phases. No full pass runs between animation and the
// procedural systems: those read a few bones each and bring just their
// paths up to date (EnsurePath); a full pass there cost as much as the
// look-at and IK together.
func NewDefaultPipeline() *Pipeline {
	p := &Pipeline{}
	p.Add(PhaseAnimation, "pose.reset", NewPoseReset())
	AddDefaults(p, PhaseAnimation)
	AddDefaults(p, PhaseProcedural)
	p.Add(PhaseProcedural, "fk.procedural", NewForwardKinematics("fk.procedural"))
	AddDefaults(p, PhasePrepare)
	AddDefaults(p, PhaseIntegrate)
	AddDefaults(p, PhaseConstraints)
	AddDefaults(p, PhaseSprings)
	AddDefaults(p, PhaseApply)
	p.Add(PhaseFinal, "fk.final", NewForwardKinematics("fk.final").CountFaults())
	return p
}
