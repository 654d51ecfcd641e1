package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/internal/gltfrig"
)

// tracePath is the root path of the test: a walk with a turn, a stop and
// a quaternion written with the opposite sign (the slerp takes the short
// way). Times in seconds; rot w first.
const tracePath = `[
 {"t": 0,   "pos": [0, 0, 0],      "rot": [1, 0, 0, 0]},
 {"t": 0.5, "pos": [0.4, 0, 0.3],  "rot": [0.9238795, 0, 0.3826834, 0]},
 {"t": 1,   "pos": [0.5, 0.05, 1], "rot": [-0.7071068, 0, -0.7071068, 0]},
 {"t": 1.2, "pos": [0.5, 0.05, 1], "rot": [0.7071068, 0, 0.7071068, 0]}
]`

// refRoot is the test's own reading of tracePath at t (not the command's).
func refRoot(t float64) sway.Transform {
	type key struct {
		t   float64
		pos mgl32.Vec3
		yaw float64 // the path turns about +Y only
	}
	keys := []key{{0, mgl32.Vec3{}, 0}, {0.5, mgl32.Vec3{0.4, 0, 0.3}, math.Pi / 4}, {1, mgl32.Vec3{0.5, 0.05, 1}, math.Pi / 2}, {1.2, mgl32.Vec3{0.5, 0.05, 1}, math.Pi / 2}}
	k := keys[len(keys)-1]
	pos, yaw := k.pos, k.yaw
	for i := 0; i+1 < len(keys); i++ {
		if a, b := keys[i], keys[i+1]; t < b.t {
			s := (t - a.t) / (b.t - a.t)
			pos = a.pos.Add(b.pos.Sub(a.pos).Mul(float32(s)))
			yaw = a.yaw + (b.yaw-a.yaw)*s // slerp about one axis
			break
		}
	}
	root := sway.At(pos)
	root.Rot = mgl32.QuatRotate(float32(yaw), mgl32.Vec3{0, 1, 0})
	return root
}

