// Package systems holds sway's ECS systems and builds the ordered pipeline
// that runs them (the scheduler itself, [Pipeline] and [Phase], is package
// systems/schedule; the stores the systems read are internal/store's).
// Each system has the shape of arche-model's System (Initialize, Update,
// Finalize on *ecs.World), so it drops into an arche-model Model as well
// as into a [Pipeline].
//
// Outline:
//   - [Pipeline] and [Phase]: systems in named phases, run in order, with
//     per-system timing and pprof labels ("system" = name).
//   - [NewDefaultPipeline]: the standard order (see docs/architecture.md).
//   - [PoseReset]: every character's local pose back to its rest pose (the
//     animation phase when no animation layer drives the character).
//   - [ForwardKinematics]: brings world transforms up to date, recomputing
//     only each character's dirty bone range.
//   - [Clock]: advances the components.Time resource, for arche-model users.
//   - [Faults]: the world resource where systems report recovered faults.
//
// The threading model: a system queries on the calling goroutine, gathers
// pointers to the matched components into a reused slice, and hands chunks
// of that slice to the job system. The pointers are used only until the
// parallel-for returns, inside the same Update, while no entity can be
// created or removed; the slice is cleared afterwards. Chunks are disjoint
// because every character owns its own range of the pose pool and its own
// components, and a worker writes only the characters of its chunk.
//
// Within a Pipeline, consecutive character systems run fused: each does
// its set-up on the calling goroutine, then one parallel-for takes chunks
// of [CharacterGrain] characters through all their bodies in order, so a
// chunk's data is still in cache for the next system. A system that reads
// other characters' poses in its set-up (entity targets), or one that is
// not a standard character system, ends the fused run before it. The
// results are the same bits as running the systems one by one
// ([Pipeline.SetFusion]).
//
// The math of each step lives in pure sub-packages (fk, and later the
// chain, spring, breath, look-at, IK and blend kernels) that tests and
// benchmarks call without a world.
package systems
