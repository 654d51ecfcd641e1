package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/gltfrig"
	"github.com/sway-anim/sway/systems/collide"
	"github.com/sway-anim/sway/systems/spring"
)

// corpusWalkPath is the corpus walk as a root path: a 1.2 m square at
// 1.2 m/s, a 90 degree left turn in half a second at each corner, then
// still. Rotations are w first: a turn of a about +Y is (cos a/2, 0,
// sin a/2, 0).
const corpusWalkPath = `[
 {"t": 0,   "pos": [0, 0, 0],     "rot": [1, 0, 0, 0]},
 {"t": 1,   "pos": [0, 0, 1.2],   "rot": [1, 0, 0, 0]},
 {"t": 1.5, "pos": [0, 0, 1.2],   "rot": [0.70710678, 0, 0.70710678, 0]},
 {"t": 2.5, "pos": [1.2, 0, 1.2], "rot": [0.70710678, 0, 0.70710678, 0]},
 {"t": 3,   "pos": [1.2, 0, 1.2], "rot": [0, 0, 1, 0]},
 {"t": 4,   "pos": [1.2, 0, 0],   "rot": [0, 0, 1, 0]},
 {"t": 4.5, "pos": [1.2, 0, 0],   "rot": [-0.70710678, 0, 0.70710678, 0]},
 {"t": 5.5, "pos": [0, 0, 0],     "rot": [-0.70710678, 0, 0.70710678, 0]},
 {"t": 6,   "pos": [0, 0, 0],     "rot": [-1, 0, 0, 0]}
]`

// sway trace runs every corpus file for 120 frames along the walk: exit
// status 0, 120 frames of every bone, all finite, the file's VRM version,
// the root bone where the path puts the root (hand-worked: 1.2 m ahead
// after one second, (0, 0, 1.2)), and the springs swinging off their
// rest (the hair and skirt tips move relative to the root bone).
func TestTraceCorpus(t *testing.T) {
	dir := t.TempDir()
	pathFile := filepath.Join(dir, "walk.json")
	if err := os.WriteFile(pathFile, []byte(corpusWalkPath), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range gltfrig.Corpus() {
		t.Run(c.Name, func(t *testing.T) {
			glb, err := c.GLB()
			if err != nil {
				t.Fatal(err)
			}
			file, out := filepath.Join(dir, c.Name+".vrm"), filepath.Join(dir, c.Name+".json")
			if err := os.WriteFile(file, glb, 0o644); err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			if code := run([]string{"trace", file, "-frames", "120", "-root-path", pathFile, "-out", out}, &stdout, &stderr); code != 0 {
				t.Fatalf("exit %d: %s", code, stderr.String())
			}
			var tr Trace
			if err := json.Unmarshal([]byte(mustRead(t, out)), &tr); err != nil {
				t.Fatal(err)
			}
			r, err := gltfrig.Load(file)
			if err != nil {
				t.Fatal(err)
			}
			if len(tr.Frames) != 120 || len(tr.Bones) != len(r.Skeleton.Bones) || tr.Version != r.Version.String() {
				t.Fatalf("%d frames, %d bones, %s; want 120, %d, %s", len(tr.Frames), len(tr.Bones), tr.Version, len(r.Skeleton.Bones), r.Version)
			}
			tips := map[int]bool{}
			for _, s := range r.Springs {
				for b, name := range tr.Bones {
					if name == s.Joints[len(s.Joints)-1].Bone {
						tips[b] = true
					}
				}
			}
			var swing float64
			for k, f := range tr.Frames {
				for b := range tr.Bones {
					for _, v := range append(f.Pos[b][:], f.Rot[b][:]...) {
						if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
							t.Fatalf("frame %d: %s at %v %v", k, tr.Bones[b], f.Pos[b], f.Rot[b])
						}
					}
				}
				// Tips against where they were in frame 0, seen from the
				// root bone (bone 0, at the root).
				f0 := tr.Frames[0]
				for b := range tips {
					rel := mgl32.Vec3(f.Pos[b]).Sub(f.Pos[0])
					rel0 := mgl32.Vec3(f0.Pos[b]).Sub(f0.Pos[0])
					q := mgl32.Quat{W: f.Rot[0][0], V: mgl32.Vec3{f.Rot[0][1], f.Rot[0][2], f.Rot[0][3]}}
					q0 := mgl32.Quat{W: f0.Rot[0][0], V: mgl32.Vec3{f0.Rot[0][1], f0.Rot[0][2], f0.Rot[0][3]}}
					swing = max(swing, float64(q.Inverse().Rotate(rel).Sub(q0.Inverse().Rotate(rel0)).Len()))
				}
			}
			t.Logf("tips swing up to %.3g m relative to the root bone", swing)
			if strings.Contains(tr.Bones[0], "#") || tr.Bones[0] != r.Skeleton.Bones[0].Name {
				t.Errorf("bone 0 is %q, want the file's first root %q", tr.Bones[0], r.Skeleton.Bones[0].Name)
			}
			if p := tr.Frames[60].Pos[0]; mgl32.Vec3(p).Sub(mgl32.Vec3{0, 0, 1.2}).Len() > 1e-5 {
				t.Errorf("root bone at %v after one second, want (0, 0, 1.2)", p)
			}
			if swing < 0.005 {
				t.Errorf("the spring tips hardly move relative to the root bone (%.3g m)", swing)
			}
		})
	}
}

