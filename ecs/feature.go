package sway

import (
	"errors"
	"fmt"

	"github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/components"
	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/systems/chain"
)

// The verbs every handle shares and what they mean are in the package
// documentation ("Features as handles", doc.go) and, feature by feature,
// in docs/architecture.md ("Features").

// ErrNoFeature is what every FeatureError matches with errors.Is: the
// character does not have the feature (never added, or removed).
var ErrNoFeature = errors.New("the character does not have this feature")

// FeatureError reports a handle used on a character without its feature.
// It matches ErrNoFeature with errors.Is.
type FeatureError struct {
	Feature string // "Chains", "VRMSprings", "SimpleSprings", "Breath", "LookAt", "IK", "Animation"
	Entity  ecs.Entity
}

func (e *FeatureError) Error() string {
	return fmt.Sprintf("sway: entity %d (generation %d) has no %s", e.Entity.ID(), e.Entity.Generation(), e.Feature)
}

// Unwrap returns ErrNoFeature.
func (e *FeatureError) Unwrap() error { return ErrNoFeature }

// featureKind is what the handles of one feature share: its name and how
// to reach, reset and remove its component. control returns nil when the
// character lacks the feature.
type featureKind struct {
	name    string
	control func(w *World, e ecs.Entity) *components.Control
	reset   func(w *World, e ecs.Entity)
	remove  func(w *World, e ecs.Entity)
	// teleport, for the springs, returns their teleport test.
	teleport func(w *World, e ecs.Entity) *components.Teleport
}

// feature is embedded in every handle: its methods are the verbs all
// features share.
type feature struct {
	w    *World
	e    ecs.Entity
	kind *featureKind
}

// Entity returns the character the handle belongs to.
func (f feature) Entity() ecs.Entity { return f.e }

// enter claims the world for one of the handle's methods; the method's
// name is only built for an error, so that setters called every frame
// do not allocate.
func (f feature) enter(method string) error {
	if f.w == nil || f.kind == nil {
		return &EntityError{Entity: f.e, Reason: ErrNotCharacter}
	}
	if err := f.w.enter(""); err != nil {
		var ce *CallError
		if errors.As(err, &ce) {
			ce.Method = f.kind.name + "." + method
		}
		return err
	}
	return nil
}

// control returns the feature's control, or why there is none. The world
// must be entered.
func (f feature) control() (*components.Control, error) {
	if _, err := f.w.pose(f.e); err != nil {
		return nil, err
	}
	c := f.kind.control(f.w, f.e)
	if c == nil {
		return nil, &FeatureError{Feature: f.kind.name, Entity: f.e}
	}
	return c, nil
}

// Pause stops the feature (see the package's "Features as handles").
// Pausing a paused feature does nothing.
func (f feature) Pause() error { return f.setPaused("Pause", true) }

// Resume continues a paused feature from where it was (see "Features as
// handles"). Resuming a running feature does nothing.
func (f feature) Resume() error { return f.setPaused("Resume", false) }

func (f feature) setPaused(method string, paused bool) error {
	if err := f.enter(method); err != nil {
		return err
	}
	defer f.w.leave()
	c, err := f.control()
	if err != nil {
		return err
	}
	c.Paused = paused
	return nil
}

// Paused reports whether the feature is paused.
func (f feature) Paused() (bool, error) {
	if err := f.enter("Paused"); err != nil {
		return false, err
	}
	defer f.w.leave()
	c, err := f.control()
	if err != nil {
		return false, err
	}
	return c.Paused, nil
}

// Reset drops the feature's history: the next Step starts it from the
// current pose, as when it was added. A paused feature stays paused.
func (f feature) Reset() error {
	if err := f.enter("Reset"); err != nil {
		return err
	}
	defer f.w.leave()
	if _, err := f.control(); err != nil {
		return err
	}
	f.kind.reset(f.w, f.e)
	return nil
}

// Remove takes the feature off the character: from the next Step its
// bones show the pose coming into it. The handle (and its copies) then
// returns a *FeatureError.
func (f feature) Remove() error {
	if err := f.enter("Remove"); err != nil {
		return err
	}
	defer f.w.leave()
	if _, err := f.control(); err != nil {
		return err
	}
	f.kind.remove(f.w, f.e)
	return nil
}

