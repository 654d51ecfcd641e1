// Package anim samples animation clips, computes blend weights and blends
// local poses. It is pure math: no ECS, no goroutines, no allocation in the
// per-frame kernels. The animation system wires it into the game loop.
//
// # Outline
//
//   - Clips (clip.go, sample.go): a [Clip] is shared, immutable key data
//     built once by [NewClip] from a [ClipDesc]: one track per animated
//     bone, rotation keys plus optional translation and scale keys, sampled
//     at a fixed rate and stored struct-of-arrays, key-major and contiguous.
//     [Clip.Sample] writes a [Pose] at a time in seconds: translations and
//     scales are lerped, rotations nlerped (normalised lerp along the shorter
//     arc; at clip sample rates the keys are close and nlerp is within a
//     fraction of a degree of slerp). Looping clips wrap, others clamp.
//     A character holds only a time and a speed ([Clip.Advance]).
//   - Blend weights (weights1d.go, directional.go, freeform.go, direct.go):
//     pure functions that write one weight per sample into the caller's
//     slice: [Weights1D], [SimpleDirectionalWeights] (Unity's 2D Simple
//     Directional, sector search by angle), [FreeformCartesianWeights] and
//     [FreeformDirectionalWeights] (gradient band interpolation, Johansen
//     2009, Cartesian and polar), [DirectWeights]. Each has a Validate
//     function for set-up. At most [MaxSamples] samples.
//   - Blending (blend.go): [BlendPoses] mixes K poses by weight: weighted
//     sums of translations and scales, a hemisphere-aligned weighted sum of
//     rotations, normalised. Weights summing below one leave the remainder
//     to the rest pose; above one they are normalised.
//   - Blend spaces (space.go): a [BlendSpace] ties a kind, sample positions
//     and one clip per sample. [BlendSpace.Evaluate] is the one-call
//     per-character kernel: weights, then sampling of only the clips with a
//     non-zero weight, accumulated straight into the destination pose; the
//     caller's [Scratch] holds the weights. Bones no clip of the space
//     animates are copied from the rest pose, not blended: a rig whose clips
//     move 21 of 85 bones blends 21. On amd64 the rotation keys are
//     accumulated four bones at a time in SSE2 (rot_amd64.s), with the
//     operations of the Go loop in the same order and so the same bits;
//     `-tags purego`, GOAMD64=v3 and other architectures run the Go loop.
//   - Playback (player.go): a [Player] is one character's pointer-free
//     playback state (parameter, target, smoothing, one normalised time,
//     speed, Direct weights, the last weights). [BlendSpace.Play] is the
//     per-frame kernel of the animation system: it smooths the parameter,
//     computes the weights, advances the normalised time over the blend's
//     duration ([BlendSpace.Duration], [AdvancePhase]) so clips of different
//     lengths stay in step, and samples and blends as Evaluate does.
//   - Smoothing (smooth.go): [SmoothParam] moves a blend parameter toward
//     its target by 1 - exp(-speed*dt), exact in dt.
//
// Conventions: mgl32 quaternions are {W, V}; poses are local transforms,
// one element per bone, parents before children.
package anim
