// Package rig holds the data that characters share and the storage they
// index: the immutable Skeleton with its validating builder, the skeleton
// Registry, and the world-level Pool of per-bone struct-of-arrays pose data.
//
// Outline:
//   - [SkeletonDesc], [BoneDesc] and [NewSkeleton]: an editable description,
//     validated and built into a [Skeleton] in depth-first order.
//   - [Skeleton]: flat arrays, parents before children, contiguous subtrees.
//   - [Pool]: local and world transforms of every bone of every character,
//     one contiguous array per field, indexed by character ranges.
//   - [Registry]: the world's skeletons, indexed by components.Pose.Skeleton.
//
// The ecs facade re-exports the user-facing types.
package rig
