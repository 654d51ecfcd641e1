package spring

import (
	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/systems/collide"
)

// ResetVRM puts every tail of s at its rest position under the given parent
// world transform and centre (pos, rot), with zero velocity. A state
// shorter than the chain is left alone.
func ResetVRM(s *VRMState, c *VRMChain,
	parentPos mgl32.Vec3, parentRot mgl32.Quat, parentScale mgl32.Vec3,
	centerPos mgl32.Vec3, centerRot mgl32.Quat) {
	if len(s.CurTail) < len(c.joints) || len(s.PrevTail) < len(c.joints) {
		return
	}
	p := transform{pos: ld(&parentPos), rot: ldq(&parentRot), scale: ld(&parentScale)}
	cp, cr := ld(&centerPos), ldq(&centerRot)
	for i := range c.joints {
		j := &c.joints[i]
		w := p.child(j.localPos, j.localRot, j.localScale)
		tail := w.pos.add(w.rot.rot(w.scale.mul(j.tail)))
		t := cr.invRot(tail.sub(cp)).vec()
		s.CurTail[i], s.PrevTail[i] = t, t
		p = w
	}
}

// StepVRM advances one VRM spring by dt and writes each joint's new local
// rotation to dstLocalRot (one element per joint). The parent world
// transform is that of joint 0's parent node this frame; the centre
// (identity rotation and zero position for none) is the space the inertia
// is kept in. Colliders are world-space shapes; every joint collides with
// all of them.
//
// Per joint, root to tip (VRMC_springBone 1.0, with the documented
// departures in the package doc):
//
//	next = cur + (cur-prev)*(1-drag) + (restDir*stiffness + gravity)*dt*scale
//	next = head + |next-head|⁻¹(next-head)*length, then the angle limit
//	per collider hit: push out with hitRadius*scale, renormalise, limit
//	prev, cur = cur, next
//	localRot = initialLocalRot * FromTo(axis, next in the rest frame)
//
// and the joint's new world transform is the parent of the next joint.
// Several springs of a character are faster stepped together with
// StepVRMSprings, which gives the same results.
func StepVRM(dstLocalRot []mgl32.Quat, s *VRMState, c *VRMChain,
	parentPos mgl32.Vec3, parentRot mgl32.Quat, parentScale mgl32.Vec3,
	centerPos mgl32.Vec3, centerRot mgl32.Quat,
	colliders []collide.Shape, dt float32) {
	sp := VRMSpring{
		DstLocalRot: dstLocalRot, State: s, Chain: c,
		ParentPos: parentPos, ParentRot: parentRot, ParentScale: parentScale,
		CenterPos: centerPos, CenterRot: centerRot,
		Colliders: colliders,
	}
	dt = stepDt(dt)
	var l [1]lane
	if !l[0].load(&sp, dt) {
		return
	}
	if !l[0].fast {
		for i := range l[0].n {
			l[0].stepGeneral(i, dt)
		}
		return
	}
	// One spring: a quad of one, stepped by the scalar definitions of the
	// SIMD stages (as StepVRMSprings steps a quad with one spring left).
	var q quad
	q.reset()
	q.add(0, &l[0], 0)
	for s := 1; s < slotCount; s++ {
		q.empty(s)
	}
	q.run()
}

// VRMSpring is one spring's data for StepVRMSprings: the arguments of
// StepVRM as fields. A caller keeps its springs in a slice and sets the
// parent (and centre) transforms before each step.
type VRMSpring struct {
	DstLocalRot []mgl32.Quat // the joints' new local rotations, one per joint
	State       *VRMState
	Chain       *VRMChain
	ParentPos   mgl32.Vec3 // world transform of joint 0's parent node this frame
	ParentRot   mgl32.Quat
	ParentScale mgl32.Vec3
	CenterPos   mgl32.Vec3 // world transform of the centre; zero values mean none
	CenterRot   mgl32.Quat // the zero value means the identity
	// Colliders are world-space shapes every joint collides with. Springs
	// whose slices are as long (a character's springs usually share one)
	// are tested against them eight at a time.
	Colliders []collide.Shape
	// Bad is set by StepVRMSprings and StepVRMSpringSets: after the step
	// a tail of State is not finite (bad input: a caller resets the
	// spring). They clear it for every other spring.
	Bad bool
}

// laneCount is the number of springs StepVRMSprings advances side by side.
const laneCount = 16

// StepVRMSprings advances every spring by dt, as StepVRM would one after
// the other, with the same results. A spring with a nil chain or state, or
// a slice shorter than its chain, is left alone.
//
// Why together: within a spring every joint waits for its parent's new
// rotation, while the joints of different springs are independent.
// StepVRMSprings takes up to 16 springs at a time and steps joint i of
// each in turn, eight springs per SIMD instruction on amd64 (see the
// package doc); a character's springs cost about a third of what StepVRM
// costs for them one by one.
func StepVRMSprings(springs []VRMSpring, dt float32) {
	dt = stepDt(dt)
	var lanes [laneCount]lane
	var q quad
	for len(springs) > 0 {
		block := springs[:min(len(springs), laneCount)]
		springs = springs[len(block):]
		stepBlock(block, lanes[:], &q, dt)
	}
}

// stepDt returns dt, or 0 for a negative or non-finite dt.
func stepDt(dt float32) float32 {
	if !(dt >= 0) || dt-dt != 0 {
		return 0
	}
	return dt
}
