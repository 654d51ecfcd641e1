package gltfrig

import (
	"bytes"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/qmuntal/gltf"

	"github.com/sway-anim/sway/internal/rig"
	"github.com/sway-anim/sway/systems/collide"
	"github.com/sway-anim/sway/systems/spring"
)

const extPath = sb + ".colliders[%d].extensions.VRMC_springBone_extended_collider"

// An extended collider replaces its base shape only with a known version
// and a known shape; otherwise the base shape is used and a warning says
// why. An inside capsule keeps its tail.
func TestExtendedColliderFallback(t *testing.T) {
	good := encodeGLB(t, build1())
	base := collide.NewSphere(mgl32.Vec3{0, -10000, 0}, 0)

	b := mutate(t, good, sb+".colliders[3].extensions.VRMC_springBone_extended_collider.specVersion", "2.0", false)
	r := decodeBytes(t, b)
	if r.Colliders[3].Shape != base || len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "specVersion") {
		t.Errorf("unknown version: %+v, warnings %q", r.Colliders[3].Shape, r.Warnings)
	}

	b = mutate(t, good, sb+".colliders[3].extensions.VRMC_springBone_extended_collider.shape", map[string]any{"palne": map[string]any{}}, false)
	r = decodeBytes(t, b)
	if r.Colliders[3].Shape != base || len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "no known shape") {
		t.Errorf("unknown shape: %+v, warnings %q", r.Colliders[3].Shape, r.Warnings)
	}

	capsule := map[string]any{"capsule": map[string]any{"offset": []float64{0, 0.1, 0}, "tail": []float64{0, 0.4, 0}, "radius": 0.2, "inside": true}}
	b = mutate(t, good, sb+".colliders[3].extensions.VRMC_springBone_extended_collider.shape", capsule, false)
	r = decodeBytes(t, b)
	want := collide.NewCapsule(mgl32.Vec3{0, 0.1, 0}, mgl32.Vec3{0, 0.4, 0}, 0.2, 0.2)
	want.Bound = collide.Inside
	if r.Colliders[3].Shape != want {
		t.Errorf("inside capsule = %+v, want %+v", r.Colliders[3].Shape, want)
	}

	// "inside" in the base shape means nothing: VRMC_springBone has no inside colliders.
	b = mutate(t, good, sb+".colliders[0].shape.sphere.inside", true, false)
	if r = decodeBytes(t, b); r.Colliders[0].Shape.Bound != collide.Outside {
		t.Errorf("base shape read as inside")
	}

	// A shape of two kinds is read as its first (sphere, capsule, plane),
	// with a warning.
	b = mutate(t, good, sb+".colliders[0].shape.capsule", map[string]any{"radius": 1}, false)
	if r = decodeBytes(t, b); r.Colliders[0].Shape.Kind != collide.Sphere || len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], sb+".colliders[0].shape: 2 kinds") {
		t.Errorf("sphere and capsule: %+v, warnings %q", r.Colliders[0].Shape, r.Warnings)
	}
	b = mutate(t, good, sb+".colliders[4].extensions.VRMC_springBone_extended_collider.shape.sphere", map[string]any{"radius": 1}, false)
	if r = decodeBytes(t, b); r.Colliders[4].Shape.Kind != collide.Sphere || len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "2 kinds of shape") {
		t.Errorf("sphere and plane: %+v, warnings %q", r.Colliders[4].Shape, r.Warnings)
	}

	// A plane without a normal faces +Z, the specification's default.
	b = mutate(t, good, sb+".colliders[4].extensions.VRMC_springBone_extended_collider.shape.plane.normal", nil, true)
	if r = decodeBytes(t, b); r.Colliders[4].Shape.Normal != (mgl32.Vec3{0, 0, 1}) {
		t.Errorf("default plane normal %v", r.Colliders[4].Shape.Normal)
	}
}

