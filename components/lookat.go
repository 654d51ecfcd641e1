package components

import (
	"github.com/go-gl/mathgl/mgl32"
	"github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/systems/lookat"
)

// Target is where a look-at or an IK limb aims: a world point, or a bone of
// another character. Entity targets are resolved once per frame, before the
// system runs, into Point; when the entity is no longer a live character
// (removed, or its bone gone) Point keeps the last position resolved and
// Lost is set.
type Target struct {
	Point  mgl32.Vec3 // world position in metres: the target itself, or the last resolved one
	Entity ecs.Entity // the target character; the zero entity for a point target
	Bone   int32      // the bone of Entity, an index in its skeleton (unused for a point target)
	Lost   bool       // Entity is no longer a live character with that bone
}

// IsEntity reports whether t follows a character's bone.
func (t *Target) IsEntity() bool { return !t.Entity.IsZero() }

// MaxLookAtSpine is the number of spine bones a look-at can share its turn
// with.
const MaxLookAtSpine = 4

// LookAt turns a character's head toward a target, with the eyes following
// and, optionally, a share of the turn spread over spine bones. Bones are
// indices into the character's skeleton, checked at set-up
// (systems.NewLookAtComponent); Head and Eyes are the kernel's prepared
// settings.
type LookAt struct {
	Head      lookat.Head
	HeadState lookat.HeadState
	HeadBone  int32

	Eyes      [2]lookat.Eye
	EyeStates [2]lookat.EyeState
	EyeBones  [2]int32 // -1: no eye
	// EyesConverge makes each eye look from its own position (eyes
	// converge on near targets); otherwise both look from the head's
	// position and stay parallel.
	EyesConverge bool

	// Spine bones, ancestors of the head in parent-first order, and the
	// share of the head's turn each takes (the head keeps the rest).
	Spine       [MaxLookAtSpine]int32
	SpineShares [MaxLookAtSpine]float32
	NumSpine    uint8

	Target Target
	// Control: paused (the head and eyes keep their damped state and
	// show the pose coming into them), and Weight, the requested blend
	// weight in 0..1: the applied weight follows it with the head's
	// WeightSpeed damping.
	Control
}
