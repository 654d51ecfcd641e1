package systems

import (
	"github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/components"
	"github.com/sway-anim/sway/jobs"
)

// chunked is a character system whose Update splits into set-up on the
// calling goroutine, independent work per character over index ranges of
// its character list (the body it hands the job pool), and a wrap-up. The
// pipeline runs a stretch of consecutive chunked systems together, chunk
// by chunk of characters (see Pipeline.Update), so that a character's
// data stays in cache from one system to the next.
type chunked interface {
	System
	// gatherFrame gathers the characters and binds the resources; it
	// reads nothing of other characters' poses. It returns the job and
	// body to run and the number of characters.
	gatherFrame(w *ecs.World) (job *jobs.Job, body func(lo, hi int), n int)
	// crossReads reports, after gatherFrame, whether resolveFrame reads
	// other characters' poses this frame (entity targets): it must then
	// run after every earlier system has finished with every character.
	crossReads() bool
	// resolveFrame is the set-up that may read other characters' poses.
	resolveFrame(w *ecs.World)
	// framePoses appends the gathered characters' poses, in the order the
	// body indexes them.
	framePoses(dst []*components.Pose) []*components.Pose
	// releaseFrame drops the frame's pointers.
	releaseFrame()
}

// runAlone is Update of a chunked system run on its own.
func runAlone(s chunked, f *frame, w *ecs.World) {
	job, body, n := s.gatherFrame(w)
	s.resolveFrame(w)
	f.faults.Get().Report(f.jobs.Get().For(job, n, CharacterGrain, body))
	s.releaseFrame()
}

// noCrossReads is embedded by chunked systems whose set-up reads only
// their own characters.
type noCrossReads struct{}

func (noCrossReads) crossReads() bool          { return false }
func (noCrossReads) resolveFrame(w *ecs.World) {}

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

// chunkBounds sets off[c] to the index in list of the first character of
// base chunk c (chunks of grain characters of base) and off[chunks] to
// len(list), and reports whether list is a subsequence of base in base's
// order: only then does chunk c of every system cover the same
// characters, which running a stretch chunk by chunk needs. Each list
// comes from a query over a subset of base's archetypes, iterated in the
// same order, so it always is; the check keeps a surprise from mixing
// characters up.
func chunkBounds(off []int32, base, list []*components.Pose, grain int) bool {
	j := 0
	for c := 0; c*grain < len(base); c++ {
		off[c] = int32(j)
		for _, p := range base[c*grain : min(len(base), (c+1)*grain)] {
			if j < len(list) && list[j] == p {
				j++
			}
		}
	}
	off[(len(base)+grain-1)/grain] = int32(j)
	return j == len(list)
}

// Every character system of the default pipeline is chunked.
var (
	_ chunked = (*PoseReset)(nil)
	_ chunked = (*Animation)(nil)
	_ chunked = (*BreathSystem)(nil)
	_ chunked = (*LookAtSystem)(nil)
	_ chunked = (*IKSystem)(nil)
	_ chunked = (*ForwardKinematics)(nil)
	_ chunked = (*ChainPrepare)(nil)
	_ chunked = (*ChainStep)(nil)
	_ chunked = (*ChainApply)(nil)
	_ chunked = (*VRMSprings)(nil)
	_ chunked = (*SimpleSprings)(nil)
)
