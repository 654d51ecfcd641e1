package schedule

import (
	"github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/components"
	"github.com/sway-anim/sway/jobs"
)

// CharacterGrain is the number of characters in one chunk of a parallel
// system. It is fixed, so chunk boundaries never depend on the number of
// workers; 16 characters of the standard rig are 10-50 µs of work, large
// enough to hide the hand-off and small enough to balance two cores.
const CharacterGrain = 16

// Chunked is a character system whose Update splits into set-up on the
// calling goroutine, independent work per character over index ranges of
// its character list (the body it hands the job pool), and a wrap-up. The
// pipeline runs a stretch of consecutive chunked systems together, chunk
// by chunk of characters (see Pipeline.Update), so that a character's
// data stays in cache from one system to the next. Every standard system
// of package systems is one; the methods are for the pipeline.
type Chunked interface {
	System
	// GatherFrame gathers the characters and binds the resources; it
	// reads nothing of other characters' poses. It returns the job and
	// body to run and the number of characters.
	GatherFrame(w *ecs.World) (job *jobs.Job, body func(lo, hi int), n int)
	// CrossReads reports, after GatherFrame, whether ResolveFrame reads
	// other characters' poses this frame (entity targets): it must then
	// run after every earlier system has finished with every character.
	CrossReads() bool
	// ResolveFrame is the set-up that may read other characters' poses.
	ResolveFrame(w *ecs.World)
	// FramePoses appends the gathered characters' poses, in the order the
	// body indexes them.
	FramePoses(dst []*components.Pose) []*components.Pose
	// ReleaseFrame drops the frame's pointers.
	ReleaseFrame()
}

// RunAlone is the Update of a chunked system run on its own: set-up, the
// body over chunks of CharacterGrain characters on the job pool (a
// recovered panic reported to faults), and the wrap-up.
func RunAlone(s Chunked, pool *jobs.Pool, faults *Faults, w *ecs.World) {
	job, body, n := s.GatherFrame(w)
	s.ResolveFrame(w)
	faults.Report(pool.For(job, n, CharacterGrain, body))
	s.ReleaseFrame()
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
