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
// where s is the joint's world scale now over its scale at rest
// (VRMJointDesc.RestScale; scales are the largest absolute component):
// the scale a rig has at rest is the frame it was authored in and changes
// nothing, so stiffness, gravity and hit radius are world-space
// quantities at rest, as three-vrm reads them; only a change of scale at
// run time scales them, exactly geometrically. cur and prev are kept in the centre's space (the inertia follows the
// centre) and converted to world space for the step; forces act in world
// space.
//
// Where this departs from the reference implementations, on purpose:
//
//   - The bone length is the rest length times the current world scale,
//     not the distance to the child's world position of the previous frame
//     (three-vrm), which lags a frame behind a scaled or stretched rig.
//   - Forces and the hit radius scale with s, so that a rig scaled at run
//     time moves exactly scaled (three-vrm does not scale them; UniVRM's
//     runtime scaling does). Collider radii scale in collide.ToWorld by
//     the collider bone's world scale, and the facade divides them by its
//     rest scale for the same rule.
//   - restDir is the direction of the scaled rest tail; under uniform scale
//     it equals the reference's restRot*axis.
//   - A joint without a child node gets a virtual tail (VRM 0.x: 7 cm along
//     the parent-to-joint direction; VRMChainDesc.VirtualTail).
//   - Limits are per joint; the draft attaches one limit to a spring, which
//     is the same limit given to every joint. The limit frame is the
//     joint's rest frame turned by the shortest arc that takes +Y onto the
//     bone axis (the draft's half turn about +X for an axis of exactly -Y),
//     then by Limit.Rotation. Cone: the tail stays within AngleDegrees of
//     +Y. Hinge: the tail stays in the Y-Z plane within AngleDegrees of
//     +Y. Spherical: writing the direction as Rx(pitch)·Rz(yaw)·(0,1,0),
//     |pitch| <= PitchDegrees and |yaw| <= YawDegrees, each clamped on its
//     own. The angles are degrees; the kernel keeps their cosines and
//     sines, worked out when the chain is built.
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
// After the source's second version, a tip spring per bone (bounciness
// towards the animated tip, stiffness along the bone, damping against the
// velocity, the velocity integrated explicitly, the tip clamped to the
// bone's length, FromTo), with its forces measured against the tip's
// anchor, the animated tip, rather than against the world. Per bone, with
// animTip where the animated bone puts the tip, lastAnim where it put it
// at the last step, and lastTip and velocity the tip's own:
//
//	move     = animTip - lastAnim                  // the anchor's motion over dt
//	carried  = lastTip + move                      // the tip, had it moved with its anchor
//	force    = bounciness*(animTip - carried)
//	         + stiffness*s*across(animDir, carried - head)
//	         - damping*(velocity - move/dt)
//	velocity += force*dt
//	tip      = head + length*dir(lastTip + velocity*dt - head)
//	worldRot = FromTo(animTip-head, tip-head) * animated world rotation
//
// with parents before children; across(d, r) is d without its part
// along r, animDir the animated bone direction. lastTip, velocity and
// lastAnim live in centre space.
//
// Why not the source's forces as they are: its damping acts on the tip's
// world velocity, which is air drag. Walking at a steady 1.2 m/s, the
// drag on a tip moving with the character is damping*1.2 m/s², which
// only bounciness*offset can balance, and the offset of a 3 cm tip is at
// most its 6 cm chord: with bounciness 40 and damping 6 an earring sticks
// out 75° for as long as the walk lasts, and 40° while turning in place at
// 180°/s. A centre removes the drag, and the starts and stops with it.
// DynamicBone's Inert and KawaiiPhysics' WorldDampingLocation/Rotation
// blend between those two ends: a share of the character's motion is
// carried into the particles, which removes that share's drag and its
// starts and stops alike. Here instead:
//
//   - The damping acts on the velocity relative to the anchor: a damped
//     spring hung on a moving point, as a real earring hangs on a moving
//     ear. A steady motion of the anchor, at any speed, drags nothing;
//     only accelerations (starting, stopping, turning, the animation's
//     own swings) move the tip off it. The anchor's velocity is its move
//     over dt, so the damping adds damping*move to the velocity with no
//     division by dt (nothing when dt is zero).
//   - The bounciness pulls from where the tip would be had it moved with
//     its anchor (carried) rather than from last frame's tip: the source
//     compares this frame's anchor with last frame's tip, a one-frame lead
//     that at a steady walk holds the tip one frame's travel (2 cm at
//     1.2 m/s and 60 Hz) ahead of the anchor once the drag is gone.
//   - The stiffness pulls only across the bone, towards the animated
//     direction: the length clamp cancels its part along the bone in the
//     position but not in the velocity, where the source lets it build up
//     to stiffness/damping along the bone, and that velocity, turned with
//     the bone, kicks the tip sideways. Across the bone it is a constant
//     acceleration towards the animated direction: a tip length L from its
//     head swings as a pendulum of length L under a gravity of stiffness
//     along the animated bone, whatever the length: under a steady
//     acceleration a across the bone it leans by atan(a/(stiffness +
//     bounciness*L)), and small swings oscillate at sqrt(bounciness +
//     stiffness/L) rad/s, their amplitude decaying as exp(-damping*t/2).
//
// With the defaults (bounciness 40 /s², stiffness 9.8 m/s², damping 6 /s:
// an earring hanging along its animated direction swings like one hanging
// under gravity) a 3 cm earring on a character walking at a steady
// 1.2 m/s hangs at rest, swings about 28° back when the character starts
// from standing over 0.3 s (38° over 0.2 s) and as far forward when it
// stops, and leans 4° while turning in place at 180°/s.
//
// The integration is the source's (semi-implicit Euler): stable while
// dt*sqrt(bounciness + stiffness/L) stays below 2, which with the
// defaults at 60 Hz holds for tips longer than 0.7 mm (2.7 mm at 30 Hz),
// and while damping*dt stays below 1. A tip past that limit jitters but
// stays bounded and finite.
//
// s is the joint's world scale over its world scale in the authored rest
// pose (SimpleJointDesc.RestScale), largest components: the scale a
// skeleton is authored at is its frame and changes nothing, while a scale
// applied since (to the root, or by an animation) scales the motion
// exactly, as above; every other term is a length, a velocity or a ratio
// of them.
//
// A centre makes the centre bone the frame the spring lives in: its
// motion, accelerations and turns included, is not felt, only the motion
// of the spring's bones relative to it (the animation between the centre
// and the spring). Leave it unset for a character's earrings, which should
// swing when it starts and stops.
//
// # Degenerate input
//
// Kernels never panic and never write NaN or Inf for finite input: a zero,
// negative or non-finite dt counts as zero; a zero-length bone keeps its
// rest rotation; slices shorter than the chain make a step do nothing.
package spring
