package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/gltfrig"
)

// walkFile writes a VRM 1.0 fixture avatar with a file animation laid out
// as Blender writes one: "walk" moves the hips 1.2 m along +Z over 1 s
// (LINEAR) and nods the head 90 degrees about +X; it has a skin.
func walkFile(t *testing.T) string {
	t.Helper()
	s := float32(math.Sqrt(0.5))
	glb, err := gltfrig.Fixture(gltfrig.VersionVRM1, gltfrig.FixtureOptions{BindMatrices: true, Animations: []gltfrig.FixtureAnimation{{
		Name: "walk", Channels: []gltfrig.FixtureChannel{
			{Node: "hips", Path: "translation", Times: []float32{0, 1}, Values: []float32{0, 1, 0, 0, 1, 1.2}},
			{Node: "head", Path: "rotation", Interpolation: "LINEAR", Times: []float32{0, 1}, Values: []float32{0, 0, 0, 1, s, 0, 0, s}},
		}}}})
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "walker.glb")
	if err := os.WriteFile(file, glb, 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// sway inspect lists the file's animations (name, duration, channels,
// interpolations) and skins (name, joints).
func TestInspectListsAnimationsAndSkins(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"inspect", walkFile(t)}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	out := stdout.String()
	for _, want := range []string{"animations: 1", `0 "walk": 1.000 s, 2 channels (LINEAR)`, "skins: 1", "joints"} {
		if !strings.Contains(out, want) {
			t.Errorf("inspect does not print %q:\n%s", want, out)
		}
	}
}

// sway trace -clip plays the file's animation: half way through the walk
// the hips are 0.6 m along +Z (the root stays at the origin). With
// -in-place the hips stay over the root and the root moves instead, and
// the body (hips, head) is where it is played as authored; the bone above
// the hips (the file's Armature) moves with the root.
func TestTraceClip(t *testing.T) {
	file := walkFile(t)
	traces := map[string]Trace{}
	for _, mode := range []string{"authored", "in-place"} {
		args := []string{"trace", file, "-clip", "walk", "-frames", "30", "-out", filepath.Join(t.TempDir(), "out.json")}
		if mode == "in-place" {
			args = append(args, "-in-place")
		}
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != 0 {
			t.Fatalf("%s: exit %d: %s", mode, code, stderr.String())
		}
		var tr Trace
		if err := json.Unmarshal([]byte(mustRead(t, args[7])), &tr); err != nil {
			t.Fatal(err)
		}
		traces[mode] = tr
	}
	a := traces["authored"]
	hips := -1
	for b, n := range a.Bones {
		if n == "hips" {
			hips = b
		}
	}
	// Frame 29 is after 30 steps of 1/60 s: t = 0.5 s of the clip.
	if z := a.Frames[29].Pos[hips][2]; math.Abs(float64(z)-0.6) > 1e-4 {
		t.Fatalf("hips at z = %v after 0.5 s of the walk, want 0.6", z)
	}
	p := traces["in-place"]
	for k := range a.Frames {
		for b, name := range a.Bones {
			if name != "hips" && name != "head" {
				continue
			}
			for c := 0; c < 3; c++ {
				if d := a.Frames[k].Pos[b][c] - p.Frames[k].Pos[b][c]; d > 1e-4 || d < -1e-4 {
					t.Fatalf("frame %d bone %s: in place %v, as authored %v", k, a.Bones[b], p.Frames[k].Pos[b], a.Frames[k].Pos[b])
				}
			}
		}
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"trace", file, "-clip", "run"}, &stdout, &stderr); code == 0 || !strings.Contains(stderr.String(), `"walk"`) {
		t.Fatalf("an unknown clip: exit %d, %q; want an error listing the file's animations", code, stderr.String())
	}
}

// sway trace AVATAR -vrma CLIP plays a VRM Animation clip retargeted onto
// the avatar: the clip walks its hips (0.9 m high) 0.9 m along +Z in 1 s,
// so the avatar's hips (1 m high) cover 1 m: 0.5 m after 0.5 s; the VRM
// 0.x and the 1.0 avatar move alike.
func TestTraceVRMA(t *testing.T) {
	dir := t.TempDir()
	hips := make([]mgl32.Vec3, 31)
	for k := range hips {
		hips[k] = mgl32.Vec3{0, 0.9, 0.9 * float32(k) / 30}
	}
	clip, err := gltfrig.FixtureVRMA(gltfrig.VRMAFixtureOptions{HipsTranslations: hips})
	if err != nil {
		t.Fatal(err)
	}
	clipFile := filepath.Join(dir, "walk.vrma")
	if err := os.WriteFile(clipFile, clip, 0o644); err != nil {
		t.Fatal(err)
	}
	var z [2]float32
	for i, v := range []gltfrig.Version{gltfrig.VersionVRM1, gltfrig.VersionVRM0} {
		glb, err := gltfrig.Fixture(v, gltfrig.FixtureOptions{})
		if err != nil {
			t.Fatal(err)
		}
		avatar, out := filepath.Join(dir, fmt.Sprintf("avatar%d.vrm", i)), filepath.Join(dir, fmt.Sprintf("out%d.json", i))
		if err := os.WriteFile(avatar, glb, 0o644); err != nil {
			t.Fatal(err)
		}
		var stdout, stderr bytes.Buffer
		if code := run([]string{"trace", avatar, "-vrma", clipFile, "-frames", "30", "-out", out}, &stdout, &stderr); code != 0 {
			t.Fatalf("%v: exit %d: %s", v, code, stderr.String())
		}
		var tr Trace
		if err := json.Unmarshal([]byte(mustRead(t, out)), &tr); err != nil {
			t.Fatal(err)
		}
		for b, n := range tr.Bones {
			if n == "hips" {
				z[i] = tr.Frames[29].Pos[b][2]
			}
		}
	}
	if math.Abs(float64(z[0])-0.5) > 1e-4 || math.Abs(float64(z[1]-z[0])) > 1e-5 {
		t.Fatalf("hips at z = %v (VRM 1.0) and %v (VRM 0.x) after 0.5 s, want 0.5 for both", z[0], z[1])
	}
}
