package sway

import (
	"fmt"
	"sort"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"

	"github.com/sway-anim/sway/components"
	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/internal/rig"
	"github.com/sway-anim/sway/internal/store"
	"github.com/sway-anim/sway/systems"
	"github.com/sway-anim/sway/systems/collide"
	"github.com/sway-anim/sway/systems/spring"
)

// VRMLimit is an optional angle limit of a VRM joint (the
// VRMC_springBone_limit draft); see spring.Limit.
type VRMLimit = spring.Limit

// The kinds of VRMLimit.
const (
	NoLimit        = spring.NoLimit
	ConeLimit      = spring.ConeLimit
	HingeLimit     = spring.HingeLimit
	SphericalLimit = spring.SphericalLimit
)

// VRMJointSettings are one VRM spring joint's settings
// (VRMC_springBone joints[*]). Forces act in world space; the character
// convention is +Y up, +Z forward, -X the character's right.
//
// The units are VRM's: per step the tail moves Stiffness·dt metres along
// its rest direction and GravityPower·dt metres along GravityDir (both
// times the joint's scale relative to its rest pose: 1 unless the root or
// an animation scales it), before it is put back at the bone's length.
// Defaults are DefaultVRMJointSettings' (VRM's), not the zero value's.
type VRMJointSettings struct {
	Stiffness    float32    // finite, >= 0, m/s (see above): pull back to the rest direction (default 1)
	GravityPower float32    // finite, >= 0, m/s (see above): gravity (default 0)
	GravityDir   mgl32.Vec3 // world space, finite, used as given: its length multiplies GravityPower (default (0,-1,0))
	DragForce    float32    // [0, 1]: share of the tail's velocity lost per step, or per 1/60 s with FixedStep (default 0.5)
	HitRadius    float32    // finite, >= 0: the tail's radius against colliders, metres at rest (default 0)
	Limit        VRMLimit   // optional angle limit, angles in degrees (default: the zero value, none)
}

// DefaultVRMJointSettings returns VRMC_springBone's defaults.
func DefaultVRMJointSettings() VRMJointSettings {
	return VRMJointSettings{Stiffness: 1, GravityDir: mgl32.Vec3{0, -1, 0}, DragForce: 0.5}
}

// VRMSpringSpec describes one VRM spring of a character by bone names.
type VRMSpringSpec struct {
	// Joints are the names of the spring's bones from root to tip, each
	// the child of the previous, the first not a root bone, none a joint
	// of another spring. The last joint's tail is its first child bone, or
	// without one a virtual tail VirtualTail long along the direction from
	// its parent to it (VRM 0.x).
	Joints        []string
	Settings      VRMJointSettings   // every joint's settings (start from DefaultVRMJointSettings)
	JointSettings []VRMJointSettings // optional: one per joint, used instead of Settings; nil: Settings for all
	Colliders     []int              // indices into the colliders given to VRMSpringFeature.Add (VRM collider groups flattened); nil: none
	Center        string             // optional: the name of the bone whose space keeps the inertia ("": world space)
	// VirtualTail is the length of the last joint's virtual tail when it
	// has no child bone: >= 0, in the joint's own space, so it scales with
	// the bone's world scale (metres for a bone of world scale 1); 0, the
	// default, means 0.07 (spring.DefaultVirtualTail).
	VirtualTail float32
	// FixedStep, when > 0, steps the spring in steps of exactly this many
	// seconds (at most systems.MaxFixedSteps a frame), DragForce counted
	// per 1/60 s; see spring.VRMChainDesc. Finite, >= 0; 0 (the default)
	// steps once per frame with the frame's dt.
	FixedStep float32
	// StrictCollision turns tails the reference push leaves inside a
	// collider out of it; off (the default) matches the reference.
	StrictCollision bool
}

const vrmSpecType = "VRMSpringSpec"

// VRMSpringFeature adds VRM spring bones to characters and finds them
// again (World.VRMSprings).
type VRMSpringFeature struct{ w *World }

// VRMSprings returns the world's VRM spring feature.
func (w *World) VRMSprings() VRMSpringFeature { return VRMSpringFeature{w} }

// VRMSprings is a handle on a character's VRM spring bones: the verbs
// every feature has (Pause, Resume, Reset, SetWeight, Remove; see
// "Features as handles") and the springs' own settings, teleport test and
// fault count.
type VRMSprings struct{ feature }

