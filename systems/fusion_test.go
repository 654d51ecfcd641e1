package systems

import (
	"fmt"
	"slices"
	"testing"

	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"

	"github.com/sway-anim/sway/components"
	"github.com/sway-anim/sway/jobs"
)

// tracer is a chunked system that logs which character its body visits
// (by Pose.First) into a shared log; reversed lists its characters in
// the opposite order, which the pipeline cannot cut into its chunks.
type tracer struct {
	noCrossReads
	name     string
	chars    characters
	job      *jobs.Job
	body     func(lo, hi int)
	log      *[]string
	reversed bool
}

func newTracer(name string, log *[]string) *tracer {
	s := &tracer{name: name, chars: newCharacters(), job: jobs.NewJob(name), log: log}
	s.body = s.run
	return s
}

func (s *tracer) Initialize(w *ecs.World) {}
func (s *tracer) Finalize(w *ecs.World)   {}
func (s *tracer) Update(w *ecs.World)     { f := newFrame(w); runAlone(s, &f, w) }
func (s *tracer) GatherFrame(w *ecs.World) (*jobs.Job, func(lo, hi int), int) {
	items := s.chars.gather(w)
	if s.reversed {
		slices.Reverse(items)
	}
	return s.job, s.body, len(items)
}
func (s *tracer) FramePoses(dst []*components.Pose) []*components.Pose {
	return s.chars.framePoses(dst)
}
func (s *tracer) ReleaseFrame() { s.chars.release() }
func (s *tracer) run(lo, hi int) {
	for _, c := range s.chars.items[lo:hi] {
		*s.log = append(*s.log, fmt.Sprintf("%s%d", s.name, c.pose.First))
	}
}

// traceFrame runs one frame of two tracers over 40 characters on one
// worker and returns the log.
func traceFrame(t *testing.T, fused, reversed bool) ([]string, []SystemStats) {
	t.Helper()
	w := ecs.NewWorld()
	AddResources(&w, 1)
	m := generic.NewMap2[components.Pose, components.Root](&w)
	for i := range 40 {
		e := m.New()
		p, _ := m.Get(e)
		p.First = int32(i)
	}
	var log []string
	a, b := newTracer("a", &log), newTracer("b", &log)
	b.reversed = reversed
	p := &Pipeline{}
	p.Add(PhaseProcedural, "a", a)
	p.Add(PhaseApply, "b", b)
	p.SetFusion(fused)
	p.Initialize(&w)
	p.Update(&w)
	return log, p.Stats(nil)
}

func TestFusedRunTakesEachChunkThroughTheSystems(t *testing.T) {
	var chunked, apart []string
	for c := 0; c*CharacterGrain < 40; c++ {
		for _, name := range []string{"a", "b"} {
			for i := c * CharacterGrain; i < min(40, (c+1)*CharacterGrain); i++ {
				chunked = append(chunked, fmt.Sprintf("%s%d", name, i))
			}
		}
	}
	for _, name := range []string{"a", "b"} {
		for i := range 40 {
			apart = append(apart, fmt.Sprintf("%s%d", name, i))
		}
	}
	if log, stats := traceFrame(t, true, false); !slices.Equal(log, chunked) {
		t.Fatalf("fused: visits %v,\nwant chunk by chunk %v", log, chunked)
	} else {
		for _, s := range stats {
			if s.Calls != 1 || s.Last <= 0 {
				t.Fatalf("fused: %s: %d calls, last %v; want 1 call that took time", s.Name, s.Calls, s.Last)
			}
		}
	}
	if log, _ := traceFrame(t, false, false); !slices.Equal(log, apart) {
		t.Fatalf("unfused: visits %v,\nwant system by system %v", log, apart)
	}
	// b's characters do not line up with the chunks: each system alone.
	reversed := slices.Clone(apart)
	slices.Reverse(reversed[40:])
	if log, _ := traceFrame(t, true, true); !slices.Equal(log, reversed) {
		t.Fatalf("fused, b's characters reversed: visits %v,\nwant system by system %v", log, reversed)
	}
}
