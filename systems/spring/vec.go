package spring

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/mathx"
)

// v3 and q4 are register-friendly copies of mgl32.Vec3 and mgl32.Quat for
// the kernels: Go keeps small arrays ([3]float32) in memory, while a struct
// of up to four scalars lives in registers, which roughly halves the cost of
// a joint step. Values are loaded from and stored to the mgl32 slices at the
// edges of the loop only.
//
// Every product below is converted to float32 explicitly: the Go spec lets
// the compiler fuse x*y + z into one rounding (it does with GOAMD64=v3, and
// on arm64) unless a conversion rounds x*y, and the SIMD kernels, which
// round each product, must give the same bits as these definitions.
type v3 struct{ x, y, z float32 }

type q4 struct{ w, x, y, z float32 }

func ld(v *mgl32.Vec3) v3       { return v3{v[0], v[1], v[2]} }
func (a v3) vec() mgl32.Vec3    { return mgl32.Vec3{a.x, a.y, a.z} }
func (a v3) add(b v3) v3        { return v3{a.x + b.x, a.y + b.y, a.z + b.z} }
func (a v3) sub(b v3) v3        { return v3{a.x - b.x, a.y - b.y, a.z - b.z} }
func (a v3) scale(k float32) v3 { return v3{float32(a.x * k), float32(a.y * k), float32(a.z * k)} }
func (a v3) mul(b v3) v3        { return v3{float32(a.x * b.x), float32(a.y * b.y), float32(a.z * b.z)} }
func (a v3) dot(b v3) float32   { return float32(a.x*b.x) + float32(a.y*b.y) + float32(a.z*b.z) }
func (a v3) len() float32       { return sqrt(a.dot(a)) }
func ldq(q *mgl32.Quat) q4      { return q4{q.W, q.V[0], q.V[1], q.V[2]} }
func (q q4) quat() mgl32.Quat   { return mgl32.Quat{W: q.w, V: mgl32.Vec3{q.x, q.y, q.z}} }
func (q q4) conj() q4           { return q4{q.w, -q.x, -q.y, -q.z} }
func sqrt(f float32) float32    { return float32(math.Sqrt(float64(f))) }

func (a v3) finite() bool { return a.x-a.x == 0 && a.y-a.y == 0 && a.z-a.z == 0 }
func (q q4) finite() bool { return q.w-q.w == 0 && q.x-q.x == 0 && q.y-q.y == 0 && q.z-q.z == 0 }
func (q q4) dot(b q4) float32 {
	return float32(q.w*b.w) + float32(q.x*b.x) + float32(q.y*b.y) + float32(q.z*b.z)
}

// maxAbs returns the largest absolute component of v, NaN if one is NaN:
// it compares the bits without the sign, which order non-negative floats
// (and NaNs above +Inf) as the values do, and costs less than max.
func maxAbs(v v3) float32 {
	a := math.Float32bits(v.x) &^ (1 << 31)
	if b := math.Float32bits(v.y) &^ (1 << 31); b > a {
		a = b
	}
	if b := math.Float32bits(v.z) &^ (1 << 31); b > a {
		a = b
	}
	return math.Float32frombits(a)
}

// norm returns a/|a|, or fallback when a is (nearly) zero or not finite.
func (a v3) norm(fallback v3) v3 {
	l2 := a.dot(a)
	if !(l2 > 1e-12) || l2-l2 != 0 {
		return fallback
	}
	return a.scale(1 / sqrt(l2))
}

// rot returns v rotated by the unit quaternion q (as mathx.Rotate).
func (q q4) rot(v v3) v3 { return q.rotFin(v, q.rotT(v)) }

// invRot returns v rotated by the inverse of the unit quaternion q.
func (q q4) invRot(v v3) v3 { return q.conj().rot(v) }

// mul returns the Hamilton product a*b (apply b, then a).
func (a q4) mul(b q4) q4 { return q4{a.mulW(b), a.mulX(b), a.mulY(b), a.mulZ(b)} }

// The pieces of rot and mul, for kernels to compose inline: rot and mul
// themselves are too large for the compiler to inline, and a call spills
// every live register.

