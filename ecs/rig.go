package sway

import (
	"errors"
	"fmt"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/internal/gltfrig"
	"github.com/sway-anim/sway/internal/rig"
)

// Rig is a character read from a glTF 2.0 or VRM file by LoadRig: its
// skeleton, VRM spring bones, colliders and humanoid bone map, as plain
// data independent of any world. Bones are named by node names (made
// unique and generated where missing). Edit it before the first AddRig,
// not after (see AddRig).
type Rig struct {
	// Skeleton is the file's node hierarchy: every node, rest transforms
	// in metres as the file has them.
	Skeleton SkeletonDesc
	// Colliders are the file's spring-bone colliders, each on a bone.
	Colliders []RigCollider
	// Springs are the file's spring-bone chains, in file order (VRM 0.x
	// bone groups expanded into one spring per chain).
	Springs []RigSpring
	// Humanoid maps VRM humanoid bone names ("hips", "head", "leftEye",
	// …, as the file's VRM version names them) to bone names; see
	// HumanBone.
	Humanoid map[string]string
	Version  RigVersion // which VRM extensions the file carried
	// SceneBone is the bone that stands for the scene when a spring's
	// first joint is a scene root (a node without a parent, as in
	// three-vrm's spring bone examples), "" when there is none. The loader
	// adds it, named "(scene)" (made unique), as the parent of every root
	// bone with the identity as its rest transform: every bone keeps its
	// model-space rest pose, and such a spring hangs from the character's
	// root as three-vrm hangs it from the scene.
	SceneBone string
	// Animations are the file's animations (glTF animations[]), in file
	// order, resampled to fixed-rate keys per bone; Clip turns one into a
	// ClipDesc for a world's skeleton of the rig.
	Animations []RigAnimation
	// NodeBones maps each of the file's nodes, by index, to its bone's
	// name ("" for a node outside the skeleton: a mesh, a camera). With
	// Skeleton.Index it takes the file's node order to sway's bone order,
	// which is depth-first and can differ (a renderer placing the file's
	// meshes by node needs it; skins and animations are mapped by name).
	NodeBones []string
	// Skins are the file's skins, in file order: NewSkin(skel, Skins[i])
	// with the rig's skeleton in a world (World.RigSkeleton) gives the
	// skinning matrices a renderer draws the file's meshes with.
	Skins []SkinDesc
	// Warnings lists what was read but left out: unknown spec versions, a
	// 0.x extension next to 1.0 ones, extended colliders that fell back,
	// limits not read or limiting nothing, animation channels sway does
	// not play (morph weights, nodes outside the skeleton), and what
	// AddRig will leave out.
	Warnings []string
}

// RigAnimation is one of a file's animations, resampled from the file's
// key times and interpolations (LINEAR, STEP, CUBICSPLINE, evaluated as
// glTF specifies) to SampleRate keys per second: between 30 and 120, the
// file's smallest key interval when it lies in that range. The
// resampling error against the exact curve is a few 1e-6 rad for LINEAR
// and steady CUBICSPLINE rotations and up to about 0.1 degree for
// strongly eased cubic ones (docs/compatibility.md).
type RigAnimation struct {
	Name       string  // the file's name, or "animation<i>"; unique within the rig
	Duration   float32 // seconds: (KeyCount-1)/SampleRate
	SampleRate float32 // keys per second, 30..120
	KeyCount   int     // keys per track, >= 1
	// Tracks are the animated bones; a bone without a track keeps its
	// rest pose.
	Tracks []RigTrack
	// Channels counts the file's channels, ignored ones included;
	// Interpolations lists those its samplers use ("LINEAR", "STEP",
	// "CUBICSPLINE").
	Channels       int
	Interpolations []string
}

// RigTrack is one bone's keys, local to its parent as the rig's rest
// pose is: translations in metres (the file's units), unit rotations,
// scales. A slice the file does not animate is nil (the rest value
// holds); the others have KeyCount keys.
type RigTrack struct {
	Bone         string
	Rotations    []mgl32.Quat
	Translations []mgl32.Vec3
	Scales       []mgl32.Vec3
}

// RigCollider is a collider of a Rig on one of its bones, in that bone's
// space (metres).
type RigCollider struct {
	Bone  string       // the bone's name
	Shape ColliderDesc // in the bone's local space; units as ColliderSpec.Shape (radii in metres at rest)
}

// RigSpring is one spring-bone chain of a Rig: joints from root to tip,
// each joint's bone the child of the previous joint's bone.
type RigSpring struct {
	Name   string     // the file's name for it (VRM 0.x: the bone group's comment); for messages
	Joints []RigJoint // root to tip
	// Colliders indexes Rig.Colliders: the spring's collider groups
	// flattened, in group order, each collider once.
	Colliders []int
	// Center is the bone whose space the inertia lives in; "" for world.
	Center string
	// VirtualTail is 0 when the last joint is only the tail of the chain
	// (VRM 1.0: its settings are unused and it does not rotate). When > 0
	// the last joint swings too, with a virtual tail this long in the
	// joint's own space, scaled with the bone as UniVRM scales it (metres
	// for a bone of world scale 1; VRM 0.x: 0.07). Finite, >= 0.
	VirtualTail float32
}

