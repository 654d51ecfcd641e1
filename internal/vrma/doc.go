// Package vrma retargets the humanoid animation of a VRM Animation clip
// (.vrma, the VRMC_vrm_animation 1.0 glTF extension) onto a VRM 0.x or 1.0
// avatar, as plain data: no file reading, no world. A Clip holds, per VRM
// humanoid bone, the clip rig's rest rotations and the local rotation keys
// at a fixed rate, and the hips translation keys; an Avatar holds, per
// humanoid bone, the avatar's bone name and rest rotations. Retarget turns
// them, once per (clip, avatar), into local rotation keys per avatar bone
// (and translation keys for the hips), which Result.ClipDesc makes an
// anim.ClipDesc once bone names are mapped to indices.
//
// # The conversion
//
// It is the one of the specification's non-normative guide, "About pose
// data compatibility" (VRMC_vrm_animation-1.0/how_to_transform_human_pose.md),
// which UniVRM's ControlRig and three-vrm (VRMAnimationLoaderPlugin and
// VRMHumanoidRig) implement. Every humanoid bone of a VRMA rig and of a
// VRM avatar rests in the VRM T-pose (the extension requires it of the
// clip's nodes, VRM of the avatar's), but each bone's rest rotation, its
// local axes, may be anything. Write, for one rig and one humanoid bone:
//
//	L  the rest rotation relative to the parent node
//	W  the rest rotation in model space
//	P = W L⁻¹, the parent node's rest rotation in model space
//	l  a pose's local rotation; w its model-space rotation
//
// A pose turns each bone from its T-pose by the model-space rotation
// D = w W⁻¹: two rigs show the same posture when D is the same for each
// humanoid bone. Nodes between humanoid bones keep their rest, so a
// bone's parent node is turned by the D of the nearest humanoid ancestor
// h: its rotation is D_h P, and w = D_h P l. Hence
//
//	D = D_h P l W⁻¹ = D_h N,   N = P l W⁻¹ = W L⁻¹ l W⁻¹
//
// N is the guide's NormalizedLocalRotation (W·L⁻¹·A.LocalRotation·W⁻¹):
// the local rotation the bone would have in a rig whose rest rotations
// are all the identity, and D is the product of the N down the humanoid
// hierarchy. On the avatar, solving D_h P' l' W'⁻¹ = D_h N for l' gives
// the guide's second formula,
//
//	l' = P'⁻¹ N W' = L' W'⁻¹ N W'
//
// with L', W', P' the avatar's. So every humanoid bone of the avatar turns
// by the same model-space rotation from its T-pose as the clip's does.
// Retarget forms N for each clip key and l' for each avatar bone, in
// float64, rounding once. A bone the clip does not animate has N = 1 (the
// guide: "apply only the bones contained in the source model").
//
// An avatar whose rest is not the T-pose (an A-pose) keeps its offset
// under this conversion, which moves bones relative to the T-pose: its
// AvatarBone rotations must then be those of its T-pose, not its rest.
//
// # Bones the avatar lacks
//
// The guide: "If the destination model has few bones, it is recommended to
// apply the rotation of the target bone to all child bones that would
// otherwise be affected by the rotation of the target bone", so that "the
// visual posture of each bone in the source animation [is] in the same
// orientation as the corresponding bone in the destination model". Since
// D_b = D_a N_m1 … N_mj N_b, where a is b's nearest humanoid ancestor that
// the avatar has (the humanoid hierarchy of VRMC_vrm-1.0/humanoid.md, which
// says "If no non-essential parent bone exists, look for the parent bone of
// the parent bone") and m1 … mj are the bones between that it lacks, the
// avatar's bone b takes
//
//	N'_b = N_m1 … N_mj N_b
//
// in place of N_b. For an avatar without upperChest, neck, leftShoulder and
// rightShoulder take N_upperChest N_neck (and N_upperChest
// N_leftShoulder…); without a neck, head takes N_neck N_head; without
// shoulders, the upper arms take N_shoulder N_upperArm. The lacking bone's
// parent (chest) is not turned: folding downward keeps the model-space
// turn D of every bone the avatar has equal to the clip's, which folding
// upward (into chest) would break for chest itself. A lacking bone with
// nothing below it that the avatar has (toes, a finger) has no effect.
// three-vrm drops the tracks of lacking bones instead; this package
// follows the guide.
//
// # Hips translation
//
// The clip's hips translation keys are local to the hips' parent node;
// they are taken to the clip's model space, scaled by y_dst / y_src (the
// guide's scaling factor: the avatar's hips height over the clip's, both
// at rest, "the height of the hips as the length of the leg"), and taken
// into the avatar's hips parent's space. As in three-vrm, the whole
// model-space position is scaled (so the rest position maps to the
// avatar's rest height), not only the displacement from rest.
//
// # VRM 0.x avatars
//
// A VRM 0.x model faces -Z and UniVRM exports it with every rest rotation
// the identity. three-vrm plays a VRMA clip on it by negating x and z of
// each normalised rotation and of the hips position: a conjugation by half
// a turn about +Y, the turn between the 0.x model's frame and the clip's
// (+Z forward). sway's loader (internal/gltfrig) already turns a 0.x rig
// half a turn about +Y, so its rest rotations in model space include that
// turn Y: W' = Y for each bone and P' = Y, and the formula gives
// l' = Y⁻¹ N Y, the same negation, and likewise for the hips translation
// through the hips parent's rotation. No axis flag is needed; 0.x and 1.0
// avatars of one model show the same model-space motion. Avatar.VRM0 only
// renames the 0.x thumb bones (Name1).
//
// # Bad input
//
// Rotations (rest and keys) must be finite and unit within UnitTolerance;
// they are normalised. Key slices hold KeyCount keys or none. Each is
// reported as a *check.FieldError whose Field names it, e.g.
// Bones[leftUpperArm].Rotations[3]; unknown humanoid names and eye tracks
// are skipped with a warning. Hips heights must be finite and > 0, and the
// retargeted translation within check.MaxTranslation, so no output is ever
// NaN or infinite.
package vrma
