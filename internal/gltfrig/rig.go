package gltfrig

import (
	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/rig"
	"github.com/sway-anim/sway/systems/collide"
	"github.com/sway-anim/sway/systems/spring"
)

// Version says which VRM extensions a file carried.
type Version uint8

const (
	VersionNone Version = iota // plain glTF: a skeleton only
	VersionVRM0                // VRM 0.x: extensions.VRM
	VersionVRM1                // VRM 1.0: extensions.VRMC_vrm / VRMC_springBone
)

func (v Version) String() string {
	switch v {
	case VersionVRM0:
		return "VRM 0.x"
	case VersionVRM1:
		return "VRM 1.0"
	default:
		return "glTF"
	}
}

// VirtualTail0x is the length of the tail VRM 0.x gives the last joint of
// a chain, which has no child node: 7 cm along the direction from its
// parent to it (spring.DefaultVirtualTail).
const VirtualTail0x = 0.07

// SceneBoneName is the name of Rig.SceneBone, unless a node has it.
const SceneBoneName = "(scene)"

// Rig is a character read from a file, as plain data independent of any
// world. Bones are named by node names (generated when missing or
// repeated, see the package doc).
type Rig struct {
	Skeleton  rig.SkeletonDesc
	Colliders []Collider
	Springs   []Spring
	// Humanoid maps VRM humanoid bone names ("hips", "head", "leftEye", …)
	// to bone names.
	Humanoid map[string]string
	Version  Version
	// SceneBone is the bone that stands for the scene when a spring's
	// first joint is a scene root (a node without a parent, as in
	// three-vrm's spring bone examples), "" when there is none. Such a
	// joint hangs from the scene, which for a character is its root
	// transform: three-vrm steps it with the scene as its parent. The
	// loader then adds this bone, named SceneBoneName (made unique), as
	// the parent of every root bone, with the identity as its rest
	// transform, so that every bone keeps its model-space rest pose and a
	// spring's first joint always has a parent bone.
	SceneBone string
	// Animations are the file's animations, in file order, resampled to
	// fixed-rate keys per bone (see Animation).
	Animations []Animation
	// NodeBones maps each of the file's nodes (by index) to its bone's
	// name, "" for a node that is not in the skeleton (a mesh, a camera):
	// with a skeleton's Index it takes a node index of the file to sway's
	// bone index, whose order is depth-first and can differ.
	NodeBones []string
	// Skins are the file's skins, in file order (see Skin).
	Skins []Skin
	// Warnings lists what was read but ignored: unknown spec versions,
	// a 0.x extension next to 1.0 ones, extended colliders that fell back,
	// limits not read or limiting nothing, animation channels on morph
	// weights or on nodes outside the skeleton. A file rejected after
	// warnings gives a *LoadError that carries them.
	Warnings []string
}

// Collider is a collider attached to a bone, in that bone's space.
type Collider struct {
	Bone  string
	Shape collide.Desc
}

// Spring is one spring-bone chain: joints from root to tip, each joint's
// bone the child of the previous joint's bone.
type Spring struct {
	Name   string
	Joints []Joint
	// Colliders indexes Rig.Colliders: the spring's collider groups
	// flattened, in group order, each collider once.
	Colliders []int
	// Center is the bone whose space the inertia lives in; "" for world.
	Center string
	// VirtualTail is 0 when the last joint is only the tail of the chain
	// (VRM 1.0: its settings are unused and it does not rotate). When > 0
	// the last joint swings too, with a virtual tail this long (VRM 0.x:
	// VirtualTail0x).
	VirtualTail float32
}

// Joint is one joint of a spring with its settings (VRMC_springBone).
type Joint struct {
	Bone         string
	Stiffness    float32
	GravityPower float32
	GravityDir   mgl32.Vec3 // model space of the loaded rig (+Z forward)
	DragForce    float32
	HitRadius    float32
	// Limit is the joint's angle limit (VRMC_springBone_limit); Kind
	// spring.NoLimit when it has none.
	Limit spring.Limit
}

// Limits on what a file can make the loader read and allocate. The JSON
// text is scanned before it is decoded, so that its values, objects and
// nesting are counted on the bytes alone. Buffers are read only for
// animations, each at most once and as its bytes arrive (a length that
// lies allocates nothing), and an accessor is read only once its
// elements are known to lie inside its buffer view and buffer, so what
// accessors allocate is bounded by the bytes the file really holds (at
// most 4 float32 bytes per byte read). Resampling is bounded by
// MaxResampledKeys.
const (
	MaxJSONBytes      = 16 << 20 // the JSON text (.gltf) or JSON chunk (.glb)
	MaxJSONValues     = 1 << 19  // values in the JSON text (counted as commas and brackets)
	MaxJSONObjects    = 1 << 16  // JSON objects ({…}) in the text
	MaxJSONDepth      = 64       // nesting of arrays and objects
	MaxNodes          = 1 << 14  // glTF nodes
	MaxBones          = rig.MaxBones
	MaxSprings        = 1024
	MaxJoints         = 4096    // all springs together, after the 0.x expansion
	MaxColliders      = 1024    // colliders (0.x: spheres of all groups)
	MaxColliderGroups = 1024    // collider groups
	MaxColliderRefs   = 1 << 16 // springs' collider lists together, before duplicates are removed
	MaxHumanBones     = 256     // humanoid bone entries

	MaxBufferBytes   = 1 << 29 // one buffer: the GLB BIN chunk, a data: URI's bytes or an external file
	MaxAnimations    = 1024    // entries of animations
	MaxChannels      = 1 << 14 // channels of all animations together
	MaxKeyTime       = 3600    // seconds: every key time lies in [0, MaxKeyTime]
	MaxResampledKeys = 1 << 22 // resampled keys of all tracks together, a key of each channel (translation, rotation, scale) counting one
)

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
