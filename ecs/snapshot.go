package sway

import (
	"bytes"
	"errors"
	"fmt"
	"hash/crc32"
	"math"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"

	"github.com/sway-anim/sway/components"
	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/internal/snapbin"
	"github.com/sway-anim/sway/internal/snapio"
	"github.com/sway-anim/sway/internal/store"
)

// ErrSnapshot is wrapped by every error Restore returns for bytes it
// cannot restore: too short, corrupt, of another format version, or of a
// world of a different structure (errors.Is(err, ErrSnapshot)). The error
// is a *SnapshotError saying where.
var ErrSnapshot = snapbin.ErrSnapshot

// ErrSnapshotMismatch is wrapped, besides ErrSnapshot, when an intact
// snapshot is of a world with other characters or features.
var ErrSnapshotMismatch = snapbin.ErrMismatch

// SnapshotError says where and why Restore rejected a snapshot. It
// matches ErrSnapshot with errors.Is, and ErrSnapshotMismatch too for an
// intact snapshot of a world of another structure.
type SnapshotError struct {
	Offset   int    // byte offset of the value that was rejected
	Char     int    // the character being read, in the world's order; -1 for world-level data
	Field    string // what was read, e.g. "chains.N", "vrm.Teleport.AngleDegrees"
	Reason   string // why, and what was expected
	Mismatch bool   // the snapshot is of a world of a different structure
}

func (e *SnapshotError) Error() string {
	return (&snapbin.Error{Offset: e.Offset, Char: e.Char, Field: e.Field, Reason: e.Reason, Mismatch: e.Mismatch}).Error()
}

// Unwrap returns ErrSnapshot and, for a mismatch, ErrSnapshotMismatch.
func (e *SnapshotError) Unwrap() []error {
	if e.Mismatch {
		return []error{ErrSnapshot, ErrSnapshotMismatch}
	}
	return []error{ErrSnapshot}
}

// snapshotError returns err as Restore reports it: the reader's error as
// a *SnapshotError (on the failure path only: Restore does not allocate
// on success).
func snapshotError(err error) error {
	if err == nil {
		return nil
	}
	var se *snapbin.Error
	if errors.As(err, &se) {
		return &SnapshotError{Offset: se.Offset, Char: se.Char, Field: se.Field, Reason: se.Reason, Mismatch: se.Mismatch}
	}
	return err
}

// SnapshotVersion is the version of the snapshot format Snapshot writes
// and Restore reads.
const SnapshotVersion = 4

// snapshotMagic opens every snapshot.
var snapshotMagic = [8]byte{'S', 'W', 'A', 'Y', 'S', 'N', 'A', 'P'}

// The snapshot's framing: magic and version before the body, a CRC-32C of
// everything before it after.
const (
	snapshotHeader  = len(snapshotMagic) + 4
	snapshotTrailer = 4
)

var snapshotCRC = crc32.MakeTable(crc32.Castagnoli)

// Feature bits of a character in a snapshot, in the order its parts
// follow its pose.
const (
	featAnim uint8 = 1 << iota
	featBreath
	featLookAt
	featIK
	featChains
	featVRM
	featSimple
)

// snapshotCache holds what Snapshot and Restore reuse between calls.
type snapshotCache struct {
	chars *generic.Filter2[components.Pose, components.Root]
}

func (w *World) snapshotFilter() *generic.Filter2[components.Pose, components.Root] {
	if w.snap.chars == nil {
		w.snap.chars = generic.NewFilter2[components.Pose, components.Root]()
	}
	return w.snap.chars
}

