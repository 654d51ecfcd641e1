package chain

import (
	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/mathx"
)

// Apply writes the simulated chain into the pose's locals so that forward
// kinematics from the returned bone index on reproduces it, and returns that
// index (the lowest bone written; -1 if none). It reads the animated
// LocalPos, LocalRot and WorldRot/WorldScale the pose holds when it runs.
//
// As DynamicBone's ApplyParticlesToTransforms: a bone with exactly one child
// particle is turned by FromToRotation(animated child direction, simulated
// child direction); a bone with several keeps its rotation (the one-child
// rule) and its children are moved instead. Every bone but the root gets
// the local position that puts it on its particle. The root bone itself is
// never moved.
func Apply(p Particles, c *Chain, pose Pose) int {
	n := len(p.Pos)
	if n == 0 || !poseFits(pose, c.maxBone) {
		return -1
	}
	pos, parent, bone, children, rot := p.Pos[:n], p.Parent[:n], p.Bone[:n], p.Children[:n], p.Rot[:n]
	lowest := int32(-1)
	rot[0] = pose.WorldRot[bone[0]]
	for i := 1; i < n; i++ {
		j := parent[i]
		if uint(j) >= uint(i) {
			continue
		}
		pb := bone[j]
		scale := pose.WorldScale[pb]
		b := bone[i]
		if children[j] == 1 {
			var local mgl32.Vec3
			if b >= 0 {
				local = pose.LocalPos[b]
			} else {
				local = p.Local[i]
			}
			w := rot[j]
			from := mathx.Rotate(w, mul3(scale, local))
			r := mathx.FromToRotation(from, pos[i].Sub(pos[j]))
			// New world rotation r*w; in the parent's frame that is
			// L * (w⁻¹ r w).
			nw := mathx.Mul(r, w)
			nl := mathx.Mul(pose.LocalRot[pb], mathx.Mul(mathx.Conjugate(w), nw))
			pose.LocalRot[pb], _ = mathx.NormalizeQuat(nl)
			rot[j] = nw
			if lowest < 0 || pb < lowest {
				lowest = pb
			}
		}
		if b < 0 {
			continue
		}
		rot[i] = mathx.Mul(rot[j], pose.LocalRot[b])
		pose.LocalPos[b] = div3(mathx.InvRotate(rot[j], pos[i].Sub(pos[j])), scale)
		if lowest < 0 || b < lowest {
			lowest = b
		}
	}
	return int(lowest)
}

// RestoreLocals writes the rest local position and rotation of every chain
// bone into the pose (DynamicBone's InitTransforms). Call it at the start of
// a frame, before animation, for chain bones that no animation writes;
// otherwise last frame's simulated locals would be read as the animated
// pose.
func RestoreLocals(pose Pose, p Particles) {
	for i, b := range p.Bone {
		if b >= 0 && int(b) < len(pose.LocalPos) && int(b) < len(pose.LocalRot) {
			pose.LocalPos[b] = p.Local[i]
			pose.LocalRot[b] = p.LocalRot[i]
		}
	}
}
