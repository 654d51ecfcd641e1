package sway_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	arche "github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/components"
	"github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/internal/store"
)

// Snapshot layout of the first character (see TestRestoreRejectsBadSnapshots).
const (
	snapFirstRoot  = 12 + 4 + 8 + 8 + 12 + 4 + 1 + 4 // its root transform
	snapFirstDirty = snapFirstRoot + 40              // DirtyLo, DirtyHi
	snapFirstPool  = snapFirstDirty + 8 + 40 + 4     // LocalPos[0]
)

func putF32(b []byte, off int, v float32) {
	binary.LittleEndian.PutUint32(b[off:], math.Float32bits(v))
}

func TestHugeSnapshotValuesAreRejected(t *testing.T) {
	skel := smallSkeleton(t)
	w, err := sway.NewWorld(sway.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	e, err := w.AddCharacter(skel, sway.Identity())
	if err != nil {
		t.Fatal(err)
	}
	snap := snapshot(t, w)
	n := skel.NumBones()
	for _, c := range []struct {
		name, field string
		edit        func(b []byte)
	}{
		{"root scale 3e38", "root", func(b []byte) {
			for k := range 3 {
				putF32(b, snapFirstRoot+28+4*k, 3e38)
			}
		}},
		{"root position 3e38", "root", func(b []byte) {
			for k := range 3 {
				putF32(b, snapFirstRoot+4*k, 3e38)
			}
		}},
		{"local translations 2e38", "pool.LocalPos", func(b []byte) {
			binary.LittleEndian.PutUint32(b[snapFirstDirty:], 0)
			binary.LittleEndian.PutUint32(b[snapFirstDirty+4:], uint32(n))
			for i := 1; i < n; i++ {
				putF32(b, snapFirstPool+12*i, 2e38)
			}
		}},
		{"local scales 3e38", "pool.LocalScale", func(b []byte) {
			binary.LittleEndian.PutUint32(b[snapFirstDirty:], 0)
			binary.LittleEndian.PutUint32(b[snapFirstDirty+4:], uint32(n))
			scale := snapFirstPool + 12*n + 16*n
			for i := range n {
				for k := range 3 {
					putF32(b, scale+12*i+4*k, 3e38)
				}
			}
		}},
		{"world positions 3e38", "pool.WorldPos", func(b []byte) {
			world := snapFirstPool + 2*12*n + 16*n
			for i := range n {
				putF32(b, world+12*i, 3e38)
			}
		}},
		{"world scales 3e38", "pool.WorldScale", func(b []byte) {
			scale := snapFirstPool + 3*12*n + 2*16*n
			putF32(b, scale+12*2+4, 3e38)
		}},
	} {
		b := bytes.Clone(snap)
		c.edit(b)
		b = reseal(b)
		err := w.Restore(b)
		var se *sway.SnapshotError
		switch {
		case err == nil:
			t.Errorf("%s: accepted; then: %s", c.name, orFinite(firstNonFinite(w, []arche.Entity{e}, 3)))
		case !errors.As(err, &se) || !errors.Is(err, sway.ErrSnapshot):
			t.Errorf("%s: %v is not a *SnapshotError wrapping ErrSnapshot", c.name, err)
		case se.Field != c.field:
			t.Errorf("%s: %v names field %q, want %q", c.name, err, se.Field, c.field)
		}
		if err := w.Restore(snap); err != nil {
			t.Fatal(err)
		}
	}
}

// Values at the limits restore, and the world steps on with finite poses.
func TestSnapshotAtTheLimitsRestores(t *testing.T) {
	skel := smallSkeleton(t)
	w, err := sway.NewWorld(sway.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	root := sway.At(mgl32.Vec3{-1e6, 1e6, 1e6})
	root.Scale = mgl32.Vec3{1e4, -1e-4, 1e4}
	e, err := w.AddCharacter(skel, root)
	if err != nil {
		t.Fatal(err)
	}
	for b := 1; b < skel.NumBones(); b++ {
		if err := w.SetBoneLocal(e, b, sway.Transform{Pos: mgl32.Vec3{1e4, -1e4, 1e4}, Rot: mgl32.QuatIdent(), Scale: mgl32.Vec3{1, 1, 1}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.SetBoneLocal(e, 1, sway.Transform{Pos: mgl32.Vec3{1e4, -1e4, 1e4}, Rot: mgl32.QuatIdent(), Scale: mgl32.Vec3{-1e4, 1e4, 0}}); err != nil {
		t.Fatal(err)
	}
	if s := firstNonFinite(w, []arche.Entity{e}, 0); s != "" {
		t.Fatal(s)
	}
	snap := snapshot(t, w)
	if err := w.Restore(snap); err != nil {
		t.Fatal(err)
	}
	if s := firstNonFinite(w, []arche.Entity{e}, 10); s != "" {
		t.Fatal(s)
	}
}

// Chain particles and spring tails are state the systems check and repair
// every frame, so a snapshot may hold any bits there (TestRestoreKeepsFaults);
// huge finite ones stay out of the poses too.
func TestRestoredHugeParticlesStayOutOfPoses(t *testing.T) {
	s := newFullScene(t, 2, 1, false)
	defer s.w.Close()
	s.step(t, 5)
	st := arche.GetResource[store.ChainStore](s.w.ECS())
	h := (*components.Chains)(s.w.ECS().Get(s.ents[1], arche.ComponentID[components.Chains](s.w.ECS())))
	first := st.Chains[h.First].First
	st.Particles.Pos[first+1] = mgl32.Vec3{3e38, -3e38, 3e38}
	st.Particles.Prev[first+2] = mgl32.Vec3{-3e38, 3e38, 3e38}
	snap := snapshot(t, s.w)
	if err := s.w.Restore(snap); err != nil {
		t.Fatal(err)
	}
	if got := firstNonFinite(s.w, s.ents, 20); got != "" {
		t.Fatal(got)
	}
	// The steps repaired them: the particles hang by the character again.
	root, err := s.w.Root(s.ents[1])
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []mgl32.Vec3{st.Particles.Pos[first+1], st.Particles.Prev[first+2]} {
		if d := p.Sub(root.Pos).Len(); !(d < 5) {
			t.Fatalf("a restored huge particle is at %v, %g m from the root at %v", p, d, root.Pos)
		}
	}
}