// sway trace on the fixture avatar (0.x, with its branch) writes what the
// library gives for the same steps: the same bones, and every frame's
// world positions and rotations within 1e-6, in JSON and in CSV.
func TestTraceMatchesTheLibrary(t *testing.T) {
	dir := t.TempDir()
	glb, err := gltfrig.Fixture(gltfrig.VersionVRM0, gltfrig.FixtureOptions{Branch: true})
	if err != nil {
		t.Fatal(err)
	}
	file, pathFile := filepath.Join(dir, "avatar.vrm"), filepath.Join(dir, "path.json")
	if err := os.WriteFile(file, glb, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pathFile, []byte(tracePath), 0o644); err != nil {
		t.Fatal(err)
	}
	const frames, dt = 90, 1.0 / 60
	outJSON, outCSV := filepath.Join(dir, "out.json"), filepath.Join(dir, "out.csv")
	for _, a := range [][]string{
		{"trace", file, "-frames", "90", "-dt", strconv.FormatFloat(dt, 'g', -1, 64), "-root-path", pathFile, "-out", outJSON},
		{"trace", "-frames", "90", "-root-path", pathFile, "-out", outCSV, "-format", "csv", file},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(a, &stdout, &stderr); code != 0 {
			t.Fatalf("%v: exit %d: %s", a, code, stderr.String())
		}
	}
	var tr Trace
	b, _ := os.ReadFile(outJSON)
	if err := json.Unmarshal(b, &tr); err != nil {
		t.Fatal(err)
	}
	// The reference: the library API, stepped by hand.
	r, err := sway.LoadRig(file)
	if err != nil {
		t.Fatal(err)
	}
	w, err := sway.NewWorld(sway.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	e, err := w.AddRig(r, sway.Identity())
	if err != nil {
		t.Fatal(err)
	}
	skel, _ := w.Skeleton(e)
	if len(tr.Frames) != frames || len(tr.Bones) != skel.NumBones() || tr.Version != "VRM 0.x" {
		t.Fatalf("trace: %d frames, %d bones, %s; want %d, %d, VRM 0.x", len(tr.Frames), len(tr.Bones), tr.Version, frames, skel.NumBones())
	}
	rows, err := csv.NewReader(strings.NewReader(mustRead(t, outCSV))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1+frames*skel.NumBones() {
		t.Fatalf("csv: %d rows, want %d", len(rows), 1+frames*skel.NumBones())
	}
	// The command's path sampling against the test's own reading of the
	// path; the simulation is then compared on the command's roots, as
	// float32 rounding of two ways to the same root (1e-7) grows to 5e-6
	// in the springs.
	path, err := readPath(pathFile)
	if err != nil {
		t.Fatal(err)
	}
	var worstRoot float64
	for k := 0; k <= 100; k++ {
		a, b := rootAt(path, float64(k)*0.013), refRoot(float64(k)*0.013)
		worstRoot = max(worstRoot, float64(a.Pos.Sub(b.Pos).Len()), quatGap(a.Rot, b.Rot))
	}
	if worstRoot > 1e-6 {
		t.Errorf("the path is sampled %.3g away from linear position and slerp", worstRoot)
	}
	var worst float64
	for k := 0; k < frames; k++ {
		_ = w.SetRoot(e, rootAt(path, float64(k)*dt))
		if err := w.Step(dt); err != nil {
			t.Fatal(err)
		}
		pose, _ := w.Pose(e)
		f := tr.Frames[k]
		for bone := 0; bone < skel.NumBones(); bone++ {
			if tr.Bones[bone] != skel.BoneName(bone) {
				t.Fatalf("bone %d: %q, want %q", bone, tr.Bones[bone], skel.BoneName(bone))
			}
			p, q := pose.WorldPos[bone], pose.WorldRot[bone]
			// q and -q are one rotation: the path's keyframe at t = 1 is
			// written with w < 0 and the command keeps it as written.
			if q.Dot(mgl32.Quat{W: f.Rot[bone][0], V: mgl32.Vec3{f.Rot[bone][1], f.Rot[bone][2], f.Rot[bone][3]}}) < 0 {
				q = q.Scale(-1)
			}
			want := []float32{p[0], p[1], p[2], q.W, q.V[0], q.V[1], q.V[2]}
			got := []float32{f.Pos[bone][0], f.Pos[bone][1], f.Pos[bone][2], f.Rot[bone][0], f.Rot[bone][1], f.Rot[bone][2], f.Rot[bone][3]}
			row := rows[1+k*skel.NumBones()+bone]
			if row[0] != strconv.Itoa(k) || row[2] != skel.BoneName(bone) {
				t.Fatalf("csv row %v", row)
			}
			for c := range want {
				v, err := strconv.ParseFloat(row[3+c], 32)
				if err != nil || float32(v) != got[c] {
					t.Fatalf("frame %d bone %s: csv %q, json %v", k, skel.BoneName(bone), row[3+c], got[c])
				}
				worst = max(worst, math.Abs(float64(got[c]-want[c])))
			}
		}
	}
	t.Logf("worst difference from the library: %.3g", worst)
	if worst > 1e-6 {
		t.Errorf("trace differs from the library by %.3g (want <= 1e-6)", worst)
	}
	last := tr.Frames[frames-1].Pos[skel.Index("hips")]
	if d := mgl32.Vec3(last).Sub(mgl32.Vec3{0.5, 1.05, 1}).Len(); d > 1e-5 {
		t.Errorf("hips end at %v, want (0.5, 1.05, 1) (the path's end)", last)
	}
}

func quatGap(a, b mgl32.Quat) float64 {
	if a.Dot(b) < 0 {
		b = b.Scale(-1)
	}
	d := a.Sub(b)
	return math.Max(math.Max(math.Abs(float64(d.W)), math.Abs(float64(d.V[0]))), math.Max(math.Abs(float64(d.V[1])), math.Abs(float64(d.V[2]))))
}

func mustRead(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Bad paths and flags are refused with a message and exit status 1
// (unusable input) or 2 (usage).
func TestTraceRejectsBadInput(t *testing.T) {
	dir := t.TempDir()
	glb, _ := gltfrig.Fixture(gltfrig.VersionVRM1, gltfrig.FixtureOptions{})
	file := filepath.Join(dir, "a.vrm")
	_ = os.WriteFile(file, glb, 0o644)
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		_ = os.WriteFile(p, []byte(text), 0o644)
		return p
	}
	cases := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"trace"}, 2, "no rig file"},
		{[]string{"trace", file, "-frames", "-1"}, 2, "-frames"},
		{[]string{"trace", file, "-dt", "NaN"}, 2, "-dt"},
		{[]string{"trace", file, "-format", "xml"}, 2, "-format"},
		{[]string{"trace", file, "-root-path", write("empty.json", "[]")}, 1, "no keyframes"},
		{[]string{"trace", file, "-root-path", write("order.json", `[{"t":1,"rot":[1,0,0,0]},{"t":1,"rot":[1,0,0,0]}]`)}, 1, "keyframe 1"},
		{[]string{"trace", file, "-root-path", write("zero.json", `[{"t":0,"rot":[0,0,0,0]}]`)}, 1, "non-zero"},
		{[]string{"trace", filepath.Join(dir, "missing.vrm")}, 1, "missing.vrm"},
	}
	for _, c := range cases {
		var stdout, stderr bytes.Buffer
		if code := run(c.args, &stdout, &stderr); code != c.code || !strings.Contains(stderr.String(), c.msg) {
			t.Errorf("%v: exit %d, %q; want %d and %q", c.args, code, stderr.String(), c.code, c.msg)
		}
	}
}
