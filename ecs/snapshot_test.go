package sway_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"testing"

	arche "github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/components"
	"github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/internal/store"
)

// reseal rewrites a snapshot's trailing CRC-32C after an edit, so that a
// test reaches the checks behind the checksum.
func reseal(b []byte) []byte {
	if len(b) < 4 {
		return b
	}
	body := len(b) - 4
	binary.LittleEndian.PutUint32(b[body:], crc32.Checksum(b[:body], crc32.MakeTable(crc32.Castagnoli)))
	return b
}

func snapshot(t testing.TB, w *sway.World) []byte {
	t.Helper()
	b, err := w.Snapshot(nil)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Stepping on from a restored snapshot gives the same poses, bit for bit,
// as stepping on from the moment it was taken; the restored world's own
// snapshot equals the one restored, so every saved field was put back.
func TestSnapshotRestoreContinuesBitIdentical(t *testing.T) {
	for _, tc := range []struct {
		name string
		vrm  bool
	}{{"dynamic", false}, {"vrm", true}} {
		t.Run(tc.name, func(t *testing.T) {
			chars := 50
			if testing.Short() {
				chars = 20
			}
			s := newFullScene(t, chars, 2, tc.vrm)
			defer s.w.Close()
			s.step(t, 47) // the next frame has dt 0
			at, frame := s.w.Checksum(), s.frame
			snap := snapshot(t, s.w)
			a := s.stepSums(t, 41) // not a multiple of len(sceneDts): the state differs from the snapshot's

			if err := s.w.Restore(snap); err != nil {
				t.Fatal(err)
			}
			s.frame = frame
			if got := s.w.Checksum(); got != at {
				t.Fatalf("restored poses %016x, at the snapshot %016x", got, at)
			}
			if again := snapshot(t, s.w); !bytes.Equal(again, snap) {
				t.Fatalf("the restored world's snapshot differs from the one restored (first at byte %d)", firstDiff(again, snap))
			}
			sameSums(t, "stepped on, and stepped on after the restore", a, s.stepSums(t, 41))
		})
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// A snapshot restores into a fresh world built the same way, whatever its
// worker count. Character 1 is removed in both: character 0's look-at and
// IK keep its last position, which only the snapshot holds.
func TestRestoreIntoFreshWorld(t *testing.T) {
	for _, vrm := range []bool{false, true} {
		src := newFullScene(t, 20, 1, vrm)
		src.step(t, 10)
		src.removeTarget(t)
		src.step(t, 19) // the next frame has dt 0
		snap := snapshot(t, src.w)
		a := src.stepSums(t, 25)

		dst := newFullScene(t, 20, 3, vrm)
		dst.removeTarget(t)
		if err := dst.w.Restore(snap); err != nil {
			t.Fatal(err)
		}
		dst.frame = 29
		sameSums(t, fmt.Sprintf("vrm %v: stepped on, and restored into a fresh world", vrm), a, dst.stepSums(t, 25))
		src.w.Close()
		dst.w.Close()
	}
}

func TestSnapshotAndRestoreDoNotAllocate(t *testing.T) {
	s := newFullScene(t, 30, 2, false)
	defer s.w.Close()
	s.step(t, 5)
	buf := make([]byte, 0, 4<<20)
	snap := snapshot(t, s.w)
	if a := testing.AllocsPerRun(20, func() {
		buf, _ = s.w.Snapshot(buf[:0])
	}); a != 0 {
		t.Errorf("Snapshot into a large enough buffer: %v allocations", a)
	}
	if !bytes.Equal(buf, snap) {
		t.Fatal("Snapshot into a reused buffer differs")
	}
	if a := testing.AllocsPerRun(20, func() {
		if err := s.w.Restore(snap); err != nil {
			t.Fatal(err)
		}
	}); a != 0 {
		t.Errorf("Restore: %v allocations", a)
	}
}

// Snapshot appends: what dst held stays in front.
func TestSnapshotAppends(t *testing.T) {
	s := newFullScene(t, 3, 1, true)
	defer s.w.Close()
	s.step(t, 3)
	snap := snapshot(t, s.w)
	b, err := s.w.Snapshot([]byte("prefix"))
	if err != nil {
		t.Fatal(err)
	}
	if string(b[:6]) != "prefix" || !bytes.Equal(b[6:], snap) {
		t.Fatal("Snapshot did not append to dst")
	}
	if err := s.w.Restore(b[6:]); err != nil {
		t.Fatal(err)
	}
}

// rejects checks that Restore refuses b with an error wrapping
// ErrSnapshot (and ErrSnapshotMismatch when mismatch), and leaves the
// world as it was.
func rejects(t *testing.T, w *sway.World, name string, b []byte, mismatch bool) {
	t.Helper()
	before := snapshot(t, w)
	err := w.Restore(b)
	var se *sway.SnapshotError
	switch {
	case err == nil:
		t.Errorf("%s: accepted", name)
		return
	case !errors.Is(err, sway.ErrSnapshot) || !errors.As(err, &se):
		t.Errorf("%s: %v is not a *SnapshotError wrapping ErrSnapshot", name, err)
	case errors.Is(err, sway.ErrSnapshotMismatch) != mismatch:
		t.Errorf("%s: %v: mismatch %v, want %v", name, err, errors.Is(err, sway.ErrSnapshotMismatch), mismatch)
	}
	if after := snapshot(t, w); !bytes.Equal(before, after) {
		t.Errorf("%s: the rejected snapshot changed the world", name)
	}
}

func TestRestoreRejectsBadSnapshots(t *testing.T) {
	s := newFullScene(t, 3, 1, false)
	defer s.w.Close()
	s.step(t, 10)
	snap := snapshot(t, s.w)
	s.step(t, 5)
	edit := func(f func(b []byte)) []byte {
		b := bytes.Clone(snap)
		f(b)
		return reseal(b)
	}

	for _, n := range []int{0, 7, 12, 15, 40, len(snap) / 2, len(snap) - 5, len(snap) - 1} {
		rejects(t, s.w, "truncated", snap[:n], false)
	}
	// Cut inside the body with a valid checksum: the reader runs out.
	rejects(t, s.w, "truncated and resealed", reseal(append(bytes.Clone(snap[:len(snap)/2]), 0, 0, 0, 0)), false)
	rejects(t, s.w, "trailing bytes", reseal(append(bytes.Clone(snap[:len(snap)-4]), 0, 0, 0, 0, 0)), false)
	rejects(t, s.w, "a flipped bit", func() []byte { b := bytes.Clone(snap); b[len(b)/3] ^= 4; return b }(), false)
	rejects(t, s.w, "magic", edit(func(b []byte) { b[0] = 'X' }), false)
	rejects(t, s.w, "version", edit(func(b []byte) { b[8] = 99 }), false)
	const dt = 12 // the clock's dt follows the 12-byte header
	rejects(t, s.w, "NaN dt", edit(func(b []byte) { binary.LittleEndian.PutUint32(b[dt:], math.Float32bits(float32(math.NaN()))) }), false)
	rejects(t, s.w, "dt above MaxDt", edit(func(b []byte) { binary.LittleEndian.PutUint32(b[dt:], math.Float32bits(1)) }), false)
	const chars = dt + 4 + 8 + 8 + 12
	rejects(t, s.w, "character count", edit(func(b []byte) { b[chars]++ }), true)
	rejects(t, s.w, "features", edit(func(b []byte) { b[chars+4] ^= 1 << 6 }), true)
	const bones = chars + 4 + 1
	rejects(t, s.w, "bone count", edit(func(b []byte) { b[bones]-- }), true)
	const dirty = bones + 4 + 40
	rejects(t, s.w, "dirty range", edit(func(b []byte) { binary.LittleEndian.PutUint32(b[dirty:], 1000) }), false)
	const pool = dirty + 8 + 40 + 4
	rejects(t, s.w, "Inf in the pool", edit(func(b []byte) { binary.LittleEndian.PutUint32(b[pool:], math.Float32bits(float32(math.Inf(1)))) }), false)

	// A world built otherwise: fewer characters, or no chains.
	other := newFullScene(t, 2, 1, false)
	defer other.w.Close()
	rejects(t, other.w, "two characters", snap, true)
	vrm := newFullScene(t, 3, 1, true)
	defer vrm.w.Close()
	rejects(t, vrm.w, "VRM springs instead of chains", snap, true)

	if err := s.w.Restore(snap); err != nil {
		t.Fatalf("the original snapshot after the rejections: %v", err)
	}
}

// A snapshot taken while a character's root is not finite (written
// straight into the component) or a chain's particles are not finite
// restores as it is, and the systems repair it as they would have: the
// character keeps its last good pose, the chain restarts from the
// animated pose and counts the fault.
func TestRestoreKeepsFaults(t *testing.T) {
	s := newFullScene(t, 2, 1, false)
	defer s.w.Close()
	s.step(t, 5)
	nanRoot(s.w, s.ents[0])
	if err := s.w.Step(1.0 / 60); err != nil {
		t.Fatal(err)
	}
	st := arche.GetResource[store.ChainStore](s.w.ECS())
	h := (*components.Chains)(s.w.ECS().Get(s.ents[1], arche.ComponentID[components.Chains](s.w.ECS())))
	first := st.Chains[h.First].First
	st.Particles.Pos[first+1][1] = float32(math.NaN())
	snap := snapshot(t, s.w)
	if err := s.w.Restore(snap); err != nil {
		t.Fatal(err)
	}
	before, _ := s.w.Chains().Of(s.ents[1]).Faults()
	if err := s.w.Step(1.0 / 60); err != nil {
		t.Fatal(err)
	}
	assertFinitePoses(t, s.w, s.ents)
	if after, _ := s.w.Chains().Of(s.ents[1]).Faults(); after != before+1 {
		t.Fatalf("chain faults %d after the restored NaN particle, %d before", after, before)
	}
}

// nanRoot writes a NaN into a character's root component, as a game
// writing the component directly could.
func nanRoot(w *sway.World, e arche.Entity) {
	root := (*components.Root)(w.ECS().Get(e, arche.ComponentID[components.Root](w.ECS())))
	root.Pos[0] = float32(math.NaN())
}

// assertFinitePoses fails if a bone's world transform of a character is
// not finite.
func assertFinitePoses(t testing.TB, w *sway.World, ents []arche.Entity) {
	t.Helper()
	for _, e := range ents {
		if !w.IsCharacter(e) {
			continue
		}
		v, err := w.Pose(e)
		if err != nil {
			t.Fatal(err)
		}
		for b := range v.WorldPos {
			if !finite3(v.WorldPos[b]) || !finite4(v.WorldRot[b]) || !finite3(v.WorldScale[b]) {
				t.Fatalf("character %v bone %d: world transform %v %v %v", e, b, v.WorldPos[b], v.WorldRot[b], v.WorldScale[b])
			}
		}
	}
}
