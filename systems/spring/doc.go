// Package spring holds the two spring-bone models as pure kernels over
// struct-of-arrays joint data: one call advances one chain, touching only
// that chain's state, so chains run in parallel without locks.
//
// # Outline
//
//   - VRM spring bones (VRMC_springBone 1.0): VRMChainDesc → NewVRMChain
//     builds an immutable VRMChain layout; VRMState holds each joint's tail
//     now and one step ago; ResetVRM puts the tails at rest; StepVRM
//     advances the chain and writes the joints' local rotations.
//     StepVRMSprings advances several springs (a character's, as
//     VRMSpring values) with the same results, several times faster;
//     StepVRMSpringSets advances the springs of several characters,
//     SetLanes (eight) at a time, faster still. VRMShapes builds chains that share their
//     geometry with alike ones (the same spring of every character of a
//     rig).
//   - Angle limits (VRMC_springBone_limit draft): a per-joint Limit, cone,
//     hinge or spherical, applied after the inertia step and after every
//     collider push.
//   - Fixed step: VRMChainDesc.FixedStep with DragPerStep and ForcePerStep,
//     the exact conversion of per-1/60 s settings to another step.
//   - Simple spring bones (a tip spring per bone with bounciness, stiffness
//     and damping): SimpleChainDesc → NewSimpleChain, SimpleState,
//     ResetSimple, StepSimple.
//
// Colliders are collide.Shape values placed in world space by the caller
// (collide.ToWorld) once per frame.
//
// # The VRM model
//
// Per joint, root to tip, with the joint's parent world transform P (the
// chain's parent bone for joint 0, otherwise the previous joint after its
// update: the kernel runs its own chain-local forward kinematics in the
// project's transform convention):
//
//	head    = P.pos + P.rot*(P.scale⊙localPos)
//	restRot = P.rot * initialLocalRot
//	restOff = restRot*(worldScale⊙tail)      // tail: the child's rest local position
//	length  = |restOff|, restDir = restOff/length
//	next    = cur + (cur-prev)*(1-drag) + (restDir*stiffness + gravityDir*gravityPower)*dt*s
//	next    = head + length*dir(next-head), then the angle limit
//	for each collider the tail (radius hitRadius*s) penetrates:
//	        push out, next = head + length*dir(next-head), the angle limit
//	prev, cur = cur, next                       // stored in centre space
//	localRot = initialLocalRot * FromTo(axis, restRot⁻¹(next-head) with scale undone)
//
// where s is the largest absolute component of the joint's world scale.
// cur and prev are kept in the centre's space (the inertia follows the
// centre) and converted to world space for the step; forces act in world
// space.
//
// Where this departs from the reference implementations, on purpose:
//
//   - The bone length is the rest length times the current world scale,
//     not the distance to the child's world position of the previous frame
//     (three-vrm), which lags a frame behind a scaled or stretched rig.
//   - Forces and the hit radius scale with s, so that a uniformly scaled
//     rig moves exactly scaled (at scale 1 nothing changes). Collider
//     radii scale in collide.ToWorld.
//   - restDir is the direction of the scaled rest tail; under uniform scale
//     it equals the reference's restRot*axis.
//   - A joint without a child node gets a virtual tail (VRM 0.x: 7 cm along
//     the parent-to-joint direction; VRMChainDesc.VirtualTail).
//   - Limits are per joint; the draft attaches one limit to a spring, which
//     is the same limit given to every joint. The limit frame is the
//     joint's rest frame turned so that +Y is the bone axis, then by
//     Limit.Rotation. Cone: the tail stays within Angle of +Y. Hinge: the
//     tail stays in the Y-Z plane within Angle of +Y. Spherical: writing the
//     direction as Rx(phi)·Rz(theta)·(0,1,0), |phi| <= Phi and
//     |theta| <= Theta, each clamped on its own.
//   - StrictCollision (off by default): the reference pushes a tail to the
//     collider's surface and then restores the bone length, which can pull
//     it back in when the head is near the collider. With the option, a
//     tail still inside afterwards is turned onto the nearest direction
//     that clears the collider (exact for spheres and planes; a capsule
//     counts as the sphere at its axis point nearest the tail).
//
// # Speed
//
// A spring under one positive uniform scale, without limits or
// StrictCollision, takes a fast path: bone lengths and forces scale by one
// number, a joint's head is its parent's new tail, and the new rotation is
// found in world space. Every other spring takes the general path; both
// compute the model above and agree to rounding.
//
// Within a spring each joint waits for its parent's new rotation, so
// StepVRMSprings advances fast-path springs side by side, eight at a time
// (longest first), their state laid out struct-of-arrays;
// StepVRMSpringSets puts the same spring of eight characters side by side
// instead, which fills all eight slots at every joint when the characters
// are alike. On amd64 with AVX2 the kernels compute the eight with one
// instruction per operation; they perform the same operations in the same
// order as the scalar Go definitions, which serve elsewhere (without AVX2,
// and under the purego build tag), so results are the same bits either
// way, whatever GOAMD64 lets the compiler fuse: the definitions round
// every product explicitly.
//
// The kernels read colliders from columns filled once per quad from the
// slots' lists (one list, or one per slot of one length); with more than a few
// colliders, those a spring cannot reach (its bone lengths and hit radius
// from its first joint's head) are never tried. A sphere pushes inside
// the kernel, a capsule is first tested against its bounding sphere, and
// other shapes push in Go. A chain's settings are one record for all its
// joints when they agree (read once per quad), else one per joint; its
// geometry is shared between chains built through one VRMShapes. Every
// tail the kernels load or store is checked for finiteness on the way
// (VRMSpring.Bad), so a caller need not scan the state after a step.
//
// # Fixed step
//
// The reference model is frame-rate dependent: drag is per call and forces
// are multiplied by dt. With VRMChainDesc.FixedStep = h the chain is meant
// to be advanced in steps of exactly h (the accumulator lives with the
// caller); DragForce is then read per 1/60 s and converted to
// 1-(1-drag)^(60h), and the force factor dt is replaced by ForcePerStep,
// so that the velocity after 1/60 s of constant force does not depend on h.
// With h = 1/60 the results equal the default model's.
//
// # The simple spring
//
// After the source's second version: per bone, the tip where the animation
// puts it (animTip), the tip of last frame and a velocity:
//
//	force    = bounciness*(animTip-lastTip) + stiffness*s*dir(animTip-head) - damping*velocity
//	velocity += force*dt
//	tip      = head + length*dir(lastTip + velocity*dt - head)
//	worldRot = FromTo(animTip-head, tip-head) * animated world rotation
//
// with parents before children, where s is the joint's world scale over
// its world scale in the authored rest pose (SimpleJointDesc.RestScale),
// largest components: the scale a skeleton is authored at is its frame
// and changes nothing, while a scale applied since (to the root, or by an
// animation) scales the motion exactly, as above. lastTip and velocity
// live in centre space.
//
// # Degenerate input
//
// Kernels never panic and never write NaN or Inf for finite input: a zero,
// negative or non-finite dt counts as zero; a zero-length bone keeps its
// rest rotation; slices shorter than the chain make a step do nothing.
package spring
