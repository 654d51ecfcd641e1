package components

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// Control is what every feature component of a character shares (Chains,
// VRMSprings, SimpleSprings, Breath, LookAt, IK, Animation): whether the
// feature is paused and how much of its result reaches the pose. The
// facade's feature handles set it; the systems read it once per character
// and frame.
type Control struct {
	// Paused stops the feature: its clock stops and its state is kept.
	// A paused secondary or procedural feature adds nothing to the pose
	// (its bones show the pose coming into it); a paused animation keeps
	// posing the time it stopped at. Resuming continues from the kept
	// state; a secondary feature first runs its usual teleport test
	// against where the character was when it paused.
	Paused bool
	// Weight blends the feature's result with the pose coming into it:
	// 0 shows that pose, 1 (the default) the feature's full result.
	// Valid range 0..1. It multiplies any finer weight of the feature (a
	// chain's Settings.Weight, an IK limb's weight).
	Weight float32
	// CullDistance, in metres, culls the feature while the character's
	// root is farther than this from the world's View point: a culled
	// feature is paused (see Paused) until the character comes back
	// within it. 0 (the default) never culls; valid 0..1e6.
	CullDistance float32
}

// View is the world resource that distance culling measures from: the
// camera or the player, set by the game (the facade's World.SetReference).
type View struct {
	Point mgl32.Vec3 // world space, metres
}

// Culled reports whether c's feature is culled for a character with its
// root at pos: CullDistance is set and pos is farther than it from the
// view point.
func (c *Control) Culled(pos mgl32.Vec3, v *View) bool {
	if c.CullDistance <= 0 {
		return false
	}
	d := pos.Sub(v.Point)
	return d.Dot(d) > c.CullDistance*c.CullDistance
}

// Off reports whether c's feature does not run this frame for a
// character with its root at pos: paused, at weight 0, or culled.
func (c *Control) Off(pos mgl32.Vec3, v *View) bool {
	return c.Paused || !(c.Weight > 0) || c.Culled(pos, v)
}

// Teleport is a secondary feature's test for a character that jumped: a
// root move longer than Distance, or a turn larger than the angle whose
// half has the cosine HalfCos, between two frames restarts the feature
// from the current pose instead of swinging it across the jump.
type Teleport struct {
	Distance     float32 // metres; 0 = no distance test
	AngleDegrees float32 // the largest turn in one frame as given, degrees; 0 = no turn test
	HalfCos      float32 // cos(AngleDegrees/2), derived; below -1 (NoTurnTest) = no turn test
}

// NoTurnTest is a Teleport.HalfCos that no turn is below.
const NoTurnTest = -2

// DefaultTeleport is the jump test a secondary feature starts with: a move
// longer than 1 m or a turn larger than 45 degrees in one frame.
func DefaultTeleport() Teleport { return NewTeleport(1, 45) }

// NewTeleport returns the test for a move longer than distance metres or
// a turn larger than angleDegrees (0 turns either test off).
func NewTeleport(distance, angleDegrees float32) Teleport {
	t := Teleport{Distance: distance, AngleDegrees: angleDegrees, HalfCos: NoTurnTest}
	if angleDegrees > 0 {
		t.HalfCos = float32(math.Cos(float64(angleDegrees) * math.Pi / 360))
	}
	return t
}
