// Package jobs is sway's job system, the counterpart of the Unity JobSystem
// that MagicaCloth and DynamicBone use: a fixed pool of workers and a
// parallel-for over a count, split into chunks of a fixed grain. It knows
// nothing about animation.
//
// Outline:
//   - [Pool]: the workers. NewPool starts them once through an
//     errgroup.Group (SetLimit = workers); Close stops them. A frame's For
//     calls hand work to parked workers and allocate nothing.
//   - [Job]: a named unit of work with pprof labels ("system" = name) and
//     timing ([Stats]).
//   - [Pool.For]: runs body(lo, hi) over [0, n) in chunks [k*grain,
//     (k+1)*grain). The calling goroutine takes part.
//
// Determinism: chunk boundaries depend only on n and grain, never on the
// number of workers, and chunks must be independent (each writes only its
// own elements), so a result cannot depend on which worker ran which chunk
// or on how many workers there were.
//
// A panic in a body is recovered, stops the remaining chunks and is
// returned as a *PanicError; the pool stays usable.
package jobs
