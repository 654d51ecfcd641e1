package spring

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/internal/mathx"
)

// DefaultVirtualTail is the length of the tail VRM 0.x gives a joint
// without a child: 7 cm along the direction from its parent to it.
const DefaultVirtualTail = 0.07

// VRMJointDesc is one joint of a VRM spring: its node's rest local
// transform and the joint's settings (VRMC_springBone joints[*]).
type VRMJointDesc struct {
	LocalPos   mgl32.Vec3 // rest local position in the parent's space (its units; finite): the previous joint, or the chain's parent bone for joint 0
	LocalRot   mgl32.Quat // rest (initial) local rotation relative to the parent; a unit quaternion (within 1e-3)
	LocalScale mgl32.Vec3 // rest local scale, finite; the zero vector means (1,1,1)

	// The settings, VRMC_springBone's, in its units: per step the tail
	// moves (Stiffness along the rest direction + GravityPower along
	// GravityDir) times dt times s metres (s: RestScale below), before
	// being put back at the bone's length. VRM's defaults (not the zero
	// value's) are stiffness 1, gravity power 0, gravity direction
	// (0, -1, 0), drag 0.5 and hit radius 0.
	Stiffness    float32    // finite, >= 0: pull back to the rest direction, in m/s (see above)
	GravityPower float32    // finite, >= 0: gravity, in m/s (see above)
	GravityDir   mgl32.Vec3 // world space, finite, used as given: its length multiplies GravityPower (VRM writes a unit vector)
	DragForce    float32    // [0, 1]: share of the tail's velocity lost per step (per 1/60 s with FixedStep)
	HitRadius    float32    // finite, >= 0: radius of the tail against colliders, in metres at RestScale
	Limit        Limit      // optional angle limit (VRMC_springBone_limit draft); the zero value is none

	// RestScale is the joint's uniform world scale in the rest pose (the
	// largest absolute component): the frame the file or rig was authored
	// in, which changes nothing. Stiffness, gravity and the hit radius are
	// world-space quantities at rest and scale by (world scale now) /
	// RestScale, so only a change of scale at run time scales the motion.
	// 0 means 1; otherwise at least 1e-12 (minRestScale).
	RestScale float32
}

// VRMChainDesc is a VRM spring: joints from root to tip, each joint node the
// child of the previous one.
type VRMChainDesc struct {
	Joints []VRMJointDesc
	// HasTail says that the last joint has a child node, at Tail (rest local
	// position in the last joint's space, in its units; finite). Without
	// one the last joint gets a virtual tail VirtualTail long (>= 0, in the
	// last joint's units: it scales with the joint's world scale) along
	// the direction from its parent to it (VRM 0.x); VirtualTail 0 means
	// DefaultVirtualTail.
	HasTail     bool
	Tail        mgl32.Vec3
	VirtualTail float32
	// FixedStep, when > 0, is the step in seconds the chain is always
	// advanced with: DragForce then counts per 1/60 s and drag and forces
	// are converted to the step exactly (see DragPerStep, ForcePerStep), and
	// StepVRM ignores its dt. 0 (the default) follows the reference model:
	// DragForce per call, forces times dt. Finite and >= 0.
	FixedStep float32
	// StrictCollision, when set, turns a bone whose tail the reference push
	// and renormalisation leave inside a collider (it happens when the head
	// is close to the collider) just out of it; see the package doc. Off by
	// default so that results match the reference model.
	StrictCollision bool
}

const vrmDescType = "spring.VRMChainDesc"

// Validate reports the first bad field as a *check.FieldError.
func (d *VRMChainDesc) Validate() error {
	if len(d.Joints) == 0 {
		return check.Errorf(vrmDescType, "Joints", len(d.Joints), "must not be empty")
	}
	for i := range d.Joints {
		if err := d.Joints[i].validate(); err != nil {
			// The index goes into the field path only here: formatting
			// it for every check of every joint made building ten
			// thousand characters' springs slow.
			var fe *check.FieldError
			if errors.As(err, &fe) {
				fe.Field = fmt.Sprintf("Joints[%d].%s", i, fe.Field)
			}
			return err
		}
	}
	if err := check.FiniteVec3(vrmDescType, "Tail", d.Tail); err != nil {
		return err
	}
	if err := check.NonNegative(vrmDescType, "VirtualTail", d.VirtualTail); err != nil {
		return err
	}
	return check.NonNegative(vrmDescType, "FixedStep", d.FixedStep)
}

