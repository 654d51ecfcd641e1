package systems

import (
	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"

	"github.com/sway-anim/sway/components"
	"github.com/sway-anim/sway/internal/rig"
	"github.com/sway-anim/sway/jobs"
)

// PoseReset is the animation phase's pose source. Characters without a
// components.Animation get their skeleton's rest pose, so that procedural
// and secondary motion start from the same pose every frame instead of
// accumulating. Characters with one are left to the animation layer
// ([Animation], "anim"), which the default pipeline runs right after this
// system. Either way the pose is marked dirty.
type PoseReset struct {
	noCrossReads
	frame frame
	chars characters // characters without an Animation component
	job   *jobs.Job
	body  func(lo, hi int)
	// Set for the duration of one Update.
	pool *rig.Pool
	reg  *rig.Registry
}

// NewPoseReset returns the pose-reset system. The animation layer
// ([Animation], "anim") runs beside it in the same phase for the
// characters it leaves out.
func NewPoseReset() *PoseReset {
	s := &PoseReset{
		chars: characters{filter: generic.NewFilter2[components.Pose, components.Root]().
			Without(generic.T[components.Animation]())},
		job: jobs.NewJob("pose.reset"),
	}
	s.body = s.run
	return s
}

// Initialize implements System.
func (s *PoseReset) Initialize(w *ecs.World) {
	s.frame = newFrame(w)
	ecs.ComponentID[components.Animation](w) // the filter's exclusion, registered outside any query
}

// Update implements System.
func (s *PoseReset) Update(w *ecs.World) { runAlone(s, &s.frame, w) }

func (s *PoseReset) GatherFrame(w *ecs.World) (*jobs.Job, func(lo, hi int), int) {
	items := s.chars.gather(w)
	s.pool, s.reg = s.frame.pool.Get(), s.frame.reg.Get()
	return s.job, s.body, len(items)
}

func (s *PoseReset) FramePoses(dst []*components.Pose) []*components.Pose {
	return s.chars.framePoses(dst)
}

func (s *PoseReset) ReleaseFrame() {
	s.chars.release()
	s.pool, s.reg = nil, nil
}

func (s *PoseReset) run(lo, hi int) {
	for _, c := range s.chars.items[lo:hi] {
		p := c.pose
		skel := s.reg.Skeletons[p.Skeleton]
		a, b := p.First, p.First+p.Count
		copy(s.pool.LocalPos[a:b], skel.RestPos())
		copy(s.pool.LocalRot[a:b], skel.RestRot())
		copy(s.pool.LocalScale[a:b], skel.RestScale())
		p.MarkAllDirty()
	}
}

// Finalize implements System.
func (s *PoseReset) Finalize(w *ecs.World) {}