// sway inspect prints every corpus file's extended colliders and joint
// limits: exit status 0, no warning, one "inside" line per inside
// collider, one "plane" line per plane, one "limit <kind>" per joint with
// a limit, as the loaded rig has them; and, worked from the files' JSON,
// the lines of the extended colliders of univrm1-extended and the
// three-vrm examples, and of the three kinds of limit of univrm1-limits
// (the back hair strand at -150 degrees leans its cone 15 degrees about
// its tangent (-cos 30°, 0, sin 30°) the other way: rotation
// (0.866·sin 7.5°, 0, -0.5·sin 7.5°, cos 7.5°)).
func TestInspectCorpus(t *testing.T) {
	dir := t.TempDir()
	want := map[string][]string{
		"univrm1-extended": {
			"  [10] J_Bip_C_Head         sphere inside (0, -0.15, -0.1) r 0.25\n",
			"  [11] J_Bip_C_Hips         capsule inside (0, 0, 0) r 0.26 -> (0, -0.45, 0) r 0.26\n",
			"  [12] J_Bip_C_UpperChest   plane outside point (0, 0, -0.08) normal (0, 0, -1)\n",
			"  [13] J_Bip_C_Head         plane outside point (0, 0.06, 0.08) normal (0, 0, 1)\n",
		},
		"univrm1-limits": {
			"J_Sec_Hair1_01       stiffness 1.1  gravity 0.05 (0, -1, 0)  drag 0.4  hitRadius 0.02  limit cone 17.19° rot (0.113, 0, -0.06526, 0.9914)\n",
			"J_Sec_Hair1_03       stiffness 1.1  gravity 0.05 (0, -1, 0)  drag 0.4  hitRadius 0.02  limit cone 28.65° rot (0.113, 0, -0.06526, 0.9914)\n",
			"J_Sec_Hair5_01       stiffness 1.1  gravity 0.05 (0, -1, 0)  drag 0.4  hitRadius 0.02  limit cone 17.19°\n",
			"J_Sec_L_SkirtFront0_01 stiffness 1.5  gravity 0.3 (0, -1, 0)  drag 0.35  hitRadius 0.02  limit hinge 20.05° rot (0, 0.2164, 0, 0.9763)\n",
			"J_Sec_R_Earring_02   stiffness 0.4  gravity 0.6 (0, -1, 0)  drag 0.2  hitRadius 0.008  limit spherical pitch 17.19° yaw 8.594° rot (0, 0.2588, 0, 0.9659)\n",
			"J_Sec_R_Earring_04   stiffness 0.4  gravity 0.6 (0, -1, 0)  drag 0.2  hitRadius 0.008\n",
		},
		"threevrm-plane":  {"  [0] Collider             plane outside point (0, 0, 0) normal (-1, 0, 0)\n"},
		"threevrm-inside": {"  [0] Collider             sphere inside (0, 0, 0) r 1.2\n"},
	}
	for _, c := range gltfrig.Corpus() {
		t.Run(c.Name, func(t *testing.T) {
			glb, err := c.GLB()
			if err != nil {
				t.Fatal(err)
			}
			file := filepath.Join(dir, c.Name+".vrm")
			if err := os.WriteFile(file, glb, 0o644); err != nil {
				t.Fatal(err)
			}
			var out, errb bytes.Buffer
			if code := run([]string{"inspect", file}, &out, &errb); code != 0 {
				t.Fatalf("exit %d: %s", code, errb.String())
			}
			got := out.String()
			if strings.Contains(got, "warning") {
				t.Errorf("warnings in\n%s", got)
			}
			r, err := gltfrig.Load(file)
			if err != nil {
				t.Fatal(err)
			}
			count := map[string]int{}
			for _, col := range r.Colliders {
				if col.Shape.Bound == collide.Inside {
					count[" inside "]++
				}
				if col.Shape.Kind == collide.Plane {
					count[" plane outside point "]++
				}
			}
			for _, s := range r.Springs {
				for _, j := range s.Joints {
					switch j.Limit.Kind {
					case spring.ConeLimit:
						count["  limit cone "]++
					case spring.HingeLimit:
						count["  limit hinge "]++
					case spring.SphericalLimit:
						count["  limit spherical pitch "]++
					}
				}
			}
			for _, k := range []string{" inside ", " plane outside point ", "  limit cone ", "  limit hinge ", "  limit spherical pitch "} {
				if n := strings.Count(got, k); n != count[k] {
					t.Errorf("%d lines with %q, the rig has %d", n, k, count[k])
				}
			}
			for _, w := range want[c.Name] {
				if !strings.Contains(got, w) {
					t.Errorf("output lacks %q", w)
				}
			}
		})
	}
}