// validate checks one joint; field paths are relative to the joint.
func (j *VRMJointDesc) validate() error {
	if err := check.FiniteVec3(vrmDescType, "LocalPos", j.LocalPos); err != nil {
		return err
	}
	if _, err := check.UnitQuat(vrmDescType, "LocalRot", j.LocalRot, 1e-3); err != nil {
		return err
	}
	if err := check.FiniteVec3(vrmDescType, "LocalScale", j.LocalScale); err != nil {
		return err
	}
	if err := check.NonNegative(vrmDescType, "Stiffness", j.Stiffness); err != nil {
		return err
	}
	if err := check.NonNegative(vrmDescType, "GravityPower", j.GravityPower); err != nil {
		return err
	}
	if err := check.FiniteVec3(vrmDescType, "GravityDir", j.GravityDir); err != nil {
		return err
	}
	if err := check.Range(vrmDescType, "DragForce", j.DragForce, 0, 1); err != nil {
		return err
	}
	if err := check.NonNegative(vrmDescType, "HitRadius", j.HitRadius); err != nil {
		return err
	}
	if err := check.NonNegative(vrmDescType, "RestScale", j.RestScale); err != nil {
		return err
	}
	if j.RestScale != 0 && j.RestScale < minRestScale {
		return check.Errorf(vrmDescType, "RestScale", j.RestScale, "must be at least %g (or 0 for 1)", minRestScale)
	}
	return j.Limit.validate(vrmDescType, "Limit")
}

// VRMChain is the immutable layout of a VRM spring, built once by
// NewVRMChain and shared by any number of states. It is two parts: the
// joints' geometry (rest transforms, bone axes and lengths), which chains
// built through one VRMShapes share when they are alike (the same spring
// of every character of a rig), and the settings, one record for every
// joint when they are all the same (as a spring's usually are), else one
// per joint. A step reads one record of each per joint.
type VRMChain struct {
	joints []vrmJoint
	sets   []vrmSet // one per joint, or one for all: see setAt
	one    [1]vrmSet
	limits []limit // nil when no joint has a limit
	fixed  bool
	strict bool
	// identAll: every joint's rest rotation is the identity.
	identAll bool
	// fastShape: every joint's rest local scale is (1,1,1) and no joint
	// has a limit or strict collisions, so a uniformly scaled chain can
	// take the fast path.
	fastShape bool
	// reach bounds how far a tail's hit sphere gets from joint 0's head:
	// the largest bone lengths summed plus hit radius over the joints.
	reach float32
}

// setAt returns the settings of joint i.
func (c *VRMChain) setAt(i int) *vrmSet {
	if len(c.sets) == 1 {
		return &c.sets[0]
	}
	return &c.sets[i]
}

// vrmJoint is the geometry of one joint of a VRMChain. The first 32
// bytes are two groups of four float32 that the SIMD kernels load 16
// bytes at a time; vrm_layout.go checks the offsets at compile time.
type vrmJoint struct {
	restAxis v3 // localRot*axis: the rest direction in the parent's frame
	length   float32
	localRot q4 // w, x, y, z

	reach      float32 // rest distance from joint 0's head to this tail along the chain
	identRot   bool    // localRot is the identity: restRot is the parent's rotation
	localPos   v3
	localScale v3
	tail       v3 // rest tail in the joint's space
	axis       v3 // unit bone axis: tail direction, +Y for a zero-length bone
}

// vrmSet is the settings of one joint of a VRMChain: two groups of four
// float32 for the SIMD kernels.
type vrmSet struct {
	gravity   v3      // GravityDir * GravityPower
	keep      float32 // share of the velocity kept per step: 1 - drag
	stiffness float32
	force     float32 // FixedStep only: the factor that replaces dt
	hitRadius float32
	_         float32
}

// Len returns the number of joints.
func (c *VRMChain) Len() int { return len(c.joints) }

// NewVRMChain validates d and builds the layout.
func NewVRMChain(d *VRMChainDesc) (*VRMChain, error) {
	return (*VRMShapes)(nil).NewVRMChain(d)
}

// VRMShapes builds chains that share their geometry with the earlier
// chains it built of the same shape: the joints' rest transforms and the
// tail, whatever the settings. A store of many characters of one rig
// keeps one copy of each spring's geometry instead of one per character,
// which the step reads for every joint. Set-up code; a nil *VRMShapes
// shares nothing. The zero value is ready to use.
type VRMShapes struct {
	m map[string][]vrmJoint
}

