package sway_test

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/internal/gltfrig"
	"github.com/sway-anim/sway/internal/mathx"
)

// The demo avatar through the facade: LoadRig reads it without warnings,
// AddRig gives it every spring, its skin's matrices are the identity at
// rest (the file's inverse bind matrices match its rest pose), and with
// the root walking its hair, skirt, tail and earrings swing while every
// bone and skinning matrix stays finite.
func TestDemoAvatarWalks(t *testing.T) {
	glb, err := gltfrig.DemoAvatar()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), gltfrig.DemoAvatarName)
	if err := os.WriteFile(path, glb, 0o644); err != nil {
		t.Fatal(err)
	}
	w, e, r := rigWorld(t, path)
	if len(r.Warnings) != 0 || r.Version != sway.RigVRM1 || len(r.Skins) != 1 {
		t.Fatalf("warnings %q, version %v, %d skins", r.Warnings, r.Version, len(r.Skins))
	}
	if n := w.VRMSprings().Of(e).Len(); n != gltfrig.DemoSprings {
		t.Fatalf("%d springs added, want %d", n, gltfrig.DemoSprings)
	}
	skel, err := w.Skeleton(e)
	if err != nil {
		t.Fatal(err)
	}
	sk, err := sway.NewSkin(skel, r.Skins[0])
	if err != nil {
		t.Fatal(err)
	}
	mats, err := w.SkinMatrices(e, sk, nil)
	if err != nil {
		t.Fatal(err)
	}
	worst := 0.0
	for _, m := range mats {
		for _, v := range m.Sub(mgl32.Ident4()) {
			if d := math.Abs(float64(v)); d > worst {
				worst = d
			}
		}
	}
	if len(mats) != len(r.Skins[0].Joints) || worst > 1e-5 {
		t.Fatalf("%d matrices for %d joints; at rest they differ from the identity by %.3g (want <= 1e-5)", len(mats), len(r.Skins[0].Joints), worst)
	}

	// Each kind's swing: how far its joints move from where the rest
	// pose, carried by the root, would put them.
	rest, err := w.Pose(e)
	if err != nil {
		t.Fatal(err)
	}
	restPos := append([]mgl32.Vec3(nil), rest.WorldPos...)
	kind := make([]string, skel.NumBones())
	for _, s := range r.Springs {
		for _, j := range s.Joints[1:] {
			kind[skel.Index(j.Bone)] = strings.TrimRight(s.Name, "0123456789LR")
		}
	}
	swing := map[string]float64{}
	var bodyDrift float64
	for f := 1; f <= 120; f++ {
		root := walkRoot(f)
		if err := w.SetRoot(e, root); err != nil {
			t.Fatal(err)
		}
		if err := w.Step(1.0 / 60); err != nil {
			t.Fatal(err)
		}
		p, err := w.Pose(e)
		if err != nil {
			t.Fatal(err)
		}
		for b, pos := range p.WorldPos {
			if !mathx.Vec3Finite(pos) {
				t.Fatalf("frame %d: bone %s at %v", f, skel.BoneName(b), pos)
			}
			d := float64(pos.Sub(root.Rot.Rotate(restPos[b]).Add(root.Pos)).Len())
			if kind[b] == "" {
				bodyDrift = max(bodyDrift, d)
			} else {
				swing[kind[b]] = max(swing[kind[b]], d)
			}
		}
		if mats, err = w.SkinMatrices(e, sk, mats[:0]); err != nil {
			t.Fatal(err)
		}
		for j, m := range mats {
			for _, v := range m {
				if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
					t.Fatalf("frame %d: joint %d's skinning matrix %v", f, j, m)
				}
			}
		}
	}
	t.Logf("swing over 120 frames (m): %v; the body follows the root within %.3g m", swing, bodyDrift)
	for k, least := range map[string]float64{"Hair": 0.01, "Skirt": 0.01, "Tail": 0.01, "Earring": 0.005} {
		if swing[k] < least || swing[k] > 1 {
			t.Errorf("%s swings %.3g m, want between %.3g and 1 m", k, swing[k], least)
		}
	}
	if bodyDrift > 1e-4 {
		t.Errorf("the body leaves its rest pose by %.3g m: only springs should move", bodyDrift)
	}
}
