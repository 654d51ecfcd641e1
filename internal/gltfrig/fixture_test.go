package gltfrig

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/systems/collide"
	"github.com/sway-anim/sway/systems/spring"
)

func loadFixture(t *testing.T, v Version, o FixtureOptions) *Rig {
	t.Helper()
	glb, err := Fixture(v, o)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Decode(bytes.NewReader(glb))
	if err != nil {
		t.Fatal(err)
	}
	if r.Version != v {
		t.Fatalf("version %v, want %v", r.Version, v)
	}
	return r
}

// The two forms load to the same model: bones, humanoid map, colliders
// and spring settings; 0.x springs swing their last joint.
func TestFixtureFormsLoadAlike(t *testing.T) {
	o := FixtureOptions{Branch: true}
	r1, r0 := loadFixture(t, VersionVRM1, o), loadFixture(t, VersionVRM0, o)
	if len(r1.Skeleton.Bones) != len(r0.Skeleton.Bones) || len(r1.Skeleton.Bones) != 18 {
		t.Fatalf("bones: %d and %d, want 18 (Body is no joint)", len(r1.Skeleton.Bones), len(r0.Skeleton.Bones))
	}
	for _, name := range fixHumanBones {
		if r1.HumanBone(name) != name || r0.HumanBone(name) != name {
			t.Errorf("HumanBone(%q) = %q and %q", name, r1.HumanBone(name), r0.HumanBone(name))
		}
	}
	if r1.HumanBone("leftFoot") != "" || (*Rig)(nil).HumanBone("head") != "" {
		t.Error("an unmapped humanoid bone must give \"\"")
	}
	if len(r1.Colliders) != 3 || len(r0.Colliders) != 3 {
		t.Fatalf("colliders %d and %d, want 3", len(r1.Colliders), len(r0.Colliders))
	}
	for i := range r1.Colliders {
		// 0.x bone frames are turned half a turn about +Y (see the
		// package doc): the same point has (-x, y, -z) there.
		a, b := r1.Colliders[i], r0.Colliders[i]
		o := b.Shape.Offset
		if a.Bone != b.Bone || !a.Shape.Offset.ApproxEqualThreshold(mgl32.Vec3{-o[0], o[1], -o[2]}, 1e-6) || a.Shape.Radius != b.Shape.Radius {
			t.Errorf("collider %d: %+v and %+v", i, a, b)
		}
	}
	// 1.0: hairL, hairR, ribbon; 0.x: hairL, its ribbon branch, hairR.
	if len(r1.Springs) != 3 || len(r0.Springs) != 3 {
		t.Fatalf("springs %d and %d, want 3", len(r1.Springs), len(r0.Springs))
	}
	byRoot := func(r *Rig) map[string]Spring {
		m := map[string]Spring{}
		for _, s := range r.Springs {
			m[s.Joints[0].Bone] = s
		}
		return m
	}
	s1, s0 := byRoot(r1), byRoot(r0)
	for root, a := range s1 {
		b, ok := s0[root]
		if !ok || len(a.Joints) != len(b.Joints) || a.Center != b.Center || a.VirtualTail != 0 || b.VirtualTail != VirtualTail0x {
			t.Fatalf("spring from %s: %+v and %+v", root, a, b)
		}
		for j := range a.Joints {
			ja, jb := a.Joints[j], b.Joints[j]
			if ja.Bone != jb.Bone || ja.Stiffness != jb.Stiffness || ja.DragForce != jb.DragForce || ja.HitRadius != jb.HitRadius ||
				ja.GravityPower != jb.GravityPower || !ja.GravityDir.ApproxEqualThreshold(jb.GravityDir, 1e-6) {
				t.Errorf("spring from %s joint %d: %+v and %+v", root, j, ja, jb)
			}
		}
		if !equalInts(a.Colliders, b.Colliders) {
			t.Errorf("spring from %s colliders %v and %v", root, a.Colliders, b.Colliders)
		}
	}
	if g := s1["hairR0"].Joints[0].GravityDir; !g.ApproxEqualThreshold(mgl32.Vec3{0.48, -0.8, 0.36}, 1e-6) {
		t.Errorf("hairR gravity %v", g)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Repeat lists hairL2 in a first group: the loader keeps both claims
// (the world decides), and Fixture refuses a form it has not.
func TestFixtureRepeatAndBadVersion(t *testing.T) {
	r := loadFixture(t, VersionVRM0, FixtureOptions{Repeat: true})
	if len(r.Springs) != 3 || r.Springs[0].Name != "hairTip" || r.Springs[0].Joints[0].Bone != "hairL2" ||
		r.Springs[0].Joints[0].Stiffness != FixtureTipStiffness {
		t.Fatalf("springs %+v", r.Springs)
	}
	if _, err := Fixture(VersionNone, FixtureOptions{}); err == nil || !strings.Contains(err.Error(), "glTF") {
		t.Errorf("Fixture(VersionNone): %v", err)
	}
}

// fixtureJSON writes a fixture and returns its JSON as generic values.
func fixtureJSON(t *testing.T, v Version, o FixtureOptions) any {
	t.Helper()
	glb, err := Fixture(v, o)
	if err != nil {
		t.Fatal(err)
	}
	return glbJSON(t, glb)
}

// wantJSON compares the values at JSON paths with what they must be
// (after a round trip through encoding/json: numbers are float64, nil is
// no value at all).
func wantJSON(t *testing.T, root any, want map[string]any) {
	t.Helper()
	for path, w := range want {
		got := getPath(t, root, path)
		gj, _ := json.Marshal(got)
		wj, _ := json.Marshal(w)
		if !bytes.Equal(gj, wj) {
			t.Errorf("%s = %s, want %s", path, gj, wj)
		}
	}
}

// A bare pendulum is laid out as three-vrm's sphere-collider example:
// two scene roots, the spring from the first, the collider on the second,
// the last joint written with its node only, no skin and no VRMC_vrm.
// With the avatar the two are further scene roots, and the 0.x form has
// them as a bone group and a collider group.
func TestFixturePendulumLayout(t *testing.T) {
	bare := fixtureJSON(t, VersionVRM1, FixtureOptions{Pendulum: true, Bare: true})
	wantJSON(t, bare, map[string]any{
		"scene":                           0.0,
		"scenes[0].nodes":                 []int{0, 5},
		"skins":                           nil,
		"extensionsUsed":                  []string{extSpring1},
		"extensions.VRMC_vrm":             nil,
		"nodes[0].name":                   "Pendulum0",
		"nodes[0].translation":            []float64{0, 2, 0},
		"nodes[0].scale":                  []float64{0.25, 0.25, 0.25},
		"nodes[0].children":               []int{1},
		"nodes[4].translation":            []float64{0, -2, 0},
		"nodes[5].name":                   "Ball",
		"nodes[5].rotation":               []float64{0, math.Sqrt(0.5), 0, math.Sqrt(0.5)},
		sb + ".colliders[0]":              map[string]any{"node": 5, "shape": map[string]any{"sphere": map[string]any{"offset": []float64{0, 0, 0}, "radius": 0.5}}},
		sb + ".colliderGroups":            []any{map[string]any{"colliders": []int{0}}},
		sb + ".springs[0].name":           "pendulum",
		sb + ".springs[0].joints[0]":      map[string]any{"node": 0, "hitRadius": 0.25, "stiffness": 1, "gravityPower": 0, "gravityDir": []float64{0, -1, 0}, "dragForce": 0.4},
		sb + ".springs[0].joints[4]":      map[string]any{"node": 4},
		sb + ".springs[0].colliderGroups": []int{0},
	})
	full := fixtureJSON(t, VersionVRM1, FixtureOptions{Pendulum: true})
	wantJSON(t, full, map[string]any{
		"scenes[0].nodes":                 []int{0, 17, 22},
		"nodes[17].name":                  "Pendulum0",
		sb + ".colliders[3].node":         22,
		sb + ".colliderGroups[2]":         map[string]any{"colliders": []int{3}},
		sb + ".springs[2].joints[0].node": 17,
		sb + ".springs[2].colliderGroups": []int{2},
		"skins[0].joints[15]":             nil, // the pendulum is no skin joint
	})
	v0 := fixtureJSON(t, VersionVRM0, FixtureOptions{Pendulum: true})
	const sa = "extensions.VRM.secondaryAnimation"
	wantJSON(t, v0, map[string]any{
		"scenes[0].nodes":                    []int{0, 17, 22},
		"nodes[22].translation":              []float64{-0.75, 1, 0},
		sa + ".boneGroups[2].comment":        "pendulum",
		sa + ".boneGroups[2].bones":          []int{17},
		sa + ".boneGroups[2].colliderGroups": []int{2},
		sa + ".colliderGroups[2].node":       22,
	})
}

// Extended colliders and limits are written as the extensions' READMEs
// lay them out: the extended shape in the collider's extensions, with the
// base shape the README recommends as the fallback or none; limits on
// every joint but the tail, spherical angles as pitch and yaw, rotations
// as (x, y, z, w).
func TestFixtureExtendedAndLimitsLayout(t *testing.T) {
	inside := collide.NewCapsule(mgl32.Vec3{0, 0.1, 0}, mgl32.Vec3{0, 0.3, 0}, 0.2, 0.2)
	inside.Bound = collide.Inside
	plane := collide.NewPlane(mgl32.Vec3{0, 0.5, 0}, mgl32.Vec3{0, 2, 0})
	outside := collide.NewSphere(mgl32.Vec3{0, 0, 0.1}, 0.05)
	rot := mgl32.QuatRotate(math.Pi/6, mgl32.Vec3{0, 1, 0})
	o := FixtureOptions{Pendulum: true, Bare: true,
		Colliders: []FixtureCollider{
			{Node: "Ball", Shape: inside, Fallback: true},
			{Node: "Ball", Shape: plane, Fallback: true, SpecVersion: "1.0-draft"},
			{Node: "Pendulum0", Shape: outside, Fallback: true},
			{Node: "Ball", Shape: inside, SpecVersion: FixtureNoVersion},
		},
		Limits: []FixtureLimit{{Spring: "pendulum", Limit: spring.Limit{Kind: spring.SphericalLimit, PitchDegrees: 30, YawDegrees: 15, Rotation: rot}}},
	}
	root := fixtureJSON(t, VersionVRM1, o)
	const ext = ".extensions.VRMC_springBone_extended_collider"
	wantJSON(t, root, map[string]any{
		"extensionsUsed":                            []string{extSpring1, extExtended, extLimit},
		sb + ".colliders[1].node":                   5,
		sb + ".colliders[1].shape":                  map[string]any{"sphere": map[string]any{"offset": []float64{0, -10000, 0}, "radius": 0}},
		sb + ".colliders[1]" + ext:                  map[string]any{"specVersion": "1.0", "shape": map[string]any{"capsule": map[string]any{"offset": []float32{0, 0.1, 0}, "tail": []float32{0, 0.3, 0}, "radius": float32(0.2), "inside": true}}},
		sb + ".colliders[2].shape":                  map[string]any{"sphere": map[string]any{"offset": []float64{0, -999.5, 0}, "radius": 1000}},
		sb + ".colliders[2]" + ext:                  map[string]any{"specVersion": "1.0-draft", "shape": map[string]any{"plane": map[string]any{"offset": []float64{0, 0.5, 0}, "normal": []float64{0, 2, 0}}}},
		sb + ".colliders[3].node":                   0,
		sb + ".colliders[3].shape":                  map[string]any{"sphere": map[string]any{"offset": []float32{0, 0, 0.1}, "radius": float32(0.05)}},
		sb + ".colliders[4].shape":                  nil,
		sb + ".colliders[4]" + ext + ".specVersion": nil,
		sb + ".colliderGroups[1]":                   map[string]any{"name": "extended", "colliders": []int{1, 2, 3, 4}},
		sb + ".springs[0].colliderGroups":           []int{0, 1},
		sb + ".springs[0].joints[3].extensions.VRMC_springBone_limit": map[string]any{"specVersion": "1.0-draft",
			"limit": map[string]any{"spherical": map[string]any{"pitch": fixRad(30), "yaw": fixRad(15), "rotation": []float32{rot.V[0], rot.V[1], rot.V[2], rot.W}}}},
		sb + ".springs[0].joints[4].extensions": nil,
	})
	cone := fixtureJSON(t, VersionVRM1, FixtureOptions{Branch: true, Limits: []FixtureLimit{
		{Spring: "ribbon", Limit: spring.Limit{Kind: spring.ConeLimit, AngleDegrees: 40}, SpecVersion: FixtureNoVersion},
		{Spring: "hairR", Limit: spring.Limit{Kind: spring.HingeLimit, AngleDegrees: 90}},
	}})
	wantJSON(t, cone, map[string]any{
		sb + ".springs[2].joints[0].extensions.VRMC_springBone_limit": map[string]any{"limit": map[string]any{"cone": map[string]any{"angle": fixRad(40)}}},
		sb + ".springs[1].joints[2].extensions.VRMC_springBone_limit": map[string]any{"specVersion": "1.0-draft", "limit": map[string]any{"hinge": map[string]any{"angle": fixRad(90)}}},
		sb + ".springs[0].joints[0].extensions":                       nil,
	})

	for _, c := range []struct {
		v Version
		o FixtureOptions
	}{
		{VersionVRM0, FixtureOptions{Pendulum: true, Bare: true}},
		{VersionVRM0, FixtureOptions{Limits: []FixtureLimit{{Spring: "hairL", Limit: spring.Limit{Kind: spring.ConeLimit}}}}},
		{VersionVRM1, FixtureOptions{Limits: []FixtureLimit{{Spring: "hairL"}}}}, // no kind
		{VersionVRM0, FixtureOptions{Colliders: []FixtureCollider{{Node: "head"}}}},
		{VersionVRM1, FixtureOptions{Repeat: true}},
		{VersionVRM1, FixtureOptions{Bare: true}},
		{VersionVRM1, FixtureOptions{Bare: true, Pendulum: true, Branch: true}},
		{VersionVRM1, FixtureOptions{Colliders: []FixtureCollider{{Node: "Ball"}}}},
		{VersionVRM1, FixtureOptions{Limits: []FixtureLimit{{Spring: "ribbon", Limit: spring.Limit{Kind: spring.ConeLimit}}}}},
		{VersionVRM1, FixtureOptions{Pendulum: true, Bare: true, Limits: []FixtureLimit{{Spring: "hairL", Limit: spring.Limit{Kind: spring.ConeLimit}}}}},
	} {
		if _, err := Fixture(c.v, c.o); err == nil {
			t.Errorf("Fixture(%v, %+v) wrote a file", c.v, c.o)
		}
	}
}