var vrmKind = featureKind{
	name: "VRMSprings",
	control: func(w *World, e ecs.Entity) *components.Control {
		if m := &w.maps.vrm; m.Has(e) {
			return &m.Get(e).Control
		}
		return nil
	},
	reset: func(w *World, e ecs.Entity) {
		h, st := w.maps.vrm.Get(e), &w.springStore().VRM
		for k := h.First; k < h.First+h.Count; k++ {
			st.Info[k].Reset = true
		}
	},
	remove: func(w *World, e ecs.Entity) {
		m := generic.NewMap1[components.VRMSprings](w.ecs)
		m.Remove(e) // the store notices at the next frame
	},
	teleport: func(w *World, e ecs.Entity) *components.Teleport {
		if m := &w.maps.vrm; m.Has(e) {
			return &m.Get(e).Teleport
		}
		return nil
	},
}

// Of returns the handle on character e's VRM springs. It does not check
// that e has them: its methods do.
func (f VRMSpringFeature) Of(e ecs.Entity) VRMSprings {
	return VRMSprings{feature{f.w, e, &vrmKind}}
}

// Add gives a character VRM spring bones and the colliders they
// may collide with (on the character's bones, placed on the animated pose
// every frame). Everything is validated (a *FieldError naming the spec and
// field); a character has one set of VRM springs (Remove them first to
// replace them), and no bone may be a joint of two springs or driven by
// the character's chains or simple springs (*OverlapError).
//
// The springs start here, as VRMC_springBone and three-vrm start them:
// every tail at rest under the character's current pose (its root as last
// set, its bones as of the last Step or AddCharacter), at rest. The next
// Step carries whatever moved since, so a character added at t = 0 and
// then moved with SetRoot before each Step swings from the first frame.
// Springs step with the world's dt; a character that moves more than 1 m
// or turns more than 45° in one frame has its springs restarted from the
// animated pose (SetTeleport changes the limits).
func (f VRMSpringFeature) Add(e ecs.Entity, colliders []ColliderSpec, springs []VRMSpringSpec) (VRMSprings, error) {
	w := f.w
	if err := w.enter("VRMSprings.Add"); err != nil {
		return VRMSprings{}, err
	}
	defer w.leave()
	if err := w.addVRMSprings(e, colliders, springs); err != nil {
		return VRMSprings{}, err
	}
	return f.Of(e), nil
}

