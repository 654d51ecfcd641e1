package sway

import (
	"errors"
	"fmt"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"

	"github.com/sway-anim/sway/components"
	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/internal/mathx"
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
	// middle joint bends by a positive angle about it.
	MidAxis mgl32.Vec3
	// Soften (0..1) is the fraction of the limb's length from which the end
	// starts to fall behind a far target, easing the lock into full
	// extension; 1 disables it.
	Soften float32
	// Weight (0..1) blends the solved limb over the pose.
	Weight float32
	// Hint is a point the middle joint bends toward, in HintSpace.
	Hint      mgl32.Vec3
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
func ikLimb(skel *Skeleton, i int, l *IKLimb) (components.IKLimb, error) {
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

// AddIK gives a character up to MaxIKLimbs two-bone limbs, solved in order
// every Step, replacing any it had. Bad limbs are reported as a
// *FieldError. Each limb's target starts at its end bone's current
// position, so nothing moves until SetIKTarget or SetIKTargetBone.
func (w *World) AddIK(e ecs.Entity, limbs ...IKLimb) error {
	if err := w.enter("AddIK"); err != nil {
		return err
	}
	defer w.leave()
	p, err := w.pose(e)
	if err != nil {
		return err
	}
	if len(limbs) == 0 || len(limbs) > MaxIKLimbs {
		return check.Errorf(ikType, "limbs", len(limbs), "must be 1 to %d limbs", MaxIKLimbs)
	}
	skel := w.reg.Skeletons[p.Skeleton]
	var c components.IK
	for i := range limbs {
		l, err := ikLimb(skel, i, &limbs[i])
		if err != nil {
			return err
		}
		end, _ := w.boneWorld(e, int(l.End))
		l.Target.Point = end.Pos
		c.Limbs[i] = l
	}
	c.NumLimbs = uint8(len(limbs))
	if m := &w.maps.ik; m.Has(e) {
		m.Set(e, &c)
		return nil
	}
	m := generic.NewMap1[components.IK](w.ecs)
	m.Assign(e, &c)
	return nil
}

// ErrNoIK is returned for a character without IK or a limb it does not
// have.
var ErrNoIK = errors.New("sway: character has no such IK limb")

// ikLimbOf returns limb i of a character's IK.
func (w *World) ikLimbOf(e ecs.Entity, i int) (*components.IKLimb, error) {
	if _, err := w.pose(e); err != nil {
		return nil, err
	}
	m := &w.maps.ik
	if !m.Has(e) {
		return nil, ErrNoIK
	}
	c := m.Get(e)
	if i < 0 || i >= int(c.NumLimbs) {
		return nil, ErrNoIK
	}
	return &c.Limbs[i], nil
}

// SetIKTarget sets where limb i's end bone should go, a world point.
func (w *World) SetIKTarget(e ecs.Entity, limb int, point mgl32.Vec3) error {
	if err := w.enter("SetIKTarget"); err != nil {
		return err
	}
	defer w.leave()
	l, err := w.ikLimbOf(e, limb)
	if err != nil {
		return err
	}
	if err := check.FiniteVec3("SetIKTarget", "point", point); err != nil {
		return err
	}
	l.Target = components.Target{Point: point}
	return nil
}

// SetIKTargetBone makes limb i reach for a bone of a character (itself
// included), followed every frame. If the target character is removed
// later, the limb keeps reaching for the bone's last position
// (IKTarget reports it lost).
func (w *World) SetIKTargetBone(e ecs.Entity, limb int, target ecs.Entity, bone int) error {
	if err := w.enter("SetIKTargetBone"); err != nil {
		return err
	}
	defer w.leave()
	l, err := w.ikLimbOf(e, limb)
	if err != nil {
		return err
	}
	t, err := w.boneTarget(target, bone)
	if err != nil {
		return err
	}
	l.Target = t
	return nil
}

// SetIKTargetRotation makes limb i's end bone take a world rotation (use
// true), or keep its local rotation (use false).
func (w *World) SetIKTargetRotation(e ecs.Entity, limb int, rot mgl32.Quat, use bool) error {
	if err := w.enter("SetIKTargetRotation"); err != nil {
		return err
	}
	defer w.leave()
	l, err := w.ikLimbOf(e, limb)
	if err != nil {
		return err
	}
	q, err := check.UnitQuat("SetIKTargetRotation", "rot", rot, 1e-3)
	if err != nil {
		return err
	}
	l.TargetRot, l.UseTargetRot = q, use
	return nil
}

// SetIKHint sets the point limb i's middle joint bends toward.
func (w *World) SetIKHint(e ecs.Entity, limb int, hint mgl32.Vec3, space IKHintSpace) error {
	if err := w.enter("SetIKHint"); err != nil {
		return err
	}
	defer w.leave()
	l, err := w.ikLimbOf(e, limb)
	if err != nil {
		return err
	}
	if err := check.FiniteVec3("SetIKHint", "hint", hint); err != nil {
		return err
	}
	if space > IKHintRoot {
		return check.Errorf("SetIKHint", "space", space, "must be IKHintNone, IKHintWorld or IKHintRoot")
	}
	l.Hint, l.HintSpace = hint, uint8(space)
	return nil
}

// SetIKWeight blends limb i in (1) or out (0), taking effect at the next
// Step.
func (w *World) SetIKWeight(e ecs.Entity, limb int, weight float32) error {
	if err := w.enter("SetIKWeight"); err != nil {
		return err
	}
	defer w.leave()
	l, err := w.ikLimbOf(e, limb)
	if err != nil {
		return err
	}
	if err := check.Range("SetIKWeight", "weight", weight, 0, 1); err != nil {
		return err
	}
	l.Settings.Weight = weight
	return nil
}

// IKReached reports whether limb i's end reached its target in the last
// Step: within the limb's reach and outside its soft zone, at full weight.
func (w *World) IKReached(e ecs.Entity, limb int) (bool, error) {
	if err := w.enter("IKReached"); err != nil {
		return false, err
	}
	defer w.leave()
	l, err := w.ikLimbOf(e, limb)
	if err != nil {
		return false, err
	}
	return l.Reached, nil
}

// IKTarget returns where limb i reaches for (for a bone target, its
// position as of the last Step) and whether a bone target's character is
// gone (the point is then its last position).
func (w *World) IKTarget(e ecs.Entity, limb int) (point mgl32.Vec3, lost bool, err error) {
	if err = w.enter("IKTarget"); err != nil {
		return
	}
	defer w.leave()
	l, err := w.ikLimbOf(e, limb)
	if err != nil {
		return point, false, err
	}
	return l.Target.Point, l.Target.Lost, nil
}

// RemoveIK removes a character's IK; the next Step's pose reset (or
// animation) returns the limbs. Removing IK a character does not have is
// not an error.
func (w *World) RemoveIK(e ecs.Entity) error {
	if err := w.enter("RemoveIK"); err != nil {
		return err
	}
	defer w.leave()
	if _, err := w.pose(e); err != nil {
		return err
	}
	if m := &w.maps.ik; m.Has(e) {
		m1 := generic.NewMap1[components.IK](w.ecs)
		m1.Remove(e)
	}
	return nil
}