// Snapshot appends the world's simulation state to dst and returns the
// extended slice; with enough capacity in dst it does not allocate, so a
// game can keep one buffer (dst[:0]) for a snapshot every frame.
//
// The state is everything that carries from one frame to the next: the
// clock, the chains' reference point, and per character its root, its
// pose (local and world transforms, dirty range, the root it was computed
// with, fault count) and the state of each feature (chain particles and
// clocks, spring tails, breath phase, look-at damping, IK inputs,
// animation playback); each encoder's comment in internal/snapio
// lists what it leaves out and why. Set-up is not saved: skeletons,
// settings, clips, colliders, which characters exist and which features
// they have. Restore puts the state back into this world or into one
// built the same way.
//
// The format is little-endian binary: the magic "SWAYSNAP", the version
// (SnapshotVersion), the body with explicit counts, and a CRC-32C of all
// that. Characters follow in the world's query order. The only error is
// for a closed world.
func (w *World) Snapshot(dst []byte) ([]byte, error) {
	if err := w.enter("Snapshot"); err != nil {
		return nil, err
	}
	defer w.leave()
	if w.closed {
		return dst, fmt.Errorf("sway: Snapshot on a closed world")
	}
	start := len(dst)
	dst = append(dst, snapshotMagic[:]...)
	dst = snapbin.U32(dst, SnapshotVersion)
	dst = snapbin.F32(dst, w.time.Dt)
	dst = snapbin.F64(dst, w.time.Elapsed)
	dst = snapbin.U64(dst, w.time.Frame)
	dst = snapbin.Vec3(dst, w.view.Point)
	q := w.snapshotFilter().Query(w.ecs)
	dst = snapbin.U32(dst, uint32(q.Count()))
	chains, springs := w.chainStore(), w.springStore()
	for q.Next() {
		pose, root := q.Get()
		dst = w.appendCharacter(dst, q.Entity(), pose, root, chains, springs)
	}
	return snapbin.U32(dst, crc32.Checksum(dst[start:], snapshotCRC)), nil
}

func (w *World) features(e ecs.Entity) uint8 {
	m := &w.maps
	var f uint8
	for _, x := range [...]struct {
		has bool
		bit uint8
	}{
		{m.anim.Has(e), featAnim}, {m.breath.Has(e), featBreath}, {m.lookAt.Has(e), featLookAt},
		{m.ik.Has(e), featIK}, {m.chains.Has(e), featChains}, {m.vrm.Has(e), featVRM}, {m.simple.Has(e), featSimple},
	} {
		if x.has {
			f |= x.bit
		}
	}
	return f
}

func (w *World) appendCharacter(b []byte, e ecs.Entity, pose *components.Pose, root *components.Root,
	chains *store.ChainStore, springs *store.SpringStore) []byte {
	f := w.features(e)
	b = snapbin.U8(b, f)
	b = snapio.AppendPose(b, w.pool, pose, root)
	m := &w.maps
	if f&featAnim != 0 {
		b = snapio.AppendAnim(b, m.anim.Get(e))
	}
	if f&featBreath != 0 {
		b = snapio.AppendBreath(b, m.breath.Get(e))
	}
	if f&featLookAt != 0 {
		b = snapio.AppendLookAt(b, m.lookAt.Get(e))
	}
	if f&featIK != 0 {
		b = snapio.AppendIK(b, m.ik.Get(e))
	}
	if f&featChains != 0 {
		b = snapio.AppendChains(b, chains, m.chains.Get(e))
	}
	if f&featVRM != 0 {
		b = snapio.AppendVRM(b, springs, m.vrm.Get(e))
	}
	if f&featSimple != 0 {
		b = snapio.AppendSimple(b, springs, m.simple.Get(e))
	}
	return b
}

// Restore sets the world's simulation state to what Snapshot saved. The
// world must have the structure it had then: the same characters in the
// same order, with the same skeleton sizes, the same features and the same
// numbers of chains, particles, springs, joints and IK limbs (Restore does
// not add or remove anything). Bytes that are truncated, corrupt, of
// another version or of a differently built world are rejected with a
// *SnapshotError wrapping ErrSnapshot (and ErrSnapshotMismatch for a
// different structure), and the world is left unchanged: the whole
// snapshot is checked before anything is written. Values are checked as
// the setters check them (finite, in range), except the root and the
// particle and spring-tail state, which may hold a fault the systems
// repair themselves. Restore never panics and allocates nothing on
// success. A closed world is not restored.
func (w *World) Restore(b []byte) error {
	if err := w.enter("Restore"); err != nil {
		return err
	}
	defer w.leave()
	if w.closed {
		return fmt.Errorf("sway: Restore on a closed world")
	}
	if err := w.checkFraming(b); err != nil {
		return snapshotError(err)
	}
	if err := w.restore(b, false); err != nil {
		return snapshotError(err)
	}
	return snapshotError(w.restore(b, true))
}

