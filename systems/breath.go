package systems

import (
	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"

	"github.com/sway-anim/sway/components"
	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/internal/rig"
	"github.com/sway-anim/sway/internal/slicex"
	"github.com/sway-anim/sway/jobs"
	"github.com/sway-anim/sway/systems/breath"
)

func init() {
	registerDefault(PhaseProcedural, 10, "breath", func() System { return NewBreathSystem() })
}

// NewBreathComponent returns the breath components of a character of
// skel: s validated and resolved against the skeleton (breath.NewPlan),
// and the cycle started offset seconds in (breath.Init), so that
// characters given different offsets or DurationRates breathe out of step.
// s must already name its bones by index and carry its axes
// (breath.Settings.ChooseAxes on skel.ModelRot()). Bad settings and a
// negative or non-finite offset are reported as a *check.FieldError.
func NewBreathComponent(skel *rig.Skeleton, s breath.Settings, offset float32) (components.Breath, components.BreathSettings, error) {
	if err := check.NonNegative("Breath", "Offset", offset); err != nil {
		return components.Breath{}, components.BreathSettings{}, err
	}
	plan, err := breath.NewPlan(&s, skel.Parents())
	if err != nil {
		return components.Breath{}, components.BreathSettings{}, err
	}
	b := components.Breath{Plan: plan, Control: components.Control{Weight: 1}}
	breath.Init(&b.State, &s, offset)
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
	return b, components.BreathSettings{Settings: s}, nil
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
//
// Per character a frame touches the Pose and Root components, the Breath
// component (144 bytes; BreathSettings only when a phase begins)
// and the cache lines of the bones the breath reads and writes.
type BreathSystem struct {
	noCrossReads
	frame  frame
	filter *generic.Filter4[components.Pose, components.Root, components.Breath, components.BreathSettings]
	items  []breathRef
	job    *jobs.Job
	body   func(lo, hi int)
	// Set for the duration of one Update.
	pool *rig.Pool
	view *components.View // the point distance culling measures from
	reg  *rig.Registry
	dt   float32
}

// breathRef points at one breathing character's components for the length
// of one Update.
type breathRef struct {
	pose     *components.Pose
	root     *components.Root
	breath   *components.Breath
	settings *components.BreathSettings
}

// NewBreathSystem returns the breath system.
func NewBreathSystem() *BreathSystem {
	s := &BreathSystem{
		filter: generic.NewFilter4[components.Pose, components.Root, components.Breath, components.BreathSettings](),
		job:    jobs.NewJob("breath"),
	}
	s.body = s.run
	return s
}

// Initialize implements System.
func (s *BreathSystem) Initialize(w *ecs.World) { s.frame = newFrame(w) }

// Update implements System.
func (s *BreathSystem) Update(w *ecs.World) { runAlone(s, &s.frame, w) }

func (s *BreathSystem) GatherFrame(w *ecs.World) (*jobs.Job, func(lo, hi int), int) {
	q := s.filter.Query(w)
	s.items = slicex.Reserve(s.items, q.Count()) // see featureCharacters.gather
	for q.Next() {
		p, r, b, st := q.Get()
		s.items = append(s.items, breathRef{p, r, b, st})
	}
	s.pool, s.reg, s.dt = s.frame.pool.Get(), s.frame.reg.Get(), s.frame.time.Get().Dt
	s.view = s.frame.view.Get()
	return s.job, s.body, len(s.items)
}

func (s *BreathSystem) FramePoses(dst []*components.Pose) []*components.Pose {
	for i := range s.items {
		dst = append(dst, s.items[i].pose)
	}
	return dst
}

func (s *BreathSystem) ReleaseFrame() {
	clear(s.items) // no pointer outlives the frame
	s.items = s.items[:0]
	s.pool, s.reg = nil, nil
}

// breathAhead is how many characters ahead run prefetches the rotations
// a character's breath reads: far enough for a cache miss (some hundred
// nanoseconds) to be served while the characters before it are computed.
const breathAhead = 4

// run breathes the characters of one chunk. The rotations it reads, a few
// cache lines per character far apart in the pose pool, are prefetched
// breathAhead characters ahead (breath.Plan.Prefetch), so that their cache
// misses overlap with the work instead of stalling it.
func (s *BreathSystem) run(lo, hi int) {
	items := s.items[lo:hi]
	local, skels := s.pool.LocalRot, s.reg.Skeletons
	for i := range min(breathAhead, len(items)) {
		p := items[i].pose
		items[i].breath.Plan.Prefetch(local[p.First : p.First+p.Count])
	}
	for i := range items {
		if j := i + breathAhead; j < len(items) {
			p := items[j].pose
			items[j].breath.Plan.Prefetch(local[p.First : p.First+p.Count])
		}
		c := &items[i]
		b, p := c.breath, c.pose
		first, _ := b.Plan.Bones()
		if first < 0 || b.Off(c.root.Pos, s.view) || !finiteRoot(&c.root.Transform) {
			continue
		}
		breath.Step(&b.State, &c.settings.Settings, s.dt)
		if b.Weight < 1 {
			b.Plan.ApplyWeighted(local[p.First:p.First+p.Count], skels[p.Skeleton].Parents(), &b.State, b.Weight)
		} else {
			b.Plan.Apply(local[p.First:p.First+p.Count], skels[p.Skeleton].Parents(), &b.State)
		}
		p.MarkDirty(first, b.DirtyHi)
	}
}

// finiteRoot is rootFinite in fewer instructions: x*0 is 0 for a finite x
// and NaN for NaN and ±Inf. Pose.SyncedRoot is always finite, so a root
// that is not finite is exactly the root Sync refuses.
func finiteRoot(t *components.Transform) bool {
	z := t.Pos[0]*0 + t.Pos[1]*0 + t.Pos[2]*0 +
		t.Rot.W*0 + t.Rot.V[0]*0 + t.Rot.V[1]*0 + t.Rot.V[2]*0 +
		t.Scale[0]*0 + t.Scale[1]*0 + t.Scale[2]*0
	return z == 0
}

// Finalize implements System.
func (s *BreathSystem) Finalize(w *ecs.World) {}
