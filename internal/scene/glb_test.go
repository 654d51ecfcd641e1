package scene

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sway-anim/sway/ecs"
)

// The locomotion clips written to a file and loaded back are the
// hand-built ones: the same rate and keys on the same bones (by name),
// every rotation within 1e-6 and every translation equal.
func TestLocomotionGLBLoadsBack(t *testing.T) {
	sc, err := New(Config{Characters: 1, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	glb, err := sc.LocomotionGLB()
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "locomotion.glb")
	if err := os.WriteFile(file, glb, 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := sway.LoadRig(file)
	if err != nil {
		t.Fatal(err)
	}
	w, err := sway.NewWorld(sway.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	skel, err := w.RigSkeleton(r)
	if err != nil {
		t.Fatal(err)
	}
	want := sc.LocomotionClips()
	if len(r.Animations) != len(want) {
		t.Fatalf("%d animations, want %d", len(r.Animations), len(want))
	}
	for i, h := range want {
		got, err := r.Clip(i, skel, h.Loop)
		if err != nil {
			t.Fatal(err)
		}
		if got.Name != h.Name || got.SampleRate != h.SampleRate || got.KeyCount != h.KeyCount || len(got.Tracks) != len(h.Tracks) {
			t.Fatalf("clip %d: %s %v/s %d keys %d tracks, want %s %v/s %d keys %d tracks", i,
				got.Name, got.SampleRate, got.KeyCount, len(got.Tracks), h.Name, h.SampleRate, h.KeyCount, len(h.Tracks))
		}
		byName := map[string]int{}
		for k, tr := range got.Tracks {
			byName[skel.BoneName(tr.Bone)] = k
		}
		for _, ht := range h.Tracks {
			k, ok := byName[sc.Skeleton.BoneName(ht.Bone)]
			if !ok {
				t.Fatalf("clip %s: no track for %s", h.Name, sc.Skeleton.BoneName(ht.Bone))
			}
			gt := got.Tracks[k]
			for j, q := range ht.Rotations {
				if g := gt.Rotations[j]; g.Dot(q) < 1-1e-6 && g.Dot(q) > -1+1e-6 {
					t.Fatalf("clip %s bone %s key %d: %v, want %v", h.Name, sc.Skeleton.BoneName(ht.Bone), j, g, q)
				}
			}
			for j, p := range ht.Translations {
				if gt.Translations[j] != p {
					t.Fatalf("clip %s bone %s key %d: translation %v, want %v", h.Name, sc.Skeleton.BoneName(ht.Bone), j, gt.Translations[j], p)
				}
			}
		}
	}
}
