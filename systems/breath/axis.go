package breath

import (
	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/mathx"
)

// ChooseAxis picks the local axis of a bone that bends it forward and back:
// of the bone's forward (Z), right (X) and up (Y) axes in its rest world
// rotation, the one most aligned with the character's right vector, with
// the sign of that alignment. Ties go to forward, then right, as in the
// source's InitAngleConfig, and a zero alignment counts as positive (Unity's
// Mathf.Sign). A right vector that cannot be normalised counts as +X, the
// right of a character at rest in the source.
func ChooseAxis(restWorldRot mgl32.Quat, characterRight mgl32.Vec3) (axis Axis, sign float32) {
	right := mathx.NormalizeOr(characterRight, mgl32.Vec3{1, 0, 0})
	// The source compares in the character's space; dot products do not
	// change when both vectors are rotated, so world space serves as well.
	forwardDot := mathx.Dot(right, mathx.Rotate(restWorldRot, mgl32.Vec3{0, 0, 1}))
	rightDot := mathx.Dot(right, mathx.Rotate(restWorldRot, mgl32.Vec3{1, 0, 0}))
	upDot := mathx.Dot(right, mathx.Rotate(restWorldRot, mgl32.Vec3{0, 1, 0}))

	best, dot := AxisZ, forwardDot
	lowest := 1 - abs(forwardDot)
	if m := 1 - abs(rightDot); m < lowest {
		best, dot, lowest = AxisX, rightDot, m
	}
	if m := 1 - abs(upDot); m < lowest {
		best, dot = AxisY, upDot
	}
	if dot < 0 {
		return best, -1
	}
	return best, 1
}

// ChooseAxes sets every used segment's Axis and Sign with ChooseAxis from
// the rest pose's world rotations (indexed by bone). A segment whose bone
// is outside restWorldRot keeps its axis.
func (s *Settings) ChooseAxes(restWorldRot []mgl32.Quat, characterRight mgl32.Vec3) {
	for i := range s.Segments {
		sg := &s.Segments[i]
		if sg.Bone >= 0 && int(sg.Bone) < len(restWorldRot) {
			sg.Axis, sg.Sign = ChooseAxis(restWorldRot[sg.Bone], characterRight)
		}
	}
}

// ShoulderBone returns the bone a breath keeps in place on one side: the
// shoulder if the skeleton has one, else the upper arm, else the bone named
// by hand (the source's generic shoulder), else -1. Pass -1 for a missing
// bone.
func ShoulderBone(shoulder, upperArm, generic int32) int32 {
	switch {
	case shoulder >= 0:
		return shoulder
	case upperArm >= 0:
		return upperArm
	case generic >= 0:
		return generic
	}
	return -1
}

// SegmentBone returns the humanoid bone if the skeleton has one, else the
// bone named by hand (the source's generic spine, chest, neck or head),
// else -1.
func SegmentBone(humanoid, generic int32) int32 {
	if humanoid >= 0 {
		return humanoid
	}
	if generic >= 0 {
		return generic
	}
	return -1
}

func abs(f float32) float32 {
	if f < 0 {
		return -f
	}
	return f
}
