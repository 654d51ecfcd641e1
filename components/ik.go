package components

import (
	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/systems/ik"
)

// MaxIKLimbs is the number of two-bone limbs one character's IK can
// solve.
const MaxIKLimbs = 4

// Where an IK limb's hint (pole) is given.
const (
	HintNone  uint8 = iota // no hint: the limb keeps its bend plane
	HintWorld              // a world position
	HintRoot               // a position in the character's root space, moving with it
)

// IKLimb is one two-bone limb (shoulder, elbow, wrist or hip, knee,
// ankle): bone indices into the character's skeleton, the middle a
// descendant of the upper and the end of the middle, checked at set-up.
type IKLimb struct {
	Upper, Middle, End int32
	Settings           ik.TwoBoneSettings
	Target             Target
	// TargetRot is the end bone's world rotation to take when UseTargetRot
	// is set; otherwise the end keeps its local rotation.
	TargetRot    mgl32.Quat
	UseTargetRot bool
	Hint         mgl32.Vec3
	HintSpace    uint8 // HintNone, HintWorld or HintRoot
	// Reached reports, after each frame, whether the end lies on the
	// target (within reach, outside the soft zone, at full weight).
	Reached bool
}

// IK is a character's two-bone limbs, solved in order.
type IK struct {
	Limbs    [MaxIKLimbs]IKLimb
	NumLimbs uint8
	// Control: paused (the limbs show the pose coming into them), and
	// the weight that multiplies each limb's weight.
	Control
}
