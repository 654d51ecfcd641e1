package chain

import (
	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/check"
)

// FreezeAxis keeps every particle in a plane through its parent particle,
// the plane normal being one axis of the parent bone's animated rotation.
type FreezeAxis uint8

const (
	FreezeNone FreezeAxis = iota
	FreezeX
	FreezeY
	FreezeZ
)

// StepMode selects how frame time becomes simulation steps (see the package
// doc, "Time").
type StepMode uint8

const (
	// Fixed runs steps of exactly 1/UpdateRate from an accumulator, as
	// DynamicBone does: 0 to MaxSubSteps steps per frame, a skip update when
	// none runs.
	Fixed StepMode = iota
	// Variable runs the frame's whole time in steps no longer than
	// 1/UpdateRate, with damping, elasticity and forces exact in the step
	// length, so that any frame rate gives the same motion.
	Variable
)

// TeleportMode says what a chain does when its character jumps.
type TeleportMode uint8

const (
	// TeleportReset puts the chain back to the animated pose.
	TeleportReset TeleportMode = iota
	// TeleportKeep moves the particles rigidly with the character, so the
	// chain keeps its current swing relative to the character.
	TeleportKeep
)

// Defaults of Settings.
const (
	DefaultUpdateRate           = 60
	DefaultTeleportDistance     = 1  // metres
	DefaultTeleportAngleDegrees = 45 // degrees
	DefaultDisableDistance      = 0  // off
	DefaultWeight               = 1  // full simulation
	MaxSubStepsLimit            = 64 // the largest MaxSubSteps Validate accepts
	settingsType                = "chain.Settings"
)

// MinTeleportAngleDegrees is the smallest TeleportAngleDegrees other than 0
// (off) that Validate accepts. A turn of a few degrees in one frame is
// ordinary turning (4° a frame is 240°/s at 60 fps), and every angle in
// radians up to a half turn (π) is below it, so a value given in radians
// by mistake is rejected instead of resetting the chain on every turn.
const MinTeleportAngleDegrees = 4

