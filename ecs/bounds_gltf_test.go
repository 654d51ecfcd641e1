package sway_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	arche "github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/ecs"
)

// writeGLTF writes a glTF file of one scene: a line of nodes, the second
// and third with the given translation and scale.
func writeGLTF(t *testing.T, translation, scale string) string {
	t.Helper()
	js := `{"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}], "nodes": [
		{"name": "root", "children": [1]},
		{"name": "a", "translation": ` + translation + `, "scale": ` + scale + `, "children": [2]},
		{"name": "b", "translation": ` + translation + `, "scale": ` + scale + `, "children": [3]},
		{"name": "c", "translation": [0, 1, 0]}]}`
	path := filepath.Join(t.TempDir(), "huge.gltf")
	if err := os.WriteFile(path, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestHugeGLTFNodesAreRejected(t *testing.T) {
	for _, c := range []struct {
		name, translation, scale, field string
	}{
		{"node translations 2e38", "[2e38, 0, 0]", "[1, 1, 1]", "nodes[1].translation"},
		{"node scales 3e38", "[0, 1, 0]", "[3e38, 3e38, 3e38]", "nodes[1].scale"},
		{"node translations 1e36 scaled 1e3", "[0, 1e36, 0]", "[1e3, 1e3, 1e3]", "nodes[1].translation"},
		{"node translations 1e4 beyond, 1.0001e4", "[0, 1.0001e4, 0]", "[1, 1, 1]", "nodes[1].translation"},
		{"node scales 5e-5", "[0, 1, 0]", "[1, 5e-5, 1]", "nodes[1].scale"},
		// Within the limit on each node, beyond it on the second relative
		// to the root.
		{"node scales 200 on two nested nodes", "[0, 1, 0]", "[1, 200, 1]", "nodes[2].scale"},
	} {
		r, err := sway.LoadRig(writeGLTF(t, c.translation, c.scale))
		wantFieldError(t, c.name, err, c.field, func() string {
			w, err := sway.NewWorld(sway.Options{Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			e, err := w.AddRig(r, sway.Identity())
			if err != nil {
				return "AddRig: " + err.Error()
			}
			return firstNonFinite(w, []arche.Entity{e}, 3)
		})
	}
}

// A file at the limits loads and steps with finite poses, its root at the
// limits too.
func TestGLTFNodesAtTheLimitsLoad(t *testing.T) {
	r, err := sway.LoadRig(writeGLTF(t, "[-1e4, 1e4, 1e4]", "[100, -1e-2, 1e2]"))
	if err != nil {
		t.Fatal(err)
	}
	w, err := sway.NewWorld(sway.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	root := sway.At(mgl32.Vec3{1e6, -1e6, 1e6})
	root.Scale = mgl32.Vec3{1e4, -1e4, 1e-4}
	e, err := w.AddRig(r, root)
	if err != nil {
		t.Fatal(err)
	}
	if s := firstNonFinite(w, []arche.Entity{e}, 10); s != "" {
		t.Fatal(s)
	}
}
