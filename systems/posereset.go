package systems

import (
	"github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/internal/rig"
	"github.com/sway-anim/sway/jobs"
)

// PoseReset sets every character's local pose to its skeleton's rest pose
// and marks it dirty: the animation phase of characters that no animation
// layer drives, so that procedural and secondary motion start from the
// same pose every frame instead of accumulating.
type PoseReset struct {
	frame frame
	chars characters
	job   *jobs.Job
	body  func(lo, hi int)
	// Set for the duration of one Update.
	pool *rig.Pool
	reg  *rig.Registry
}

// NewPoseReset returns the pose-reset system.
func NewPoseReset() *PoseReset {
	s := &PoseReset{chars: newCharacters(), job: jobs.NewJob("pose.reset")}
	s.body = s.run
	return s
}

// Initialize implements System.
func (s *PoseReset) Initialize(w *ecs.World) { s.frame = newFrame(w) }

// Update implements System.
func (s *PoseReset) Update(w *ecs.World) {
	items := s.chars.gather(w)
	s.pool, s.reg = s.frame.pool.Get(), s.frame.reg.Get()
	s.frame.faults.Get().Report(s.frame.jobs.Get().For(s.job, len(items), CharacterGrain, s.body))
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
