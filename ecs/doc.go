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
//   - [NewSkeleton], [SkeletonDesc], [Bone]: describe and build a skeleton;
//     [LoadRig] reads one (and its spring bones, animations and skins) from
//     a glTF or VRM file; [World.RigSkeleton] is the skeleton a world builds
//     for a rig, [Rig.Clip] one of its animations as a [ClipDesc];
//     [LoadVRMA] reads a VRM Animation and [VRMA.Clip] retargets it onto an
//     avatar.
//   - [NewWorld], [Attach]: a sway world with its own arche world or on yours.
//   - World-level calls: [World.AddCharacter], [World.AddRig],
//     [World.RemoveCharacter], [World.IsCharacter], [World.NumCharacters];
//     [World.SetRoot], [World.Root], [World.Skeleton], [World.SetBoneLocal];
//     [World.Step] (one frame of the pipeline, see systems.NewDefaultPipeline);
//     [World.BoneWorld], [World.Pose], [World.Checksum] to read the result;
//     [NewSkin], [SkinDesc], [World.SkinMatrices], [World.SkinFloats] to
//     hand a renderer a skin's joint matrices;
//     [World.Snapshot], [World.Restore] (rollback, replays, save games);
//     [World.AddClip], [World.AddBlendSpace] (the animation library);
//     [World.SetReference] (the point every feature's distance culling
//     measures from); [World.Trim], [World.Close], [World.SetWorkers]; and the plain
//     reads [World.ECS], [World.Pipeline], [World.Workers], [World.Time].
//   - Features, one accessor each: [World.Chains], [World.VRMSprings],
//     [World.SimpleSprings], [World.Breath], [World.LookAt], [World.IK],
//     [World.Animation]. Add gives a character the feature and returns its
//     handle ([ChainFeature.Add] returns a [Chains]); Of returns the handle
//     again ([ChainFeature.Of]).
//   - Every handle has the same verbs (see "Features as handles" below):
//     [Chains.Pause], [Chains.Resume], [Chains.Paused], [Chains.Reset],
//     [Chains.Weight], [Chains.SetWeight], [Chains.SetCullDistance],
//     [Chains.Remove], [Chains.Entity]; and its feature's own calls, such as
//     [Chains.SetSettings], [VRMSprings.SetTeleport], [Breath.State],
//     [LookAt.SetTarget], [IK.SetLimbWeight], [Animation.Play].
//   - Errors: [FieldError] ([ErrInvalid]) for every bad input, reported
//     at set-up with the field and value (per-frame code never panics);
//     [EntityError] ([ErrNotCharacter]) for an entity that is not a live
//     character of the world; [CallError] for a call that did not run, on
//     a closed world ([ErrClosed]) or during another goroutine's call
//     ([ErrConcurrentCall]); [FeatureError] ([ErrNoFeature]) for a handle
//     whose character lacks its feature; [OverlapError] ([ErrOverlap]) for
//     a bone two features would drive; [SnapshotError] ([ErrSnapshot]) for
//     a snapshot Restore cannot use.
//
// # Features as handles
//
// Every feature of a character (dynamic chains, VRM springs, simple
// springs, breath, look-at, IK, animation) is added the same way and
// answers the same verbs with the same meaning:
//
//	hair, err := w.Chains().Add(fox, colliders, specs) // a handle
//	hair.Pause(); hair.Resume(); hair.Reset(); hair.SetWeight(0.5)
//	hair = w.Chains().Of(fox)                          // the same handle again
//
// A handle is a small value (the world, the character, the feature): keep
// it, copy it, or get it again with Of. Its methods check on every call
// that the character is live and has the feature, so a handle outliving
// its feature returns a [*FeatureError] ([ErrNoFeature]) rather than
// acting on another character's data. The verbs every handle has:
//
//   - Pause: the feature's clock stops and its state is kept. A paused
//     secondary or procedural feature adds nothing to the pose (its bones
//     show the pose coming into it); a paused animation keeps posing the
//     time it stopped at.
//   - Resume: continue from the kept state. A secondary feature (chains,
//     springs) first runs its teleport test against where the character was
//     when it paused: a character moved or turned beyond the limits restarts
//     from the current pose, as after any jump.
//   - Reset: drop the feature's history; the next Step starts it from the
//     current pose (the breath cycle at its beginning, the animation at
//     time 0; IK keeps no history).
//   - SetWeight: blend the feature's result with the pose coming into it,
//     0..1 (default 1). A feature at weight 0 is not run (as if paused),
//     except look-at: its applied weight follows the requested one with
//     the head's damping, so it fades out, and at 0 it still follows its
//     target while its bones show the pose coming into it.
//   - SetCullDistance: while the character is farther than this from the
//     world's reference point (World.SetReference), the feature is
//     paused, and resumes when it comes back within it.
//   - Remove: take the feature off the character; from the next Step its
//     bones show the pose coming into the feature.
//
// Adding a feature the character already has is a [*FieldError] (Remove
// it first; [Breath.SetSettings] and [Animation.Play] change a running
// one), and a bone that two of a character's chains and springs would
// drive is an [*OverlapError]. The table in docs/architecture.md
// ("Features") lists what each verb does for each feature.
//
// # Using a world
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
