package sway

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"

	"github.com/sway-anim/sway/components"
	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/internal/mathx"
	"github.com/sway-anim/sway/internal/rig"
	"github.com/sway-anim/sway/systems/ik"
)

// IKHintSpace says where an IK limb's hint (pole) is given.
type IKHintSpace uint8

const (
	// IKHintNone: no hint; the limb keeps its current bend plane (a
	// straight limb bends about MidAxis).
	IKHintNone = IKHintSpace(components.HintNone)
	// IKHintWorld: the hint is a world position.
	IKHintWorld = IKHintSpace(components.HintWorld)
	// IKHintRoot: the hint is a position in the character's root space
	// (+Y up, +Z forward, -X right), so it moves with the character: for
	// a knee, a point in front of it.
	IKHintRoot = IKHintSpace(components.HintRoot)
)

// MaxIKLimbs is the number of limbs one character's IK can solve.
const MaxIKLimbs = components.MaxIKLimbs

// IKLimb is one two-bone limb of a character: upper, middle and end joint
// (hip, knee, ankle or shoulder, elbow, wrist). IKLimbFor fills it from
// bone names; Bones may also be set by index.
type IKLimb struct {
	// Bones are the upper, middle and end bone indices; the middle must be
	// below the upper and the end below the middle.
	Bones [3]int
	// MidAxis is the middle joint's hinge axis in its local space, used
	// only when the limb is straight and no hint gives a bend plane; the
	// middle joint bends by a positive angle about it. Finite, not zero,
	// any length; IKLimbFor sets the character's left (see there).
	MidAxis mgl32.Vec3
	// Soften (0..1) is the fraction of the limb's length (upper plus lower
	// bone) from which the end starts to fall behind a far target, easing
	// the lock into full extension; 1 (IKLimbFor's) disables it.
	Soften float32
	// Weight (0..1) blends the solved limb over the pose: 0 leaves it,
	// 1 (IKLimbFor's) applies the solution fully. The IK's weight
	// (SetWeight) multiplies it.
	Weight float32
	// Hint is a point the middle joint bends toward, in metres in
	// HintSpace (finite; unused with IKHintNone). In root space it is
	// scaled, turned and moved with the root.
	Hint mgl32.Vec3
	// HintSpace is IKHintNone (the zero value and IKLimbFor's),
	// IKHintWorld or IKHintRoot.
	HintSpace IKHintSpace
}

// IKLimbFor returns a limb from bone names with full weight, no softening
// and no hint. MidAxis is the character's left (+X in root space, about
// which a knee bends the foot backward) in the middle bone's rest space;
// arms and other limbs usually want a hint or their own MidAxis.
func IKLimbFor(skel *Skeleton, upper, middle, end string) (IKLimb, error) {
	l := IKLimb{Soften: 1, Weight: 1}
	for i, name := range []string{upper, middle, end} {
		b := skel.Index(name)
		if b < 0 {
			return l, check.Errorf("IKLimbFor", [3]string{"upper", "middle", "end"}[i], name, "no bone of skeleton %q has this name", skel.Name())
		}
		l.Bones[i] = b
	}
	l.MidAxis = mathx.InvRotate(skel.ModelRot()[l.Bones[1]], mgl32.Vec3{1, 0, 0})
	return l, nil
}

const ikType = "IKLimb"

// ikLimb checks l against skel and returns the component's limb.
func ikLimb(skel *rig.Skeleton, i int, l *IKLimb) (components.IKLimb, error) {
	f := fmt.Sprintf("limbs[%d].", i)
	out := components.IKLimb{Settings: ik.TwoBoneSettings{MidAxis: l.MidAxis, Soften: l.Soften, Weight: l.Weight}, TargetRot: mgl32.QuatIdent()}
	for k, b := range l.Bones {
		if b < 0 || b >= skel.NumBones() {
			return out, check.Errorf(ikType, fmt.Sprintf("%sBones[%d]", f, k), b, "beyond the skeleton's %d bones", skel.NumBones())
		}
	}
	u, m, e := l.Bones[0], l.Bones[1], l.Bones[2]
	if !isBoneAncestor(skel, u, m) {
		return out, check.Errorf(ikType, f+"Bones[1]", m, "the middle bone %q must be below the upper bone %q", skel.BoneName(m), skel.BoneName(u))
	}
	if !isBoneAncestor(skel, m, e) {
		return out, check.Errorf(ikType, f+"Bones[2]", e, "the end bone %q must be below the middle bone %q", skel.BoneName(e), skel.BoneName(m))
	}
	if err := out.Settings.Validate(); err != nil {
		return out, relabelFieldError(err, ikType, f)
	}
	if err := check.Range(ikType, f+"Soften", l.Soften, 0, 1); err != nil {
		return out, err
	}
	if err := check.Range(ikType, f+"Weight", l.Weight, 0, 1); err != nil {
		return out, err
	}
	if err := check.FiniteVec3(ikType, f+"Hint", l.Hint); err != nil {
		return out, err
	}
	if l.HintSpace > IKHintRoot {
		return out, check.Errorf(ikType, f+"HintSpace", l.HintSpace, "must be IKHintNone, IKHintWorld or IKHintRoot")
	}
	out.Upper, out.Middle, out.End = int32(u), int32(m), int32(e)
	out.Hint, out.HintSpace = l.Hint, uint8(l.HintSpace)
	return out, nil
}