// A 0.x bone is the root of a tree: every node below swings, split into
// first-child chains, branches listed after the chain they leave, each
// chain with the 7 cm virtual tail.
func TestVRM0TreeExpansion(t *testing.T) {
	doc := gltf.NewDocument()
	// root -> a0 -> a1 -> a2 ; a0 -> b0 -> b1 ; a0 -> c0 ; a1 -> d0
	names := []string{"root", "a0", "a1", "a2", "b0", "b1", "c0", "d0"}
	for _, n := range names {
		doc.Nodes = append(doc.Nodes, &gltf.Node{Name: n, Matrix: gltf.DefaultMatrix, Rotation: gltf.DefaultRotation, Scale: gltf.DefaultScale, Translation: [3]float64{0, -0.1, 0}})
	}
	doc.Nodes[0].Children = []int{1}
	doc.Nodes[1].Children = []int{2, 4, 6}
	doc.Nodes[2].Children = []int{3, 7}
	doc.Nodes[4].Children = []int{5}
	doc.Scenes[0].Nodes = []int{0}
	doc.Extensions = gltf.Extensions{extVRM0: obj{"secondaryAnimation": obj{
		"boneGroups": []any{obj{"bones": []int{1}}},
	}}}
	r := decodeBytes(t, encodeGLB(t, doc))
	var got [][]string
	for _, s := range r.Springs {
		var chain []string
		for _, j := range s.Joints {
			chain = append(chain, j.Bone)
		}
		got = append(got, chain)
		if s.VirtualTail != VirtualTail0x || s.Name != "boneGroups[0]" {
			t.Errorf("spring %+v", s)
		}
	}
	want := [][]string{{"a0", "a1", "a2"}, {"b0", "b1"}, {"c0"}, {"d0"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("chains %v, want %v", got, want)
	}
	// UniVRM's defaults for omitted settings, gravity straight down.
	j := r.Springs[0].Joints[0]
	if j.Stiffness != 1 || j.DragForce != 0.4 || j.HitRadius != 0.02 || j.GravityPower != 0 || j.GravityDir != (mgl32.Vec3{0, -1, 0}) {
		t.Errorf("defaults %+v", j)
	}
	// Without a skin the skeleton is the scene; the 0.x root is turned to face +Z.
	if len(r.Skeleton.Bones) != len(names) || r.Skeleton.Bones[0].Rot != (mgl32.Quat{W: 0, V: mgl32.Vec3{0, 1, 0}}) {
		t.Errorf("skeleton %+v", r.Skeleton.Bones[:1])
	}
}

// Unnamed and repeated node names get stable generated names; bones are
// the scene's nodes when there is no skin, and nodes of another scene are
// left out.
func TestNodeNamesAndScene(t *testing.T) {
	doc := gltf.NewDocument()
	for _, n := range []string{"", "x", "x", "x#2", "", "other"} {
		doc.Nodes = append(doc.Nodes, &gltf.Node{Name: n, Matrix: gltf.DefaultMatrix, Rotation: gltf.DefaultRotation, Scale: gltf.DefaultScale})
	}
	doc.Nodes[0].Children = []int{1, 2, 3, 4}
	doc.Scenes[0].Nodes = []int{0}
	doc.Scenes = append(doc.Scenes, &gltf.Scene{Nodes: []int{5}})
	b := encodeGLB(t, doc)
	r := decodeBytes(t, b)
	var got []string
	for _, bone := range r.Skeleton.Bones {
		got = append(got, bone.Name)
	}
	want := []string{"node0", "x", "x#2", "x#2#3", "node4"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("names %v, want %v", got, want)
	}
	if r2 := decodeBytes(t, b); !reflect.DeepEqual(r2, r) {
		t.Error("names differ between loads")
	}
	r = decodeBytes(t, mutate(t, b, "scene", 1, false))
	if len(r.Skeleton.Bones) != 1 || r.Skeleton.Bones[0].Name != "other" {
		t.Errorf("scene 1 skeleton %+v", r.Skeleton.Bones)
	}
	if _, err := Decode(bytes.NewReader(mutate(t, b, "scene", 2, false))); err == nil || fieldOf(t, err) != "scene" {
		t.Errorf("scene 2: %v", err)
	}
}

// Both forms in one file: 1.0 wins, with a warning; unknown springBone
// versions are ignored with a warning.
func TestVersionChoice(t *testing.T) {
	doc := build1()
	doc.Extensions[extVRM0] = build0().Extensions[extVRM0]
	r := decodeBytes(t, encodeGLB(t, doc))
	if r.Version != VersionVRM1 || len(r.Warnings) != 1 || len(r.Springs) != 2 {
		t.Errorf("version %v, warnings %q", r.Version, r.Warnings)
	}
	b := mutate(t, encodeGLB(t, build1()), sb+".specVersion", "0.1", false)
	r = decodeBytes(t, b)
	if len(r.Springs) != 0 || len(r.Colliders) != 0 || len(r.Warnings) != 1 {
		t.Errorf("unknown springBone version read: %d springs, warnings %q", len(r.Springs), r.Warnings)
	}
}

// A spring whose first joint is a scene root gets a bone standing for the
// scene: the parent of every root bone, at the identity, so that model
// space is unchanged. A file without such a spring gets none, and a node
// that already has the name keeps it.
func TestSceneBone(t *testing.T) {
	for _, c := range []struct {
		v Version
		o FixtureOptions
	}{
		{VersionVRM1, FixtureOptions{Pendulum: true, Bare: true}},
		{VersionVRM1, FixtureOptions{Pendulum: true}},
		{VersionVRM0, FixtureOptions{Pendulum: true}},
	} {
		r := loadFixture(t, c.v, c.o)
		if r.SceneBone != SceneBoneName {
			t.Fatalf("%v %+v: SceneBone %q", c.v, c.o, r.SceneBone)
		}
		skel, err := rig.NewSkeleton(r.Skeleton)
		if err != nil {
			t.Fatal(err)
		}
		scene := skel.Index(SceneBoneName)
		if scene != 0 || skel.RestPos()[0] != (mgl32.Vec3{}) || skel.RestRot()[0] != mgl32.QuatIdent() || skel.RestScale()[0] != (mgl32.Vec3{1, 1, 1}) {
			t.Errorf("%v: the scene bone is %d with rest %v %v %v", c.v, scene, skel.RestPos()[0], skel.RestRot()[0], skel.RestScale()[0])
		}
		// The scene's children are the file's scene roots.
		var roots, children []string
		for b, p := range skel.Parents() {
			switch p {
			case -1:
				roots = append(roots, skel.BoneName(b))
			case 0:
				children = append(children, skel.BoneName(b))
			}
		}
		want := []string{"Armature", "Pendulum0", "Ball"}
		if c.o.Bare {
			want = want[1:]
		}
		if !reflect.DeepEqual(roots, []string{SceneBoneName}) || !reflect.DeepEqual(children, want) {
			t.Errorf("%v: roots %q, the scene's children %q (want %q)", c.v, roots, children, want)
		}
		for name, want := range map[string]mgl32.Vec3{"Pendulum0": {0, 2, 0}, "Pendulum4": {0, 0, 0}, "Ball": {0.75, 1, 0}} {
			if b := skel.Index(name); b < 0 || !near3(skel.ModelPos()[b], want, 1e-6) {
				t.Errorf("%v: %s (%d) in model space at %v, want %v", c.v, name, b, skel.ModelPos()[b], want)
			}
		}
	}
	if r := loadFixture(t, VersionVRM1, FixtureOptions{Branch: true}); r.SceneBone != "" || r.Skeleton.Bones[0].Name != "Armature" {
		t.Errorf("the avatar alone got a scene bone %q", r.SceneBone)
	}
	glb, _ := Fixture(VersionVRM1, FixtureOptions{Pendulum: true, Bare: true})
	r := decodeBytes(t, mutate(t, glb, "nodes[5].name", SceneBoneName, false))
	if r.SceneBone != SceneBoneName+"#1" || r.Skeleton.Bones[0].Name != r.SceneBone || r.Skeleton.Bones[6].Name != SceneBoneName {
		t.Errorf("with a node named %q: SceneBone %q, bones %q and %q", SceneBoneName, r.SceneBone, r.Skeleton.Bones[0].Name, r.Skeleton.Bones[6].Name)
	}
}

// Joint limits (VRMC_springBone_limit) load into spring.Limit: the kind,
// the file's radians as degrees (the fixture writes degrees as radians,
// and the round trip is exact), a spherical limit's pitch and yaw, the
// rotation from (x, y, z, w). The last joint, only the
// tail, carries none (the fixture writes none there, as three-vrm's
// examples).
func TestLoadLimits(t *testing.T) {
	tilt := mgl32.QuatRotate(0.3, mgl32.Vec3{1, 0, 0})
	turn := mgl32.Quat{W: 0.965926, V: mgl32.Vec3{0, 0.258819, 0}} // three-vrm's spherical-limit example
	o := FixtureOptions{Branch: true, Pendulum: true, Limits: []FixtureLimit{
		{Spring: "pendulum", Limit: spring.Limit{Kind: spring.SphericalLimit, PitchDegrees: 30, YawDegrees: 11.25, Rotation: turn}},
		{Spring: "hairR", Limit: spring.Limit{Kind: spring.HingeLimit, AngleDegrees: 72}},
		{Spring: "ribbon", Limit: spring.Limit{Kind: spring.ConeLimit, AngleDegrees: 40.1, Rotation: tilt}},
	}}
	r := loadFixture(t, VersionVRM1, o)
	if len(r.Warnings) != 0 {
		t.Errorf("warnings %q", r.Warnings)
	}
	want := map[string]spring.Limit{
		"pendulum": {Kind: spring.SphericalLimit, PitchDegrees: 30, YawDegrees: 11.25, Rotation: turn},
		"hairR":    {Kind: spring.HingeLimit, AngleDegrees: 72, Rotation: mgl32.QuatIdent()},
		"ribbon":   {Kind: spring.ConeLimit, AngleDegrees: 40.1, Rotation: tilt},
		"hairL":    {},
	}
	for _, s := range r.Springs {
		for j, jt := range s.Joints {
			w := want[s.Name]
			if j == len(s.Joints)-1 {
				w = spring.Limit{}
			}
			got := jt.Limit
			if got.Kind != w.Kind || got.AngleDegrees != w.AngleDegrees || got.PitchDegrees != w.PitchDegrees || got.YawDegrees != w.YawDegrees || !sameRot(got.Rotation, w.Rotation, 1e-7) && w.Kind != spring.NoLimit {
				t.Errorf("%s joint %d: limit %+v, want %+v", s.Name, j, got, w)
			}
		}
	}
}

// A file's limit angles are radians; they load as degrees, and an angle
// above π (π/2 for a yaw) counts as π (π/2), as the draft prescribes, so a
// file the draft accepts gives a Limit that Validate accepts.
func TestLimitAnglesFromRadians(t *testing.T) {
	glb, err := Fixture(VersionVRM1, FixtureOptions{Limits: []FixtureLimit{{Spring: "hairL", Limit: spring.Limit{Kind: spring.ConeLimit, AngleDegrees: 30}}}})
	if err != nil {
		t.Fatal(err)
	}
	const j1 = sb + ".springs[0].joints[1].extensions.VRMC_springBone_limit.limit"
	for _, c := range []struct {
		limit map[string]any
		want  spring.Limit
	}{
		{map[string]any{"cone": map[string]any{"angle": math.Pi / 4}}, spring.Limit{Kind: spring.ConeLimit, AngleDegrees: 45}},
		{map[string]any{"hinge": map[string]any{"angle": 4}}, spring.Limit{Kind: spring.HingeLimit, AngleDegrees: 180}},
		{map[string]any{"spherical": map[string]any{"pitch": 3.5, "yaw": 2}}, spring.Limit{Kind: spring.SphericalLimit, PitchDegrees: 180, YawDegrees: 90}},
		{map[string]any{"spherical": map[string]any{"pitch": math.Pi / 3, "yaw": math.Pi / 6}}, spring.Limit{Kind: spring.SphericalLimit, PitchDegrees: 60, YawDegrees: 30}},
	} {
		r := decodeBytes(t, mutate(t, glb, j1, c.limit, false))
		got := r.Springs[0].Joints[1].Limit
		got.Rotation = mgl32.Quat{}
		if got != c.want {
			t.Errorf("%v: limit %+v, want %+v", c.limit, got, c.want)
		}
		if err := got.Validate(); err != nil {
			t.Errorf("%v: %v", c.limit, err)
		}
	}
}

// What a limit extension holds that sway does not read is a warning and
// no limit; a malformed limit of a known version is rejected at its path.
func TestLimitRules(t *testing.T) {
	glb, err := Fixture(VersionVRM1, FixtureOptions{Limits: []FixtureLimit{{Spring: "hairL", Limit: spring.Limit{Kind: spring.ConeLimit, AngleDegrees: 30}}}})
	if err != nil {
		t.Fatal(err)
	}
	const j1 = sb + ".springs[0].joints[1].extensions.VRMC_springBone_limit"
	for _, c := range []struct {
		path  string
		value any
		del   bool
		warn  string // the warning, with no limit on joint 1; "" when rejected
		field string // the rejection's path
	}{
		{j1 + ".specVersion", "1.0", false, `unknown specVersion "1.0"`, ""},
		{j1 + ".specVersion", nil, true, "no specVersion", ""},
		{j1 + ".limit", map[string]any{"twist": map[string]any{"angle": 1}}, false, "no known limit", ""},
		{j1 + ".limit", map[string]any{"spherical": map[string]any{"phi": 0.5, "theta": 0.2}}, false, "earlier draft", ""},
		{j1 + ".limit.cone.angle", nil, true, "", j1 + ".limit.cone.angle"},
		{j1 + ".limit.cone.angle", -0.1, false, "", j1 + ".limit.cone.angle"},
		{j1 + ".limit.cone.rotation", []float64{0, 0, 0, 2}, false, "", j1 + ".limit.cone.rotation"},
		{j1 + ".limit.cone.rotation", []float64{0, 0, 1}, false, "", j1 + ".limit.cone.rotation"},
		{j1 + ".limit", map[string]any{"hinge": map[string]any{"angle": 1e39}}, false, "", j1 + ".limit.hinge.angle"},
		{j1 + ".limit", map[string]any{"spherical": map[string]any{"pitch": 0.5}}, false, "", j1 + ".limit.spherical.yaw"},
	} {
		b := mutate(t, glb, c.path, c.value, c.del)
		r, err := Decode(bytes.NewReader(b))
		if c.warn == "" {
			if f := fieldOf(t, err); f != c.field {
				t.Errorf("%s = %v: rejected at %s, want %s", c.path, c.value, f, c.field)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s = %v: %v", c.path, c.value, err)
			continue
		}
		var hits int
		for _, w := range r.Warnings {
			if strings.Contains(w, c.warn) && strings.Contains(w, j1) {
				hits++
			}
		}
		if hits != 1 || len(r.Warnings) != 1 || r.Springs[0].Joints[1].Limit.Kind != spring.NoLimit || r.Springs[0].Joints[0].Limit.Kind != spring.ConeLimit {
			t.Errorf("%s = %v: warnings %q, joint 1 limit %+v", c.path, c.value, r.Warnings, r.Springs[0].Joints[1].Limit)
		}
	}
	// Two kinds: the first of cone, hinge, spherical, with a warning; a
	// limit on the tail or on a spring does nothing, with a warning.
	two := map[string]any{"cone": map[string]any{"angle": 0.5}, "hinge": map[string]any{"angle": 1}}
	tail := map[string]any{"specVersion": "1.0-draft", "limit": map[string]any{"hinge": map[string]any{"angle": 1}}}
	for _, c := range []struct {
		path, warn string
		value      any
	}{
		{j1 + ".limit", "2 kinds", two},
		{sb + ".springs[0].joints[3].extensions", "last joint", map[string]any{extLimit: tail}},
		{sb + ".springs[0].extensions", "on a spring", map[string]any{extLimit: tail}},
	} {
		r := decodeBytes(t, mutate(t, glb, c.path, c.value, false))
		if len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], c.warn) || r.Springs[0].Joints[1].Limit.Kind != spring.ConeLimit {
			t.Errorf("%s: warnings %q, joint 1 limit %+v", c.path, r.Warnings, r.Springs[0].Joints[1].Limit)
		}
	}
}