// checkFraming checks the magic, the version and the checksum.
func (w *World) checkFraming(b []byte) error {
	if len(b) < snapshotHeader+snapshotTrailer {
		return &snapbin.Error{Offset: len(b), Char: -1, Field: "header", Reason: fmt.Sprintf("truncated: %d bytes", len(b))}
	}
	if !bytes.Equal(b[:len(snapshotMagic)], snapshotMagic[:]) {
		return &snapbin.Error{Char: -1, Field: "magic", Reason: "not a sway snapshot"}
	}
	var r snapbin.Reader
	r.Reset(b[len(snapshotMagic):snapshotHeader], len(snapshotMagic))
	if v := r.U32("version"); v != SnapshotVersion {
		return &snapbin.Error{Offset: len(snapshotMagic), Char: -1, Field: "version",
			Reason: fmt.Sprintf("format version %d, this build reads %d", v, SnapshotVersion)}
	}
	body := len(b) - snapshotTrailer
	r.Reset(b[body:], body)
	if sum := crc32.Checksum(b[:body], snapshotCRC); r.U32("checksum") != sum {
		return &snapbin.Error{Offset: body, Char: -1, Field: "checksum", Reason: "the bytes are corrupt (CRC-32C differs)"}
	}
	return nil
}

// restore reads the snapshot's body, checking it against the world, and
// writes it when apply.
func (w *World) restore(b []byte, apply bool) error {
	var r snapbin.Reader
	r.Reset(b[snapshotHeader:len(b)-snapshotTrailer], snapshotHeader)
	r.Checked = apply // the first pass checked every value
	dt := r.Range("time.Dt", 0, MaxDt)
	elapsed := r.RangeF64("time.Elapsed", 0, math.MaxFloat64)
	frame := r.U64("time.Frame")
	// As SetReference takes it: each coordinate within ±MaxPosition.
	ref := mgl32.Vec3{r.Range("view.Point", -check.MaxPosition, check.MaxPosition),
		r.Range("view.Point", -check.MaxPosition, check.MaxPosition), r.Range("view.Point", -check.MaxPosition, check.MaxPosition)}
	q := w.snapshotFilter().Query(w.ecs)
	r.Count("characters", q.Count())
	chains, springs := w.chainStore(), w.springStore()
	for i := 0; q.Next(); i++ {
		if r.Failed() {
			q.Close()
			break
		}
		r.Char = i
		pose, root := q.Get()
		w.readCharacter(&r, q.Entity(), pose, root, chains, springs, apply)
	}
	r.Char = -1
	if !r.Failed() && r.Remaining() != 0 {
		r.Corrupt(r.Offset(), "end", fmt.Sprintf("%d bytes after the last character", r.Remaining()))
	}
	if err := r.Err(); err != nil {
		return err
	}
	if apply {
		w.time.Dt, w.time.Elapsed, w.time.Frame = dt, elapsed, frame
		w.view.Point = ref
	}
	return nil
}

func (w *World) readCharacter(r *snapbin.Reader, e ecs.Entity, pose *components.Pose, root *components.Root,
	chains *store.ChainStore, springs *store.SpringStore, apply bool) {
	off := r.Offset()
	f, have := r.U8("features"), w.features(e)
	if !r.Failed() && f != have {
		r.Mismatch(off, "features", "the snapshot's character has features %s, the world's %s", featureNames(f), featureNames(have))
		return
	}
	snapio.ReadPose(r, w.pool, pose, root, apply)
	m := &w.maps
	if f&featAnim != 0 {
		snapio.ReadAnim(r, m.anim.Get(e), apply)
	}
	if f&featBreath != 0 {
		snapio.ReadBreath(r, m.breath.Get(e), apply)
	}
	if f&featLookAt != 0 {
		snapio.ReadLookAt(r, m.lookAt.Get(e), apply)
	}
	if f&featIK != 0 {
		snapio.ReadIK(r, m.ik.Get(e), apply)
	}
	if f&featChains != 0 {
		snapio.ReadChains(r, chains, m.chains.Get(e), apply)
	}
	if f&featVRM != 0 {
		snapio.ReadVRM(r, springs, m.vrm.Get(e), apply)
	}
	if f&featSimple != 0 {
		snapio.ReadSimple(r, springs, m.simple.Get(e), apply)
	}
}

// featureNames lists the features of a mask, for errors.
func featureNames(f uint8) string {
	names := [...]string{"animation", "breath", "look-at", "IK", "chains", "VRM springs", "simple springs"}
	s := ""
	for i, n := range names {
		if f&(1<<i) != 0 {
			if s != "" {
				s += ", "
			}
			s += n
		}
	}
	if f>>len(names) != 0 {
		s += fmt.Sprintf(" and unknown bits %#x", f>>len(names)<<len(names))
	}
	if s == "" {
		return "none"
	}
	return "[" + s + "]"
}