// NewVRMChain validates d and builds the layout, sharing the geometry of
// an earlier chain of the same shape.
func (sh *VRMShapes) NewVRMChain(d *VRMChainDesc) (*VRMChain, error) {
	if err := d.Validate(); err != nil {
		return nil, err
	}
	n := len(d.Joints)
	c := &VRMChain{
		joints:    make([]vrmJoint, n),
		sets:      make([]vrmSet, n),
		fixed:     d.FixedStep > 0,
		strict:    d.StrictCollision,
		fastShape: !d.StrictCollision,
	}
	reach := float32(0)
	for i := range d.Joints {
		j, dj := &c.joints[i], &d.Joints[i]
		rot, _ := mathx.NormalizeQuat(dj.LocalRot)
		scale := dj.LocalScale
		if scale == (mgl32.Vec3{}) {
			scale = mgl32.Vec3{1, 1, 1}
		}
		c.fastShape = c.fastShape && scale == mgl32.Vec3{1, 1, 1}
		var tail mgl32.Vec3
		switch {
		case i+1 < n:
			tail = d.Joints[i+1].LocalPos
		case d.HasTail:
			tail = d.Tail
		default:
			// VRM 0.x: along the parent-to-joint direction, expressed in
			// the joint's own rest frame.
			l := d.VirtualTail
			if l == 0 {
				l = DefaultVirtualTail
			}
			dir := mathx.NormalizeOr(mathx.InvRotate(rot, dj.LocalPos), mgl32.Vec3{0, 1, 0})
			tail = dir.Mul(l)
		}
		axis := mathx.NormalizeOr(tail, mgl32.Vec3{0, 1, 0})
		restAxis := mathx.Rotate(rot, axis)
		// The kernels scale forces and the hit radius by the world scale:
		// divided by the rest scale here, they scale by its change.
		per := float32(1)
		if dj.RestScale > 0 {
			per = 1 / dj.RestScale
		}
		gravity := dj.GravityDir.Mul(dj.GravityPower * per)
		hit := dj.HitRadius * per
		reach += tail.Len()
		c.reach = max(c.reach, reach+hit)
		*j = vrmJoint{
			localPos:   ld(&dj.LocalPos),
			localRot:   ldq(&rot),
			localScale: ld(&scale),
			tail:       ld(&tail),
			axis:       ld(&axis),
			restAxis:   ld(&restAxis),
			length:     tail.Len(),
			reach:      reach,
			identRot:   rot == mgl32.QuatIdent(),
		}
		set := &c.sets[i]
		*set = vrmSet{stiffness: dj.Stiffness * per, gravity: ld(&gravity), keep: 1 - dj.DragForce, hitRadius: hit}
		if c.fixed {
			set.keep = 1 - DragPerStep(dj.DragForce, d.FixedStep)
			set.force = ForcePerStep(dj.DragForce, d.FixedStep)
		}
	}
	for i := range d.Joints {
		if d.Joints[i].Limit.Kind != NoLimit {
			c.limits = make([]limit, n)
			c.fastShape = false
			for k := range d.Joints {
				c.limits[k] = prepareLimit(&d.Joints[k].Limit, c.joints[k].tail.vec())
			}
			break
		}
	}
	c.identAll = true
	for i := range c.joints {
		c.identAll = c.identAll && c.joints[i].identRot
	}
	uniform := true
	for i := range c.sets {
		uniform = uniform && c.sets[i] == c.sets[0]
	}
	if uniform {
		c.one[0] = c.sets[0]
		c.sets = c.one[:]
	}
	if sh != nil {
		key := shapeKey(c.joints)
		if js, ok := sh.m[key]; ok {
			c.joints = js
		} else {
			if sh.m == nil {
				sh.m = map[string][]vrmJoint{}
			}
			sh.m[key] = c.joints
		}
	}
	return c, nil
}

// shapeKey encodes every field of the joints: equal keys, equal
// geometry.
func shapeKey(joints []vrmJoint) string {
	b := make([]byte, 0, len(joints)*88)
	f := func(v ...float32) {
		for _, x := range v {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
		}
	}
	for i := range joints {
		j := &joints[i]
		f(j.restAxis.x, j.restAxis.y, j.restAxis.z, j.length, j.localRot.w, j.localRot.x, j.localRot.y, j.localRot.z, j.reach)
		f(j.localPos.x, j.localPos.y, j.localPos.z, j.localScale.x, j.localScale.y, j.localScale.z)
		f(j.tail.x, j.tail.y, j.tail.z, j.axis.x, j.axis.y, j.axis.z)
		if j.identRot {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
	}
	return string(b)
}

// VRMState is the per-character state of one VRM spring: each joint's tail
// now and one step ago, in centre space (world space without a centre).
type VRMState struct {
	PrevTail, CurTail []mgl32.Vec3
}

// NewState returns a state sized for c; call ResetVRM before the first step.
func (c *VRMChain) NewState() VRMState {
	n := c.Len()
	return VRMState{PrevTail: make([]mgl32.Vec3, n), CurTail: make([]mgl32.Vec3, n)}
}
