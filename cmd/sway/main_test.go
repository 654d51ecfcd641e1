package main

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/qmuntal/gltf"

	"github.com/sway-anim/sway/internal/gltfrig"
	"github.com/sway-anim/sway/systems/collide"
	"github.com/sway-anim/sway/systems/spring"
)

// writeRig writes a three-bone hair chain with a VRMC_springBone spring,
// a sphere collider and a humanoid head.
func writeRig(t *testing.T) string {
	t.Helper()
	doc := gltf.NewDocument()
	for i, name := range []string{"head", "hair0", "hair1", "hair2"} {
		n := &gltf.Node{Name: name, Matrix: gltf.DefaultMatrix, Rotation: gltf.DefaultRotation, Scale: gltf.DefaultScale, Translation: [3]float64{0, -0.1, 0}}
		if i < 3 {
			n.Children = []int{i + 1}
		}
		doc.Nodes = append(doc.Nodes, n)
	}
	doc.Nodes[0].Translation = [3]float64{0, 1.5, 0}
	doc.Scenes[0].Nodes = []int{0}
	type o = map[string]any
	joint := func(n int) o {
		return o{"node": n, "stiffness": 0.8, "gravityPower": 0.2, "dragForce": 0.3, "hitRadius": 0.01}
	}
	doc.Extensions = gltf.Extensions{
		"VRMC_vrm": o{"specVersion": "1.0", "humanoid": o{"humanBones": o{"head": o{"node": 0}}}},
		"VRMC_springBone": o{"specVersion": "1.0",
			"colliders":      []o{{"node": 0, "shape": o{"sphere": o{"offset": []float64{0, 0.05, 0}, "radius": 0.09}}}},
			"colliderGroups": []o{{"colliders": []int{0}}},
			"springs":        []o{{"name": "hair", "joints": []o{joint(1), joint(2), joint(3)}, "colliderGroups": []int{0}}},
		},
	}
	var buf bytes.Buffer
	if err := gltf.NewEncoder(&buf).Encode(doc); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "hair.vrm")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// inspect prints the tree, the spring with its joints and settings, the