// Weight returns the feature's weight (see SetWeight).
func (f feature) Weight() (float32, error) {
	if err := f.enter("Weight"); err != nil {
		return 0, err
	}
	defer f.w.leave()
	c, err := f.control()
	if err != nil {
		return 0, err
	}
	return c.Weight, nil
}

// SetWeight blends the feature's result with the pose coming into it:
// 0 shows that pose, 1 (the default) the full result; valid range 0..1,
// others are a *FieldError. It multiplies the finer weights a feature
// has (a chain's ChainSettings.Weight, an IK limb's weight). Rotations
// are blended by normalised lerp, translations and scales linearly.
// Look-at's weight is approached with the head's WeightSpeed damping;
// the others take effect at the next Step.
func (f feature) SetWeight(weight float32) error {
	if err := f.enter("SetWeight"); err != nil {
		return err
	}
	defer f.w.leave()
	if err := check.Range(f.kind.name, "Weight", weight, 0, 1); err != nil {
		return err
	}
	c, err := f.control()
	if err != nil {
		return err
	}
	c.Weight = weight
	return nil
}

// CullDistance returns the feature's cull distance in metres (see
// SetCullDistance).
func (f feature) CullDistance() (float32, error) {
	if err := f.enter("CullDistance"); err != nil {
		return 0, err
	}
	defer f.w.leave()
	c, err := f.control()
	if err != nil {
		return 0, err
	}
	return c.CullDistance, nil
}

// SetCullDistance culls the feature while the character's root is
// farther than d metres from the world's reference point
// (World.SetReference, the camera or the player): a culled feature is
// paused, and resumes where it was when the character comes back within
// d (secondary features after their teleport test). 0, the default,
// never culls; valid 0..1e6 (check.MaxPosition), others are a
// *FieldError.
func (f feature) SetCullDistance(d float32) error {
	if err := f.enter("SetCullDistance"); err != nil {
		return err
	}
	defer f.w.leave()
	if err := check.Range(f.kind.name, "CullDistance", d, 0, check.MaxPosition); err != nil {
		return err
	}
	c, err := f.control()
	if err != nil {
		return err
	}
	c.CullDistance = d
	return nil
}

// Teleport is the test a secondary feature (chains, VRM and simple
// springs) runs before each step for a character that jumped: a root move
// longer than Distance or a turn larger than AngleDegrees between two
// frames restarts the feature from the current pose (chains may instead
// carry their particles along, ChainSettings.Teleport) rather than swing
// it across the jump.
type Teleport struct {
	// Distance in metres, world space; 0 turns the distance test off.
	// Default 1; valid 0..check.MaxPosition.
	Distance float32
	// AngleDegrees is the largest turn of the root in one frame, in
	// degrees; 0 turns the turn test off. Default 45; valid 0 or
	// chain.MinTeleportAngleDegrees (4) to 180: an angle below 4 degrees
	// is taken for one given in radians and rejected.
	AngleDegrees float32
}

// DefaultTeleport returns the teleport test every secondary feature
// starts with: 1 m, 45 degrees.
func DefaultTeleport() Teleport { return Teleport{Distance: 1, AngleDegrees: 45} }

// validate checks t for a feature of type typ.
func (t Teleport) validate(typ string) error {
	if err := check.Range(typ, "Teleport.Distance", t.Distance, 0, check.MaxPosition); err != nil {
		return err
	}
	if err := check.Range(typ, "Teleport.AngleDegrees", t.AngleDegrees, 0, 180); err != nil {
		return err
	}
	if a := t.AngleDegrees; a > 0 && a < chain.MinTeleportAngleDegrees {
		return check.Errorf(typ, "Teleport.AngleDegrees", a, "must be 0 (off) or %g to 180 degrees (was it given in radians?)", float32(chain.MinTeleportAngleDegrees))
	}
	return nil
}

// component returns t as the springs' systems read it.
func (t Teleport) component() components.Teleport {
	return components.NewTeleport(t.Distance, t.AngleDegrees)
}

// teleportOf returns what component gave c.
func teleportOf(c components.Teleport) Teleport {
	return Teleport{Distance: c.Distance, AngleDegrees: c.AngleDegrees}
}
