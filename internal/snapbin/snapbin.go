// Package snapbin is the byte layout of world snapshots: little-endian
// append helpers for writing, a Reader with a sticky error for reading, and
// the typed error a bad snapshot is reported with.
//
// Nothing here knows what a world holds: the encoders of the stores and
// components are internal/snapio's and the framing (magic,
// version, checksum) in the facade (ecs/snapshot.go). Writing appends to
// the caller's slice and reading never allocates, except for the error
// returned on a bad snapshot.
package snapbin

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// ErrSnapshot is wrapped by every error about a snapshot's bytes: too
// short, corrupt, of another format version, or of a world of a different
// structure.
var ErrSnapshot = errors.New("sway: bad snapshot")

// ErrMismatch is wrapped, besides ErrSnapshot, by the errors that say the
// snapshot is intact but of a world with other characters or features.
var ErrMismatch = errors.New("sway: snapshot of a different world")

// Error reports where and why a snapshot was rejected. errors.Is matches it
// with ErrSnapshot, and with ErrMismatch when the snapshot's structure does
// not match the world's.
type Error struct {
	Offset   int    // byte offset of the value that was rejected
	Char     int    // the character being read, in the world's order; -1 for world-level data
	Field    string // what was read, e.g. "chains.N"
	Reason   string
	Mismatch bool // the snapshot is of a world of a different structure
}

func (e *Error) Error() string {
	where := "world"
	if e.Char >= 0 {
		where = fmt.Sprintf("character %d", e.Char)
	}
	return fmt.Sprintf("sway: snapshot: %s, %s at byte %d: %s", where, e.Field, e.Offset, e.Reason)
}

// Unwrap makes errors.Is match ErrSnapshot and, for a mismatch, ErrMismatch.
func (e *Error) Unwrap() []error {
	if e.Mismatch {
		return []error{ErrSnapshot, ErrMismatch}
	}
	return []error{ErrSnapshot}
}

// Sizes in bytes of the encoded values.
const (
	SizeVec3      = 12
	SizeQuat      = 16
	SizeTransform = SizeVec3 + SizeQuat + SizeVec3
)

// U8 appends v.
func U8(b []byte, v uint8) []byte { return append(b, v) }

// Bool appends v as one byte, 0 or 1.
func Bool(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

// U32 appends v.
func U32(b []byte, v uint32) []byte { return binary.LittleEndian.AppendUint32(b, v) }

// I32 appends v.
func I32(b []byte, v int32) []byte { return binary.LittleEndian.AppendUint32(b, uint32(v)) }

// U64 appends v.
func U64(b []byte, v uint64) []byte { return binary.LittleEndian.AppendUint64(b, v) }

// F32 appends v's bits, NaN payloads included.
func F32(b []byte, v float32) []byte { return binary.LittleEndian.AppendUint32(b, math.Float32bits(v)) }

// F64 appends v's bits.
func F64(b []byte, v float64) []byte { return binary.LittleEndian.AppendUint64(b, math.Float64bits(v)) }

// Vec3 appends v.
func Vec3(b []byte, v mgl32.Vec3) []byte {
	return F32(F32(F32(b, v[0]), v[1]), v[2])
}

// Quat appends q as W, X, Y, Z.
func Quat(b []byte, q mgl32.Quat) []byte {
	return F32(F32(F32(F32(b, q.W), q.V[0]), q.V[1]), q.V[2])
}

// Transform appends a transform: position, rotation, scale.
func Transform(b []byte, pos mgl32.Vec3, rot mgl32.Quat, scale mgl32.Vec3) []byte {
	return Vec3(Quat(Vec3(b, pos), rot), scale)
}

// Vec3s appends every vector of s.
func Vec3s(b []byte, s []mgl32.Vec3) []byte {
	for i := range s {
		b = Vec3(b, s[i])
	}
	return b
}

// Quats appends every quaternion of s.
func Quats(b []byte, s []mgl32.Quat) []byte {
	for i := range s {
		b = Quat(b, s[i])
	}
	return b
}

// F32s appends every value of s.
func F32s(b []byte, s []float32) []byte {
	for _, v := range s {
		b = F32(b, v)
	}
	return b
}
