// Package fk is sway's forward-kinematics kernel: local bone transforms to
// world transforms in one pass over a flat parent array.
//
// Outline:
//   - [Job]: the inputs (parents, local transforms, root transform, bone
//     range) and outputs (world transforms) of one character's pass, with
//     Validate and Run, in the manner of ozz-animation's LocalToModelJob.
//
// Because a skeleton is stored parents before children, one forward loop
// sees every parent before its children. Because subtrees are contiguous
// index ranges, a Job may recompute only [Lo, Hi): bones before Lo must
// already be current (the dirty-range rule of components.Pose).
//
// Composition follows components.Transform: no shear under non-uniform
// scale. Run does not allocate and never panics on a validated job.
package fk
