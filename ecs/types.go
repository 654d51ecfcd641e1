package sway

import (
	"errors"
	"fmt"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/components"
	"github.com/sway-anim/sway/components/field"
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

// Skeleton is an immutable bone hierarchy shared by every character that
// uses it, made by NewSkeleton (or by AddRig from a file).
//
// Bones are stored in depth-first pre-order, children in the order the
// description lists them, so a bone's parent comes before it
// (Parents()[i] < i) and the subtree of bone i is the contiguous range
// [i, SubtreeEnd(i)). Bone indices are into that order; Index finds a
// bone by name. The slices the methods return are the skeleton's own:
// read them, do not write them.
type Skeleton struct{ r *rig.Skeleton }

// SkeletonDesc is an editable description of a skeleton: bones by name,
// in any order; a skeleton may have several roots.
type SkeletonDesc struct {
	Name  string     // the skeleton's name, for messages
	Bones []BoneDesc // at most MaxBones; names unique and not empty
}

// BoneDesc describes one bone's rest transform in its parent's space.
type BoneDesc struct {
	Name   string // unique in the skeleton, not empty
	Parent string // the parent's name; "" for a root bone (its parent space is the character's root)
	// Pos is the rest translation in the parent's space, in metres (before
	// the parent's scale); each component within ±1e4 (check.MaxTranslation).
	Pos mgl32.Vec3
	// Rot is the rest rotation relative to the parent: a unit quaternion
	// (normalised within 1e-3; the zero quaternion is rejected).
	Rot mgl32.Quat
	// Scale is the rest scale relative to the parent, per axis; each
	// component between 1e-4 and 1e4 in absolute value (check.MinScale,
	// check.MaxScale), and so the product from the root down
	// (check.MinModelScale, check.MaxModelScale). Bone gives 1.
	Scale mgl32.Vec3
}

// MaxBones is the largest number of bones a skeleton may have.
const MaxBones = rig.MaxBones

// NewSkeleton validates desc and builds a skeleton in depth-first order.
// A bad description is a *FieldError naming the bone and field.
func NewSkeleton(desc SkeletonDesc) (*Skeleton, error) {
	r, err := rig.NewSkeleton(desc.internal())
	if err != nil {
		return nil, err
	}
	return &Skeleton{r: r}, nil
}

// internal returns d as the skeleton builder takes it.
func (d SkeletonDesc) internal() rig.SkeletonDesc {
	out := rig.SkeletonDesc{Name: d.Name, Bones: make([]rig.BoneDesc, len(d.Bones))}
	for i, b := range d.Bones {
		out.Bones[i] = rig.BoneDesc(b)
	}
	return out
}

// skeletonDescOf returns d as the facade gives it.
func skeletonDescOf(d rig.SkeletonDesc) SkeletonDesc {
	out := SkeletonDesc{Name: d.Name, Bones: make([]BoneDesc, len(d.Bones))}
	for i, b := range d.Bones {
		out.Bones[i] = BoneDesc(b)
	}
	return out
}

// Bone returns a BoneDesc with identity rotation and unit scale.
func Bone(name, parent string, pos mgl32.Vec3) BoneDesc { return BoneDesc(rig.Bone(name, parent, pos)) }

// Name returns the skeleton's name.
func (s *Skeleton) Name() string { return s.r.Name() }

// NumBones returns the number of bones.
func (s *Skeleton) NumBones() int { return s.r.NumBones() }

// Index returns the index of the bone called name, or -1.
func (s *Skeleton) Index(name string) int { return s.r.Index(name) }

// BoneName returns the name of bone i (0 <= i < NumBones).
func (s *Skeleton) BoneName(i int) string { return s.r.BoneName(i) }

// Parents returns each bone's parent index, -1 for a root; parents come
// before their children.
func (s *Skeleton) Parents() []int32 { return s.r.Parents() }

// SubtreeEnd returns one past the last bone of bone i's subtree: the
// subtree is [i, SubtreeEnd(i)).
func (s *Skeleton) SubtreeEnd(i int) int32 { return s.r.SubtreeEnd(i) }

// RestPos returns each bone's rest translation relative to its parent
// (metres).
func (s *Skeleton) RestPos() []mgl32.Vec3 { return s.r.RestPos() }

// RestRot returns each bone's rest rotation relative to its parent.
func (s *Skeleton) RestRot() []mgl32.Quat { return s.r.RestRot() }

// RestScale returns each bone's rest scale relative to its parent.
func (s *Skeleton) RestScale() []mgl32.Vec3 { return s.r.RestScale() }

// ModelPos returns each bone's rest position in the skeleton's model
// space (the character's root space, metres).
func (s *Skeleton) ModelPos() []mgl32.Vec3 { return s.r.ModelPos() }

// ModelRot returns each bone's rest rotation in model space.
func (s *Skeleton) ModelRot() []mgl32.Quat { return s.r.ModelRot() }

// ModelScale returns each bone's rest scale in model space (the product
// of the scales from the root down).
func (s *Skeleton) ModelScale() []mgl32.Vec3 { return s.r.ModelScale() }

// FieldError reports a bad input value: the type, the field, the value and
// why (see field.Error for the fields). Every set-up call and setter
// returns one for bad input, having changed nothing. Match it with
// errors.As.
type FieldError = field.Error

// ErrInvalid is wrapped by every FieldError: errors.Is(err, ErrInvalid).
var ErrInvalid = field.ErrInvalid

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
	Entity ecs.Entity // the entity the call was given
	Reason error      // ErrRemovedEntity, ErrForeignEntity or ErrNotCharacter
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
	Method string // the method that did not run ("Step", "Chains.Add", ...)
	Reason error  // ErrClosed or ErrConcurrentCall
}

func (e *CallError) Error() string { return "sway: " + e.Method + ": " + e.Reason.Error() }

// Unwrap returns the Reason.
func (e *CallError) Unwrap() error { return e.Reason }

// ErrBone is returned for a bone index outside the character's skeleton.
var ErrBone = errors.New("sway: bone index out of range")
