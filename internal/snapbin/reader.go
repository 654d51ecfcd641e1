package snapbin

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/check"
)

// Reader reads a snapshot's values in order. The first problem (too few
// bytes, a value out of its range, a count that differs from the world's)
// is kept and every later read returns zero, so a decoder reads on without
// checking and asks Err once; it must take its loop counts from the world,
// never from the bytes, so that no value read can make it loop or index
// out of range.
type Reader struct {
	b    []byte
	off  int
	base int // offset of b[0] in the whole snapshot, for error messages
	err  *Error
	// Char is the character being read (-1: world-level data), for errors.
	Char int
	// Checked says that a first read of these bytes met no problem: the
	// bulk reads (Vec3s, Quats, Bools) then skip their value checks, which
	// are most of a second read's time. Lengths are checked all the same.
	Checked bool
}

// Reset makes r read b, whose first byte is at offset base of the
// snapshot.
func (r *Reader) Reset(b []byte, base int) {
	*r = Reader{b: b, base: base, Char: -1}
}

// Err returns the first problem met, as an *Error, or nil.
func (r *Reader) Err() error {
	if r.err == nil {
		return nil
	}
	return r.err
}

// Failed reports whether a problem was met.
func (r *Reader) Failed() bool { return r.err != nil }

// Remaining returns the number of bytes not read yet.
func (r *Reader) Remaining() int { return len(r.b) - r.off }

// Offset returns the snapshot offset of the next byte.
func (r *Reader) Offset() int { return r.base + r.off }

func (r *Reader) failAt(off int, field, reason string, mismatch bool) {
	if r.err == nil {
		r.err = &Error{Offset: r.base + off, Char: r.Char, Field: field, Reason: reason, Mismatch: mismatch}
	}
}

// Corrupt records that the value just read at off (from Offset before
// reading it) is not one a world can hold.
func (r *Reader) Corrupt(off int, field, reason string) {
	r.failAt(off-r.base, field, reason, false)
}

// Mismatch records that the snapshot's structure differs from the world's
// at the value just read at off (from Offset before reading it).
func (r *Reader) Mismatch(off int, field, format string, args ...any) {
	if r.err == nil {
		r.failAt(off-r.base, field, fmt.Sprintf(format, args...), true)
	}
}

// take returns the next n bytes, or nil once a problem was met or too few
// are left.
func (r *Reader) take(n int, field string) []byte {
	if r.err != nil {
		return nil
	}
	if len(r.b)-r.off < n {
		r.failAt(r.off, field, "truncated", false)
		return nil
	}
	s := r.b[r.off : r.off+n : r.off+n]
	r.off += n
	return s
}

// U8 reads one byte.
func (r *Reader) U8(field string) uint8 {
	if s := r.take(1, field); s != nil {
		return s[0]
	}
	return 0
}

// Bool reads a byte that must be 0 or 1.
func (r *Reader) Bool(field string) bool {
	off := r.off
	v := r.U8(field)
	if v > 1 {
		r.failAt(off, field, "a flag must be 0 or 1", false)
	}
	return v == 1
}

// Enum reads a byte that must be below n.
func (r *Reader) Enum(field string, n uint8) uint8 {
	off := r.off
	v := r.U8(field)
	if v >= n {
		r.failAt(off, field, fmt.Sprintf("%d is not one of the %d values", v, n), false)
		return 0
	}
	return v
}

// U32 reads a uint32.
func (r *Reader) U32(field string) uint32 {
	if s := r.take(4, field); s != nil {
		return binary.LittleEndian.Uint32(s)
	}
	return 0
}

// I32 reads an int32.
func (r *Reader) I32(field string) int32 { return int32(r.U32(field)) }

// U64 reads a uint64.
func (r *Reader) U64(field string) uint64 {
	if s := r.take(8, field); s != nil {
		return binary.LittleEndian.Uint64(s)
	}
	return 0
}

// F32 reads a float32, any bits.
func (r *Reader) F32(field string) float32 { return math.Float32frombits(r.U32(field)) }

// F64 reads a float64, any bits.
func (r *Reader) F64(field string) float64 { return math.Float64frombits(r.U64(field)) }

// Vec3 reads a vector, any bits.
func (r *Reader) Vec3(field string) mgl32.Vec3 {
	s := r.take(SizeVec3, field)
	if s == nil {
		return mgl32.Vec3{}
	}
	return mgl32.Vec3{f32(s[0:]), f32(s[4:]), f32(s[8:])}
}

