package spring

import (
	"fmt"
	"unsafe"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/internal/prefetch"
)

// SimpleJointDesc is one bone of a simple spring chain: a tip spring on the
// bone, pulled towards where the animation puts the tip.
type SimpleJointDesc struct {
	LocalPos   mgl32.Vec3 // rest local position in the parent (parent's units): the previous bone, or the chain's parent bone for bone 0
	LocalScale mgl32.Vec3 // rest local scale; the zero vector means (1,1,1)
	SpringEnd  mgl32.Vec3 // the tip in bone space (bone's units); its world length is the spring length
	// RestScale is the bone's world scale in the pose the spring was
	// authored in (a skeleton's rest pose in model space): the stiffness
	// is scaled by the bone's world scale over it, largest components, so
	// that only a change of scale since then scales the motion. The zero
	// vector means (1,1,1).
	RestScale mgl32.Vec3

	// The forces, each finite and >= 0 (see the package doc, "The simple
	// spring"); the ecs package's defaults are 40, 9.8 and 6.
	Bounciness float32 // 1/s²: acceleration towards the animated tip per metre from it
	Stiffness  float32 // m/s²: acceleration across the bone towards the animated direction
	Damping    float32 // 1/s: decay rate of the tip's velocity relative to the animated tip
}

// SimpleChainDesc is a chain of simple spring bones, each bone the child of
// the previous one.
type SimpleChainDesc struct {
	Joints []SimpleJointDesc
}

const simpleDescType = "spring.SimpleChainDesc"

// Validate reports the first bad field as a *check.FieldError.
func (d *SimpleChainDesc) Validate() error {
	if len(d.Joints) == 0 {
		return check.Errorf(simpleDescType, "Joints", len(d.Joints), "must not be empty")
	}
	for i := range d.Joints {
		j := &d.Joints[i]
		f := func(name string) string { return fmt.Sprintf("Joints[%d].%s", i, name) }
		if err := check.FiniteVec3(simpleDescType, f("LocalPos"), j.LocalPos); err != nil {
			return err
		}
		if err := check.FiniteVec3(simpleDescType, f("LocalScale"), j.LocalScale); err != nil {
			return err
		}
		if err := check.FiniteVec3(simpleDescType, f("SpringEnd"), j.SpringEnd); err != nil {
			return err
		}
		if err := check.FiniteVec3(simpleDescType, f("RestScale"), j.RestScale); err != nil {
			return err
		}
		if m := maxAbs(ld(&j.RestScale)); j.RestScale != (mgl32.Vec3{}) && !(m >= minRestScale) {
			return check.Errorf(simpleDescType, f("RestScale"), j.RestScale, "the largest component must be at least %g in size (or all zero for 1)", minRestScale)
		}
		if err := check.NonNegative(simpleDescType, f("Bounciness"), j.Bounciness); err != nil {
			return err
		}
		if err := check.NonNegative(simpleDescType, f("Stiffness"), j.Stiffness); err != nil {
			return err
		}
		if err := check.NonNegative(simpleDescType, f("Damping"), j.Damping); err != nil {
			return err
		}
	}
	return nil
}

// minRestScale bounds SimpleJointDesc.RestScale and VRMJointDesc.RestScale
// from below, so that the forces over them stay finite.
const minRestScale = 1e-12

// SimpleChain is the immutable layout of a simple spring chain.
type SimpleChain struct {
	joints []simpleJoint
	// one holds a one-bone chain's joint (the usual earring or tail tip)
	// in the chain's own allocation: stepping it then reads one or two
	// cache lines where separate arrays would cost a miss each.
	one [1]simpleJoint
}

// simpleJoint is one bone's constants, together because a step reads them
// together. stiffness is the description's over its RestScale.
type simpleJoint struct {
	localPos, localScale, springEnd v3
	bounciness, stiffness, damping  float32
}

// Len returns the number of bones.
func (c *SimpleChain) Len() int { return len(c.joints) }

// Prefetch starts loading the chain's constants (all of them for a
// one-bone chain), for a caller that steps it soon.
func (c *SimpleChain) Prefetch() { prefetch.Range(unsafe.Pointer(c), unsafe.Sizeof(*c)) }

