package spring

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/check"
)

// SimpleJointDesc is one bone of a simple spring chain: a tip spring on the
// bone, pulled towards where the animation puts the tip.
type SimpleJointDesc struct {
	LocalPos   mgl32.Vec3 // rest local position in the parent: the previous bone, or the chain's parent bone for bone 0
	LocalScale mgl32.Vec3 // rest local scale; the zero vector means (1,1,1)
	SpringEnd  mgl32.Vec3 // the tip in bone space; its length is the spring length

	Bounciness float32 // >= 0: spring from the tip towards the animated tip
	Stiffness  float32 // >= 0: push along the animated bone direction
	Damping    float32 // >= 0: force against the tip's velocity
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

// SimpleChain is the immutable layout of a simple spring chain.
type SimpleChain struct {
	localPos   []mgl32.Vec3
	localScale []mgl32.Vec3
	springEnd  []mgl32.Vec3
	bounciness []float32
	stiffness  []float32
	damping    []float32
}

// Len returns the number of bones.
func (c *SimpleChain) Len() int { return len(c.localPos) }

// NewSimpleChain validates d and builds the layout.
func NewSimpleChain(d *SimpleChainDesc) (*SimpleChain, error) {
	if err := d.Validate(); err != nil {
		return nil, err
	}
	n := len(d.Joints)
	c := &SimpleChain{
		localPos:   make([]mgl32.Vec3, n),
		localScale: make([]mgl32.Vec3, n),
		springEnd:  make([]mgl32.Vec3, n),
		bounciness: make([]float32, n),
		stiffness:  make([]float32, n),
		damping:    make([]float32, n),
	}
	for i := range d.Joints {
		j := &d.Joints[i]
		c.localPos[i] = j.LocalPos
		c.localScale[i] = j.LocalScale
		if j.LocalScale == (mgl32.Vec3{}) {
			c.localScale[i] = mgl32.Vec3{1, 1, 1}
		}
		c.springEnd[i] = j.SpringEnd
		c.bounciness[i] = j.Bounciness
		c.stiffness[i] = j.Stiffness
		c.damping[i] = j.Damping
	}
	return c, nil
}

// SimpleState is the per-character state of a simple spring chain: each
// tip's position last frame and its velocity, in centre space.
type SimpleState struct {
	LastTip, Velocity []mgl32.Vec3
}

// NewState returns a state sized for c; call ResetSimple before the first
// step.
func (c *SimpleChain) NewState() SimpleState {
	n := c.Len()
	return SimpleState{LastTip: make([]mgl32.Vec3, n), Velocity: make([]mgl32.Vec3, n)}
}

// ResetSimple puts every tip at its animated position (animLocalRot: the
// bones' animated local rotations) with zero velocity.
func ResetSimple(s *SimpleState, c *SimpleChain, animLocalRot []mgl32.Quat,
	parentPos mgl32.Vec3, parentRot mgl32.Quat, parentScale mgl32.Vec3,
	centerPos mgl32.Vec3, centerRot mgl32.Quat) {
	n := len(c.localPos)
	if len(animLocalRot) < n || len(s.LastTip) < n || len(s.Velocity) < n {
		return
	}
	p := transform{pos: ld(&parentPos), rot: ldq(&parentRot), scale: ld(&parentScale)}
	cp, cr := ld(&centerPos), ldq(&centerRot)
	for i := 0; i < n; i++ {
		w := p.child(ld(&c.localPos[i]), ldq(&animLocalRot[i]), ld(&c.localScale[i]))
		tip := w.pos.add(w.rot.rot(w.scale.mul(ld(&c.springEnd[i]))))
		s.LastTip[i] = cr.invRot(tip.sub(cp)).vec()
		s.Velocity[i] = mgl32.Vec3{}
		p = w
	}
}

// StepSimple advances a simple spring chain by dt. animLocalRot holds the
// animated local rotations; the new ones go to dstLocalRot, which may be
// the same slice. Bones are processed parent first, each seeing its
// parent's new rotation. Per bone:
//
//	animTip  = the tip where the animated bone puts it
//	force    = bounciness*(animTip-lastTip) + stiffness*scale*dir(animTip-head) - damping*velocity
//	velocity += force*dt
//	tip      = head + length*dir(lastTip + velocity*dt - head)
//	rotation = FromTo(animTip-head, tip-head) * animated world rotation
//
// The stiffness term is a unit direction in the source; it is multiplied by
// the bone's world scale (largest component) so that a scaled rig moves
// exactly scaled.
func StepSimple(dstLocalRot, animLocalRot []mgl32.Quat, s *SimpleState, c *SimpleChain,
	parentPos mgl32.Vec3, parentRot mgl32.Quat, parentScale mgl32.Vec3,
	centerPos mgl32.Vec3, centerRot mgl32.Quat, dt float32) {
	n := len(c.localPos)
	if len(dstLocalRot) < n || len(animLocalRot) < n || len(s.LastTip) < n || len(s.Velocity) < n {
		return
	}
	if !(dt >= 0) || dt-dt != 0 {
		dt = 0
	}
	p := transform{pos: ld(&parentPos), rot: ldq(&parentRot), scale: ld(&parentScale)}
	cp, cr := ld(&centerPos), ldq(&centerRot)
	centred := cp != (v3{}) || cr != (q4{w: 1})
	for i := 0; i < n; i++ {
		w := p.child(ld(&c.localPos[i]), ldq(&animLocalRot[i]), ld(&c.localScale[i]))
		head := w.pos
		animOff := w.rot.rot(w.scale.mul(ld(&c.springEnd[i])))
		length := animOff.len()
		animDir := animOff.norm(w.rot.rot(v3{0, 1, 0}))
		animTip := head.add(animOff)

		last, vel := ld(&s.LastTip[i]), ld(&s.Velocity[i])
		if centred {
			last, vel = cr.rot(last).add(cp), cr.rot(vel)
		}
		force := animTip.sub(last).scale(c.bounciness[i]).
			add(animDir.scale(c.stiffness[i] * maxAbs(w.scale))).
			sub(vel.scale(c.damping[i]))
		vel = vel.add(force.scale(dt))
		tip := last.add(vel.scale(dt))
		tip = head.add(tip.sub(head).norm(animDir).scale(length))
		if !tip.finite() || !vel.finite() {
			tip, vel = animTip, v3{}
		}
		if centred {
			s.LastTip[i], s.Velocity[i] = cr.invRot(tip.sub(cp)).vec(), cr.invRot(vel).vec()
		} else {
			s.LastTip[i], s.Velocity[i] = tip.vec(), vel.vec()
		}

		w.rot = fromTo(animDir, tip.sub(head)).mul(w.rot)
		dstLocalRot[i] = p.rot.conj().mul(w.rot).quat()
		p = w
	}
}
