package ecs

import (
	"errors"

	"github.com/go-gl/mathgl/mgl32"

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
var ErrNotCharacter = errors.New("sway: entity is not a live character")

// ErrBone is returned for a bone index outside the character's skeleton.
var ErrBone = errors.New("sway: bone index out of range")