func (w *World) addVRMSprings(e ecs.Entity, colliders []ColliderSpec, springs []VRMSpringSpec) error {
	pose, err := w.pose(e)
	if err != nil {
		return err
	}
	if m := &w.maps.vrm; m.Has(e) {
		return check.Errorf("VRMSprings.Add", "Entity", e, "already has VRM springs (Remove them first)")
	}
	if len(springs) == 0 {
		return check.Errorf("VRMSprings.Add", "Springs", 0, "must not be empty")
	}
	skel := w.reg.Skeletons[pose.Skeleton]
	descs, colBones, err := colliderDescs(skel, colliders)
	if err != nil {
		return err
	}
	lastBone := int32(0)
	for _, b := range colBones {
		lastBone = max(lastBone, b)
	}
	owner := map[int32]int{} // joint bone -> spring
	type built struct {
		chain *spring.VRMChain
		info  store.VRMSpringInfo
		bones []int32
		descs []spring.VRMJointDesc
		spec  int
	}
	out := make([]built, len(springs))
	var setIndex []int32
	sets := map[string]int32{}
	for i := range springs {
		sp := &springs[i]
		field := fmt.Sprintf("[%d]", i)
		bones, err := jointBones(skel, vrmSpecType, field, sp.Joints, owner, i)
		if err != nil {
			return err
		}
		if sp.JointSettings != nil && len(sp.JointSettings) != len(sp.Joints) {
			return check.Errorf(vrmSpecType, field+".JointSettings", len(sp.JointSettings), "must have one element per joint (%d)", len(sp.Joints))
		}
		if err := check.NonNegative(vrmSpecType, field+".VirtualTail", sp.VirtualTail); err != nil {
			return err
		}
		if err := check.NonNegative(vrmSpecType, field+".FixedStep", sp.FixedStep); err != nil {
			return err
		}
		info := store.VRMSpringInfo{N: int32(len(bones)), Parent: skel.Parents()[bones[0]], Center: -1,
			VirtualTail: sp.VirtualTail, FixedStep: sp.FixedStep, Strict: sp.StrictCollision}
		if info.Parent < 0 {
			return check.Errorf(vrmSpecType, field+".Joints", sp.Joints[0], "the root bone cannot be a joint (it has no parent to hang from)")
		}
		if sp.Center != "" {
			if info.Center = int32(skel.Index(sp.Center)); info.Center < 0 {
				return check.Errorf(vrmSpecType, field+".Center", sp.Center, "no bone has this name")
			}
		}
		last := bones[len(bones)-1]
		if c := firstChild(skel, last); c >= 0 {
			info.HasTail, info.Tail = true, skel.RestPos()[c]
		}
		jd := make([]spring.VRMJointDesc, len(bones))
		for j, b := range bones {
			s := sp.Settings
			sf := field + ".Settings"
			if sp.JointSettings != nil {
				s, sf = sp.JointSettings[j], fmt.Sprintf("%s.JointSettings[%d]", field, j)
			}
			if err := validVRMSettings(sf, &s); err != nil {
				return err
			}
			jd[j] = vrmJointDesc(skel, b, &s)
		}
		chain, err := w.springStore().VRM.Geometry.NewVRMChain(vrmChainDesc(jd, &info))
		if err != nil {
			return fmt.Errorf("%s%s: %w", vrmSpecType, field, err)
		}
		// Colliders: all of the character's in order share its placed
		// shapes; any other list shares a subset with the springs that
		// name the same list.
		info.ColCount = int32(len(sp.Colliders))
		if !identityList(sp.Colliders, len(colliders)) {
			key := ""
			for _, k := range sp.Colliders {
				if k < 0 || k >= len(colliders) {
					return check.Errorf(vrmSpecType, field+".Colliders", k, "no collider has this index (%d given)", len(colliders))
				}
				key += fmt.Sprint(k, ",")
			}
			first, ok := sets[key]
			if !ok {
				first = int32(len(setIndex))
				sets[key] = first
				for _, k := range sp.Colliders {
					setIndex = append(setIndex, int32(k))
				}
			}
			info.ColFirst, info.InSet = first, len(sp.Colliders) > 0
		}
		lastBone = max(lastBone, info.Parent, info.Center)
		out[i] = built{chain, info, bones, jd, i}
	}
	// Depth: a spring whose parent bone is another spring's joint steps
	// after it (a few passes: chains of springs are short).
	for changed := true; changed; {
		changed = false
		for i := range out {
			if k, ok := owner[out[i].info.Parent]; ok && out[i].info.Depth <= out[k].info.Depth {
				if out[k].info.Depth >= 200 {
					return check.Errorf(vrmSpecType, fmt.Sprintf("[%d].Joints", i), springs[i].Joints[0], "springs hang from each other in a cycle")
				}
				out[i].info.Depth, changed = out[k].info.Depth+1, true
			}
		}
	}
	claims := w.claimsOf(e, skel)
	for i := range out {
		if err := claims.claim(fmt.Sprintf("VRMSprings[%d]", i), out[i].bones); err != nil {
			return err
		}
	}
	sort.SliceStable(out, func(a, b int) bool {
		if out[a].info.Depth != out[b].info.Depth {
			return out[a].info.Depth < out[b].info.Depth
		}
		return out[a].info.FixedStep == 0 && out[b].info.FixedStep > 0
	})
	chains := make([]*spring.VRMChain, len(out))
	infos := make([]store.VRMSpringInfo, len(out))
	var bones []int32
	var jds []spring.VRMJointDesc
	for k := range out {
		chains[k], infos[k] = out[k].chain, out[k].info
		infos[k].Joint0, infos[k].Spec = int32(len(bones)), int32(out[k].spec)
		bones = append(bones, out[k].bones...)
		jds = append(jds, out[k].descs...)
	}
	st := &w.springStore().VRM
	h := st.AddVRM(chains, infos, bones, jds, descs, colBones, setIndex)
	h.LastBone = lastBone
	_, root := w.chars.Get(e)
	systems.StartVRM(st, w.pool, skel, pose, root, &h)
	m := generic.NewMap1[components.VRMSprings](w.ecs)
	m.Assign(e, &h)
	return nil
}

// colliderDescs validates collider specs and returns their descriptions
// and bones.
func colliderDescs(skel *rig.Skeleton, colliders []ColliderSpec) ([]collide.Desc, []int32, error) {
	descs := make([]collide.Desc, len(colliders))
	bones := make([]int32, len(colliders))
	for i, c := range colliders {
		b := skel.Index(c.Bone)
		if b < 0 {
			return nil, nil, check.Errorf("ColliderSpec", fmt.Sprintf("[%d].Bone", i), c.Bone, "no bone has this name")
		}
		if err := c.Shape.Validate(); err != nil {
			return nil, nil, fmt.Errorf("ColliderSpec[%d]: %w", i, err)
		}
		descs[i], bones[i] = c.Shape, int32(b)
		// Radii are metres at rest; ToWorld scales them by the bone's
		// world scale, so the rest scale is taken out here.
		if k := restScale(skel, int32(b)); k > 0 && k != 1 { // > 0: skeletons bound it to [1e-4, 1e4]
			descs[i].Radius /= k
			descs[i].TailRadius /= k
		}
	}
	return descs, bones, nil
}