// Settings are a chain's tunable parameters. They may be edited at run time;
// call Refresh afterwards so that the per-particle values follow.
//
// The six particle parameters are multiplied by their curve in Curves
// (evaluated at the particle's rest distance from the root over the chain
// length) and then clamped as DynamicBone clamps them: Damping,
// Elasticity, Stiffness, Inert and Friction to [0, 1], Radius to >= 0.
// Weight is clamped to [0, 1] and UpdateRate to >= 0. Non-finite values
// are rejected by Validate; a runtime edit that skips Validate still never
// produces NaN (clamps map NaN to the lower bound and a non-finite force
// is ignored).
type Settings struct {
	// Damping is the share of a particle's velocity lost per step of
	// 1/UpdateRate: 0..1 after its curve (clamped). Default 0.04.
	Damping float32
	// Elasticity is the share of the way a particle is pulled per step
	// toward its animated position relative to its simulated parent: 0..1
	// after its curve (clamped). Default 0.1.
	Elasticity float32
	// Stiffness is how much of the animated shape is kept: a particle stays
	// within restLen*(1-Stiffness)*2 of its animated position (at Weight 1);
	// 0..1 after its curve (clamped), 0 leaves it free. Default 0.1.
	Stiffness float32
	// Inert is the share of the character's movement (its root's
	// translation) that carries the particles along instead of being felt
	// as inertia: 0..1 after its curve (clamped); 1 moves them with the
	// root. Default 0.7 (DynamicBone's is 0).
	Inert float32
	// Friction is the damping added, for one step, to a particle that
	// touched a collider in the step before: 0..1 after its curve
	// (clamped; Damping+Friction counts at most 1). Default 0.
	Friction float32
	// Radius is each particle's radius against colliders, in metres times
	// the object scale (the largest absolute component of the character's
	// root scale); after its curve a negative value counts as 0. Default 0.
	Radius float32

	// Curves, when not nil, multiply the six parameters along the chain.
	// Behind a pointer because most chains have none: a chain's record
	// then stays small, and chains may share one Curves (edit it, or put
	// another in its place, then call Refresh on each). Default nil.
	Curves *Curves

	// Gravity and Force are accelerations in m/s², in world space, each
	// component finite (default zero): Gravity {0, -9.81, 0} is Earth's.
	// The part of Gravity that already acts on the rest pose (its
	// projection on the rest direction of gravity: Gravity seen from the
	// root bone's rest rotation in the character's space, turned with the
	// root's animation; not, as in DynamicBone, from its world rotation at
	// start) is removed, so a chain hanging in its rest pose does not sag
	// further; Force acts in full. Both are multiplied by the object scale,
	// as DynamicBone does, so that a character scaled by k swings like a
	// scaled copy (lengths and accelerations both times k keep the
	// periods). DynamicBone's values (a displacement per step at its
	// update rate) convert with GravityFromDynamicBone.
	Gravity, Force mgl32.Vec3

	// Weight blends the simulation over the animation: 0 = animated pose
	// (the chain is off and its particles restart when it comes back),
	// 1 = full simulation; clamped to 0..1. Default 1; note that the zero
	// value of Settings has Weight 0.
	Weight float32

	// UpdateRate is the simulation rate in steps per second (Hz), default
	// 60. 0 (or less) means one step per frame in Fixed mode and 60 in
	// Variable mode.
	UpdateRate float32
	// MaxSubSteps caps the steps of one frame (a hitch is not caught up):
	// 0..MaxSubStepsLimit (64); 0, the default, means DefaultMaxSubSteps
	// (3), DynamicBone's cap. A high UpdateRate needs a higher cap at low
	// frame rates: 240 Hz at 30 fps is 8 steps. An int32, so that the
	// record keeps its five cache lines.
	MaxSubSteps int32

	// Teleport: a character move longer than TeleportDistance (metres,
	// >= 0, default 1), or a turn larger than TeleportAngleDegrees
	// (degrees, 0 or MinTeleportAngleDegrees..180, default 45), in one
	// frame is a jump (what the chain then does: Teleport, below); 0
	// disables either test. The angle is compared through the cosine of
	// its half, worked out once per value, not per frame.
	TeleportDistance     float32
	TeleportAngleDegrees float32

	// DisableDistance, in metres (>= 0, default 0: never), stops the
	// simulation while the character's root is farther than this from
	// Frame.Reference (world space; the ecs facade's World.SetReference,
	// the world origin until it is set); particles are reset when it
	// comes back.
	DisableDistance float32

	// LimitAngleDegrees, in degrees (0..180; 0, the default, is no
	// limit), keeps each segment within a cone around its animated
	// direction: the angle between a particle's offset from its parent and
	// the animated pose's is at most this, the particle turned about its
	// parent (its distance kept) when it would go past. Applied in every
	// sub-step after integration and the pulls, before the colliders,
	// which win (KawaiiPhysics' LimitAngle). A chain with a limit takes
	// the scalar path instead of the SIMD lanes.
	LimitAngleDegrees float32

	// The modes, one byte each, last so that the record packs tight.

	// Freeze keeps each particle in the plane through its parent particle
	// normal to this axis of the parent bone's animated rotation;
	// FreezeNone (the default) keeps none.
	Freeze FreezeAxis
	// Mode is how frame time becomes steps, UpdateRate being their rate:
	// Fixed (the default, DynamicBone's) or Variable.
	Mode StepMode
	// Teleport is what the chain does on a jump (see TeleportDistance):
	// TeleportReset (the default) or TeleportKeep.
	Teleport TeleportMode
	// SegmentCollision keeps the segment between each particle and its
	// parent out of the chain's Outside sphere and capsule colliders, not
	// only the particles (see "Collision along segments" in
	// segcollide.go), so that a thin collider cannot pass between two
	// particles. Default false. A chain with it (and colliders) takes the
	// scalar path instead of the SIMD lanes.
	SegmentCollision bool
}

