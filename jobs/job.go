package jobs

import (
	"context"
	"runtime/pprof"
	"time"
)

// Job names a unit of parallel work. Its workers carry the pprof label
// system=<Name>, so `go tool pprof -tagfocus system=<Name>` isolates it.
// A Job is used by one For at a time.
type Job struct {
	Name   string
	Stats  Stats
	labels context.Context
}

// Stats is a job's timing, updated by every For.
type Stats struct {
	Calls  uint64        // For calls
	Chunks uint64        // chunks run, over all calls
	Last   time.Duration // wall time of the last call
	Total  time.Duration // wall time of all calls
}

// NewJob returns a job with the given name and its pprof labels.
func NewJob(name string) *Job {
	return &Job{Name: name, labels: pprof.WithLabels(context.Background(), pprof.Labels("system", name))}
}

// Labels returns the job's label context, for pprof.SetGoroutineLabels or
// pprof.Do on the calling goroutine.
func (j *Job) Labels() context.Context { return j.labels }

func (j *Job) record(d time.Duration, chunks int) {
	j.Stats.Calls++
	j.Stats.Chunks += uint64(chunks)
	j.Stats.Last = d
	j.Stats.Total += d
}
