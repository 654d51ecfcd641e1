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
	ConeLimit                // the tail stays within AngleDegrees of the rest direction
	HingeLimit               // the tail turns only about the limit's X axis, within AngleDegrees
	SphericalLimit           // PitchDegrees about the limit's X axis, YawDegrees about its Z axis
)

// The largest angles a Limit accepts, in degrees: a cone or hinge of
// AngleDegrees 180 and a spherical limit of PitchDegrees 180 leave the
// tail free in every direction the kind allows, and YawDegrees 90 leaves
// it free out of the Y-Z plane.
const (
	MaxLimitAngleDegrees = 180
	MaxLimitPitchDegrees = 180
	MaxLimitYawDegrees   = 90
)

// Limit restricts the direction from a joint to its tail. Its frame is the
// joint's rest frame turned by the shortest arc that takes +Y onto the bone
// axis (for an axis of exactly -Y, the half turn about +X), then by
// Rotation: +Y of the limit frame is the rest direction. This is
// VRMC_springBone_limit's frame, so a file's limit carries over as it is.
//
// Angles are in degrees, as every angle in the public API is. The draft
// stores radians and lets angles above π (π/2 for yaw) count as π (π/2);
// the glTF loader converts and clamps them into the ranges below, which
// Validate enforces. The kernel works with their cosines and sines,
// computed once when the chain is built.
type Limit struct {
	// Kind is NoLimit (the zero value: no limit, the other fields
	// unchecked), ConeLimit, HingeLimit or SphericalLimit.
	Kind LimitKind
	// AngleDegrees (cone and hinge; unused otherwise) is the largest angle
	// from the rest direction, 0..180 (0: held on the rest direction;
	// 180: free).
	AngleDegrees float32
	// PitchDegrees (spherical; unused otherwise) is the largest angle
	// about the limit's X axis, in its Y-Z plane, 0..180 (the draft's
	// pitch, once phi).
	PitchDegrees float32
	// YawDegrees (spherical; unused otherwise) is the largest angle about
	// the limit's Z axis, out of its Y-Z plane, 0..90 (the draft's yaw,
	// once theta).
	YawDegrees float32
	// Rotation is the limit frame's rotation relative to the joint's
	// (see above): a unit quaternion (within 1e-3), or the zero value for
	// none.
	Rotation mgl32.Quat
}

// Validate reports the first bad field of l as a *check.FieldError of
// Type "Limit": an unknown Kind, an angle of its kind outside its range
// (above) or not finite, or a non-zero Rotation further than 1e-3 from
// unit length.
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
		if err := check.Range(typ, name("PitchDegrees"), l.PitchDegrees, 0, MaxLimitPitchDegrees); err != nil {
			return err
		}
		if err := check.Range(typ, name("YawDegrees"), l.YawDegrees, 0, MaxLimitYawDegrees); err != nil {
			return err
		}
	} else if err := check.Range(typ, name("AngleDegrees"), l.AngleDegrees, 0, MaxLimitAngleDegrees); err != nil {
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
	ca, sa float32 // cone/hinge: cos, sin of AngleDegrees; spherical: of PitchDegrees
	st     float32 // spherical: sin of YawDegrees
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
	// Degrees to radians, once, in float64; clamped as the draft clamps
	// (for a Limit that skipped Validate).
	a := l.AngleDegrees
	if l.Kind == SphericalLimit {
		a = l.PitchDegrees
		p.st = float32(math.Sin(radians(min(l.YawDegrees, MaxLimitYawDegrees))))
	}
	a = min(a, MaxLimitAngleDegrees)
	p.ca, p.sa = float32(math.Cos(radians(a))), float32(math.Sin(radians(a)))
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

// radians converts degrees to radians in float64.
func radians(deg float32) float64 { return float64(deg) * (math.Pi / 180) }
