package sway_test

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// TestSnapshotKeepsSimpleSpringState: a walker whose earring is swinging
// is saved, stepped on, restored and stepped on again with the same
// (non-zero) frame times: the earring moves the same, bit for bit, so
// every part of its state (tip, velocity, anchor) was saved.
func TestSnapshotKeepsSimpleSpringState(t *testing.T) {
	w, e, skel := newWalker(t, "")
	defer w.Close()
	root := func(f int) mgl32.Vec3 { // speeding up, then weaving
		x := float64(f) * walkDt
		return mgl32.Vec3{float32(0.3 * math.Sin(4*x)), 0, float32(0.6 * x * x)}
	}
	f := 0
	step := func(n int) []mgl32.Quat {
		var out []mgl32.Quat
		for ; n > 0; n-- {
			f++
			r, _ := w.Root(e)
			r.Pos = root(f)
			if err := w.SetRoot(e, r); err != nil {
				t.Fatal(err)
			}
			if err := w.Step(walkDt); err != nil {
				t.Fatal(err)
			}
			b, _ := w.BoneWorld(e, skel.Index("earring"))
			out = append(out, b.Rot)
		}
		return out
	}
	step(40)
	snap, at := snapshot(t, w), f
	a := step(30)
	if err := w.Restore(snap); err != nil {
		t.Fatal(err)
	}
	f = at
	b := step(30)
	for i := range a {
		if quatBits(a[i]) != quatBits(b[i]) {
			t.Fatalf("frame %d after the snapshot: the earring's rotation %v, after the restore %v", i+1, a[i], b[i])
		}
	}
	if hangAngle(t, w, e, skel) < 1 {
		t.Fatal("the earring hangs at rest: the test does not test its motion")
	}
}
