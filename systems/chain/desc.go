package chain

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/check"
)

// Skeleton is a view of the skeleton a chain is built on: flat arrays,
// parents before children (Parent[i] < i, -1 for a root), rest locals.
type Skeleton struct {
	Parent    []int32
	RestPos   []mgl32.Vec3
	RestRot   []mgl32.Quat
	RestScale []mgl32.Vec3
}

// Desc describes one dynamic chain.
type Desc struct {
	Root       int32   // the bone the chain hangs from, a bone index; it follows the animation
	Exclusions []int32 // bone indices whose subtrees are left out; nil: none
	// A virtual end particle is added after every leaf (and in place of every
	// excluded child) when EndLength > 0 or EndOffset != 0. EndLength
	// (>= 0, a fraction, default 0) extends the last bone by this fraction
	// of its length; otherwise EndOffset (finite, default zero) is the end
	// particle's offset from the tip in the character's model space in
	// the rest pose, in metres before the root's scale (DynamicBone's: not
	// the tip bone's space).
	EndLength float32
	EndOffset mgl32.Vec3
	Colliders []int32  // indices (>= 0) into the character's collider shapes; nil: none
	Settings  Settings // validated by Validate; see Settings for each field
}

const descType = "chain.Desc"

// Validate checks d against skel and reports the first problem as a
// *check.FieldError.
func (d *Desc) Validate(skel *Skeleton) error {
	n := len(skel.Parent)
	if len(skel.RestPos) != n || len(skel.RestRot) != n || len(skel.RestScale) != n {
		return check.Errorf("chain.Skeleton", "RestPos", len(skel.RestPos), "rest arrays must have one element per bone (%d)", n)
	}
	for i, p := range skel.Parent {
		if p >= int32(i) || p < -1 {
			return check.Errorf("chain.Skeleton", fmt.Sprintf("Parent[%d]", i), p, "parents must come before children")
		}
	}
	if d.Root < 0 || int(d.Root) >= n {
		return check.Errorf(descType, "Root", d.Root, "must be a bone index in [0, %d)", n)
	}
	for i, b := range d.Exclusions {
		if b < 0 || int(b) >= n {
			return check.Errorf(descType, fmt.Sprintf("Exclusions[%d]", i), b, "must be a bone index in [0, %d)", n)
		}
	}
	for i, k := range d.Colliders {
		if k < 0 {
			return check.Errorf(descType, fmt.Sprintf("Colliders[%d]", i), k, "must be >= 0")
		}
	}
	if err := check.NonNegative(descType, "EndLength", d.EndLength); err != nil {
		return err
	}
	if err := check.FiniteVec3(descType, "EndOffset", d.EndOffset); err != nil {
		return err
	}
	return d.Settings.Validate()
}