// Quat reads a quaternion (W, X, Y, Z), any bits.
func (r *Reader) Quat(field string) mgl32.Quat {
	s := r.take(SizeQuat, field)
	if s == nil {
		return mgl32.Quat{}
	}
	return mgl32.Quat{W: f32(s[0:]), V: mgl32.Vec3{f32(s[4:]), f32(s[8:]), f32(s[12:])}}
}

// Transform reads a transform, any bits.
func (r *Reader) Transform(field string) (pos mgl32.Vec3, rot mgl32.Quat, scale mgl32.Vec3) {
	return r.Vec3(field), r.Quat(field), r.Vec3(field)
}

func f32(s []byte) float32 { return math.Float32frombits(binary.LittleEndian.Uint32(s)) }

func finite(v float32) bool { return v-v == 0 }

// Finite reads a float32 that must be finite.
func (r *Reader) Finite(field string) float32 {
	off := r.off
	v := r.F32(field)
	if !finite(v) {
		r.failAt(off, field, "must be finite", false)
		return 0
	}
	return v
}

// Range reads a float32 that must lie in [lo, hi].
func (r *Reader) Range(field string, lo, hi float32) float32 {
	off := r.off
	v := r.F32(field)
	if !(v >= lo && v <= hi) {
		r.failAt(off, field, fmt.Sprintf("%g is outside [%g, %g]", v, lo, hi), false)
		return lo
	}
	return v
}

// RangeF64 reads a float64 that must lie in [lo, hi].
func (r *Reader) RangeF64(field string, lo, hi float64) float64 {
	off := r.off
	v := r.F64(field)
	if !(v >= lo && v <= hi) {
		r.failAt(off, field, fmt.Sprintf("%g is outside [%g, %g]", v, lo, hi), false)
		return lo
	}
	return v
}

// FiniteVec3 reads a vector whose components must be finite.
func (r *Reader) FiniteVec3(field string) mgl32.Vec3 {
	off := r.off
	v := r.Vec3(field)
	if !finite(v[0]) || !finite(v[1]) || !finite(v[2]) {
		r.failAt(off, field, "must be finite", false)
		return mgl32.Vec3{}
	}
	return v
}

// FiniteQuat reads a quaternion whose components must be finite.
func (r *Reader) FiniteQuat(field string) mgl32.Quat {
	off := r.off
	q := r.Quat(field)
	if !finite(q.W) || !finite(q.V[0]) || !finite(q.V[1]) || !finite(q.V[2]) {
		r.failAt(off, field, "must be finite", false)
		return mgl32.QuatIdent()
	}
	return q
}

// UnitQuat reads a quaternion whose length is within tol of 1, as the
// setters accept.
func (r *Reader) UnitQuat(field string, tol float32) mgl32.Quat {
	off := r.off
	return r.checkUnit(off, field, r.Quat(field), tol)
}

func (r *Reader) checkUnit(off int, field string, q mgl32.Quat, tol float32) mgl32.Quat {
	if n := q.W*q.W + q.V.Dot(q.V); !(n >= (1-tol)*(1-tol) && n <= (1+tol)*(1+tol)) {
		r.failAt(off, field, "must be a unit quaternion", false)
		return mgl32.QuatIdent()
	}
	return q
}

// Root reads a character's root: either one SetRoot accepts (finite, a
// unit rotation within tol, the position and scale within the limits of
// internal/check), or one with a
// non-finite number, which the systems skip (the character keeps its last
// good pose) and a snapshot taken in that state holds.
func (r *Reader) Root(field string, tol float32) (pos mgl32.Vec3, rot mgl32.Quat, scale mgl32.Vec3) {
	off := r.off
	pos, rot, scale = r.Transform(field)
	if !finite(pos[0]) || !finite(pos[1]) || !finite(pos[2]) || !finite(scale[0]) || !finite(scale[1]) || !finite(scale[2]) ||
		!finite(rot.W) || !finite(rot.V[0]) || !finite(rot.V[1]) || !finite(rot.V[2]) {
		return pos, rot, scale
	}
	r.checkUnit(off, field, rot, tol)
	if !check.Within(pos, check.MaxPosition) {
		r.failAt(off, field, fmt.Sprintf("a position component is beyond ±%g m (MaxPosition)", float32(check.MaxPosition)), false)
	}
	for _, s := range scale {
		if s < 0 {
			s = -s
		}
		if !(s >= check.MinScale && s <= check.MaxScale) {
			r.failAt(off, field, fmt.Sprintf("a scale component is not between %g and %g in absolute value (MinScale, MaxScale)", float32(check.MinScale), float32(check.MaxScale)), false)
		}
	}
	return pos, rot, scale
}