// GravityFromDynamicBone converts a DynamicBone gravity or force, given as
// the displacement it adds per step at updateRate steps per second (times
// the object scale), into the acceleration in m/s² Settings.Gravity and
// Settings.Force take: v × updateRate². An updateRate of 0 or less
// (DynamicBone's one step per frame) counts as DefaultUpdateRate, 60.
// DynamicBone's {0, -0.003, 0} at 60 Hz is {0, -10.8, 0}; Prepare turns it
// back into 0.003 per 60 Hz step (to within a rounding of the last bit).
func GravityFromDynamicBone(v mgl32.Vec3, updateRate float32) mgl32.Vec3 {
	r := float64(updateRate)
	if !(r > 0) {
		r = DefaultUpdateRate
	}
	return mgl32.Vec3{float32(float64(v[0]) * r * r), float32(float64(v[1]) * r * r), float32(float64(v[2]) * r * r)}
}

// DefaultSettings returns defaults that look right on a walking
// character, with the project's teleport defaults: elasticity and
// stiffness 0.1 as DynamicBone's, no gravity, but Inert 0.7 and Damping
// 0.04 where DynamicBone has 0 and 0.1. With DynamicBone's, a 3 cm
// earring of three bones trails 61° behind a steady 1.2 m/s walk
// (damping acts on world velocity, like strong air drag); with these it
// hangs within 15° (12°) and still swings 27-51° when the walker starts or
// stops (TestChainEarringOnAWalk). KawaiiPhysics ships the same idea as
// its default world damping of 0.8.
func DefaultSettings() Settings {
	return Settings{
		Damping: 0.04, Elasticity: 0.1, Stiffness: 0.1, Inert: 0.7,
		Weight:               DefaultWeight,
		UpdateRate:           DefaultUpdateRate,
		TeleportDistance:     DefaultTeleportDistance,
		TeleportAngleDegrees: DefaultTeleportAngleDegrees,
		DisableDistance:      DefaultDisableDistance,
	}
}

// Validate reports the first non-finite value, unsorted curve, unknown enum
// value, negative distance or teleport angle outside its range as a
// *check.FieldError. Out-of-range particle parameters are not errors: they
// are clamped (see Settings).
func (s *Settings) Validate() error {
	for _, f := range []struct {
		name string
		v    float32
	}{
		{"Damping", s.Damping}, {"Elasticity", s.Elasticity}, {"Stiffness", s.Stiffness},
		{"Inert", s.Inert}, {"Friction", s.Friction}, {"Radius", s.Radius},
		{"Weight", s.Weight}, {"UpdateRate", s.UpdateRate},
	} {
		if err := check.Finite(settingsType, f.name, f.v); err != nil {
			return err
		}
	}
	if err := s.Curves.validate(); err != nil {
		return err
	}
	if err := check.FiniteVec3(settingsType, "Gravity", s.Gravity); err != nil {
		return err
	}
	if err := check.FiniteVec3(settingsType, "Force", s.Force); err != nil {
		return err
	}
	if s.Freeze > FreezeZ {
		return check.Errorf(settingsType, "Freeze", s.Freeze, "must be FreezeNone, FreezeX, FreezeY or FreezeZ")
	}
	if s.Mode > Variable {
		return check.Errorf(settingsType, "Mode", s.Mode, "must be Fixed or Variable")
	}
	if s.MaxSubSteps < 0 || s.MaxSubSteps > MaxSubStepsLimit {
		return check.Errorf(settingsType, "MaxSubSteps", s.MaxSubSteps, "must be in 0..64 (0: the default, 3)")
	}
	if err := check.Range(settingsType, "LimitAngleDegrees", s.LimitAngleDegrees, 0, 180); err != nil {
		return err
	}
	if s.Teleport > TeleportKeep {
		return check.Errorf(settingsType, "Teleport", s.Teleport, "must be TeleportReset or TeleportKeep")
	}
	if err := check.NonNegative(settingsType, "TeleportDistance", s.TeleportDistance); err != nil {
		return err
	}
	if a := s.TeleportAngleDegrees; a != 0 && !(a >= MinTeleportAngleDegrees && a <= 180) {
		hint := ""
		if a > 0 && a < MinTeleportAngleDegrees {
			hint = " (this looks like radians: 45° is 0.785 rad)"
		}
		return check.Errorf(settingsType, "TeleportAngleDegrees", a, "must be 0 (off) or in [%d, 180] degrees%s", MinTeleportAngleDegrees, hint)
	}
	return check.NonNegative(settingsType, "DisableDistance", s.DisableDistance)
}
