// Package gltfrig reads the rig of a glTF 2.0 or VRM file (.glb, .vrm,
// .gltf) into plain data, independent of any world: the skeleton, the
// VRM spring bones with their colliders, and the VRM humanoid bone map.
//
// # Outline
//
//   - Load (a path) and Decode (a stream) return a *Rig: a
//     rig.SkeletonDesc, Colliders (collide.Desc on a bone), Springs (joints
//     with their VRMC_springBone settings, collider indices, centre) and
//     Humanoid (VRM bone name -> bone name), with the Version read.
//   - Animations holds the file's animations, resampled to fixed-rate
//     keys per bone name (see Animations below).
//   - The document model is github.com/qmuntal/gltf's (Node, Skin, Scene,
//     Asset, with its defaults and checks); the GLB container is read here.
//     Buffers are read only when the file has animations (their keys are
//     there): the GLB BIN chunk, base64 data: URIs, and, for Load, files
//     the URIs name in the file's directory or below it; a file without
//     animations costs its JSON only.
//
// # Skeleton
//
// The bones are the joints of every skin, plus every node the VRM
// extensions name (spring joints, collider nodes, centres, humanoid bones),
// plus all their ancestors, so that rest transforms compose to the model
// space the file means. Without a skin the bones are the nodes of the
// default scene (scene, else scenes[0], else every node). Bones keep node
// order in the SkeletonDesc; rest TRS is the node's, a node matrix
// decomposed (a mirror becomes a negative x scale; shear, a projective
// row or a zero axis is rejected).
//
// Bones are named by node names. A node without a name is "node<i>" (its
// index); a name already taken by an earlier node becomes "<name>#<i>".
// Names therefore depend only on the file.
//
// A spring whose first joint is a scene root (a node without a parent, as
// in three-vrm's spring bone examples) hangs from the scene: three-vrm
// steps such a joint with the scene as its parent (the specification's
// pseudocode, with the identity), and for a character the scene is its
// root transform. The skeleton then
// gets one more bone, Rig.SceneBone (named SceneBoneName, or
// "(scene)#1", … when a node has that name), first, at the identity, as
// the parent of every root bone: model space is unchanged and the joint
// has a parent bone, which the spring systems step it from. Without such
// a spring there is no scene bone.
//
// # VRM 1.0
//
// VRMC_springBone (specVersion 1.0 or 1.0-beta; another version is ignored
// with a warning): each spring's joints must follow the node hierarchy
// (each joint's node the child of the previous one). As in the
// specification and three-vrm, the last joint is the tail of the chain: its
// settings are unused and it does not rotate (Spring.VirtualTail = 0).
// Omitted settings take the specification's defaults: stiffness 1,
// gravityPower 0, gravityDir (0, -1, 0), dragForce 0.5, hitRadius 0.
//
// VRMC_springBone_extended_collider on a collider (specVersion 1.0, or
// 1.0-draft as the specification's examples write): when it has a sphere,
// capsule or plane, that shape replaces the base one, which is only the
// fallback for readers without the extension (and is not read). With a
// missing (the README requires it) or unknown specVersion, or without a
// known shape, the extension is not read, as by a reader without it: the
// base shape is used, and a warning says so; a collider without a base
// shape then is rejected, the error saying why. Inside spheres and
// capsules get collide.Inside; a plane's normal (default (0, 0, 1)) is
// normalised and must not be zero. A shape of more than one kind (the
// formats allow one) is read as the first of sphere, capsule, plane, with
// a warning.
//
// VRMC_springBone_limit on a joint (specVersion 1.0-draft, the draft's
// and three-vrm's): Joint.Limit, a spring.Limit. The draft's limit frame
// is sway's: the joint's rest frame (its parent's world rotation times its
// rest local rotation), turned by the shortest arc from +Y to the bone
// axis (the direction of the child's rest local position; for an axis of
// exactly -Y, the half turn about +X), then by the limit's rotation. So
// the values carry over, the angles converted from the file's radians to
// degrees: cone and hinge angle as AngleDegrees, a spherical limit's
// pitch (about the frame's X) as PitchDegrees and its yaw (about Z) as
// YawDegrees, an angle above π (π/2 for the yaw) counted as π (π/2) as
// the draft prescribes; and rotation (x, y, z, w) as Rotation. A missing or unknown specVersion, a
// limit of no known kind, an earlier draft's spherical phi and theta (its
// axes were left open) and a limit on a spring rather than a joint are
// not read; a limit on the last joint, only the tail, limits nothing;
// each gives a warning.
//
// # VRM 0.x
//
// extensions.VRM.secondaryAnimation becomes the same Rig:
//
//   - Each boneGroups[g].bones entry is the root of a tree of joints: every
//     node below it swings, as UniVRM 0.x and three-vrm do. The tree is
//     split into first-child chains (a 0.x joint's tail is its first child):
//     a chain runs from its start down the first children to a leaf; every
//     further child starts another spring, listed after the spring it
//     branches from. Each spring is named after the group's comment (or
//     "boneGroups[g]").
//   - A leaf has no child, so in 0.x it swings with a virtual tail 7 cm
//     long along the direction from its parent to it:
//     Spring.VirtualTail = VirtualTail0x for every 0.x spring.
//   - Settings are per group (stiffiness, as the format spells it,
//     gravityPower, gravityDir, dragForce, hitRadius, center with -1 for
//     none), with UniVRM's defaults when omitted: stiffness 1,
//     gravityPower 0, gravityDir (0, -1, 0), dragForce 0.4, hitRadius 0.02.
//   - colliderGroups are spheres on the group's node; their colliders are
//     appended to Rig.Colliders in order.
//
// Coordinates. A 0.x model faces -Z in glTF space (1.0 models face +Z), and
// UniVRM 0.x writes collider offsets and gravityDir in Unity's left-handed
// space without the z flip it applies to nodes. The loader therefore
// negates z of those vectors (three-vrm does the same for offsets), and
// turns the whole rig half a turn about +Y so that it faces +Z like a 1.0
// rig: every root bone's rest translation and rotation are preceded by
// that turn, and gravityDir (a world direction) turns with it. Collider
// offsets are in bone space and need nothing more. The result: the 0.x
// and 1.0 forms of one model load to the same model-space rest pose,
// collider positions and gravity, and skinning with the file's inverse
// bind matrices shows the mesh turned with the bones.
//
// # Animations
//
// Every entry of animations becomes an Animation: its name (or
// "animation<i>", made unique as bone names are), its duration (the last
// key time of its samplers: glTF's timeline starts at 0), the number of
// its channels and the interpolations they use, and a Track per animated
// bone with its translation, rotation and scale keys. Channels keep their
// own key times; each is evaluated exactly as the specification says
// (LINEAR: lerp, and for rotations the specification's slerp along the
// shorter arc; STEP; CUBICSPLINE: the cubic Hermite spline through the
// values with the in- and out-tangents scaled by the key interval, a
// rotation normalised after), clamped to its first and last keys outside
// them, at the times of a fixed grid (MinSampleRate tells how it is
// chosen and what error it brings). Rotation outputs may be FLOAT or
// normalized BYTE, UNSIGNED_BYTE, SHORT or UNSIGNED_SHORT (converted by
// the specification's formulas, then normalised); translations, scales
// and times are FLOAT. Weights (morph target) channels, channels without
// a node and channels on nodes outside the skeleton are ignored with a
// warning. A VRM 0.x file's keys on a root node are turned half a turn
// about +Y as its rest pose is, so clips play on the loaded skeleton.
//
// Accessors are read as the specification lays them out (byteOffset,
// the buffer view's byteStride, normalized integers); sparse accessors
// and accessors without a buffer view are rejected.
//
// # VRM Animation
//
// LoadVRMA and DecodeVRMA read a .vrma file (VRMC_vrm_animation 1.0, or
// its 1.0-draft with a warning) into a VRMA: the humanoid map, the nodes
// the extension names with their ancestors (a VRMA has no skin), and per
// animation a vrma.Clip (rotation keys of humanoid bones, translation
// keys of the hips, the rests, the hips' parent and height), the look-at
// keys as yaw and pitch and the expression weights, all resampled as
// animations are. FixtureVRMA writes such files for tests.
//
// DemoAvatar writes the project's own avatar (a VRM 1.0 file with a
// skinned body, hair, a ring skirt, a tail and earrings on VRM springs
// with colliders), generated in code: the viewer's default and a test
// fixture (`sway demo` writes it).
//
// # Untrusted files
//
// Before decoding, the JSON text is limited to MaxJSONBytes and scanned
// for its nesting depth, number of values and of objects (MaxJSONDepth,
// MaxJSONValues, MaxJSONObjects), which bounds what decoding can
// allocate. After decoding, counts are bounded (MaxNodes, MaxBones,
// MaxSprings, MaxJoints, MaxColliders, MaxColliderGroups,
// MaxColliderRefs, MaxHumanBones, MaxAnimations, MaxChannels), every
// index is checked, a node with two parents or a cycle in the hierarchy
// is rejected, every number must be a finite float32 and within the range the format gives, rotations must be
// unit quaternions (within rig.RotationTolerance) and scales non-zero.
// An accessor's elements must lie inside its buffer view and the view
// inside its buffer (checked without overflow before anything is
// allocated); buffers are read as their bytes arrive (a length that lies
// costs nothing) up to MaxBufferBytes. Key times must be finite, in
// [0, MaxKeyTime] and strictly increasing; output counts must match
// (three per key for CUBICSPLINE); values must be finite, rotations unit
// (within rig.RotationTolerance, or the quantisation of byte
// components), translations and scales within sway's limits; resampling
// stops at MaxResampledKeys keys.
// Unknown extensions are ignored. Every rejection is a *check.FieldError
// with Type "glTF" whose Field is the JSON path of the offending value,
// e.g. extensions.VRMC_springBone.springs[2].joints[0].node,
// accessors[3].count or animations[0].samplers[1].input, or "glb.…" for
// the binary container (glb.chunks[1] is the BIN chunk).
package gltfrig