// collider and the humanoid map.
func TestInspect(t *testing.T) {
	path := writeRig(t)
	var out, errb bytes.Buffer
	if code := run([]string{"inspect", path}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	got := out.String()
	for _, want := range []string{
		"VRM 1.0",
		"skeleton: 4 bones",
		"\n  head  pos (0, 1.5, 0)\n    hair0  pos (0, -0.1, 0)\n      hair1",
		`[0] "hair": 3 joints (2 swing, last joint is the tail), centre world, colliders [0]`,
		"hair0                stiffness 0.8  gravity 0.2 (0, -1, 0)  drag 0.3  hitRadius 0.01",
		"colliders: 1\n  [0] head                 sphere outside (0, 0.05, 0) r 0.09",
		"humanoid: 1 bones\n  head                     head",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
}

// Usage errors exit 2; a bad file exits 1 with the loader's message.
func TestInspectErrors(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run(nil, &out, &errb); code != 2 {
		t.Errorf("no command: exit %d", code)
	}
	if code := run([]string{"trace"}, &out, &errb); code != 2 {
		t.Errorf("unknown command: exit %d", code)
	}
	if code := run([]string{"inspect"}, &out, &errb); code != 2 {
		t.Errorf("no file: exit %d", code)
	}
	bad := filepath.Join(t.TempDir(), "bad.gltf")
	if err := os.WriteFile(bad, []byte(`{"asset":{"version":"2.0"},"nodes":[{"children":[5]}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	errb.Reset()
	if code := run([]string{"inspect", bad}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "nodes[0].children[0]") {
		t.Errorf("bad file: exit %d, %q", code, errb.String())
	}
}

// writeFixture writes a fixture file.
func writeFixture(t *testing.T, v gltfrig.Version, o gltfrig.FixtureOptions) string {
	t.Helper()
	glb, err := gltfrig.Fixture(v, o)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "fixture.vrm")
	if err := os.WriteFile(path, glb, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// The file's warnings reach the user: on a rejection, inspect and trace
// print the warnings noted before it, one a line, then the rejection with
// its JSON path; trace prints a loaded rig's warnings to standard error.
func TestWarningsReachTheUser(t *testing.T) {
	unread := gltfrig.FixtureCollider{Node: "Ball", Shape: collide.NewPlane(mgl32.Vec3{}, mgl32.Vec3{0, 0, 1}), SpecVersion: "2.0"}
	rejected := writeFixture(t, gltfrig.VersionVRM1, gltfrig.FixtureOptions{Pendulum: true, Bare: true, Colliders: []gltfrig.FixtureCollider{unread}})
	const ext = `extensions.VRMC_springBone.colliders[1].extensions.VRMC_springBone_extended_collider: unknown specVersion "2.0"`
	for _, cmd := range []string{"inspect", "trace"} {
		var out, errb bytes.Buffer
		code := run([]string{cmd, rejected}, &out, &errb)
		want := "sway " + cmd + ": warning: " + ext + ": the extension is not read, and there is no base shape\n" +
			"sway " + cmd + ": sway: glTF.extensions.VRMC_springBone.colliders[1].shape = <nil>: needs a sphere or a capsule"
		if code != 1 || !strings.HasPrefix(errb.String(), want) {
			t.Errorf("%s: exit %d, stderr\n%s\nwant it to start\n%s", cmd, code, errb.String(), want)
		}
	}
	unread.Fallback = true
	loaded := writeFixture(t, gltfrig.VersionVRM1, gltfrig.FixtureOptions{Pendulum: true, Bare: true, Colliders: []gltfrig.FixtureCollider{unread}})
	var out, errb bytes.Buffer
	want := "sway trace: warning: " + ext + ": the extension is not read, the base shape is used\n"
	if code := run([]string{"trace", loaded, "-frames", "2"}, &out, &errb); code != 0 || errb.String() != want {
		t.Errorf("trace: exit %d, stderr %q, want %q", code, errb.String(), want)
	}
}

// inspect prints extended colliders (kind, inside or outside, a plane's
// normal), joint limits (in degrees, the file's radians converted; a
// spherical limit's pitch and yaw; a rotation x, y, z, w) and the bone
// standing for the scene a spring hangs from, as the file has them.
func TestInspectExtendedCollidersAndLimits(t *testing.T) {
	inSphere := collide.NewSphere(mgl32.Vec3{}, 1.25)
	inSphere.Bound = collide.Inside
	inCapsule := collide.NewCapsule(mgl32.Vec3{0, -1, 0}, mgl32.Vec3{0, 1, 0}, 0.5, 0.5)
	inCapsule.Bound = collide.Inside
	turn := mgl32.Quat{W: 0.965926, V: mgl32.Vec3{0, 0.258819, 0}}
	path := writeFixture(t, gltfrig.VersionVRM1, gltfrig.FixtureOptions{Pendulum: true, Bare: true,
		Colliders: []gltfrig.FixtureCollider{
			{Node: "Ball", Shape: inSphere, Fallback: true},
			{Node: "Ball", Shape: inCapsule},
			{Node: "Ball", Shape: collide.NewPlane(mgl32.Vec3{0, 0, -1.1}, mgl32.Vec3{0, 0, -2})},
		},
		Limits: []gltfrig.FixtureLimit{{Spring: "pendulum", Limit: spring.Limit{Kind: spring.SphericalLimit, PitchDegrees: 30, YawDegrees: 11.25, Rotation: turn}}},
	})
	var out, errb bytes.Buffer
	if code := run([]string{"inspect", path}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	got := out.String()
	for _, want := range []string{
		"skeleton: 7 bones\n  (scene)  pos (0, 0, 0)\n    Pendulum0  pos (0, 2, 0)  scale (0.25, 0.25, 0.25)\n",
		"Pendulum0            stiffness 1  gravity 0 (0, -1, 0)  drag 0.4  hitRadius 0.25  limit spherical pitch 30° yaw 11.25° rot (0, 0.2588, 0, 0.9659)\n",
		"Pendulum4            stiffness 1  gravity 0 (0, -1, 0)  drag 0.5  hitRadius 0\n",
		"colliders: 4\n",
		"[0] Ball                 sphere outside (0, 0, 0) r 0.5\n",
		"[1] Ball                 sphere inside (0, 0, 0) r 1.25\n",
		"[2] Ball                 capsule inside (0, -1, 0) r 0.5 -> (0, 1, 0) r 0.5\n",
		"[3] Ball                 plane outside point (0, 0, -1.1) normal (0, 0, -1)\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "warning") {
		t.Errorf("warnings in\n%s", got)
	}
	cone := writeFixture(t, gltfrig.VersionVRM1, gltfrig.FixtureOptions{Limits: []gltfrig.FixtureLimit{
		{Spring: "hairL", Limit: spring.Limit{Kind: spring.ConeLimit, AngleDegrees: 40}},
		{Spring: "hairR", Limit: spring.Limit{Kind: spring.HingeLimit, AngleDegrees: 72, Rotation: mgl32.QuatRotate(math.Pi/2, mgl32.Vec3{0, 0, 1})}},
	}})
	out.Reset()
	if code := run([]string{"inspect", cone}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{
		"hairL0               stiffness 1.5  gravity 0.3 (0, -1, 0)  drag 0.4  hitRadius 0.02  limit cone 40°\n",
		"hairR2               stiffness 0.8  gravity 0.5 (0.48, -0.8, 0.36)  drag 0.3  hitRadius 0.015  limit hinge 72° rot (0, 0, 0.7071, 0.7071)\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}
