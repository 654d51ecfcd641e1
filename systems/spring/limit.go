package spring

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/internal/mathx"
)

// LimitKind selects an angle limit of the VRMC_springBone_limit draft.
type LimitKind uint8

const (
	NoLimit        LimitKind = iota
	ConeLimit                // the tail stays within Angle of the rest direction
	HingeLimit               // the tail turns only about the limit's X axis, within Angle
	SphericalLimit           // Phi about the limit's X axis, Theta about its Z axis
)

// Limit restricts the direction from a joint to its tail. Its frame is the
// joint's rest frame turned by the shortest arc that takes +Y onto the bone
// axis (for an axis of exactly -Y, the half turn about +X), then by
// Rotation: +Y of the limit frame is the rest direction. This is
// VRMC_springBone_limit's frame, so a file's limit carries over as it is.
// Angles are radians; as the draft prescribes, Angle and Phi above π count
// as π and Theta above π/2 counts as π/2.
type Limit struct {
	Kind     LimitKind
	Angle    float32    // cone and hinge: largest angle from the rest direction
	Phi      float32    // spherical: largest angle about X (in the Y-Z plane)
	Theta    float32    // spherical: largest angle about Z (out of the Y-Z plane)
	Rotation mgl32.Quat // relative rotation of the limit frame; the zero value means none
}

// Validate reports the first bad field of l as a *check.FieldError of
// Type "Limit": an unknown Kind, a negative or non-finite angle of its
// kind, or a non-zero Rotation further than 1e-3 from unit length.
func (l *Limit) Validate() error { return l.validate("Limit", "") }

func (l *Limit) validate(typ, field string) error {
	name := func(f string) string {
		if field == "" {
			return f
		}
		return field + "." + f
	}
	if l.Kind > SphericalLimit {
		return check.Errorf(typ, name("Kind"), l.Kind, "must be NoLimit, ConeLimit, HingeLimit or SphericalLimit")
	}
	if l.Kind == NoLimit {
		return nil
	}
	if l.Kind == SphericalLimit {
		if err := check.NonNegative(typ, name("Phi"), l.Phi); err != nil {
			return err
		}
		if err := check.NonNegative(typ, name("Theta"), l.Theta); err != nil {
			return err
		}
	} else if err := check.NonNegative(typ, name("Angle"), l.Angle); err != nil {
		return err
	}
	if l.Rotation != (mgl32.Quat{}) {
		if _, err := check.UnitQuat(typ, name("Rotation"), l.Rotation, 1e-3); err != nil {
			return err
		}
	}
	return nil
}

// limit is a Limit prepared for the kernel: the frame in joint space and
// the cosines and sines of the clamped angles.
type limit struct {
	kind   LimitKind
	frame  q4      // limit frame in the joint's rest space
	ca, sa float32 // cone/hinge: cos, sin of Angle; spherical: of Phi
	st     float32 // spherical: sin Theta
}

func prepareLimit(l *Limit, tail mgl32.Vec3) limit {
	p := limit{kind: l.Kind}
	if l.Kind == NoLimit {
		return p
	}
	rot := mgl32.QuatIdent()
	if l.Rotation != (mgl32.Quat{}) {
		rot, _ = mathx.NormalizeQuat(l.Rotation)
	}
	f := mathx.Mul(limitAxisRotation(tail), rot)
	p.frame = ldq(&f)
	a := l.Angle
	if l.Kind == SphericalLimit {
		a = l.Phi
		p.st = float32(math.Sin(float64(min(l.Theta, math.Pi/2))))
	}
	a = min(a, math.Pi)
	p.ca, p.sa = float32(math.Cos(float64(a))), float32(math.Sin(float64(a)))
	return p
}

// limitAxisRotation is the turn that takes +Y onto the bone axis (the
// direction of tail, the child's rest position), as VRMC_springBone_limit
// defines it: the shortest arc, except that an axis of -Y (1 + axis.y <
// 1e-8), where no arc is the shortest, takes the half turn about +X (the
// draft requires it; a half turn about another axis would turn a limit's
// Rotation elsewhere). The test runs on the tail in float64: on the axis
// rounded to float32 it would also catch bones up to 2.4e-4 rad off -Y,
// which the draft turns by the shortest arc.
func limitAxisRotation(tail mgl32.Vec3) mgl32.Quat {
	x, y, z := float64(tail[0]), float64(tail[1]), float64(tail[2])
	if l := math.Sqrt(x*x + y*y + z*z); l > 0 && 1+y/l < 1e-8 {
		return mgl32.Quat{W: 0, V: mgl32.Vec3{1, 0, 0}}
	}
	return mathx.FromToRotation(mgl32.Vec3{0, 1, 0}, mathx.NormalizeOr(tail, mgl32.Vec3{0, 1, 0}))
}

// apply returns d (the vector from a joint to its tail, in the joint's rest
// frame rotated to world by frame) with its direction clamped into the
// limit, keeping its length.
func (l *limit) apply(d v3, restRot q4) v3 {
	f := restRot.mul(l.frame)
	u := f.invRot(d)
	n := u.len()
	if !(n > 1e-12) {
		return d
	}
	u = u.scale(1 / n)
	var c v3
	switch l.kind {
	case ConeLimit:
		if u.y >= l.ca {
			return d
		}
		// Turn u towards +Y until it is Angle away.
		r := v3{u.x, 0, u.z}.norm(v3{0, 0, 1})
		c = v3{r.x * l.sa, l.ca, r.z * l.sa}
	case HingeLimit:
		y, z, ok := clampArc(u.y, u.z, l.ca, l.sa)
		if ok && u.x == 0 {
			return d
		}
		c = v3{0, y, z}
	default: // SphericalLimit
		// u = Rx(phi) Rz(theta) (0,1,0): x = -sin theta, and (y, z) is
		// cos theta (cos phi, sin phi).
		x := mathx.Clamp(u.x, -l.st, l.st)
		y, z, ok := clampArc(u.y, u.z, l.ca, l.sa)
		if ok && x == u.x {
			return d
		}
		k := sqrt(max(0, 1-x*x))
		c = v3{x, y * k, z * k}
	}
	return f.rot(c.scale(n))
}

// clampArc returns the unit direction of (y, z) in the Y-Z plane turned
// towards +Y to within the angle whose cosine and sine are ca, sa, and
// whether (y, z) already was within it. A zero (y, z) counts as +Y.
func clampArc(y, z, ca, sa float32) (float32, float32, bool) {
	l := sqrt(y*y + z*z)
	if !(l > 1e-12) {
		return 1, 0, false
	}
	y, z = y/l, z/l
	if y >= ca {
		return y, z, true
	}
	if z < 0 {
		return ca, -sa, false
	}
	return ca, sa, false
}
