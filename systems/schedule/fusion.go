package schedule

import (
	"context"
	"runtime/pprof"
	"sync/atomic"
	"time"

	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"

	"github.com/sway-anim/sway/components"
	"github.com/sway-anim/sway/internal/slicex"
	"github.com/sway-anim/sway/jobs"
)

// fusion runs a stretch of consecutive chunked systems together: every
// system does its set-up on the calling goroutine, then one parallel loop
// takes chunks of CharacterGrain characters (in the order of every
// character with a pose and a root) and runs each chunk through the
// systems' bodies in pipeline order, each over its own characters in the
// chunk. At 10,000 characters a system run over all of them streams every
// pose from memory and the next system streams it again; chunk by chunk,
// the next system finds the chunk's data in cache.
//
// It changes no result: a character still goes through the systems in
// order, each system's body is the one it runs alone, and chunks touch
// disjoint characters, as the systems' own chunks do. Chunk boundaries
// depend on the characters only, never on the number of workers.
type fusion struct {
	w       *ecs.World // nil until the pipeline is initialised
	jobs    generic.Resource[jobs.Pool]
	faults  generic.Resource[Faults]
	job     *jobs.Job
	body    func(lo, hi int)                                   // run, made once
	base    *generic.Filter2[components.Pose, components.Root] // every character, in the order chunks follow
	poses   []*components.Pose
	scratch []*components.Pose
	// gathered: base and poses hold this frame's characters (cleared
	// when a system that is not chunked may have changed them).
	gathered bool
	chunks   int
	members  []member // the stretch being run
}

// member is one system of a stretch.
type member struct {
	e    *entry
	sys  Chunked
	job  *jobs.Job
	body func(lo, hi int)
	n    int
	// setUp is its time on the calling goroutine: gathering and binding,
	// resolving targets, releasing.
	setUp time.Duration
}

func (f *fusion) init(w *ecs.World) {
	f.w = w
	f.jobs, f.faults = generic.NewResource[jobs.Pool](w), generic.NewResource[Faults](w)
	f.base = generic.NewFilter2[components.Pose, components.Root]()
	f.job = jobs.NewJob("pipeline")
	f.body = f.run
}

// runStretch runs the chunked systems from entries[i] on, up to the next
// enabled system that is not chunked, and returns that one's index.
func (p *Pipeline) runStretch(w *ecs.World, i int) int {
	f := &p.fusion
	f.members = f.members[:0]
	for ; i < len(p.entries); i++ {
		e := &p.entries[i]
		if e.disabled {
			continue
		}
		c, ok := e.sys.(Chunked)
		if !ok {
			break
		}
		pprof.SetGoroutineLabels(e.labels)
		start := time.Now()
		job, body, n := c.GatherFrame(w)
		cross := c.CrossReads()
		setUp := time.Since(start)
		if cross {
			// Its set-up reads other characters' poses: every earlier
			// system must be done with every character first.
			f.flush()
			pprof.SetGoroutineLabels(e.labels)
			start = time.Now()
			c.ResolveFrame(w)
			setUp += time.Since(start)
		}
		f.members = append(f.members, member{e: e, sys: c, job: job, body: body, n: n, setUp: setUp})
	}
	f.flush()
	return i
}

// flush runs the stretch's members gathered so far, fused when there are
// several and their characters line up with the chunks, else each alone,
// then releases them and records their times.
func (f *fusion) flush() {
	ms := f.members
	if len(ms) == 0 {
		return
	}
	pool, faults := f.jobs.Get(), f.faults.Get()
	if len(ms) > 1 && f.plan() {
		for k := range ms {
			ms[k].e.ns = 0
		}
		start := time.Now()
		faults.Report(pool.For(f.job, f.chunks, 1, f.body))
		wall := time.Since(start)
		// Each system's share of the wall time is its share of the work
		// summed over the workers, so the systems' times add up to the
		// stretch's.
		var sum int64
		for k := range ms {
			sum += ms[k].e.ns
		}
		for k := range ms {
			if sum > 0 {
				ms[k].setUp += time.Duration(float64(wall) * float64(ms[k].e.ns) / float64(sum))
			}
		}
	} else {
		for k := range ms {
			m := &ms[k]
			pprof.SetGoroutineLabels(m.e.labels)
			start := time.Now()
			faults.Report(pool.For(m.job, m.n, CharacterGrain, m.body))
			m.setUp += time.Since(start)
		}
	}
	for k := range ms {
		m := &ms[k]
		start := time.Now()
		m.sys.ReleaseFrame()
		m.e.record(m.setUp + time.Since(start))
	}
	clear(f.members) // no pointer outlives the frame
	f.members = f.members[:0]
	pprof.SetGoroutineLabels(context.Background())
}

// plan works out which characters of each member every chunk holds, and
// reports false if a member's characters do not line up with the chunks.
func (f *fusion) plan() bool {
	if !f.gathered {
		q := f.base.Query(f.w)
		// Reserved at once: a first frame allocates as much for 10 or
		// 10,000 characters.
		n := q.Count()
		f.poses = slicex.Reserve(f.poses[:0], n)
		for q.Next() {
			p, _ := q.Get()
			f.poses = append(f.poses, p)
		}
		f.scratch = slicex.Reserve(f.scratch[:0], n)
		f.chunks = (len(f.poses) + CharacterGrain - 1) / CharacterGrain
		f.gathered = true
	}
	for k := range f.members {
		e := f.members[k].e
		if cap(e.off) < f.chunks+1 {
			e.off = make([]int32, f.chunks+1)
		}
		e.off = e.off[:f.chunks+1]
		f.scratch = f.members[k].sys.FramePoses(f.scratch[:0])
		ok := chunkBounds(e.off, f.poses, f.scratch, CharacterGrain)
		clear(f.scratch)
		if !ok {
			return false
		}
	}
	return true
}

// run takes chunks lo..hi-1 through the members in order.
func (f *fusion) run(lo, hi int) {
	for c := lo; c < hi; c++ {
		for k := range f.members {
			m := &f.members[k]
			a, b := m.e.off[c], m.e.off[c+1]
			if a == b {
				continue
			}
			pprof.SetGoroutineLabels(m.e.labels)
			start := time.Now()
			m.body(int(a), int(b))
			atomic.AddInt64(&m.e.ns, int64(time.Since(start)))
		}
	}
}

// release drops the frame's character pointers.
func (f *fusion) release() {
	clear(f.poses)
	f.poses = f.poses[:0]
	f.gathered = false
}
