package systems

import (
	"github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/components"
	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/internal/rig"
	"github.com/sway-anim/sway/jobs"
	"github.com/sway-anim/sway/systems/breath"
)

func init() {
	registerDefault(PhaseProcedural, 10, "breath", func() System { return NewBreathSystem() })
}

// NewBreathComponent returns the breath component for a character of
// skel: s validated and resolved against the skeleton (breath.NewPlan),
// and the cycle started offset seconds in (breath.Init), so that
// characters given different offsets or DurationRates breathe out of step.
// s must already name its bones by index and carry its axes
// (breath.Settings.ChooseAxes on skel.ModelRot()). Bad settings and a
// negative or non-finite offset are reported as a *check.FieldError.
func NewBreathComponent(skel *rig.Skeleton, s breath.Settings, offset float32) (components.Breath, error) {
	if err := check.NonNegative("Breath", "Offset", offset); err != nil {
		return components.Breath{}, err
	}
	plan, err := breath.NewPlan(&s, skel.Parents())
	if err != nil {
		return components.Breath{}, err
	}
	b := components.Breath{Settings: s, Plan: plan}
	breath.Init(&b.State, &b.Settings, offset)
	for _, sg := range s.Segments {
		if sg.Bone >= 0 {
			b.DirtyHi = max(b.DirtyHi, skel.SubtreeEnd(int(sg.Bone)))
		}
	}
	for _, sh := range s.Shoulders {
		if sh >= 0 {
			b.DirtyHi = max(b.DirtyHi, skel.SubtreeEnd(int(sh)))
		}
	}
	return b, nil
}

// BreathSystem advances every breathing character by the frame's
// simulation dt (components.Time) and bends its pose: breath.Step, then
// Plan.Apply on the character's local rotations, with the written bones'
// subtrees marked dirty for the next FK. Plan.Apply reads no world
// rotation, so the world pose need not be current. It runs in the
// procedural phase, before look-at and IK.
//
// A character whose root is not finite is skipped for the frame, clock
// included: it keeps its last good pose (see Sync), and its breath
// resumes where it stopped.
type BreathSystem struct {
	frame frame
	chars featureCharacters[components.Breath]
	job   *jobs.Job
	body  func(lo, hi int)
	// Set for the duration of one Update.
	pool *rig.Pool
	reg  *rig.Registry
	dt   float32
}

// NewBreathSystem returns the breath system.
func NewBreathSystem() *BreathSystem {
	s := &BreathSystem{chars: newFeatureCharacters[components.Breath](), job: jobs.NewJob("breath")}
	s.body = s.run
	return s
}

// Initialize implements System.
func (s *BreathSystem) Initialize(w *ecs.World) { s.frame = newFrame(w) }

// Update implements System.
func (s *BreathSystem) Update(w *ecs.World) {
	items := s.chars.gather(w)
	s.pool, s.reg, s.dt = s.frame.pool.Get(), s.frame.reg.Get(), s.frame.time.Get().Dt
	s.frame.faults.Get().Report(s.frame.jobs.Get().For(s.job, len(items), CharacterGrain, s.body))
	s.chars.release()
	s.pool, s.reg = nil, nil
}

func (s *BreathSystem) run(lo, hi int) {
	for _, c := range s.chars.items[lo:hi] {
		b, p := c.feat, c.pose
		first, _ := b.Plan.Bones()
		// Pose.SyncedRoot is always finite, so this is the test Sync
		// makes: a changed root that is not finite.
		if first < 0 || !rootFinite(&c.root.Transform) {
			continue
		}
		breath.Step(&b.State, &b.Settings, s.dt)
		a, e := p.First, p.First+p.Count
		b.Plan.Apply(s.pool.LocalRot[a:e], s.reg.Skeletons[p.Skeleton].Parents(), &b.State)
		p.MarkDirty(first, b.DirtyHi)
	}
}

// Finalize implements System.
func (s *BreathSystem) Finalize(w *ecs.World) {}
