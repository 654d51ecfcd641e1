package systems

import (
	"github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/components"

	"github.com/sway-anim/sway/internal/rig"
	"github.com/sway-anim/sway/jobs"
)

// ForwardKinematics brings every character's world transforms up to date
// (see [Sync]). The default pipeline runs one after each phase whose
// output a later phase reads; a character whose pose did not change costs
// only the check.
type ForwardKinematics struct {
	noCrossReads
	frame frame
	chars characters
	job   *jobs.Job
	body  func(lo, hi int)
	pool  *rig.Pool
	reg   *rig.Registry
	// countFaults makes this pass count a frame in Pose.Faults for every
	// character it cannot bring up to date (a non-finite root).
	countFaults bool
}

// NewForwardKinematics returns a forward-kinematics system; name labels
// its job for timing and pprof.
func NewForwardKinematics(name string) *ForwardKinematics {
	s := &ForwardKinematics{chars: newCharacters(), job: jobs.NewJob(name)}
	s.body = s.run
	return s
}

// Initialize implements System.
func (s *ForwardKinematics) Initialize(w *ecs.World) { s.frame = newFrame(w) }

// Update implements System.
func (s *ForwardKinematics) Update(w *ecs.World) { runAlone(s, &s.frame, w) }

func (s *ForwardKinematics) GatherFrame(w *ecs.World) (*jobs.Job, func(lo, hi int), int) {
	items := s.chars.gather(w)
	s.pool, s.reg = s.frame.pool.Get(), s.frame.reg.Get()
	return s.job, s.body, len(items)
}

func (s *ForwardKinematics) FramePoses(dst []*components.Pose) []*components.Pose {
	return s.chars.framePoses(dst)
}

func (s *ForwardKinematics) ReleaseFrame() {
	s.chars.release()
	s.pool, s.reg = nil, nil
}

func (s *ForwardKinematics) run(lo, hi int) {
	for _, c := range s.chars.items[lo:hi] {
		if !Sync(s.pool, s.reg.Skeletons[c.pose.Skeleton], c.pose, c.root) && s.countFaults {
			c.pose.Faults++
		}
	}
}

// CountFaults makes this pass the one that counts, in Pose.Faults, the
// frames a character is skipped for a non-finite root; the default
// pipeline sets it on its final pass, so each such frame counts once.
func (s *ForwardKinematics) CountFaults() *ForwardKinematics {
	s.countFaults = true
	return s
}

// Finalize implements System.
func (s *ForwardKinematics) Finalize(w *ecs.World) {}
