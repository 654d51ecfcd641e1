package sway

import (
	"fmt"

	"github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/internal/gltfrig"
	"github.com/sway-anim/sway/internal/rig"
)

// Rig is a character read from a glTF 2.0 or VRM file: its skeleton, VRM
// spring bones, colliders and humanoid bone map, as plain data. Rig.HumanBone
// maps a VRM humanoid name ("head", "leftEye", …) to the bone's name.
type Rig = gltfrig.Rig

// RigSpring is one spring-bone chain of a Rig.
type RigSpring = gltfrig.Spring

// RigJoint is one joint of a RigSpring with its settings.
type RigJoint = gltfrig.Joint

// RigCollider is a collider of a Rig on one of its bones.
type RigCollider = gltfrig.Collider

// RigVersion says which VRM extensions a file carried.
type RigVersion = gltfrig.Version

// The versions of RigVersion.
const (
	RigGLTF = gltfrig.VersionNone // a skeleton only
	RigVRM0 = gltfrig.VersionVRM0 // VRM 0.x secondaryAnimation
	RigVRM1 = gltfrig.VersionVRM1 // VRMC_springBone
)

// RigLoadError is a file LoadRig rejected after noting warnings about it
// (an extended collider it fell back from, a version it did not know,
// …): it carries them with the rejection, a *FieldError that errors.As
// finds through it.
type RigLoadError = gltfrig.LoadError

// LoadRig reads the rig of a .glb, .vrm or .gltf file; nothing in the
// file is trusted (bounded counts and sizes, checked indices, finite
// numbers; see internal/gltfrig). A rejected file gives a *FieldError
// whose Field is the JSON path of the offending value; when the loader
// had warnings about the file before it, the error is a *RigLoadError
// carrying them. A loaded rig lists its warnings, and what AddRig will
// leave out (see there), in its Warnings.
func LoadRig(path string) (*Rig, error) {
	r, err := gltfrig.Load(path)
	if err != nil {
		return nil, err
	}
	r.Warnings = append(r.Warnings, planRig(r).warnings...)
	return r, nil
}

// AddRig adds a character with the rig's skeleton at root and gives it the
// rig's spring bones and colliders (AddVRMSprings), with each joint's
// settings from the file. Springs keep the rig's order, less those left
// out, and that is their index for the VRM spring methods.
//
//   - VRM 1.0 (RigSpring.VirtualTail = 0): the last joint is only the tail
//     of the chain; a spring of one joint has nothing to swing and is left
//     out.
//   - VRM 0.x (VirtualTail > 0): every joint swings; the last one, a leaf,
//     with a virtual tail VirtualTail long.
//   - A bone can be a joint of one spring only. When a file lists it in
//     two (a 0.x bone in two bone groups, or a group listing a bone below
//     another's), the first spring keeps it, and a later one keeps its
//     joints before it (the last of them then has that bone as its tail)
//     or, from its first joint on, is left out. LoadRig lists each case in
//     Warnings.
//   - A spring that hangs from another spring's joint (a 0.x branch) steps
//     after it, on its parent's new rotation.
//
// A spring's first joint hangs from its parent bone; a loaded rig whose
// spring starts at a scene root has Rig.SceneBone, the scene (the
// character's root), as that parent.
//
// A joint's tail is its next joint, which must be its bone's first child:
// AddRig lists those bones first among their siblings in the skeleton it
// builds (the bone order of a file whose node order disagrees with its
// children's may therefore differ from the file's).
//
// Every error is typed: a *FieldError naming the Rig field (or the
// skeleton's) and value, and nothing is added when one is returned.
//
// Characters added from the same *Rig share one skeleton, built at the
// first AddRig; edit a Rig before adding it, not after.
func (w *World) AddRig(r *Rig, root Transform) (ecs.Entity, error) {
	if err := w.enter("AddRig"); err != nil {
		return ecs.Entity{}, err
	}
	defer w.leave()
	if r == nil {
		return ecs.Entity{}, check.Errorf(rigType, "Rig", nil, "must not be nil")
	}
	p := planRig(r)
	// One skeleton per rig, shared by every character made from it.
	skel := w.rigSkeletons[r]
	if skel == nil {
		var err error
		if skel, err = rig.NewSkeleton(firstChildrenFirst(r.Skeleton, p.first)); err != nil {
			return ecs.Entity{}, err
		}
		if err := checkRig(r, skel); err != nil {
			return ecs.Entity{}, err
		}
		if w.rigSkeletons == nil {
			w.rigSkeletons = map[*Rig]*Skeleton{}
		}
		w.rigSkeletons[r] = skel
	}
	e, err := w.addCharacter(skel, root)
	if err != nil {
		return ecs.Entity{}, err
	}
	if len(p.specs) == 0 {
		return e, nil
	}
	cols := make([]ColliderSpec, len(r.Colliders))
	for i, c := range r.Colliders {
		cols[i] = ColliderSpec{Bone: c.Bone, Shape: c.Shape}
	}
	if err := w.addVRMSprings(e, cols, p.specs); err != nil {
		_ = w.removeCharacter(e)
		return ecs.Entity{}, err
	}
	return e, nil
}

const rigType = "Rig"

// rigPlan is what AddRig makes of a rig's springs.
type rigPlan struct {
	specs    []VRMSpringSpec
	first    map[string]bool // bones that must be their parent's first child
	warnings []string
}