func (q q4) v() v3          { return v3{q.x, q.y, q.z} }
func (a v3) q(w float32) q4 { return q4{w, a.x, a.y, a.z} }

func (a q4) mulW(b q4) float32 {
	return float32(a.w*b.w) - float32(a.x*b.x) - float32(a.y*b.y) - float32(a.z*b.z)
}

func (a q4) mulX(b q4) float32 {
	return float32(a.w*b.x) + float32(a.x*b.w) + float32(a.y*b.z) - float32(a.z*b.y)
}

func (a q4) mulY(b q4) float32 {
	return float32(a.w*b.y) + float32(a.y*b.w) + float32(a.z*b.x) - float32(a.x*b.z)
}

func (a q4) mulZ(b q4) float32 {
	return float32(a.w*b.z) + float32(a.z*b.w) + float32(a.x*b.y) - float32(a.y*b.x)
}

// rotT is 2 q.v×v, the first half of rot.
func (q q4) rotT(v v3) v3 {
	return v3{
		2 * (float32(q.y*v.z) - float32(q.z*v.y)),
		2 * (float32(q.z*v.x) - float32(q.x*v.z)),
		2 * (float32(q.x*v.y) - float32(q.y*v.x)),
	}
}

// rotFin finishes rot: q.rotFin(v, q.rotT(v)) is q.rot(v).
func (q q4) rotFin(v, t v3) v3 {
	return v3{
		v.x + float32(q.w*t.x) + (float32(q.y*t.z) - float32(q.z*t.y)),
		v.y + float32(q.w*t.y) + (float32(q.z*t.x) - float32(q.x*t.z)),
		v.z + float32(q.w*t.z) + (float32(q.x*t.y) - float32(q.y*t.x)),
	}
}

// transform is a world transform in the project convention:
// p' = pos + rot*(scale⊙p).
type transform struct {
	pos   v3
	rot   q4
	scale v3
}

// child returns the world transform of a node with the given local
// transform under t.
func (t *transform) child(pos v3, rot q4, scale v3) transform {
	return transform{
		pos:   t.pos.add(t.rot.rot(t.scale.mul(pos))),
		rot:   t.rot.mul(rot),
		scale: t.scale.mul(scale),
	}
}

// invScaleDir returns a vector along scale⁻¹⊙v without dividing: the
// cofactor form, with the determinant's sign restored so that a mirror keeps
// the direction. A zero scale component gives a degenerate (possibly zero)
// vector, which the callers treat as "no direction".
func invScaleDir(s, v v3) v3 {
	c := v3{v.x * s.y * s.z, v.y * s.x * s.z, v.z * s.x * s.y}
	if s.x*s.y*s.z < 0 {
		return c.scale(-1)
	}
	return c
}

func (a v3) cross(b v3) v3 {
	return v3{
		float32(a.y*b.z) - float32(a.z*b.y),
		float32(a.z*b.x) - float32(a.x*b.z),
		float32(a.x*b.y) - float32(a.y*b.x),
	}
}

// fromTo is mathx.FromToRotation for a unit from, in float32, by the
// half-way vector: with h = (a+b̂)/|a+b̂|, q = (a·h, a×h). Unlike the
// (1+a·b, a×b) form it keeps float32 accuracy up to large angles (the
// error grows as 1/|a+b̂|, not 1/(1+a·b)); within about 25° of opposite
// (|a+b̂|² < 0.2) it defers to mathx, which works in float64 and picks a
// perpendicular axis for exactly opposite vectors. A zero or non-finite to
// gives the identity. It costs half as much as the float64 path, which
// matters at one call per joint and step.
func fromTo(a, b v3) q4 {
	l2 := b.dot(b)
	if !(l2 > 1e-12) || l2-l2 != 0 {
		return q4{w: 1}
	}
	h := a.add(b.scale(1 / sqrt(l2)))
	h2 := h.dot(h)
	if h2 < 0.2 {
		q := mathx.FromToRotation(a.vec(), b.vec())
		return ldq(&q)
	}
	h = h.scale(1 / sqrt(h2))
	c := a.cross(h)
	return q4{a.dot(h), c.x, c.y, c.z}
}
