package check

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl32"
)

// Limits on sizes. float32 reaches 3.4e38, so finite inputs can still
// overflow once multiplied together: two bones 2e38 apart put the second
// at +Inf, eight nested scales of 1e6 give a bone a scale of 1e48. These
// limits bound every number a pose is built from, so that every product
// the kernels form stays finite, while lying far beyond any real
// character.
//
// How they bound a pose: a bone's world position is
//
//	root.Pos + root.Rot(root.Scale ⊙ model position)
//
// and its model position (relative to the root) is the sum, along the
// chain from the root, of each local translation times its parent's scale
// relative to the root. With at most MaxBones (1,024) bones, every local
// translation within MaxTranslation and every scale relative to the root
// within MaxModelScale, a model position stays within MaxModelExtent
// (1,024 × 1e4 × 1e4 ≈ 1.0e11 m) and a world position within
// MaxWorldPosition (1e6 + 1e4 × 1.0e11 ≈ 1.0e15 m, rounded up to 1e16);
// a world scale within MaxWorldScale (1e8). Squared lengths and dot
// products of such numbers stay below 1e32, a factor of three million
// short of float32's range; past the pose, the kernels' own per-frame
// guards (a chain or spring whose state is not finite is reset) stay.
//
// What they mean for a character: bones up to 10 km long, scaled from
// 1/10,000 to 10,000 each and relative to the root, placed up to 1,000 km
// from the origin. float32 spacing is the limit in practice long before
// that: about 1 mm at 10 km from the origin, 8 mm at 100 km and 6 cm at
// 1,000 km, so an open world of tens of kilometres keeps its characters
// within a few kilometres of the origin by moving the origin, and
// MaxPosition only rejects what is surely a mistake (millimetres taken for
// metres, an uninitialised number).
const (
	// MaxBones is the largest number of bones a skeleton may have: the
	// skeleton builder (internal/rig) and the kernels (systems/fk) both
	// take it from here.
	MaxBones = 1024

	// MaxTranslation bounds each component of a bone's local translation,
	// in metres: skeleton descriptions, glTF nodes, clip keys and
	// SetBoneLocal.
	MaxTranslation = 1e4

	// MinScale and MaxScale bound the absolute value of each component of
	// a bone's rest scale (skeleton descriptions, glTF nodes) and of a
	// character's root scale. A pose (clip keys, SetBoneLocal) takes
	// MaxScale only: it may scale a bone down to zero to hide it, and a
	// blend of keys of opposite sign passes through zero anyway.
	MinScale = 1e-4
	MaxScale = 1e4

	// MinModelScale and MaxModelScale bound the absolute value of each
	// component of a bone's scale relative to the character's root: the
	// product of the local scales from the root down. The rest pose must
	// lie within both; an animation (every key of every clip of a blend
	// space) or SetBoneLocal within MaxModelScale.
	MinModelScale = 1e-4
	MaxModelScale = 1e4

	// MaxPosition bounds each component of a character's root position,
	// in metres.
	MaxPosition = 1e6

	// MaxModelExtent bounds each component of a bone's position relative
	// to the root (before the root's scale), in metres: 1,024 bones
	// (MaxBones) × MaxModelScale × MaxTranslation, rounded up.
	MaxModelExtent = 1.1e11

	// MaxWorldPosition and MaxWorldScale bound each component of a bone's
	// world position and world scale in a world whose inputs keep the
	// limits above: MaxPosition + MaxScale × MaxModelExtent, and MaxScale
	// × MaxModelScale, rounded up. Snapshots are checked against them.
	MaxWorldPosition = 1e16
	MaxWorldScale    = 1e8
)

// Within reports whether every component of v is finite and at most
// limit in absolute value.
func Within(v mgl32.Vec3, limit float32) bool {
	for _, c := range v {
		if !(c >= -limit && c <= limit) { // false for NaN
			return false
		}
	}
	return true
}

// MaxAbs returns the largest absolute value of v's components.
func MaxAbs(v mgl32.Vec3) float32 {
	m := float32(0)
	for _, c := range v {
		if c < 0 {
			c = -c
		}
		m = max(m, c)
	}
	return m
}

// Translation rejects a local translation with a component beyond
// MaxTranslation (or not finite).
func Translation(typ, field string, v mgl32.Vec3) error {
	if !Within(v, MaxTranslation) {
		return &FieldError{Type: typ, Field: field, Value: v, Reason: fmt.Sprintf("every component must be finite and within ±%g m (MaxTranslation)", float32(MaxTranslation))}
	}
	return nil
}

// Position rejects a root position with a component beyond MaxPosition
// (or not finite).
func Position(typ, field string, v mgl32.Vec3) error {
	if !Within(v, MaxPosition) {
		return &FieldError{Type: typ, Field: field, Value: v, Reason: fmt.Sprintf("every component must be finite and within ±%g m (MaxPosition)", float32(MaxPosition))}
	}
	return nil
}

// Scale rejects a scale with a component whose absolute value lies
// outside [MinScale, MaxScale] (or that is not finite).
func Scale(typ, field string, v mgl32.Vec3) error {
	for _, c := range v {
		if c < 0 {
			c = -c
		}
		if !(c >= MinScale && c <= MaxScale) {
			return &FieldError{Type: typ, Field: field, Value: v, Reason: fmt.Sprintf("every component must be finite and between %g and %g in absolute value (MinScale, MaxScale)", float32(MinScale), float32(MaxScale))}
		}
	}
	return nil
}

// ScaleKey rejects a scale with a component beyond MaxScale in absolute
// value (or not finite); zero is allowed.
func ScaleKey(typ, field string, v mgl32.Vec3) error {
	if !Within(v, MaxScale) {
		return &FieldError{Type: typ, Field: field, Value: v, Reason: fmt.Sprintf("every component must be finite and within ±%g (MaxScale)", float32(MaxScale))}
	}
	return nil
}
