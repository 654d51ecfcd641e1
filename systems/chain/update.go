package chain

import (
	"github.com/sway-anim/sway/systems/collide"
)

// Update runs one frame of a chain: Prepare, then the sub-steps (Integrate
// and Constrain) or SkipUpdate, then Apply. It returns the lowest bone index
// written into the pose (-1 if the chain is off and the pose untouched).
// shapes are the character's collider shapes for this frame (see
// PlaceColliders); the chain uses those listed in c.Colliders.
func Update(p Particles, c *Chain, pose Pose, shapes []collide.Shape, f *Frame) int {
	n := Prepare(p, c, pose, f) // the particles share p's storage
	if n < 0 {
		return -1
	}
	var buf [stackRecords]animated
	an, lent := borrow(buf[:], len(p.Pos))
	runSteps(&p, c, &pose, n, shapes, an)
	giveBack(lent)
	return Apply(p, c, pose)
}

// PlaceColliders puts each collider description on its bone's animated
// world transform: dst[k] from descs[k] on bone bones[k]. Entries beyond the
// shortest of the three slices, or with a bone outside the pose, are left
// unchanged.
func PlaceColliders(dst []collide.Shape, descs []collide.Desc, bones []int32, pose Pose) {
	n := min(len(dst), len(descs), len(bones))
	for k := 0; k < n; k++ {
		b := int(bones[k])
		if b < 0 || b >= len(pose.WorldPos) || b >= len(pose.WorldRot) || b >= len(pose.WorldScale) {
			continue
		}
		collide.ToWorld(&dst[k], &descs[k], pose.WorldPos[b], pose.WorldRot[b], pose.WorldScale[b])
	}
}
