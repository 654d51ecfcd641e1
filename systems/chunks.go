package systems

import (
	"github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/components"
	"github.com/sway-anim/sway/systems/schedule"
)

// runAlone is Update of a chunked system run on its own.
func runAlone(s schedule.Chunked, f *frame, w *ecs.World) {
	schedule.RunAlone(s, f.jobs.Get(), f.faults.Get(), w)
}

// noCrossReads is embedded by chunked systems whose set-up reads only
// their own characters.
type noCrossReads struct{}

// CrossReads implements schedule.Chunked: the set-up reads no other
// character's pose.
func (noCrossReads) CrossReads() bool { return false }

// ResolveFrame implements schedule.Chunked: there is nothing to resolve.
func (noCrossReads) ResolveFrame(w *ecs.World) {}

// framePoses appends the poses of the gathered characters to dst.
func (c *characters) framePoses(dst []*components.Pose) []*components.Pose {
	for i := range c.items {
		dst = append(dst, c.items[i].pose)
	}
	return dst
}

// framePoses appends the poses of the gathered characters to dst.
func (c *featureCharacters[T]) framePoses(dst []*components.Pose) []*components.Pose {
	for i := range c.items {
		dst = append(dst, c.items[i].pose)
	}
	return dst
}

// Every character system of the default pipeline is chunked.
var (
	_ schedule.Chunked = (*PoseReset)(nil)
	_ schedule.Chunked = (*Animation)(nil)
	_ schedule.Chunked = (*BreathSystem)(nil)
	_ schedule.Chunked = (*LookAtSystem)(nil)
	_ schedule.Chunked = (*IKSystem)(nil)
	_ schedule.Chunked = (*ForwardKinematics)(nil)
	_ schedule.Chunked = (*ChainPrepare)(nil)
	_ schedule.Chunked = (*ChainStep)(nil)
	_ schedule.Chunked = (*ChainApply)(nil)
	_ schedule.Chunked = (*VRMSprings)(nil)
	_ schedule.Chunked = (*SimpleSprings)(nil)
)