// jointBones resolves a spring's joint names: each must exist, be the
// child of the previous and not be a joint of another spring (owner).
func jointBones(skel *rig.Skeleton, typ, field string, names []string, owner map[int32]int, spec int) ([]int32, error) {
	if len(names) == 0 {
		return nil, check.Errorf(typ, field+".Joints", 0, "must not be empty")
	}
	bones := make([]int32, len(names))
	for j, name := range names {
		b := int32(skel.Index(name))
		f := fmt.Sprintf("%s.Joints[%d]", field, j)
		if b < 0 {
			return nil, check.Errorf(typ, f, name, "no bone has this name")
		}
		if j > 0 && skel.Parents()[b] != bones[j-1] {
			return nil, check.Errorf(typ, f, name, "is not a child of %q", names[j-1])
		}
		if k, ok := owner[b]; ok {
			return nil, check.Errorf(typ, f, name, "is already a joint of spring %d", k)
		}
		owner[b] = spec
		bones[j] = b
	}
	return bones, nil
}

// firstChild returns a bone's first child, or -1: in depth-first order it
// is the next bone when that one's parent is this bone.
func firstChild(skel *rig.Skeleton, b int32) int32 {
	if c := b + 1; int(c) < skel.NumBones() && skel.Parents()[c] == b {
		return c
	}
	return -1
}

func identityList(list []int, n int) bool {
	if len(list) != n {
		return false
	}
	for i, k := range list {
		if k != i {
			return false
		}
	}
	return true
}

func validVRMSettings(field string, s *VRMJointSettings) error {
	if err := check.NonNegative(vrmSpecType, field+".Stiffness", s.Stiffness); err != nil {
		return err
	}
	if err := check.NonNegative(vrmSpecType, field+".GravityPower", s.GravityPower); err != nil {
		return err
	}
	if err := check.FiniteVec3(vrmSpecType, field+".GravityDir", s.GravityDir); err != nil {
		return err
	}
	if err := check.Range(vrmSpecType, field+".DragForce", s.DragForce, 0, 1); err != nil {
		return err
	}
	return check.NonNegative(vrmSpecType, field+".HitRadius", s.HitRadius)
}

// vrmJointDesc is a joint at its bone's rest transform with settings s;
// its rest scale is the bone's in the rest pose, the authoring frame.
func vrmJointDesc(skel *rig.Skeleton, b int32, s *VRMJointSettings) spring.VRMJointDesc {
	return spring.VRMJointDesc{
		LocalPos: skel.RestPos()[b], LocalRot: skel.RestRot()[b], LocalScale: skel.RestScale()[b],
		Stiffness: s.Stiffness, GravityPower: s.GravityPower, GravityDir: s.GravityDir,
		DragForce: s.DragForce, HitRadius: s.HitRadius, Limit: s.Limit,
		RestScale: restScale(skel, b),
	}
}

// restScale is bone b's uniform scale in the rest pose relative to the
// character root (the largest absolute component): the authoring frame,
// which radii and forces given in metres are divided by so that it
// changes nothing.
func restScale(skel *rig.Skeleton, b int32) float32 {
	return check.MaxAbs(skel.ModelScale()[b])
}

func vrmChainDesc(joints []spring.VRMJointDesc, info *store.VRMSpringInfo) *spring.VRMChainDesc {
	return &spring.VRMChainDesc{
		Joints: joints, HasTail: info.HasTail, Tail: info.Tail, VirtualTail: info.VirtualTail,
		FixedStep: info.FixedStep, StrictCollision: info.Strict,
	}
}

func (w *World) springStore() *store.SpringStore {
	return ecs.GetResource[store.SpringStore](w.ecs)
}

func (w *World) vrmOf(e ecs.Entity) (*components.VRMSprings, error) {
	if _, err := w.pose(e); err != nil {
		return nil, err
	}
	m := &w.maps.vrm
	if !m.Has(e) {
		return nil, &FeatureError{Feature: vrmKind.name, Entity: e}
	}
	return m.Get(e), nil
}

// vrmAt returns the store index of spring i (in the order given to Add).
func (w *World) vrmAt(e ecs.Entity, i int) (int, error) {
	h, err := w.vrmOf(e)
	if err != nil {
		return 0, err
	}
	st := &w.springStore().VRM
	for k := h.First; k < h.First+h.Count; k++ {
		if int(st.Info[k].Spec) == i {
			return int(k), nil
		}
	}
	return 0, check.Errorf("VRMSprings", "Index", i, "the character has %d VRM springs", h.Count)
}

// Len returns how many VRM springs the character has (0 without).
func (v VRMSprings) Len() int {
	if v.enter("Len") != nil {
		return 0
	}
	defer v.w.leave()
	h, err := v.w.vrmOf(v.e)
	if err != nil {
		return 0
	}
	return int(h.Count)
}

