package sway

import (
	"errors"
	"fmt"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/components"
	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/internal/rig"
)

// Transform is a position, a unit rotation and a per-axis scale; see
// components.Transform for the composition rule.
type Transform = components.Transform

// Identity returns the identity transform.
func Identity() Transform { return components.Identity() }

// At returns an unrotated, unscaled transform at pos.
func At(pos mgl32.Vec3) Transform {
	t := components.Identity()
	t.Pos = pos
	return t
}

// Skeleton is an immutable bone hierarchy shared by characters.
type Skeleton = rig.Skeleton

// SkeletonDesc is an editable skeleton description.
type SkeletonDesc = rig.SkeletonDesc

// BoneDesc describes one bone in its parent's space.
type BoneDesc = rig.BoneDesc

// MaxBones is the largest number of bones a skeleton may have.
const MaxBones = rig.MaxBones

// NewSkeleton validates desc and builds a skeleton in depth-first order.
func NewSkeleton(desc SkeletonDesc) (*Skeleton, error) { return rig.NewSkeleton(desc) }

// Bone returns a BoneDesc with identity rotation and unit scale.
func Bone(name, parent string, pos mgl32.Vec3) BoneDesc { return rig.Bone(name, parent, pos) }

// FieldError reports a bad input value: the type, the field, the value and
// why. Match it with errors.As.
type FieldError = check.FieldError

// ErrInvalid is wrapped by every FieldError: errors.Is(err, ErrInvalid).
var ErrInvalid = check.ErrInvalid

// ErrNotCharacter is returned for an entity that is not a live character.
// Every *EntityError matches it (errors.Is), whatever its Reason.
var ErrNotCharacter = errors.New("sway: entity is not a live character")

// ErrRemovedEntity is an EntityError's Reason for an entity that was
// removed from the world (by RemoveCharacter or arche's RemoveEntity),
// whether or not arche has since reused its ID for another entity.
var ErrRemovedEntity = errors.New("removed")

// ErrForeignEntity is an EntityError's Reason for an entity of another
// arche world: its ID is one this world never handed out. Arche entities
// do not carry their world, so another world's entity whose ID and
// generation happen to be in use here cannot be told from this world's
// entity: it is taken for that one (see docs/robustness.md).
var ErrForeignEntity = errors.New("not of this world")

// EntityError reports an entity a World method cannot use: the entity
// and why (Reason: ErrRemovedEntity, ErrForeignEntity, or ErrNotCharacter
// for a live entity of this world that has no pose, or the zero entity).
// It matches ErrNotCharacter and its Reason with errors.Is.
type EntityError struct {
	Entity ecs.Entity
	Reason error
}

func (e *EntityError) Error() string {
	why := "not a character"
	if e.Reason != ErrNotCharacter {
		why = e.Reason.Error()
	}
	return fmt.Sprintf("sway: entity %d (generation %d) is not a live character: %s", e.Entity.ID(), e.Entity.Generation(), why)
}

// Unwrap returns the Reason and ErrNotCharacter.
func (e *EntityError) Unwrap() []error { return []error{e.Reason, ErrNotCharacter} }

// ErrClosed is a CallError's Reason for a call on a closed World.
var ErrClosed = errors.New("the world is closed")

// ErrConcurrentCall is a CallError's Reason for a call made while another
// call on the same World is running on another goroutine. A World is not
// safe for concurrent use; this is how the misuse is reported instead of
// corrupting the world (see docs/robustness.md).
var ErrConcurrentCall = errors.New("another call on this world is running on another goroutine")

// CallError reports a World method that did not run, and why (Reason:
// ErrClosed or ErrConcurrentCall). It matches its Reason with errors.Is.
// Nothing was changed.
type CallError struct {
	Method string
	Reason error
}

func (e *CallError) Error() string { return "sway: " + e.Method + ": " + e.Reason.Error() }

// Unwrap returns the Reason.
func (e *CallError) Unwrap() error { return e.Reason }

// ErrBone is returned for a bone index outside the character's skeleton.
var ErrBone = errors.New("sway: bone index out of range")
