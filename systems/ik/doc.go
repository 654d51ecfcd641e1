// Package ik solves two-bone inverse kinematics analytically: an upper,
// middle and end joint (shoulder, elbow, wrist or hip, knee, ankle) are
// turned so that the end reaches a target, with the middle joint bent toward
// a hint (pole) position. The law of cosines gives the middle joint's bend
// in one step; there is no iteration.
//
// The package is pure math: it reads world positions and rotations and
// returns new world rotations, which the caller converts to local rotations
// (LocalRotation) parents first. Nothing here allocates or panics on finite
// input.
//
// # Outline
//
//   - TwoBoneSettings: middle joint axis, soft limit near full extension,
//     weight; Validate.
//   - TwoBoneInput, TwoBoneResult, SolveTwoBone: the solver.
//   - LocalRotation: world rotation back to local.
//
// # Method
//
//  1. Soften: past Soften × chain length the distance to the target is
//     eased toward the chain length, so the limb slows down before locking
//     straight (the curve of ozz-animation's IKTwoBoneJob).
//  2. Bend: the middle joint turns about the normal of the current bend
//     plane until the upper–end distance matches the (clamped) target
//     distance, by the law of cosines. It behaves as a hinge.
//  3. Aim: the upper joint turns the whole limb by the shortest arc so that
//     the end lies on the upper–target line.
//  4. Hint: the upper joint turns the limb about the upper–target line so
//     that the middle joint lies on the hint's side.
//  5. Weight: each world-space correction is blended with the identity.
//
// # Degenerate cases
//
//   - Target beyond reach: the limb stretches straight toward the target;
//     Reached is false. Closer than |upper − lower| it folds fully toward
//     the target; Reached is false.
//   - Target at the upper joint: no aiming direction exists, so the limb
//     keeps its direction and only folds as far as the bone lengths allow;
//     Reached is true only for equal bone lengths.
//   - Hint on the upper–target line (or at the upper joint), or no hint:
//     the current bend plane is kept.
//   - Straight (or fully folded) limb: the current bend plane is undefined;
//     the plane through the hint is used, else the middle joint's MidAxis,
//     else any axis perpendicular to the lower bone.
//   - Zero-length bone: the bend step is skipped and the remaining bone is
//     aimed at the target; Reached tells whether its length matched.
package ik
