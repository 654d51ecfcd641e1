package collide

import (
	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/internal/mathx"
)

// Kind is the geometric type of a collider.
type Kind uint8

const (
	Sphere Kind = iota
	Capsule
	Plane
)

// Bound says which side of the shape particles are kept on.
type Bound uint8

const (
	Outside Bound = iota // keep particles out of the shape
	Inside               // keep particles in the shape
)

// Desc is a collider as the user describes it, in the local space of the
// bone it is attached to. ToWorld places it: points are transformed by
// the bone's world transform (its world scale included), radii are
// multiplied by the largest absolute component of the bone's world scale.
// Lengths are therefore in the bone's units: metres for a bone of world
// scale 1. (The ecs facade takes radii in metres at rest instead; see
// sway.ColliderSpec.)
type Desc struct {
	Kind       Kind       // Sphere (the zero value), Capsule or Plane
	Bound      Bound      // Outside (the zero value: particles kept out) or Inside
	Offset     mgl32.Vec3 // sphere centre / capsule first end / a point on the plane: bone space, finite
	Tail       mgl32.Vec3 // capsule second end: bone space, finite (capsules only)
	Radius     float32    // sphere radius / capsule radius at Offset: bone units, finite and >= 0 (planes: unused)
	TailRadius float32    // capsule radius at Tail (a tapered capsule): bone units, finite and >= 0; constructors set it equal to Radius
	Normal     mgl32.Vec3 // plane normal: bone space, finite, not zero, any length (planes only); Outside keeps particles on the side it points to
}

// NewSphere returns an Outside sphere collider: centre offset in bone
// space, radius in the bone's units (see Desc).
func NewSphere(offset mgl32.Vec3, radius float32) Desc {
	return Desc{Kind: Sphere, Offset: offset, Radius: radius, TailRadius: radius}
}

// NewCapsule returns an Outside capsule collider from offset (radius) to
// tail (tailRadius): ends in bone space, radii in the bone's units (see
// Desc).
func NewCapsule(offset, tail mgl32.Vec3, radius, tailRadius float32) Desc {
	return Desc{Kind: Capsule, Offset: offset, Tail: tail, Radius: radius, TailRadius: tailRadius}
}

// NewPlane returns an Outside plane collider through point, keeping
// particles on the side normal points to; point and normal in bone space
// (the normal need not be unit length, see Desc).
func NewPlane(point, normal mgl32.Vec3) Desc {
	return Desc{Kind: Plane, Offset: point, Normal: normal}
}

const descType = "collide.Desc"

// Validate reports the first bad field as a *check.FieldError: an unknown
// kind or bound, a non-finite vector, a negative or non-finite radius, or a
// zero plane normal. Fields a kind does not use are not checked.
func (d Desc) Validate() error {
	if d.Kind > Plane {
		return check.Errorf(descType, "Kind", d.Kind, "must be Sphere, Capsule or Plane")
	}
	if d.Bound > Inside {
		return check.Errorf(descType, "Bound", d.Bound, "must be Outside or Inside")
	}
	if err := check.FiniteVec3(descType, "Offset", d.Offset); err != nil {
		return err
	}
	switch d.Kind {
	case Sphere:
		return check.NonNegative(descType, "Radius", d.Radius)
	case Capsule:
		if err := check.FiniteVec3(descType, "Tail", d.Tail); err != nil {
			return err
		}
		if err := check.NonNegative(descType, "Radius", d.Radius); err != nil {
			return err
		}
		return check.NonNegative(descType, "TailRadius", d.TailRadius)
	default: // Plane
		if err := check.FiniteVec3(descType, "Normal", d.Normal); err != nil {
			return err
		}
		if _, ok := mathx.SafeNormalize(d.Normal); !ok {
			return check.Errorf(descType, "Normal", d.Normal, "must not be zero")
		}
		return nil
	}
}