// Count reads a uint32 that must equal want, the world's count: a
// different value is a mismatch.
func (r *Reader) Count(field string, want int) {
	off := r.off
	if v := r.U32(field); r.err == nil && int64(v) != int64(want) {
		r.failAt(off, field, fmt.Sprintf("the snapshot has %d, the world %d", v, want), true)
	}
}

// Vec3s reads len(dst) vectors, into dst when apply. With finite set,
// every component must be finite. One bounds check for the whole run:
// this is where most of a snapshot's bytes are read.
func (r *Reader) Vec3s(field string, dst []mgl32.Vec3, finite, apply bool) {
	off := r.off
	s := r.take(len(dst)*SizeVec3, field)
	if s == nil {
		return
	}
	if finite && !r.Checked {
		var sum float32
		for i := 0; i+4 <= len(s); i += 4 {
			sum += f32(s[i:]) * 0 // NaN or Inf anywhere makes the sum NaN
		}
		if sum != 0 {
			for i := range dst {
				if v := vec3At(s, i); !(v[0]*0 == 0 && v[1]*0 == 0 && v[2]*0 == 0) {
					r.failAt(off+i*SizeVec3, field, "must be finite", false)
					return
				}
			}
		}
	}
	if apply {
		for i := range dst {
			dst[i] = vec3At(s, i)
		}
	}
}

// Vec3sWithin reads len(dst) vectors, into dst when apply, as Vec3s does
// with finite set; every component must also lie within ±limit.
func (r *Reader) Vec3sWithin(field string, dst []mgl32.Vec3, limit float32, apply bool) {
	off := r.off
	s := r.take(len(dst)*SizeVec3, field)
	if s == nil {
		return
	}
	if !r.Checked {
		// The magnitude bits order as the magnitudes do, and those of
		// ±Inf and NaN lie above every finite one: one max finds whether
		// any value is out of bounds, and only then is it looked for.
		var m uint32
		for i := 0; i+4 <= len(s); i += 4 {
			m = max(m, binary.LittleEndian.Uint32(s[i:])&0x7fffffff)
		}
		if lim := math.Float32bits(limit); m > lim {
			for i := 0; i+4 <= len(s); i += 4 {
				if v := f32(s[i:]); !(v >= -limit && v <= limit) { // false for NaN
					reason := fmt.Sprintf("must be finite and within ±%g", limit)
					if finite(v) {
						reason = fmt.Sprintf("%g is beyond ±%g", v, limit)
					}
					r.failAt(off+i/SizeVec3*SizeVec3, field, reason, false)
					return
				}
			}
		}
	}
	if apply {
		for i := range dst {
			dst[i] = vec3At(s, i)
		}
	}
}

// Quats reads len(dst) quaternions, as Vec3s reads vectors.
func (r *Reader) Quats(field string, dst []mgl32.Quat, finite, apply bool) {
	off := r.off
	s := r.take(len(dst)*SizeQuat, field)
	if s == nil {
		return
	}
	if finite && !r.Checked {
		var sum float32
		for i := 0; i+4 <= len(s); i += 4 {
			sum += f32(s[i:]) * 0
		}
		if sum != 0 {
			for i := range dst {
				if q := quatAt(s, i); !(q.W*0 == 0 && q.V[0]*0 == 0 && q.V[1]*0 == 0 && q.V[2]*0 == 0) {
					r.failAt(off+i*SizeQuat, field, "must be finite", false)
					return
				}
			}
		}
	}
	if apply {
		for i := range dst {
			dst[i] = quatAt(s, i)
		}
	}
}

func vec3At(s []byte, i int) mgl32.Vec3 {
	s = s[i*SizeVec3 : i*SizeVec3+SizeVec3]
	return mgl32.Vec3{f32(s[0:]), f32(s[4:]), f32(s[8:])}
}

func quatAt(s []byte, i int) mgl32.Quat {
	s = s[i*SizeQuat : i*SizeQuat+SizeQuat]
	return mgl32.Quat{W: f32(s[0:]), V: mgl32.Vec3{f32(s[4:]), f32(s[8:]), f32(s[12:])}}
}

// Bools reads len(dst) flags (bytes 0 or 1), into dst when apply.
func (r *Reader) Bools(field string, dst []bool, apply bool) {
	off := r.off
	s := r.take(len(dst), field)
	if s == nil {
		return
	}
	var or byte
	for _, v := range s {
		or |= v
	}
	if or > 1 && !r.Checked {
		for i, v := range s {
			if v > 1 {
				r.failAt(off+i, field, "a flag must be 0 or 1", false)
				return
			}
		}
	}
	if apply {
		for i, v := range s {
			dst[i] = v == 1
		}
	}
}