// NewSimpleChain validates d and builds the layout.
func NewSimpleChain(d *SimpleChainDesc) (*SimpleChain, error) {
	if err := d.Validate(); err != nil {
		return nil, err
	}
	c := &SimpleChain{}
	c.joints = c.one[:]
	if n := len(d.Joints); n > 1 {
		c.joints = make([]simpleJoint, n)
	}
	for i := range d.Joints {
		j := &d.Joints[i]
		scale := j.LocalScale
		if scale == (mgl32.Vec3{}) {
			scale = mgl32.Vec3{1, 1, 1}
		}
		stiffness := j.Stiffness
		if j.RestScale != (mgl32.Vec3{}) {
			stiffness /= maxAbs(ld(&j.RestScale))
		}
		c.joints[i] = simpleJoint{localPos: ld(&j.LocalPos), localScale: ld(&scale), springEnd: ld(&j.SpringEnd),
			bounciness: j.Bounciness, stiffness: stiffness, damping: j.Damping}
	}
	return c, nil
}

// SimpleState is the per-character state of a simple spring chain, in
// centre space: each tip's position after the last step and its velocity,
// and where the animation put the tip at the last step (the anchor the
// damping and the bounciness are measured against).
type SimpleState struct {
	LastTip, Velocity, LastAnim []mgl32.Vec3
}

// NewState returns a state sized for c; call ResetSimple before the first
// step.
func (c *SimpleChain) NewState() SimpleState {
	n := c.Len()
	return SimpleState{LastTip: make([]mgl32.Vec3, n), Velocity: make([]mgl32.Vec3, n), LastAnim: make([]mgl32.Vec3, n)}
}

// fits reports whether every slice of s holds n joints.
func (s *SimpleState) fits(n int) bool {
	return len(s.LastTip) >= n && len(s.Velocity) >= n && len(s.LastAnim) >= n
}

// ResetSimple puts every tip at its animated position (animLocalRot: the
// bones' animated local rotations) at rest: zero velocity, the anchor
// where the tip is.
func ResetSimple(s *SimpleState, c *SimpleChain, animLocalRot []mgl32.Quat,
	parentPos mgl32.Vec3, parentRot mgl32.Quat, parentScale mgl32.Vec3,
	centerPos mgl32.Vec3, centerRot mgl32.Quat) {
	n := len(c.joints)
	if len(animLocalRot) < n || !s.fits(n) {
		return
	}
	p := transform{pos: ld(&parentPos), rot: ldq(&parentRot), scale: ld(&parentScale)}
	cp, cr := ld(&centerPos), ldq(&centerRot)
	for i := 0; i < n; i++ {
		j := &c.joints[i]
		w := p.child(j.localPos, ldq(&animLocalRot[i]), j.localScale)
		tip := w.pos.add(w.rot.rot(w.scale.mul(j.springEnd)))
		s.LastTip[i] = cr.invRot(tip.sub(cp)).vec()
		s.LastAnim[i] = s.LastTip[i]
		s.Velocity[i] = mgl32.Vec3{}
		p = w
	}
}