// JointSettings returns the settings of joint j of spring i (in the order
// given to Add).
func (v VRMSprings) JointSettings(i, j int) (VRMJointSettings, error) {
	if err := v.enter("JointSettings"); err != nil {
		return VRMJointSettings{}, err
	}
	defer v.w.leave()
	w := v.w
	k, err := w.vrmAt(v.e, i)
	if err != nil {
		return VRMJointSettings{}, err
	}
	st := &w.springStore().VRM
	info := &st.Info[k]
	if j < 0 || j >= int(info.N) {
		return VRMJointSettings{}, check.Errorf("VRMSprings", "Joint", j, "spring %d has %d joints", i, info.N)
	}
	d := &st.JointDesc[int(info.Joint0)+j]
	return VRMJointSettings{Stiffness: d.Stiffness, GravityPower: d.GravityPower, GravityDir: d.GravityDir,
		DragForce: d.DragForce, HitRadius: d.HitRadius, Limit: d.Limit}, nil
}

// SetSpringSettings gives every joint of spring i the settings s;
// SetJointSettings edits one joint. The spring keeps its motion and the
// new values take effect at the next frame. Invalid settings are rejected
// with a *FieldError and the old ones kept.
func (v VRMSprings) SetSpringSettings(i int, s VRMJointSettings) error {
	if err := v.enter("SetSpringSettings"); err != nil {
		return err
	}
	defer v.w.leave()
	return v.w.setVRMSettings(v.e, i, -1, s)
}

// SetJointSettings edits joint j of spring i; see SetSpringSettings.
func (v VRMSprings) SetJointSettings(i, j int, s VRMJointSettings) error {
	if err := v.enter("SetJointSettings"); err != nil {
		return err
	}
	defer v.w.leave()
	if j < 0 {
		return check.Errorf("VRMSprings", "Joint", j, "must be >= 0")
	}
	return v.w.setVRMSettings(v.e, i, j, s)
}

func (w *World) setVRMSettings(e ecs.Entity, i, j int, s VRMJointSettings) error {
	k, err := w.vrmAt(e, i)
	if err != nil {
		return err
	}
	if err := validVRMSettings("Settings", &s); err != nil {
		return err
	}
	st := &w.springStore().VRM
	info := &st.Info[k]
	if j >= int(info.N) {
		return check.Errorf("VRMSprings", "Joint", j, "spring %d has %d joints", i, info.N)
	}
	jd := append([]spring.VRMJointDesc(nil), st.JointDesc[info.Joint0:info.Joint0+info.N]...)
	for n := range jd {
		if j < 0 || n == j {
			d := &jd[n]
			d.Stiffness, d.GravityPower, d.GravityDir = s.Stiffness, s.GravityPower, s.GravityDir
			d.DragForce, d.HitRadius, d.Limit = s.DragForce, s.HitRadius, s.Limit
		}
	}
	chain, err := st.Geometry.NewVRMChain(vrmChainDesc(jd, info))
	if err != nil {
		return err
	}
	copy(st.JointDesc[info.Joint0:], jd)
	st.Springs[k].Chain = chain
	return nil
}

// Faults returns how many times the character's VRM springs were found
// with non-finite state and reset: such a spring shows its rest pose that
// frame and restarts from it under the animated parent.
func (v VRMSprings) Faults() (uint32, error) {
	if err := v.enter("Faults"); err != nil {
		return 0, err
	}
	defer v.w.leave()
	h, err := v.w.vrmOf(v.e)
	if err != nil {
		return 0, err
	}
	return h.Faults, nil
}

// SimpleSpringSettings are a simple tip spring's settings (see
// spring.SimpleJointDesc and the spring package's "The simple spring").
// Each tip hangs on its anchor, the tip where the animation puts it, and
// the damping acts on its velocity relative to the anchor, so a character
// moving at a steady speed carries its springs along undisturbed and its
// accelerations (starting, stopping, turning) swing them. All three must
// be finite and >= 0.
type SimpleSpringSettings struct {
	// Bounciness, in 1/s² (per second squared), finite and >= 0: the
	// acceleration towards the anchor per metre of the tip's distance
	// from it; alone, small swings oscillate at sqrt(Bounciness) rad/s
	// whatever the spring's length. Default 40.
	Bounciness float32
	// Stiffness, in m/s², finite and >= 0: a constant acceleration of the
	// tip across the bone towards the animated direction, as gravity pulls
	// a pendulum hanging along it: a tip L metres long swings at
	// sqrt(Bounciness + Stiffness/L) rad/s and leans by
	// atan(a/(Stiffness + Bounciness*L)) under a steady acceleration a.
	// Default 9.8, so that an earring hanging along its animated
	// direction swings like one hanging under gravity.
	Stiffness float32
	// Damping, in 1/s, finite and >= 0: how fast the tip's velocity
	// relative to the anchor decays; a swing's amplitude decays as
	// exp(-Damping*t/2). Keep Damping*dt below 1 (below 60 at 60 Hz).
	// Default 6.
	Damping float32
}

