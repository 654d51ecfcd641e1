// Package sway is sway's facade: the part of the library a game touches.
// It creates a sway world on a new or an existing arche world, adds
// characters, steps the ordered pipeline and reads poses.
//
// The package lives in the directory ecs/ but is named sway. Every file
// that uses it also imports arche's package ecs (entities, the world a
// game owns), so a facade named ecs needed an import alias in every user
// file, and code read "ecs.World" for two different worlds. The name sway
// says whose World it is and needs no alias:
//
//	import (
//		"github.com/mlange-42/arche/ecs"
//		"github.com/sway-anim/sway/ecs" // package sway
//	)
//
//	w, err := sway.NewWorld(sway.Options{})
//
// Outline:
//   - [NewSkeleton], [SkeletonDesc], [Bone]: describe and build a skeleton.
//   - [NewWorld], [Attach]: a sway world with its own arche world or on yours.
//   - [World.AddCharacter], [World.RemoveCharacter], [World.SetRoot]:
//     characters are entities holding a [components.Pose] and a
//     [components.Root].
//   - [World.Step]: one frame of the pipeline (see systems.NewDefaultPipeline).
//   - [World.BoneWorld], [World.Pose], [World.Checksum]: read the result.
//   - [World.Snapshot], [World.Restore]: the simulation state to bytes and
//     back (rollback, replays, save games); a bad snapshot is reported as a
//     [SnapshotError] wrapping [ErrSnapshot].
//   - [FieldError], [ErrInvalid]: every bad input is reported at set-up as a
//     *FieldError naming the field and value; per-frame code never panics.
//   - [EntityError]: an entity that is not a live character of the world
//     (removed, another world's, not a character); it matches
//     [ErrNotCharacter].
//   - [CallError]: a call that did not run, on a closed world
//     ([ErrClosed]) or while another goroutine's call runs
//     ([ErrConcurrentCall]).
//
// A World is not safe for concurrent use: call it from the game loop's
// goroutine; it spreads each frame over its own workers. A call made while
// another call (Step included) runs on another goroutine is refused with
// ErrConcurrentCall rather than corrupting the world; ECS, Pipeline, Time
// and Workers are plain reads that a system may call during Step.
//
// A character's storage goes with its entity: removing it with
// RemoveCharacter, or with arche's own calls on a world the game owns
// (Attach), frees the same storage.
//
// Build a crowd one character at a time: add a character's features
// (chains, springs, animation, breath, look-at, IK) before the next
// character's. Each feature moves the entity to another arche archetype,
// and an archetype keeps the storage it grew to: adding one feature to
// every character before the next feature leaves one crowd-sized table
// behind per feature (1.3 KB per character on the stress rig), adding a
// character's features one after the other leaves tables of one entity.
package sway
