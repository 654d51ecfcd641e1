package collide

import (
	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/mathx"
)

// Shape is a collider placed in world space, made once per frame.
type Shape struct {
	Kind   Kind
	Bound  Bound
	A, B   mgl32.Vec3 // centre / capsule ends / plane point
	RA, RB float32    // world radii at A and B
	N      mgl32.Vec3 // unit plane normal
}

// ToWorld places d on a bone with the given world transform (project
// convention: p' = pos + rot*(scale⊙p)). Radii scale by the largest absolute
// component of the bone's world scale: a sphere under non-uniform scale
// would be an ellipsoid, and the enclosing sphere errs on the side of no
// penetration. The plane normal transforms by the inverse scale so that the
// plane stays the image of the bone-space plane.
func ToWorld(dst *Shape, d *Desc, pos mgl32.Vec3, rot mgl32.Quat, scale mgl32.Vec3) {
	s := maxAbs(scale)
	dst.Kind = d.Kind
	dst.Bound = d.Bound
	dst.A = pos.Add(mathx.Rotate(rot, mul3(scale, d.Offset)))
	dst.RA = d.Radius * s
	switch d.Kind {
	case Capsule:
		dst.B = pos.Add(mathx.Rotate(rot, mul3(scale, d.Tail)))
		dst.RB = d.TailRadius * s
		dst.N = mgl32.Vec3{}
	case Plane:
		dst.B = dst.A
		dst.RA, dst.RB = 0, 0
		// scale⁻¹⊙n written as the cofactor (no division by a zero scale
		// component), with the sign of the determinant restored so that the
		// normal keeps pointing to the same side under a mirror.
		c := mgl32.Vec3{
			d.Normal[0] * scale[1] * scale[2],
			d.Normal[1] * scale[0] * scale[2],
			d.Normal[2] * scale[0] * scale[1],
		}
		if scale[0]*scale[1]*scale[2] < 0 {
			c = c.Mul(-1)
		}
		fallback := mathx.NormalizeOr(mathx.Rotate(rot, d.Normal), mgl32.Vec3{0, 1, 0})
		dst.N = mathx.NormalizeOr(mathx.Rotate(rot, c), fallback)
	default: // Sphere
		dst.B = dst.A
		dst.RB = dst.RA
		dst.N = mgl32.Vec3{}
	}
}

func mul3(a, b mgl32.Vec3) mgl32.Vec3 {
	return mgl32.Vec3{a[0] * b[0], a[1] * b[1], a[2] * b[2]}
}

func maxAbs(v mgl32.Vec3) float32 {
	m := abs(v[0])
	if a := abs(v[1]); a > m {
		m = a
	}
	if a := abs(v[2]); a > m {
		m = a
	}
	return m
}

func abs(f float32) float32 {
	if f < 0 {
		return -f
	}
	return f
}
