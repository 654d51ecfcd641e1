package sway_test

import (
	"fmt"
	"hash/fnv"
	"math"
	"testing"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"

	"github.com/sway-anim/sway/internal/rig"
	"github.com/sway-anim/sway/systems"
)

// The pipeline runs its character systems fused, chunk by chunk of
// characters; the frames are the same bits as with every system run over
// all characters before the next. The full scene has entity targets
// (characters 0 and 1 look at and reach for their neighbour), so the
// look-at and the IK each start a new fused run; the same scene with point
// targets runs every system in one. Removing a target character halfway
// changes the characters the chunks are cut from.
func TestFusedFramesMatchUnfused(t *testing.T) {
	const frames = 40
	chars := 40
	if testing.Short() {
		chars = 20
	}
	for _, vrm := range []bool{false, true} {
		for _, points := range []bool{false, true} {
			run := func(fused bool) []uint64 {
				s := newFullScene(t, chars, 2, vrm)
				defer s.w.Close()
				s.w.Pipeline().SetFusion(fused)
				if points {
					for i := 0; i < 2; i++ {
						if err := s.w.LookAt().Of(s.ents[i]).SetTarget(s.sc.RootAt(i+1, 0).Pos); err != nil {
							t.Fatal(err)
						}
						if err := s.w.IK().Of(s.ents[i]).SetTarget(0, s.sc.RootAt(i+1, 0).Pos); err != nil {
							t.Fatal(err)
						}
					}
				}
				sums := s.stepSums(t, frames/2)
				s.removeTarget(t)
				return append(sums, s.stepSums(t, frames/2)...)
			}
			sameSums(t, fmt.Sprintf("vrm %v, point targets %v: fused and unfused", vrm, points), run(false), run(true))
		}
	}
}

// poseRecorder is a game system in the middle of the pipeline: it hashes
// every world position when it runs. A system the pipeline cannot run
// chunk by chunk ends a fused run, so it finds every character through
// the systems before it, fused or not.
type poseRecorder struct {
	pool generic.Resource[rig.Pool]
	sums []uint64
}

func (r *poseRecorder) Initialize(w *arche.World) { r.pool = generic.NewResource[rig.Pool](w) }
func (r *poseRecorder) Finalize(w *arche.World)   {}
func (r *poseRecorder) Update(w *arche.World) {
	h := fnv.New64a()
	var b [4]byte
	for _, p := range r.pool.Get().WorldPos {
		for _, x := range p {
			u := math.Float32bits(x)
			b[0], b[1], b[2], b[3] = byte(u), byte(u>>8), byte(u>>16), byte(u>>24)
			h.Write(b[:])
		}
	}
	r.sums = append(r.sums, h.Sum64())
}

func TestGameSystemSplitsAFusedRun(t *testing.T) {
	run := func(fused bool) (mid, end []uint64) {
		s := newFullScene(t, 36, 2, false)
		defer s.w.Close()
		rec := &poseRecorder{}
		s.w.Pipeline().Add(systems.PhaseSprings, "game.record", rec)
		s.w.Pipeline().SetFusion(fused)
		end = s.stepSums(t, 12)
		return rec.sums, end
	}
	mid0, end0 := run(false)
	mid1, end1 := run(true)
	sameSums(t, "the recorder's hashes, fused and unfused", mid0, mid1)
	sameSums(t, "the frames, fused and unfused", end0, end1)
}
