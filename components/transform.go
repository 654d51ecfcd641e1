package components

import "github.com/go-gl/mathgl/mgl32"

// Transform is a position, a unit rotation and a per-axis scale.
//
// Composition follows the convention of Unreal's FTransform: for a child
// with local transform l under a parent with world transform p,
//
//	world.Pos   = p.Pos + p.Rot * (p.Scale ⊙ l.Pos)
//	world.Rot   = p.Rot * l.Rot
//	world.Scale = p.Scale ⊙ l.Scale
//
// so non-uniform scale never produces shear. Rig scale is uniform in
// practice; the convention keeps rotations exact and the algebra cheap.
//
// A Transform's space is its use's: a bone's local transform is in its
// parent's space, a world transform and a character's root in world
// space. Identity is the neutral value; the zero Transform (zero rotation
// and scale) is not valid input.
type Transform struct {
	Pos   mgl32.Vec3 // position in metres; a local one is in the parent's space, before the parent's scale
	Rot   mgl32.Quat // rotation, a unit quaternion
	Scale mgl32.Vec3 // per-axis scale factor (1: none)
}

// Identity returns the identity transform.
func Identity() Transform {
	return Transform{Rot: mgl32.QuatIdent(), Scale: mgl32.Vec3{1, 1, 1}}
}

// Mat4 returns the column-major affine matrix of t (for rendering).
func (t Transform) Mat4() mgl32.Mat4 {
	m := t.Rot.Mat4()
	for c := 0; c < 3; c++ {
		for r := 0; r < 3; r++ {
			m[c*4+r] *= t.Scale[c]
		}
	}
	m[12], m[13], m[14] = t.Pos[0], t.Pos[1], t.Pos[2]
	return m
}
