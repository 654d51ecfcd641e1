// Package chain is sway's DynamicBone model: Verlet particle chains for
// hair, tails, ears and skirts, written as pure, allocation-free kernels on
// struct-of-arrays particle data. It knows nothing of the ECS: the caller
// hands it pose slices, collider shapes and frame data.
//
// # Outline
//
//   - Desc describes a chain: the root bone, excluded subtrees, a virtual
//     end particle (EndLength or EndOffset), collider indices and Settings.
//     Settings holds the tunable parameters with optional Curves along the
//     chain; it is validated with *check.FieldError and may be edited at run
//     time (call Refresh).
//   - Build appends a chain's particles to a Particles pool and sets up its
//     Chain. A pool may hold every chain of every character contiguously;
//     Chain.Particles returns a chain's range without allocating.
//   - Per frame: Prepare (animated pose, character movement, teleport,
//     weight and distance checks, sub-step count), then per sub-step
//     Integrate (DynamicBone's UpdateParticles1) and Constrain
//     (UpdateParticles2), or Step, which does both in one pass, or
//     SkipUpdate when no sub-step runs, then Apply, which writes
//     LocalRot/LocalPos and the chain bones' world pose, and returns the
//     lowest bone written, so that forward kinematics can be re-run from
//     it for bones under the chain that are not particles (none when
//     Chain.CoversSubtree). Update does all of it.
//     PlaceColliders puts collider descriptions on the animated bones;
//     RestoreLocals is DynamicBone's InitTransforms for bones no animation
//     writes.
//   - For chains in a store's pools (rest data shared between characters
//     built alike), PrepareIn, StepsIn and ApplyIn run the kernels in
//     place; PrepareChains prepares one character's chains in one call,
//     the frame's rotation and scale worked out once for all of them.
//   - Lanes.StepsIn steps the same chain of eight characters (chains
//     sharing rest data, see Chain.RestFirst) side by side, one per SIMD
//     lane (AVX2 kernels on amd64; their Go definitions elsewhere, under
//     the purego build tag and on a processor without AVX2), with the
//     same bits as StepsIn on each: systems that step thousands of characters use it;
//     which characters share the lanes changes nothing. Lanes.ApplyIn
//     applies eight such chains side by side in the same way, with the
//     same bits as ApplyIn on each.
//   - Links between a character's chains (a skirt's strands in a ring,
//     a cape's in a strip): LinkChains builds the distance constraints
//     between neighbouring chains' particles at the same depth, and
//     StepLinked steps the character's chains together with them, on the
//     scalar path (see links.go, "Links between chains").
//   - Clock turns frame time into steps; it is shared with other
//     simulations that run at an update rate.
//
// The per-frame kernels take the chain's own range of particles
// (Chain.Particles) and leave any other alone. A particle's parameters
// (Chain.Params: the settings times the curves) are kept in the Chain,
// one set per particle, or one that all share when they are equal, as
// they are without curves; Refresh derives them from the settings.
// Prepare packs the parameters for the step length into a small record
// per parameter set kept in the Chain, so that a chain without curves
// reads its parameters once. The animated offset and lengths of each
// particle the step derives from the pose itself, once per frame, into
// scratch (the Lanes's columns, or the stack): no chain keeps a copy of its
// animated pose from one system to the next, so the step and Prepare must
// be given the same pose.
//
// # The model
//
// Particles are the root bone and its descendants, parents before children
// (a tree: several children per particle are allowed). Each step the root
// particle follows the animated root bone. Every other particle moves by its
// last displacement times (1 - damping) (damping raised by friction after
// touching a collider), plus the force, plus inert x character movement.
// The force is Gravity minus its projection on the rest direction of
// gravity as seen from the animated root bone (the part the rest pose
// already hangs along), plus Force, times the object scale, times h², the
// square of the step (1/UpdateRate): Gravity and Force are accelerations
// in m/s², and a·h² is the displacement per step that DynamicBone's
// settings give directly (GravityFromDynamicBone converts them). Constrain then pulls the
// particle toward its animated position relative to its simulated parent by
// elasticity, keeps it within restLen*(1-s)*2 of that position (s =
// lerp(1, stiffness, weight)), pushes it out of its colliders, projects it on
// the freeze plane, and puts it back at the animated bone length from its
// parent. Apply turns every bone with one child particle by the rotation
// from the animated to the simulated child direction; a bone with several
// children keeps its rotation and its children are moved instead (the
// one-child rule).
//
// Departures from DynamicBone, each for robustness, speed or a set-up that
// does not depend on the moment: colliders are applied once more after the
// length step so that no particle ends a step inside one; a collider is tested only on particles that can touch it at
// their bone length from their parent (DynamicBone would also push an
// overstretched intermediate position out of it, which keep-length then
// pulls out of its reach anyway); a particle on top of its parent goes back
// to its animated offset instead of staying at zero length; the object
// scale is the largest absolute component of the character's scale, the
// rule the collider module uses (DynamicBone reads x only); bone directions
// in Apply include the parent's scale (identical for uniform scale); the
// rest direction of gravity is Gravity seen from the root bone's rest
// rotation in the character's space (the skeleton's rest pose), where
// DynamicBone takes the root's world rotation when the chain starts, so it
// does not depend on the pose or heading the character has when its chains
// are added (the two agree for a character upright in its rest pose then).
//
// Weight 0 turns the chain off: Prepare returns -1 and the pose keeps the
// animation exactly; when weight comes back, or the character comes back
// within Settings.DisableDistance of Frame.Reference, the particles restart
// from the animated pose. A character move longer than TeleportDistance
// (default 1 m) or a turn larger than TeleportAngleDegrees (default 45°) in one
// frame resets the chain (TeleportReset) or carries the particles rigidly
// with the character (TeleportKeep). Chain.Reset resets on demand.
//
// # Parameters
//
// Damping, Elasticity, Stiffness, Inert and Friction are clamped to [0, 1]
// and Radius to >= 0 after their curve (in Settings.Curves) is applied, as
// DynamicBone clamps them. A Curve is a list of (T, V) keys sorted by T, linear between keys and
// constant beyond the ends, evaluated at (rest distance from the root) /
// (longest root-to-tip rest length); an empty curve is 1. Gravity and Force
// are accelerations in m/s²: with no damping a free particle under
// {0, -9.81, 0} falls 4.99 m in its first second at 60 Hz (1830 steps of
// 9.81/3600 m: the step is first-order, 4.905 m as h shrinks).
//
// # Time
//
// Fixed mode is DynamicBone's: an accumulator runs steps of exactly
// 1/UpdateRate (default 60 Hz), at most MaxSubSteps (default 3) per frame;
// the time beyond the cap is dropped (a hitch is not caught up). The character's movement is
// applied on the first sub-step. A frame with no step runs SkipUpdate:
// particles are carried by the character's movement and only stiffness and
// lengths are enforced.
//
// Variable mode runs each frame's time in n equal steps of h <= 1/UpdateRate
// (n <= MaxSubSteps, excess dropped). With t = h*UpdateRate, the velocity is rescaled
// to the new step length and kept by (1-damping)^t, the force adds
// F*t*(1-k^t)/(1-k) with k = 1-damping (the exact response to a constant
// force under that damping; F*t² without damping), elasticity pulls by
// 1-(1-elasticity)^(t²) (a spring of fixed strength), and the root and the
// character's movement are spread evenly over the sub-steps. At t = 1 this is
// exactly Fixed mode. The scheme stays first-order accurate in h (the
// constraint projections are), so motion still differs between frame rates:
// in the package's test (a 1 m chain, strong gravity, a 0.4 m / 0.8 Hz root
// sway with a 30° swing) the tip stays within 0.22 m of its 240 fps path at
// 30 and 60 fps and within 0.08 m at 144 fps (measured 0.185, 0.179 and
// 0.059 m; root-mean-square 0.09, 0.09 and 0.03 m): the 240 fps run steps
// at 1/240 s, the others at 1/60 s. For motion that does not depend on the
// frame rate, set UpdateRate to the highest frame rate expected and raise
// MaxSubSteps to match: at 240 Hz with MaxSubSteps 8 the same test stays
// within 0.02, 0.01 and 0.02 m (measured 0.012, 0.005 and 0.011 m), at the
// cost of up to UpdateRate/fps steps per frame (4 at 60 fps).
//
// # Same bits in every build
//
// A chain's results are the same bits whatever steps it: alone, in any
// lane beside any neighbours, on the AVX2 kernels or their Go
// definitions, with any number of workers. They are also the same in
// every build: every product that is summed is converted first
// (float32(x*y)), so that Go does not fuse the two into one multiply-add
// (it may at GOAMD64=v3 and above, and on arm64), which would round once
// where the AVX2 kernels round twice. .ci/fused lists any fused
// multiply-add left in the kernels' packages, and TestSameBitsInEveryBuild
// checks a Fixed-mode run against a hash that every build must give.
// Variable mode's step-length powers (math.Exp, math.Log) come from the
// math package: their last bit may differ between machines.
package chain
