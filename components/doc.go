// Package components holds sway's ECS component and resource types: plain,
// pointer-free data that arche stores in its archetype tables.
//
// Outline:
//   - [Transform]: position, rotation, scale; the project's transform convention.
//   - [Root]: a character's root (world) transform, written by the game.
//   - [Pose]: a character's handle into the world's pose pool (its range of
//     per-bone struct-of-arrays data), its skeleton, and its dirty range.
//   - [Time]: the frame's dt and the simulation clock (a world resource).
//
// Bones are not entities: a character is one entity and its per-bone data
// lives in contiguous world-level pools that the Pose component indexes
// (see docs/architecture.md for the measured reason).
package components