// DefaultSimpleSpringSettings returns springs that look right on a
// walking character: bounciness 40 /s², stiffness 9.8 m/s², damping 6 /s.
// A 3 cm earring then hangs at rest at any steady walking speed, swings
// about 28° when the character starts or stops over 0.3 s and leans 4°
// while it turns in place at 180°/s.
func DefaultSimpleSpringSettings() SimpleSpringSettings {
	return SimpleSpringSettings{Bounciness: 40, Stiffness: 9.8, Damping: 6}
}

// SimpleSpringSpec describes a chain of simple tip springs by bone names,
// from root to tip, each bone the child of the previous. Each bone's tip
// is the next bone's rest position; the last bone's is SpringEnd.
type SimpleSpringSpec struct {
	// Bones are the names of the spring's bones, root to tip, each the
	// child of the previous; the first must not be a root bone.
	Bones []string
	// SpringEnd is the last bone's tip in its local space, in the
	// skeleton's units (metres for a skeleton authored in metres);
	// finite, and it must not be zero. Its length is the spring's.
	SpringEnd mgl32.Vec3
	Settings  SimpleSpringSettings // every bone's settings (start from DefaultSimpleSpringSettings)
	// Center, optional, names the bone whose space the springs live in:
	// its motion, accelerations and turns included, is not felt, only the
	// bones' motion relative to it. Leave it empty for a character's
	// earrings, which should swing when it starts, stops and turns; set it
	// to a bone whose motion they should ignore (a vehicle's seat, a
	// platform, a root the game moves by jumps). Default "".
	Center string
}

const simpleSpecType = "SimpleSpringSpec"

// SimpleSpringFeature adds simple tip springs to characters and finds
// them again (World.SimpleSprings).
type SimpleSpringFeature struct{ w *World }

// SimpleSprings returns the world's simple spring feature.
func (w *World) SimpleSprings() SimpleSpringFeature { return SimpleSpringFeature{w} }

// SimpleSprings is a handle on a character's simple tip springs: the
// verbs every feature has (Pause, Resume, Reset, SetWeight, Remove; see
// "Features as handles"), their settings, teleport test and fault count.
type SimpleSprings struct{ feature }

var simpleKind = featureKind{
	name: "SimpleSprings",
	control: func(w *World, e ecs.Entity) *components.Control {
		if m := &w.maps.simple; m.Has(e) {
			return &m.Get(e).Control
		}
		return nil
	},
	reset: func(w *World, e ecs.Entity) {
		h, st := w.maps.simple.Get(e), &w.springStore().Simple
		for k := h.First; k < h.First+h.Count; k++ {
			st.Info[k].Reset = true
		}
	},
	remove: func(w *World, e ecs.Entity) {
		m := generic.NewMap1[components.SimpleSprings](w.ecs)
		m.Remove(e)
	},
	teleport: func(w *World, e ecs.Entity) *components.Teleport {
		if m := &w.maps.simple; m.Has(e) {
			return &m.Get(e).Teleport
		}
		return nil
	},
}

// Of returns the handle on character e's simple springs. It does not
// check that e has them: its methods do.
func (f SimpleSpringFeature) Of(e ecs.Entity) SimpleSprings {
	return SimpleSprings{feature{f.w, e, &simpleKind}}
}

// Add gives a character simple tip springs (earrings, antennae), driven
// by the animated pose: each tip is pulled towards where the animation
// puts it, and returns their handle. Validation, teleports, overlaps and
// the one-set rule are as for VRM springs (VRMSpringFeature.Add).
//
// The springs start at rest on the character's pose as it is when Add is
// called (its root, scale included, and its bones' local rotations): in
// the usual order, add at t = 0, then SetRoot and Step every frame, the
// first frame's motion swings them as any later frame's does, a change of
// root scale included (add the character at its starting root). A first
// frame that moves or turns the root beyond the teleport test (1 m, 45
// degrees unless SetTeleport changed it) is a teleport: the springs then
// start on that frame's pose, as they do after Reset (call it after
// adding to start them on the first frame's animated pose whatever it
// is).
//
// The skeleton's rest pose is the springs' frame: a skeleton authored in
// centimetres under a hips bone scaled by 0.01 moves exactly as the same
// skeleton authored in metres. A scale applied since, to the root or by an
// animation to a bone, scales the motion: a character scaled by s moves
// as the s-times copy of the unscaled one.
func (f SimpleSpringFeature) Add(e ecs.Entity, specs []SimpleSpringSpec) (SimpleSprings, error) {
	w := f.w
	if err := w.enter("SimpleSprings.Add"); err != nil {
		return SimpleSprings{}, err
	}
	defer w.leave()
	if err := w.addSimpleSprings(e, specs); err != nil {
		return SimpleSprings{}, err
	}
	return f.Of(e), nil
}