func planRig(r *Rig) rigPlan {
	p := rigPlan{first: map[string]bool{}}
	owner := map[string]int{} // joint bone -> rig spring
	for i := range r.Springs {
		s := &r.Springs[i]
		joints, tail := s.Joints, ""
		if s.VirtualTail == 0 { // 1.0: the last joint is the tail
			if len(joints) < 2 {
				p.warnings = append(p.warnings, fmt.Sprintf("spring %d (%s) has %d joint and no tail: nothing swings; left out", i, s.Name, len(joints)))
				continue
			}
			joints, tail = joints[:len(joints)-1], joints[len(joints)-1].Bone
		}
		for j := range joints {
			k, taken := owner[joints[j].Bone]
			if !taken {
				continue
			}
			if j == 0 {
				p.warnings = append(p.warnings, fmt.Sprintf("spring %d (%s): its first joint %q is a joint of spring %d (%s), which keeps it; left out",
					i, s.Name, joints[j].Bone, k, r.Springs[k].Name))
			} else {
				p.warnings = append(p.warnings, fmt.Sprintf("spring %d (%s): joint %d %q is a joint of spring %d (%s), which keeps it; this spring keeps its %d joints before it",
					i, s.Name, j, joints[j].Bone, k, r.Springs[k].Name, j))
			}
			joints, tail = joints[:j], joints[j].Bone
			break
		}
		if len(joints) == 0 {
			continue
		}
		spec := VRMSpringSpec{Joints: make([]string, len(joints)), JointSettings: make([]VRMJointSettings, len(joints)),
			Colliders: s.Colliders, Center: s.Center, VirtualTail: s.VirtualTail}
		for j, jt := range joints {
			owner[jt.Bone] = i
			spec.Joints[j] = jt.Bone
			spec.JointSettings[j] = VRMJointSettings{Stiffness: jt.Stiffness, GravityPower: jt.GravityPower,
				GravityDir: jt.GravityDir, DragForce: jt.DragForce, HitRadius: jt.HitRadius, Limit: jt.Limit}
			if j > 0 {
				p.first[jt.Bone] = true
			}
		}
		if tail != "" {
			p.first[tail] = true
		}
		p.specs = append(p.specs, spec)
	}
	return p
}

// firstChildrenFirst returns desc with the bones of first listed before
// the others (each keeps its order within its part): children are stored
// in description order, so each becomes its parent's first child.
func firstChildrenFirst(desc rig.SkeletonDesc, first map[string]bool) rig.SkeletonDesc {
	if len(first) == 0 {
		return desc
	}
	bones := make([]rig.BoneDesc, 0, len(desc.Bones))
	for _, b := range desc.Bones {
		if first[b.Name] {
			bones = append(bones, b)
		}
	}
	for _, b := range desc.Bones {
		if !first[b.Name] {
			bones = append(bones, b)
		}
	}
	desc.Bones = bones
	return desc
}

// checkRig names, in the Rig's own fields, what AddVRMSprings would
// reject by spec index: unknown bones, broken chains, bad indices.
func checkRig(r *Rig, skel *rig.Skeleton) error {
	for i, c := range r.Colliders {
		if skel.Index(c.Bone) < 0 {
			return check.Errorf(rigType, fmt.Sprintf("Colliders[%d].Bone", i), c.Bone, "no bone has this name")
		}
		if err := c.Shape.Validate(); err != nil {
			return fmt.Errorf("Rig.Colliders[%d]: %w", i, err)
		}
	}
	for i := range r.Springs {
		s := &r.Springs[i]
		f := fmt.Sprintf("Springs[%d]", i)
		prev := -1
		for j, jt := range s.Joints {
			b := skel.Index(jt.Bone)
			jf := fmt.Sprintf("%s.Joints[%d].Bone", f, j)
			if b < 0 {
				return check.Errorf(rigType, jf, jt.Bone, "no bone has this name")
			}
			if j == 0 && skel.Parents()[b] < 0 {
				return check.Errorf(rigType, jf, jt.Bone, "the root bone cannot be a joint (it has no parent to hang from)")
			}
			if j > 0 && int(skel.Parents()[b]) != prev {
				return check.Errorf(rigType, jf, jt.Bone, "is not a child of %q", s.Joints[j-1].Bone)
			}
			prev = b
			js := VRMJointSettings{Stiffness: jt.Stiffness, GravityPower: jt.GravityPower, GravityDir: jt.GravityDir,
				DragForce: jt.DragForce, HitRadius: jt.HitRadius}
			if err := validVRMSettings(fmt.Sprintf("%s.Joints[%d]", f, j), &js); err != nil {
				return relabelFieldError(err, rigType, "")
			}
			if err := jt.Limit.Validate(); err != nil {
				return relabelFieldError(err, rigType, fmt.Sprintf("%s.Joints[%d].Limit.", f, j))
			}
		}
		for k, c := range s.Colliders {
			if c < 0 || c >= len(r.Colliders) {
				return check.Errorf(rigType, fmt.Sprintf("%s.Colliders[%d]", f, k), c, "no collider has this index (%d in the rig)", len(r.Colliders))
			}
		}
		if s.Center != "" && skel.Index(s.Center) < 0 {
			return check.Errorf(rigType, f+".Center", s.Center, "no bone has this name")
		}
		if err := check.NonNegative(rigType, f+".VirtualTail", s.VirtualTail); err != nil {
			return err
		}
	}
	return nil
}