// Extended colliders as exporters write them, with the README's fallback
// base shape or none: a known specVersion ("1.0", or the draft's
// "1.0-draft") reads the extended shape, in the node's space, and ignores
// the base; a missing or unknown one reads the base shape with a warning.
func TestExtendedCollidersFromFiles(t *testing.T) {
	insideSphere := collide.NewSphere(mgl32.Vec3{0, 0.5, 0}, 1.25)
	insideSphere.Bound = collide.Inside
	insideCapsule := collide.NewCapsule(mgl32.Vec3{0, -1, 0}, mgl32.Vec3{0, 1, 0}, 0.75, 0.75)
	insideCapsule.Bound = collide.Inside
	plane := collide.NewPlane(mgl32.Vec3{0, 0, -1.1}, mgl32.Vec3{0, 0, -2}) // normalised on reading
	capsule := collide.NewCapsule(mgl32.Vec3{0.1, 0, 0}, mgl32.Vec3{-0.1, 0, 0}, 0.2, 0.2)
	cs := []FixtureCollider{
		{Node: "Ball", Shape: insideSphere, Fallback: true},
		{Node: "Ball", Shape: insideCapsule, SpecVersion: "1.0-draft"},
		{Node: "Ball", Shape: plane, Fallback: true, SpecVersion: "1.0-draft"},
		{Node: "Pendulum2", Shape: capsule, Fallback: true},
		{Node: "Ball", Shape: plane},
	}
	r := loadFixture(t, VersionVRM1, FixtureOptions{Pendulum: true, Bare: true, Colliders: cs})
	wantPlane := plane
	wantPlane.Normal = mgl32.Vec3{0, 0, -1}
	want := []Collider{
		{Bone: "Ball", Shape: collide.NewSphere(mgl32.Vec3{}, FixtureBallRadius)},
		{Bone: "Ball", Shape: insideSphere},
		{Bone: "Ball", Shape: insideCapsule},
		{Bone: "Ball", Shape: wantPlane},
		{Bone: "Pendulum2", Shape: capsule},
		{Bone: "Ball", Shape: wantPlane},
	}
	if !reflect.DeepEqual(r.Colliders, want) || len(r.Warnings) != 0 {
		t.Errorf("colliders\n%+v\nwant\n%+v\nwarnings %q", r.Colliders, want, r.Warnings)
	}
	if s := r.Springs[0]; !reflect.DeepEqual(s.Colliders, []int{0, 1, 2, 3, 4, 5}) {
		t.Errorf("the pendulum's colliders %v", s.Colliders)
	}
	// Not read: the fallback serves, as for a reader without the extension.
	for _, v := range []string{FixtureNoVersion, "2.0", ""} {
		cs := []FixtureCollider{{Node: "Ball", Shape: insideSphere, Fallback: true, SpecVersion: v}, {Node: "Ball", Shape: plane, Fallback: true, SpecVersion: v}}
		glb, err := Fixture(VersionVRM1, FixtureOptions{Pendulum: true, Bare: true, Colliders: cs})
		if err != nil {
			t.Fatal(err)
		}
		if v == "" { // written, then emptied: "" is no version sway knows
			glb = mutate(t, mutate(t, glb, sb+".colliders[1].extensions.VRMC_springBone_extended_collider.specVersion", "", false),
				sb+".colliders[2].extensions.VRMC_springBone_extended_collider.specVersion", "", false)
		}
		r := decodeBytes(t, glb)
		far := collide.NewSphere(mgl32.Vec3{0, -10000, 0}, 0)
		behind := collide.NewSphere(mgl32.Vec3{0, 0, 998.9}, 1000) // offset - 1000·normal
		if r.Colliders[1].Shape != far || r.Colliders[2].Shape != behind || len(r.Warnings) != 2 ||
			!strings.Contains(r.Warnings[0], sb+".colliders[1].extensions") || !strings.Contains(r.Warnings[1], "base shape is used") {
			t.Errorf("specVersion %q: colliders %+v, %+v; warnings %q", v, r.Colliders[1].Shape, r.Colliders[2].Shape, r.Warnings)
		}
	}
}