func (w *World) addSimpleSprings(e ecs.Entity, specs []SimpleSpringSpec) error {
	pose, err := w.pose(e)
	if err != nil {
		return err
	}
	if m := &w.maps.simple; m.Has(e) {
		return check.Errorf("SimpleSprings.Add", "Entity", e, "already has simple springs (Remove them first)")
	}
	if len(specs) == 0 {
		return check.Errorf("SimpleSprings.Add", "Specs", 0, "must not be empty")
	}
	skel := w.reg.Skeletons[pose.Skeleton]
	owner := map[int32]int{}
	chains := make([]*spring.SimpleChain, len(specs))
	infos := make([]store.SimpleSpringInfo, len(specs))
	var bones []int32
	var jds []spring.SimpleJointDesc
	lastBone := int32(0)
	for i := range specs {
		sp := &specs[i]
		field := fmt.Sprintf("[%d]", i)
		b, err := jointBones(skel, simpleSpecType, field, sp.Bones, owner, i)
		if err != nil {
			return err
		}
		if err := validSimpleSettings(field+".Settings", &sp.Settings); err != nil {
			return err
		}
		if err := check.FiniteVec3(simpleSpecType, field+".SpringEnd", sp.SpringEnd); err != nil {
			return err
		}
		if sp.SpringEnd == (mgl32.Vec3{}) {
			return check.Errorf(simpleSpecType, field+".SpringEnd", sp.SpringEnd, "must not be zero (the spring's length)")
		}
		info := store.SimpleSpringInfo{Joint0: int32(len(bones)), N: int32(len(b)), Parent: skel.Parents()[b[0]], Center: -1}
		if info.Parent < 0 {
			return check.Errorf(simpleSpecType, field+".Bones", sp.Bones[0], "the root bone cannot be a spring (it has no parent to hang from)")
		}
		if sp.Center != "" {
			if info.Center = int32(skel.Index(sp.Center)); info.Center < 0 {
				return check.Errorf(simpleSpecType, field+".Center", sp.Center, "no bone has this name")
			}
		}
		jd := make([]spring.SimpleJointDesc, len(b))
		for j, bone := range b {
			end := sp.SpringEnd
			if j+1 < len(b) {
				end = skel.RestPos()[b[j+1]]
			}
			jd[j] = simpleJointDesc(spring.SimpleJointDesc{LocalPos: skel.RestPos()[bone], LocalScale: skel.RestScale()[bone],
				SpringEnd: end, RestScale: skel.ModelScale()[bone]}, &sp.Settings)
		}
		if chains[i], err = spring.NewSimpleChain(&spring.SimpleChainDesc{Joints: jd}); err != nil {
			return fmt.Errorf("%s%s: %w", simpleSpecType, field, err)
		}
		infos[i] = info
		bones = append(bones, b...)
		jds = append(jds, jd...)
		lastBone = max(lastBone, info.Parent, info.Center)
	}
	claims := w.claimsOf(e, skel)
	for i := range infos {
		if err := claims.claim(fmt.Sprintf("SimpleSprings[%d]", i), bones[infos[i].Joint0:infos[i].Joint0+infos[i].N]); err != nil {
			return err
		}
	}
	st := &w.springStore().Simple
	h := st.AddSimple(chains, infos, bones, jds)
	h.LastBone = lastBone
	_, root := w.chars.Get(e)
	systems.StartSimple(st, w.pool, skel, pose, root, &h)
	m := generic.NewMap1[components.SimpleSprings](w.ecs)
	m.Assign(e, &h)
	return nil
}

func validSimpleSettings(field string, s *SimpleSpringSettings) error {
	if err := check.NonNegative(simpleSpecType, field+".Bounciness", s.Bounciness); err != nil {
		return err
	}
	if err := check.NonNegative(simpleSpecType, field+".Stiffness", s.Stiffness); err != nil {
		return err
	}
	return check.NonNegative(simpleSpecType, field+".Damping", s.Damping)
}

// simpleJointDesc returns the joint j with the settings s.
func simpleJointDesc(j spring.SimpleJointDesc, s *SimpleSpringSettings) spring.SimpleJointDesc {
	j.Bounciness, j.Stiffness, j.Damping = s.Bounciness, s.Stiffness, s.Damping
	return j
}

