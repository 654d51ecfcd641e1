// Package lookat turns a head toward a target and lets the eyes follow,
// after the "Bonehead" procedural animation technique: a look rotation
// clamped to a maximum turn angle from the rest forward, smoothed with
// frame-rate independent damping, and eyes that turn about their own up
// axis and then up or down, within per-eye yaw and pitch limits.
//
// The package is pure math: it reads world rotations and positions handed
// in by the caller and returns local rotations to write back. Settings are
// validated and prepared once (NewHead, NewEye); the per-frame Step methods
// never allocate, spawn goroutines or panic, and give unit rotations for
// any finite input.
//
// # Outline
//
//   - Damping: the blend factor 1 - exp(-speed*dt) shared by every smoothed
//     value, so that one frame of dt equals two frames of dt/2.
//   - HeadSettings (Validate), NewHead, Head.Step with HeadInput, HeadState
//     and HeadPose: head look-at. The target rotation is clamped (the
//     RotateTowards clamp of the source) before it is smoothed, so the
//     smoothing composes exactly across frames. Head.Target exposes the
//     clamped, unsmoothed look rotation.
//   - EyeSettings (Validate), NewEye, Eye.Step with EyeInput and EyeState:
//     eye tracking about the eye's local up axis, yaw limited to
//     [MinYawDegrees, MaxYawDegrees], then up or down, pitch limited to
//     [MinPitchDegrees, MaxPitchDegrees] (the source's eyes, tracked like
//     the head, pitch too, with only their yaw limited).
//   - SplitTurn, ApplyWorldTurn: spread a share of a turn over spine bones
//     before the head.
//
// # Order of evaluation
//
// Parents before children. For one character:
//
//  1. spine bones (optional share of the turn), each with its parent world
//     rotation recomputed after the previous bone changed;
//  2. the head, with its parent world rotation after the spine;
//  3. each eye, with its parent world rotation recomputed after the head's
//     new local rotation (HeadPose.World when the eyes hang directly under
//     the head) and its origin recomputed likewise when it is the eye's own
//     position.
//
// # Weight
//
// The look-at fades in and out with a blend weight that itself moves toward
// the requested weight with the same damping (HeadSettings.WeightSpeed). At
// weight 0 the head keeps its rest (or animated) local rotation; the state
// still tracks the target so that fading back in starts from a sensible
// rotation. Once within 1e-5 of the requested weight the smoothed weight
// lands on it exactly.
//
// # Conventions
//
// Rotations are mgl32.Quat (W first), positions world space. Bone axes
// (forward, up) are given in the bone's local space; the source assumes +Z
// forward and +Y up. Angles in settings are degrees, as in the source.
//
// Every product that is summed is converted first (float32(x*y)), so that
// Go does not fuse the two into one multiply-add (it may at GOAMD64=v3):
// the results are the same bits in every build (.ci/fused lists any fused
// multiply-add left). Damping's exp(-x) beyond x = 1 comes from the math
// package, whose last bit may still differ between builds.
package lookat