// IKFeature adds two-bone IK to characters and finds it again (World.IK).
type IKFeature struct{ w *World }

// IK returns the world's IK feature.
func (w *World) IK() IKFeature { return IKFeature{w} }

// IK is a handle on a character's two-bone IK limbs: the verbs every
// feature has (Pause, Resume, Reset, SetWeight, Remove; see "Features as
// handles") and each limb's target, hint and weight. IK keeps no history:
// it solves the pose it finds, so Reset only clears the limbs' Reached.
type IK struct{ feature }

var ikKind = featureKind{
	name: "IK",
	control: func(w *World, e ecs.Entity) *components.Control {
		if m := &w.maps.ik; m.Has(e) {
			return &m.Get(e).Control
		}
		return nil
	},
	reset: func(w *World, e ecs.Entity) {
		c := w.maps.ik.Get(e)
		for i := range c.Limbs {
			c.Limbs[i].Reached = false
		}
	},
	remove: func(w *World, e ecs.Entity) {
		m := generic.NewMap1[components.IK](w.ecs)
		m.Remove(e)
	},
}

// Of returns the handle on character e's IK. It does not check that e
// has IK: its methods do.
func (f IKFeature) Of(e ecs.Entity) IK { return IK{feature{f.w, e, &ikKind}} }

// Add gives a character up to MaxIKLimbs two-bone limbs, solved in order
// every Step, and returns the handle; a character has one IK (Remove it
// first to replace it). Bad limbs are reported as a *FieldError. Each
// limb's target starts at its end bone's current position, so nothing
// moves until SetTarget or SetTargetBone.
func (f IKFeature) Add(e ecs.Entity, limbs ...IKLimb) (IK, error) {
	w := f.w
	if err := w.enter("IK.Add"); err != nil {
		return IK{}, err
	}
	defer w.leave()
	p, err := w.pose(e)
	if err != nil {
		return IK{}, err
	}
	if w.maps.ik.Has(e) {
		return IK{}, check.Errorf("IK.Add", "Entity", e, "already has IK (Remove it first)")
	}
	if len(limbs) == 0 || len(limbs) > MaxIKLimbs {
		return IK{}, check.Errorf(ikType, "limbs", len(limbs), "must be 1 to %d limbs", MaxIKLimbs)
	}
	skel := w.reg.Skeletons[p.Skeleton]
	c := components.IK{Control: components.Control{Weight: 1}}
	for i := range limbs {
		l, err := ikLimb(skel, i, &limbs[i])
		if err != nil {
			return IK{}, err
		}
		end, _ := w.boneWorld(e, int(l.End))
		l.Target.Point = end.Pos
		c.Limbs[i] = l
	}
	c.NumLimbs = uint8(len(limbs))
	m := generic.NewMap1[components.IK](w.ecs)
	m.Assign(e, &c)
	return f.Of(e), nil
}

// Len returns how many limbs the character's IK has (0 without IK).
func (k IK) Len() int {
	if k.enter("Len") != nil {
		return 0
	}
	defer k.w.leave()
	if _, err := k.w.pose(k.e); err != nil || !k.w.maps.ik.Has(k.e) {
		return 0
	}
	return int(k.w.maps.ik.Get(k.e).NumLimbs)
}