func (w *World) simpleOf(e ecs.Entity) (*components.SimpleSprings, error) {
	if _, err := w.pose(e); err != nil {
		return nil, err
	}
	m := &w.maps.simple
	if !m.Has(e) {
		return nil, &FeatureError{Feature: simpleKind.name, Entity: e}
	}
	return m.Get(e), nil
}

// Len returns how many simple spring chains the character has (0
// without).
func (p SimpleSprings) Len() int {
	if p.enter("Len") != nil {
		return 0
	}
	defer p.w.leave()
	h, err := p.w.simpleOf(p.e)
	if err != nil {
		return 0
	}
	return int(h.Count)
}

// Settings returns the settings of simple spring chain i (in the order
// given to Add).
func (p SimpleSprings) Settings(i int) (SimpleSpringSettings, error) {
	if err := p.enter("Settings"); err != nil {
		return SimpleSpringSettings{}, err
	}
	defer p.w.leave()
	k, err := p.w.simpleAt(p.e, i)
	if err != nil {
		return SimpleSpringSettings{}, err
	}
	st := &p.w.springStore().Simple
	d := &st.JointDesc[st.Info[k].Joint0]
	return SimpleSpringSettings{Bounciness: d.Bounciness, Stiffness: d.Stiffness, Damping: d.Damping}, nil
}

func (w *World) simpleAt(e ecs.Entity, i int) (int, error) {
	h, err := w.simpleOf(e)
	if err != nil {
		return 0, err
	}
	if i < 0 || i >= int(h.Count) {
		return 0, check.Errorf("SimpleSprings", "Index", i, "the character has %d simple springs", h.Count)
	}
	return int(h.First) + i, nil
}

// SetSettings edits the settings of every bone of simple spring chain i;
// they take effect at the next frame. Invalid settings are rejected with
// a *FieldError and the old ones kept.
func (p SimpleSprings) SetSettings(i int, s SimpleSpringSettings) error {
	if err := p.enter("SetSettings"); err != nil {
		return err
	}
	defer p.w.leave()
	k, err := p.w.simpleAt(p.e, i)
	if err != nil {
		return err
	}
	if err := validSimpleSettings("Settings", &s); err != nil {
		return err
	}
	st := &p.w.springStore().Simple
	info := &st.Info[k]
	jd := append([]spring.SimpleJointDesc(nil), st.JointDesc[info.Joint0:info.Joint0+info.N]...)
	for n := range jd {
		jd[n] = simpleJointDesc(jd[n], &s)
	}
	c, err := spring.NewSimpleChain(&spring.SimpleChainDesc{Joints: jd})
	if err != nil {
		return err
	}
	copy(st.JointDesc[info.Joint0:], jd)
	st.Chains[k] = c
	return nil
}

// Faults returns how many times the character's simple springs were found
// with non-finite state and reset to the animated pose.
func (p SimpleSprings) Faults() (uint32, error) {
	if err := p.enter("Faults"); err != nil {
		return 0, err
	}
	defer p.w.leave()
	h, err := p.w.simpleOf(p.e)
	if err != nil {
		return 0, err
	}
	return h.Faults, nil
}

// Teleport returns the springs' teleport test (see SetTeleport).
func (v VRMSprings) Teleport() (Teleport, error) { return v.teleport() }

// SetTeleport sets the test for a jump of the character that restarts
// its springs from the animated pose (default DefaultTeleport: 1 m, 45
// degrees). A *FieldError for values outside the ranges Teleport
// documents.
func (v VRMSprings) SetTeleport(t Teleport) error { return v.setTeleport(t) }

// Teleport returns the springs' teleport test (see SetTeleport).
func (p SimpleSprings) Teleport() (Teleport, error) { return p.teleport() }

// SetTeleport sets the test for a jump of the character that restarts
// its springs from the animated pose (default DefaultTeleport: 1 m, 45
// degrees). A *FieldError for values outside the ranges Teleport
// documents.
func (p SimpleSprings) SetTeleport(t Teleport) error { return p.setTeleport(t) }

// teleport is what both spring handles' Teleport do.
func (f feature) teleport() (Teleport, error) {
	if err := f.enter("Teleport"); err != nil {
		return Teleport{}, err
	}
	defer f.w.leave()
	if _, err := f.control(); err != nil {
		return Teleport{}, err
	}
	return teleportOf(*f.kind.teleport(f.w, f.e)), nil
}

// setTeleport is what both spring handles' SetTeleport do.
func (f feature) setTeleport(t Teleport) error {
	if err := f.enter("SetTeleport"); err != nil {
		return err
	}
	defer f.w.leave()
	if err := t.validate(f.kind.name); err != nil {
		return err
	}
	if _, err := f.control(); err != nil {
		return err
	}
	*f.kind.teleport(f.w, f.e) = t.component()
	return nil
}