// StepSimple advances a simple spring chain by dt seconds. animLocalRot
// holds the animated local rotations; the new ones go to dstLocalRot,
// which may be the same slice. Bones are processed parent first, each
// seeing its parent's new rotation. Per bone (see the package doc):
//
//	animTip  = the tip where the animated bone puts it
//	move     = animTip - lastAnim                      // the anchor's motion this step
//	carried  = lastTip + move                          // the tip, had it moved with the anchor
//	force    = bounciness*(animTip - carried)
//	         + stiffness*s*across(animDir, carried-head)
//	         - damping*(velocity - move/dt)
//	velocity += force*dt
//	tip      = head + length*dir(lastTip + velocity*dt - head)
//	rotation = FromTo(animTip-head, tip-head) * animated world rotation
//	lastTip, lastAnim = tip, animTip
//
// across(d, r) is d without its part along r. s is the bone's world scale
// over its RestScale (largest components), so that the scale a rig was
// authored at changes nothing and a rig scaled since moves exactly scaled.
// A zero dt moves nothing: the anchor's motion then adds no velocity.
//
// The kernel composes the helpers' inline pieces (rotT, rotFin, mulW...)
// rather than calling rot, mul and fromTo: each call spilled every live
// register, and the sequence of operations, so every bit, is theirs.
func StepSimple(dstLocalRot, animLocalRot []mgl32.Quat, s *SimpleState, c *SimpleChain,
	parentPos mgl32.Vec3, parentRot mgl32.Quat, parentScale mgl32.Vec3,
	centerPos mgl32.Vec3, centerRot mgl32.Quat, dt float32) {
	joints := c.joints
	n := len(joints)
	if len(dstLocalRot) < n || len(animLocalRot) < n || !s.fits(n) {
		return
	}
	dstLocalRot, animLocalRot = dstLocalRot[:n], animLocalRot[:n]
	lastTips, vels, lastAnims := s.LastTip[:n], s.Velocity[:n], s.LastAnim[:n]
	if !(dt >= 0) || dt-dt != 0 {
		dt = 0
	}
	// The anchor's velocity times dt is its move: the damping adds
	// damping*move to the velocity, nothing when no time passes.
	moving := float32(1)
	if dt == 0 {
		moving = 0
	}
	p := transform{pos: ld(&parentPos), rot: ldq(&parentRot), scale: ld(&parentScale)}
	cp, cr := ld(&centerPos), ldq(&centerRot)
	centred := cp != (v3{}) || cr != (q4{w: 1})
	for i := range joints {
		j := &joints[i]
		// w = p.child(j.localPos, animLocalRot[i], j.localScale)
		r := ldq(&animLocalRot[i])
		off := p.scale.mul(j.localPos)
		w := transform{
			pos:   p.pos.add(p.rot.rotFin(off, p.rot.rotT(off))),
			rot:   q4{p.rot.mulW(r), p.rot.mulX(r), p.rot.mulY(r), p.rot.mulZ(r)},
			scale: p.scale.mul(j.localScale),
		}
		head := w.pos
		end := w.scale.mul(j.springEnd)
		animOff := w.rot.rotFin(end, w.rot.rotT(end))
		l2 := animOff.dot(animOff)
		length := sqrt(l2)
		var animDir v3
		if !(l2 > 1e-12) || l2-l2 != 0 { // as norm: no direction, the bone's y axis
			y := v3{0, 1, 0}
			animDir = w.rot.rotFin(y, w.rot.rotT(y))
		} else {
			animDir = animOff.scale(1 / sqrt(l2))
		}
		animTip := head.add(animOff)

		last, vel, lastAnim := ld(&lastTips[i]), ld(&vels[i]), ld(&lastAnims[i])
		if centred {
			last = cr.rotFin(last, cr.rotT(last)).add(cp)
			vel = cr.rotFin(vel, cr.rotT(vel))
			lastAnim = cr.rotFin(lastAnim, cr.rotT(lastAnim)).add(cp)
		}
		move := animTip.sub(lastAnim)
		carried := last.add(move)
		// pull = across(animDir, carried-head), inline
		var pull v3
		rel := carried.sub(head)
		if r2 := rel.dot(rel); r2 > 1e-12 && r2-r2 == 0 {
			pull = animDir.sub(rel.scale(animDir.dot(rel) / r2))
		}
		force := animTip.sub(carried).scale(j.bounciness).
			add(pull.scale(j.stiffness * maxAbs(w.scale))).
			sub(vel.scale(j.damping))
		vel = vel.add(force.scale(dt)).add(move.scale(j.damping * moving))
		tip := last.add(vel.scale(dt))
		tip = head.add(tip.sub(head).norm(animDir).scale(length))
		if !tip.finite() || !vel.finite() {
			tip, vel = animTip, v3{}
		}
		if centred {
			ci := cr.conj()
			rel := tip.sub(cp)
			lastTips[i] = ci.rotFin(rel, ci.rotT(rel)).vec()
			vels[i] = ci.rotFin(vel, ci.rotT(vel)).vec()
			rel = animTip.sub(cp)
			lastAnims[i] = ci.rotFin(rel, ci.rotT(rel)).vec()
		} else {
			lastTips[i], vels[i], lastAnims[i] = tip.vec(), vel.vec(), animTip.vec()
		}

		// w.rot = fromTo(animDir, tip-head) * w.rot
		f := simpleFromTo(animDir, tip.sub(head))
		w.rot = q4{f.mulW(w.rot), f.mulX(w.rot), f.mulY(w.rot), f.mulZ(w.rot)}
		pc := p.rot.conj()
		dstLocalRot[i] = q4{pc.mulW(w.rot), pc.mulX(w.rot), pc.mulY(w.rot), pc.mulZ(w.rot)}.quat()
		p = w
	}
}

// simpleFromTo is fromTo for StepSimple, with fromTo's operations; the
// nearly opposite case, rare, is fromTo's own.
func simpleFromTo(a, b v3) q4 {
	l2 := b.dot(b)
	if !(l2 > 1e-12) || l2-l2 != 0 {
		return q4{w: 1}
	}
	h := a.add(b.scale(1 / sqrt(l2)))
	h2 := h.dot(h)
	if h2 < 0.2 {
		return fromTo(a, b)
	}
	h = h.scale(1 / sqrt(h2))
	c := a.cross(h)
	return q4{a.dot(h), c.x, c.y, c.z}
}