// RigJoint is one joint of a RigSpring with its settings, as the file
// gives them (see VRMJointSettings for units and ranges).
type RigJoint struct {
	Bone         string  // the joint bone's name
	Stiffness    float32 // >= 0, VRM's unit (see VRMJointSettings); omitted in the file: 1
	GravityPower float32 // >= 0, VRM's unit (see VRMJointSettings); omitted: 0
	// GravityDir is the file's gravity direction in the loaded rig's frame
	// (+Y up, +Z forward: VRM 0.x's is turned to it). AddRig passes it on
	// as VRMJointSettings.GravityDir, a world-space direction, so it is
	// not turned with the character. Omitted: (0, -1, 0).
	GravityDir mgl32.Vec3
	DragForce  float32 // [0, 1]: share of the tail's velocity lost per step; omitted: 0.5 (VRM 1.0), 0.4 (VRM 0.x)
	HitRadius  float32 // >= 0, metres at rest (see VRMJointSettings); omitted: 0 (VRM 1.0), 0.02 (VRM 0.x)
	// Limit is the joint's angle limit (VRMC_springBone_limit, angles in
	// degrees); Kind NoLimit when it has none.
	Limit VRMLimit
}

// RigVersion says which VRM extensions a file carried.
type RigVersion uint8

// The versions of RigVersion.
const (
	RigGLTF RigVersion = iota // plain glTF: a skeleton only
	RigVRM0                   // VRM 0.x: extensions.VRM, secondaryAnimation
	RigVRM1                   // VRM 1.0: VRMC_vrm, VRMC_springBone
)

func (v RigVersion) String() string { return gltfrig.Version(v).String() }

// HumanBone returns the bone of a VRM humanoid bone ("hips", "head",
// "leftEye", …, as the file's VRM version names them), or "" when the
// file maps none. Breathing and look-at settings can be filled from it
// without typing the model's own bone names.
func (r *Rig) HumanBone(name string) string {
	if r == nil {
		return ""
	}
	return r.Humanoid[name]
}

// RigLoadError is a file LoadRig rejected after noting warnings about it
// (an extended collider it fell back from, a version it did not know,
// …): it carries them with the rejection, a *FieldError that errors.As
// finds through it.
type RigLoadError struct {
	Err      error    // the rejection
	Warnings []string // noted before it, in order
}

func (e *RigLoadError) Error() string {
	return (&gltfrig.LoadError{Err: e.Err, Warnings: e.Warnings}).Error()
}

// Unwrap returns the rejection.
func (e *RigLoadError) Unwrap() error { return e.Err }

// rigOf returns the loader's rig as the facade gives it.
func rigOf(g *gltfrig.Rig) *Rig {
	r := &Rig{
		Skeleton:  skeletonDescOf(g.Skeleton),
		Colliders: make([]RigCollider, len(g.Colliders)),
		Springs:   make([]RigSpring, len(g.Springs)),
		Humanoid:  g.Humanoid,
		NodeBones: g.NodeBones,
		Version:   RigVersion(g.Version),
		SceneBone: g.SceneBone,
		Warnings:  g.Warnings,
	}
	for i, c := range g.Colliders {
		r.Colliders[i] = RigCollider(c)
	}
	for _, a := range g.Animations {
		tracks := make([]RigTrack, len(a.Tracks))
		for k, t := range a.Tracks {
			tracks[k] = RigTrack(t)
		}
		r.Animations = append(r.Animations, RigAnimation{Name: a.Name, Duration: a.Duration, SampleRate: a.SampleRate,
			KeyCount: a.KeyCount, Tracks: tracks, Channels: a.Channels, Interpolations: a.Interpolations})
	}
	for _, s := range g.Skins {
		r.Skins = append(r.Skins, SkinDesc{Name: s.Name, Joints: s.Joints, InverseBind: s.InverseBind})
	}
	for i, sp := range g.Springs {
		joints := make([]RigJoint, len(sp.Joints))
		for j, jt := range sp.Joints {
			joints[j] = RigJoint(jt)
		}
		r.Springs[i] = RigSpring{Name: sp.Name, Joints: joints, Colliders: sp.Colliders, Center: sp.Center, VirtualTail: sp.VirtualTail}
	}
	return r
}

// LoadRig reads the rig of a .glb, .vrm or .gltf file; nothing in the
// file is trusted (bounded counts and sizes, checked indices, finite
// numbers; see internal/gltfrig). A rejected file gives a *FieldError
// whose Field is the JSON path of the offending value; when the loader
// had warnings about the file before it, the error is a *RigLoadError
// carrying them. A loaded rig lists its warnings, and what AddRig will
// leave out (see there), in its Warnings.
func LoadRig(path string) (*Rig, error) {
	g, err := gltfrig.Load(path)
	if err != nil {
		var le *gltfrig.LoadError
		if errors.As(err, &le) {
			return nil, &RigLoadError{Err: le.Err, Warnings: le.Warnings}
		}
		return nil, err
	}
	r := rigOf(g)
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
	skel, err := w.rigSkeleton(r, &p)
	if err != nil {
		return ecs.Entity{}, err
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
	from     []int           // the rig spring each of specs comes from
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
		p.from = append(p.from, i)
	}
	return p
}

// AddedSpring is one VRM spring AddRig gives a character of the rig: the
// rig spring it comes from and the joints it keeps (see AddRig: a 1.0
// spring's tail is not a joint, a bone another spring already has ends
// it). Its index in AddedSprings is its index for the VRMSprings handle.
type AddedSpring struct {
	Spring int      // index into Rig.Springs
	Name   string   // the rig spring's name
	Joints []string // the joints' bones, root to tip
}

// AddedSprings returns the springs AddRig gives a character of r, in the
// order the VRMSprings handle numbers them (JointSettings(i, j),
// SetSpringSettings(i, …)): tools that name or tune a loaded avatar's
// springs read them here rather than repeat AddRig's rules.
func (r *Rig) AddedSprings() []AddedSpring {
	if r == nil {
		return nil
	}
	p := planRig(r)
	out := make([]AddedSpring, len(p.specs))
	for k, spec := range p.specs {
		out[k] = AddedSpring{Spring: p.from[k], Name: r.Springs[p.from[k]].Name, Joints: spec.Joints}
	}
	return out
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