// ikLimbOf returns limb i of a character's IK.
func (w *World) ikLimbOf(e ecs.Entity, i int) (*components.IKLimb, error) {
	if _, err := w.pose(e); err != nil {
		return nil, err
	}
	m := &w.maps.ik
	if !m.Has(e) {
		return nil, &FeatureError{Feature: ikKind.name, Entity: e}
	}
	c := m.Get(e)
	if i < 0 || i >= int(c.NumLimbs) {
		return nil, check.Errorf("IK", "Limb", i, "the character has %d IK limbs", c.NumLimbs)
	}
	return &c.Limbs[i], nil
}

// SetTarget sets where limb i's end bone should go, a world point.
func (k IK) SetTarget(limb int, point mgl32.Vec3) error {
	if err := k.enter("SetTarget"); err != nil {
		return err
	}
	defer k.w.leave()
	l, err := k.w.ikLimbOf(k.e, limb)
	if err != nil {
		return err
	}
	if err := check.FiniteVec3("IK", "Target", point); err != nil {
		return err
	}
	l.Target = components.Target{Point: point}
	return nil
}

// SetTargetBone makes limb i reach for a bone of a character (itself
// included), followed every frame. If the target character is removed
// later, the limb keeps reaching for the bone's last position
// (Target reports it lost).
func (k IK) SetTargetBone(limb int, target ecs.Entity, bone int) error {
	if err := k.enter("SetTargetBone"); err != nil {
		return err
	}
	defer k.w.leave()
	l, err := k.w.ikLimbOf(k.e, limb)
	if err != nil {
		return err
	}
	t, err := k.w.boneTarget(target, bone)
	if err != nil {
		return err
	}
	l.Target = t
	return nil
}

// SetTargetRotation makes limb i's end bone take a world rotation (use
// true), or keep its local rotation (use false).
func (k IK) SetTargetRotation(limb int, rot mgl32.Quat, use bool) error {
	if err := k.enter("SetTargetRotation"); err != nil {
		return err
	}
	defer k.w.leave()
	l, err := k.w.ikLimbOf(k.e, limb)
	if err != nil {
		return err
	}
	q, err := check.UnitQuat("IK", "TargetRotation", rot, 1e-3)
	if err != nil {
		return err
	}
	l.TargetRot, l.UseTargetRot = q, use
	return nil
}

// SetHint sets the point limb i's middle joint bends toward.
func (k IK) SetHint(limb int, hint mgl32.Vec3, space IKHintSpace) error {
	if err := k.enter("SetHint"); err != nil {
		return err
	}
	defer k.w.leave()
	l, err := k.w.ikLimbOf(k.e, limb)
	if err != nil {
		return err
	}
	if err := check.FiniteVec3("IK", "Hint", hint); err != nil {
		return err
	}
	if space > IKHintRoot {
		return check.Errorf("IK", "HintSpace", space, "must be IKHintNone, IKHintWorld or IKHintRoot")
	}
	l.Hint, l.HintSpace = hint, uint8(space)
	return nil
}

// SetLimbWeight blends limb i in (1) or out (0), taking effect at the
// next Step; the IK's weight (SetWeight) multiplies it.
func (k IK) SetLimbWeight(limb int, weight float32) error {
	if err := k.enter("SetLimbWeight"); err != nil {
		return err
	}
	defer k.w.leave()
	l, err := k.w.ikLimbOf(k.e, limb)
	if err != nil {
		return err
	}
	if err := check.Range("IK", "LimbWeight", weight, 0, 1); err != nil {
		return err
	}
	l.Settings.Weight = weight
	return nil
}

// Reached reports whether limb i's end reached its target in the last
// Step: within the limb's reach and outside its soft zone, at full weight.
func (k IK) Reached(limb int) (bool, error) {
	if err := k.enter("Reached"); err != nil {
		return false, err
	}
	defer k.w.leave()
	l, err := k.w.ikLimbOf(k.e, limb)
	if err != nil {
		return false, err
	}
	return l.Reached, nil
}

// Target returns where limb i reaches for (for a bone target, its
// position as of the last Step) and whether a bone target's character is
// gone (the point is then its last position).
func (k IK) Target(limb int) (point mgl32.Vec3, lost bool, err error) {
	if err = k.enter("Target"); err != nil {
		return
	}
	defer k.w.leave()
	l, err := k.w.ikLimbOf(k.e, limb)
	if err != nil {
		return point, false, err
	}
	return l.Target.Point, l.Target.Lost, nil
}
