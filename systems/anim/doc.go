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
//     2009, Cartesian and polar, as Unity's runtime evaluates them; see
//     below), [DirectWeights]. Each has a Validate
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
// # Freeform Directional weights
//
// [FreeformDirectionalWeights] follows Unity's runtime form of polar
// gradient band interpolation, the one Unity's player evaluates, not the
// variant in Johansen's thesis it descends from. How that was decided: the
// player reads, per 2D freeform blend node, positions, magnitudes, one
// vector per ordered pair (angle, (m_j - m_i)·k) with k = 2/(m_i+m_j)
// stored beside it, and neighbour lists (Blend2dDataConstant:
// m_ChildPositionArray, m_ChildMagnitudeArray, m_ChildPairVectorArray,
// m_ChildPairAvgMagInvArray, m_ChildNeighborListArray). That data fixes the
// band's coordinates: angle in radians and relative speed weighed alike.
// Two independent ports rebuild the computation around that data and agree
// on the formula below: R2API (risk-of-thunder/R2API,
// R2API.Animations/ModificationsBundleCreator.BlendTree.cs), which writes
// the data for Unity's player and finds the neighbour lists with the same
// weight function, and a Godot module's port of the whole runtime
// (modules/game_help/logic/animator/body_animator.cpp,
// CharacterAnimatorNodeBase). sway promises Unity-style blend spaces, so
// this is what it computes. The origin is R. S. Johansen, Automated
// Semi-Procedural Animation for Character Locomotion, Master's thesis,
// Aarhus University, 2009, section 6.3, and his code in the Unity
// Locomotion System (runevision/LocomotionSystem,
// PolarGradientBandInterpolator.cs), which Cocos Creator ports
// (cocos/cocos-engine, cocos/animation/marionette/blend-2d.ts,
// sampleFreeformDirectional).
//
// The formula, for samples p_i with m_i = |p_i|, input x, k_ij =
// 2/(m_i+m_j) and signed angles in [-π, π], negative where the cross
// product is (so exactly opposite directions give +π):
//
//	h_i = max(0, min(1 - |angle(p_i,x)|/π,  min over j≠i of g_ij))
//	g_ij = 1 - (a_ij·a_ix + r_ij·r_ix) / (a_ij² + r_ij²)
//	a_ij = angle(p_i,p_j), a_ix = angle(p_i,x)
//	r_ij = (m_j - m_i)·k_ij, r_ix = (|x| - m_i)·k_ij
//	w_i = h_i / Σ h
//
// The first term fades a sample out over half a turn away from it and caps
// its influence at 1. A sample at the origin (the centre, at most one) has
// no angle: in its pairs a_ij = angle(p_j,x) and a_ix = 0; in a pair with it
// a_ij = a_ix = angle(p_i,x). For two samples in one direction, and for the
// input at the origin, a_ix = a_ij.
//
// Edge cases:
//   - The centre: at the origin it takes weight 1; moving out, the other
//     samples rise from 0 continuously. Near it the weights are steep, and
//     that is Unity's form itself (sway and the float64 reference agree
//     there to four digits). Two samples of one speed in neighbouring
//     directions a apart share by 1 - a_ix/a_ij, a function of the
//     input's angle alone, so at distance r from the origin the weight
//     passes from one to the other along an arc r·a long: a change of
//     about 2e-3/(r·a) per input step of 2e-3. Nearer in, where that arc is
//     short, the centre's pairs cap each direction's influence near
//     4r/(m(a_ix²+4)) (m its sample's length), so the change peaks and
//     falls to 0 at the centre. Largest change of a weight per step of
//     2e-3 at distance r, idle + walks at 1.5 + runs at 5: four
//     directions 0.021 at r = 0.05, 0.013 at 0.1, 0.0084 at 0.15; eight
//     directions 0.033 at 0.075, 0.017 at 0.15, 0.010 at 0.25, 0.0084 at
//     0.3; ten random layouts of 3 to 9 samples with directions 20° or
//     more apart up to 0.039 at 0.075, 0.030 at 0.15, 0.012 at 0.4,
//     0.0093 at 0.5. It falls to 0.01 near r = 0.2/a. A change near the
//     centre that kept Unity's weights beyond some radius would keep these
//     steps beyond it too, so bounding them closer in means departing from
//     Unity at least out to 0.2/a, a wider disc than the one it would
//     smooth: sway keeps Unity's form.
//   - Exactly opposite samples: their pair angle is +π, so their band
//     limits one side of their line only. No jump follows: the only angle
//     that wraps is the input's, on the ray opposite a sample, where that
//     sample's fade is 0.
//   - Input far outside: no influence exceeds 1. Far along the direction
//     of an outermost sample it takes everything; between the directions of
//     two outermost samples they share by angle.
//   - Input exactly on a sample: weight 1 to it; every other sample's band
//     towards it is 0 there.
//   - All influences zero: equal weights, as Unity. The total gets small
//     only far outside, opposite every sample; there Unity's normalising
//     turns steep, swinging the blend between samples of tiny influence,
//     and jumps to equal weights where the total reaches 0 (exactly on the
//     ray opposite the one sample left, for instance). Below
//     [DirectionalFadeTotal] = 0.1 sway uses (h_i + (0.1 - Σh)/n)/0.1
//     instead, which fades continuously into those equal weights; at or
//     above it the weights are Unity's. On the locomotion layouts the total
//     never gets that small (tested: equal to Unity's form there).
//   - The origin without a centre sample: the weights there are Unity's
//     (a_ix = a_ij; on a ring, equal weights), but nearby they depend on
//     the direction of approach: the one point where they are not
//     continuous. Unity too recommends a centre sample.
//   - Unity evaluates each sample's minimum only over its neighbour list,
//     precomputed by scanning a 101 x 101 grid over the samples' bounding
//     box grown by half its size on each side. sway takes every pair, the
//     minimum those lists sample: identical on the locomotion layouts,
//     within a few thousandths where a scan misses a pair that binds in a
//     sliver (tested against a float64 reference with the lists).
//
// What differs from Johansen's thesis and code: his code weighs the angle
// twice against the relative speed (once only in pairs with the centre),
// Unity's once, which agrees only where the binding pairs have equal
// speeds or involve the centre (at (-0.75, 0.75) on idle + walks at 1.5 + runs at 5 both
// give idle / forward / left 0.2792 / 0.3604 / 0.3604); his influences
// start at 1 instead of the angle fade (Cocos Creator's at no cap at all);
// for samples 0.99π apart or more he measures the input's angle unsigned,
// a band symmetric about their line; he takes every pair; and he leaves
// all-zero weights at zero.
//
// [FreeformCartesianWeights] is Johansen's Cartesian gradient band, which
// Unity's runtime evaluates over the same kind of neighbour lists: sway
// takes every pair, identical on the locomotion layouts and within 2e-4 on
// the random ones tested (against the same kind of reference).
//
// Conventions: mgl32 quaternions are {W, V}; poses are local transforms,
// one element per bone, parents before children.
package anim
