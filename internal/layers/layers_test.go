// Package layers holds the test that keeps sway's packages layered: a
// package imports only packages of its own layer or of a lower one.
package layers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/sway-anim/sway"

// layer is one row of the table: its packages (paths within the module;
// a trailing "/..." takes every package under a directory) and whether
// they must stay plain data, without arche.
type layer struct {
	name     string
	packages []string
	noArche  bool
}

// layers lists sway's layers from the bottom up (docs/architecture.md
// draws them). A package may import packages of its own layer and of the
// layers below it, never of a layer above.
var layers = []layer{
	{name: "kernels", noArche: true, packages: []string{
		// The pure math of each step, the math helpers, the limits and the
		// snapshot byte layout: no world, no ECS, no storage. The error
		// type every layer returns for bad input (field.Error) is a leaf.
		"components/field",
		"internal/mathx", "internal/check", "internal/slicex", "internal/prefetch", "internal/memguard",
		"internal/snapbin",
		"systems/fk", "systems/chain", "systems/collide", "systems/spring",
		"systems/breath", "systems/lookat", "systems/ik", "systems/anim", "systems/skin",
		// Retargeting of VRM Animation clips: pure math on plain data.
		"internal/vrma",
		// The worker pool knows nothing of sway: any layer may hand it work.
		"jobs",
	}},
	{name: "components", packages: []string{
		// The ECS's plain data: components embed the kernels' own state
		// types (anim.Player, breath.State, lookat.Head...), so a system
		// hands a kernel its component's field, with no copy.
		"components",
	}},
	{name: "storage", noArche: true, packages: []string{
		// One range allocator and the stores built on it (pose pool, chain
		// store, spring store), and the skeletons the pool is indexed by.
		"internal/store", "internal/rig",
	}},
	{name: "scheduler", packages: []string{
		// Phases, Pipeline, fusion, chunks: knows the System interface, the
		// job pool and a character's Pose, and no system.
		"systems/schedule",
	}},
	{name: "systems", packages: []string{
		// The ECS systems and the default pipeline they register into.
		"systems",
	}},
	{name: "snapshot", packages: []string{
		// Serialisation of storage and components, and glTF/VRM loading.
		"internal/snapio", "internal/gltfrig",
	}},
	{name: "facade", packages: []string{"ecs"}},
	{name: "tools", packages: []string{"cmd/...", "bench", "internal/scene", "internal/render"}},
}

// allowed lists imports that point upward today, as "from -> to". Each is
// a defect to fix, and the list is to end empty.
var allowed = []string{}

// pkg is what go list says of a package.
type pkg struct {
	ImportPath string
	Dir        string
	GoFiles    []string
	Imports    []string
	Module     struct{ Dir string }
}

// listPackages runs go list over the module.
func listPackages(t *testing.T) []pkg {
	t.Helper()
	cmd := exec.Command("go", "list", "-json", module+"/...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	var pkgs []pkg
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p pkg
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	// go test caches a passing result by the files the test reads: read
	// the module's directories and the packages' files, so that a changed
	// import or a new package runs the test again.
	if len(pkgs) > 0 {
		filepath.WalkDir(pkgs[0].Module.Dir, func(path string, d fs.DirEntry, err error) error {
			if err == nil && d.IsDir() && strings.HasPrefix(d.Name(), ".") && path != pkgs[0].Module.Dir {
				return filepath.SkipDir
			}
			return nil
		})
	}
	for _, p := range pkgs {
		for _, f := range p.GoFiles {
			if _, err := os.ReadFile(filepath.Join(p.Dir, f)); err != nil {
				t.Fatal(err)
			}
		}
	}
	return pkgs
}

// layerOf returns the index in layers of a module package path (without
// the module prefix), or -1.
func layerOf(path string) int {
	for i, l := range layers {
		for _, p := range l.packages {
			if p == path || strings.HasSuffix(p, "/...") && strings.HasPrefix(path, strings.TrimSuffix(p, "...")) {
				return i
			}
		}
	}
	return -1
}

// TestLayers fails for every import of a package of a higher layer, for
// every package the table does not place, and for arche imported by a
// layer of plain data. Test files are not checked: a kernel's test may
// build a world.
func TestLayers(t *testing.T) {
	var violations []string
	for _, p := range listPackages(t) {
		rel, ok := strings.CutPrefix(p.ImportPath, module+"/")
		if !ok || len(p.GoFiles) == 0 { // the module root, or tests only (this package)
			continue
		}
		from := layerOf(rel)
		if from < 0 {
			t.Errorf("package %s is in no layer: add it to the table in %s", rel, "internal/layers/layers_test.go")
			continue
		}
		for _, imp := range p.Imports {
			if layers[from].noArche && strings.HasPrefix(imp, "github.com/mlange-42/arche") {
				violations = append(violations, fmt.Sprintf("%s -> %s (the %s layer is plain data, without arche)", rel, imp, layers[from].name))
				continue
			}
			dep, ok := strings.CutPrefix(imp, module+"/")
			if !ok {
				continue
			}
			to := layerOf(dep)
			if to > from {
				violations = append(violations, fmt.Sprintf("%s -> %s (%s imports %s)", rel, dep, layers[from].name, layers[to].name))
			}
		}
	}
	for _, v := range violations {
		edge, _, _ := strings.Cut(v, " (")
		if !slices.Contains(allowed, edge) {
			t.Errorf("upward import: %s", v)
		}
	}
	for _, a := range allowed {
		if !slices.ContainsFunc(violations, func(v string) bool { return strings.HasPrefix(v, a+" (") }) {
			t.Errorf("allowed %q no longer happens: remove it from the list", a)
		}
	}
}

// TestLayerTable checks the table itself: every package in one layer only.
func TestLayerTable(t *testing.T) {
	seen := map[string]string{}
	for _, l := range layers {
		for _, p := range l.packages {
			if other, ok := seen[p]; ok {
				t.Errorf("%s is in layers %s and %s", p, other, l.name)
			}
			seen[p] = l.name
		}
	}
}
