// Package breath is procedural breathing: a character's spine, chest, neck
// and head bend forward and back a few degrees in a loop of inhale, exhale
// and rest, while its shoulders keep their world rotations so the arms do
// not bob. It follows the Breath Controller of Toshiaki Aizawa (MIT).
//
// # Outline
//
//   - Settings names the bones (any skeleton: bones are indices), the
//     inhale and exhale angle of each of up to four segments, the phase
//     durations, DurationRate and EffectRate, the inhale Easing and the
//     Mode. DefaultSettings gives the source's values; Validate and
//     CheckBones report bad fields as *check.FieldError.
//   - ChooseAxis (and Settings.ChooseAxes) picks, once at set-up, the local
//     axis of each segment bone most aligned with the character's right in
//     the rest pose, with its sign. ShoulderBone and SegmentBone are the
//     source's bone fallbacks (shoulder, else upper arm, else a bone named
//     by hand).
//   - State is a character's place in the cycle: plain values, no
//     pointers. Init starts it, with a phase offset so a crowd breathes out
//     of step; Step advances it by the simulation dt and eases the angles.
//     Step reads the settings only when a phase begins, so edits take
//     effect at the next phase.
//   - Apply writes the frame's rotations into the local rotations of the
//     pose: each segment turns about its axis, each shoulder gets the local
//     rotation that keeps its old world rotation (ShoulderLocal). The
//     caller runs FK afterwards.
//   - Plan is Settings resolved against a skeleton once; Plan.Apply does
//     what Apply does from the local rotations alone, in a fraction of the
//     time. On amd64 an SSE2 kernel computes the common shape with the same
//     operations in the same order as the Go definition (same bits; the
//     purego build tag selects Go). A system breathing many characters
//     prefetches a few characters ahead (Plan.Prefetch), so that their
//     cache misses overlap with the work.
//   - Ease and the seven Ease* functions are the source's easing curves
//     with its (t, b, c, d) meaning.
//
// # Cycle
//
// Inhale eases every angle from where it is to Sign*InhaleDegrees*EffectRate
// degrees over InhaleDuration*DurationRate seconds with the chosen curve
// (OutSine by default). Exhale eases to Sign*ExhaleDegrees*EffectRate over
// ExhaleDuration*DurationRate with InOutQuad. Rest holds the exhale angles
// for RestDuration*DurationRate. A phase ends on the first Step at which
// its time has run out, and the next one starts on that Step. Unlike the
// source, the time past the end carries into the next phase, so the cycle
// keeps time: at 60 fps the default phases take exactly 72, 144 and 12
// frames, and at any rate cycle k ends on the first frame at or after k
// cycle lengths (to within 2^-20 of them; see Step).
//
// # Modes
//
// In Absolute mode an animation resets the pose every frame and Apply puts
// the whole angle on top; in Additive mode the pose is left alone between
// frames and Apply adds only the change since the previous Step. On a pose
// that is otherwise static both give the same sequence of poses. (The
// source selects the mode as hasController but, by an oversight, runs only
// with a controller; here both modes run.)
//
// # Degenerate input
//
// Per-frame functions never panic and return finite values for finite
// input: a zero, negative or NaN dt advances nothing, a huge dt finishes at
// most one phase per Step, a zero duration (or DurationRate) ends its phase
// on the Step it starts, bone indices outside the pose slices are skipped
// and a zero right vector in ChooseAxis counts as +X.
//
// Nothing here allocates after set-up, and nothing reads a clock: time is
// the dt the caller passes.
package breath
