package gltfrig

import (
	"bytes"
	"fmt"
	"math"
	"strconv"

	"github.com/qmuntal/gltf"
)

// FixtureOptions choose the variations of the fixture avatar.
type FixtureOptions struct {
	// Branch hangs a two-bone ribbon (ribbon0, ribbon1) from hairL1, after
	// hairL2 among its children: in 0.x it is a branch of the hairL tree,
	// in 1.0 a spring of its own with hairL's settings.
	Branch bool
	// Repeat (0.x only) adds a first bone group "hairTip" listing hairL2
	// with other settings, so that hairL2 and hairL3 are joints of two
	// groups.
	Repeat bool
}

// Fixture settings, the same in both forms.
const (
	FixtureHairLStiffness = 1.5
	FixtureHairRStiffness = 0.8
	FixtureTipStiffness   = 4
)

// fixNode is one node of the fixture, in VRM 1.0 orientation (+Z forward).
type fixNode struct {
	name, parent string
	t            [3]float64
	r            [4]float64 // x, y, z, w
}

// fixRotX is a glTF quaternion turning deg degrees about +X.
func fixRotX(deg float64) [4]float64 {
	h := deg * math.Pi / 360
	return [4]float64{math.Sin(h), 0, 0, math.Cos(h)}
}

func fixtureNodes(o FixtureOptions) []fixNode {
	id := [4]float64{0, 0, 0, 1}
	n := []fixNode{
		{"Armature", "", [3]float64{}, id},
		{"hips", "Armature", [3]float64{0, 1, 0}, id},
		{"spine", "hips", [3]float64{0, 0.1, 0.01}, id},
		{"chest", "spine", [3]float64{0, 0.12, 0}, fixRotX(-10)},
		{"neck", "chest", [3]float64{0, 0.15, 0.02}, fixRotX(12)},
		{"head", "neck", [3]float64{0, 0.1, 0}, id},
		{"leftEye", "head", [3]float64{0.03, 0.05, 0.08}, id},
		{"rightEye", "head", [3]float64{-0.03, 0.05, 0.08}, id},
	}
	for _, side := range []struct {
		s string
		x float64
	}{{"L", 0.05}, {"R", -0.05}} {
		h := "hair" + side.s
		n = append(n,
			fixNode{h + "0", "head", [3]float64{side.x, 0.1, -0.05}, id},
			fixNode{h + "1", h + "0", [3]float64{0, -0.06, 0}, fixRotX(5)},
			fixNode{h + "2", h + "1", [3]float64{0, -0.06, 0}, id},
			fixNode{h + "3", h + "2", [3]float64{0, -0.06, 0.01}, id})
	}
	if o.Branch {
		n = append(n,
			fixNode{"ribbon0", "hairL1", [3]float64{0.02, -0.01, -0.02}, id},
			fixNode{"ribbon1", "ribbon0", [3]float64{0.03, -0.05, 0}, id})
	}
	return append(n, fixNode{"Body", "Armature", [3]float64{}, id})
}

// Fixture writes a small VRM avatar as GLB bytes, in VRM 1.0 form
// (v = VersionVRM1) or 0.x form (VersionVRM0): a spine to the head, two
// eyes, two hair chains of four bones (hairL with world gravity, hairR with
// its inertia in hips space), three sphere colliders in a head and a chest
// group, and the humanoid map of hips, spine, chest, neck, head and the
// eyes. The 0.x form holds the same model as UniVRM 0.x writes it (turned
// half a turn about +Y, collider offsets and gravity in Unity's space), so
// both load to the same rest pose, colliders and settings; they differ in
// the 0.x tail only: the last bone of every chain swings in 0.x and is
// the tail in 1.0. Tests build their files with it.
func Fixture(v Version, o FixtureOptions) ([]byte, error) {
	if v != VersionVRM0 && v != VersionVRM1 {
		return nil, fmt.Errorf("gltfrig: no fixture in %s form", v)
	}
	spec := fixtureNodes(o)
	index := map[string]int{}
	doc := gltf.NewDocument()
	var joints []int
	for i, fn := range spec {
		index[fn.name] = i
		t, r := fn.t, fn.r
		if v == VersionVRM0 { // half a turn about +Y in every frame
			t, r = [3]float64{-t[0], t[1], -t[2]}, [4]float64{-r[0], r[1], -r[2], r[3]}
		}
		doc.Nodes = append(doc.Nodes, &gltf.Node{Name: fn.name, Matrix: gltf.DefaultMatrix, Rotation: r, Scale: gltf.DefaultScale, Translation: t})
		if fn.parent == "" {
			doc.Scenes[0].Nodes = append(doc.Scenes[0].Nodes, i)
		} else {
			p := doc.Nodes[index[fn.parent]]
			p.Children = append(p.Children, i)
		}
		if fn.name != "Armature" && fn.name != "Body" {
			joints = append(joints, i)
		}
	}
	doc.Skins = []*gltf.Skin{{Name: "body", Joints: joints}}
	doc.Nodes[index["Body"]].Skin = gltf.Index(0)
	if v == VersionVRM1 {
		fixture1(doc, index, o)
	} else {
		fixture0(doc, index, o)
	}
	var buf bytes.Buffer
	if err := gltf.NewEncoder(&buf).Encode(doc); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

type fixObj = map[string]any

var (
	fixColliderNodes   = []string{"head", "head", "chest"}
	fixColliderOffsets = [][3]float64{{0, 0.06, 0.01}, {0, 0.02, 0.08}, {0, 0.05, 0.06}}
	fixColliderRadii   = []float64{0.06, 0.03, 0.12}
	fixHairRGravity    = [3]float64{0.48, -0.8, 0.36}
	fixHumanBones      = []string{"hips", "spine", "chest", "neck", "head", "leftEye", "rightEye"}
)

// fixGroup are one spring's settings, written per joint in 1.0 and per
// bone group in 0.x.
type fixGroup struct {
	name      string
	stiffness float64
	gravity   [3]float64
	power     float64
	drag      float64
	hit       float64
	center    string
	colliders []int // collider groups
}

func fixGroups() []fixGroup {
	return []fixGroup{
		{name: "hairL", stiffness: FixtureHairLStiffness, gravity: [3]float64{0, -1, 0}, power: 0.3, drag: 0.4, hit: 0.02, colliders: []int{0, 1}},
		{name: "hairR", stiffness: FixtureHairRStiffness, gravity: fixHairRGravity, power: 0.5, drag: 0.3, hit: 0.015, center: "hips", colliders: []int{1, 0}},
	}
}

func fixture1(doc *gltf.Document, index map[string]int, o FixtureOptions) {
	var colliders []any
	for i, n := range fixColliderNodes {
		colliders = append(colliders, fixObj{"node": index[n], "shape": fixObj{"sphere": fixObj{"offset": fixColliderOffsets[i], "radius": fixColliderRadii[i]}}})
	}
	spring := func(g fixGroup, bones ...string) fixObj {
		var js []any
		for _, b := range bones {
			js = append(js, fixObj{"node": index[b], "hitRadius": g.hit, "stiffness": g.stiffness, "gravityPower": g.power, "gravityDir": g.gravity, "dragForce": g.drag})
		}
		s := fixObj{"name": g.name, "joints": js, "colliderGroups": g.colliders}
		if g.center != "" {
			s["center"] = index[g.center]
		}
		return s
	}
	var springs []any
	for _, g := range fixGroups() {
		var bones []string
		for k := 0; k < 4; k++ {
			bones = append(bones, g.name+strconv.Itoa(k))
		}
		springs = append(springs, spring(g, bones...))
	}
	if o.Branch {
		g := fixGroups()[0]
		g.name = "ribbon"
		springs = append(springs, spring(g, "ribbon0", "ribbon1"))
	}
	bones := fixObj{}
	for _, b := range fixHumanBones {
		bones[b] = fixObj{"node": index[b]}
	}
	doc.ExtensionsUsed = []string{extVRM1, extSpring1}
	doc.Extensions = gltf.Extensions{
		extVRM1: fixObj{"specVersion": "1.0", "humanoid": fixObj{"humanBones": bones}},
		extSpring1: fixObj{
			"specVersion":    "1.0",
			"colliders":      colliders,
			"colliderGroups": []any{fixObj{"name": "head", "colliders": []int{0, 1}}, fixObj{"name": "chest", "colliders": []int{2}}},
			"springs":        springs,
		},
	}
}

// fixUnity writes a 1.0 vector as a 0.x file holds it: turned with the
// model (-x, y, -z), then in Unity's space (z negated).
func fixUnity(v [3]float64) fixObj { return fixObj{"x": -v[0], "y": v[1], "z": v[2]} }

func fixture0(doc *gltf.Document, index map[string]int, o FixtureOptions) {
	group := func(i int) []any {
		var cs []any
		for k, n := range fixColliderNodes {
			if (n == "head") == (i == 0) {
				cs = append(cs, fixObj{"offset": fixUnity(fixColliderOffsets[k]), "radius": fixColliderRadii[k]})
			}
		}
		return cs
	}
	boneGroup := func(g fixGroup, bone string) fixObj {
		center := -1
		if g.center != "" {
			center = index[g.center]
		}
		return fixObj{"comment": g.name, "stiffiness": g.stiffness, "gravityPower": g.power, "gravityDir": fixUnity(g.gravity),
			"dragForce": g.drag, "center": center, "hitRadius": g.hit, "bones": []int{index[bone]}, "colliderGroups": g.colliders}
	}
	var groups []any
	if o.Repeat {
		g := fixGroups()[0]
		g.name, g.stiffness = "hairTip", FixtureTipStiffness
		groups = append(groups, boneGroup(g, "hairL2"))
	}
	for _, g := range fixGroups() {
		groups = append(groups, boneGroup(g, g.name+"0"))
	}
	var bones []any
	for _, b := range fixHumanBones {
		bones = append(bones, fixObj{"bone": b, "node": index[b], "useDefaultValues": true})
	}
	doc.ExtensionsUsed = []string{extVRM0}
	doc.Extensions = gltf.Extensions{extVRM0: fixObj{
		"exporterVersion": "UniVRM-0.99",
		"humanoid":        fixObj{"humanBones": bones},
		"secondaryAnimation": fixObj{
			"colliderGroups": []any{
				fixObj{"node": index["head"], "colliders": group(0)},
				fixObj{"node": index["chest"], "colliders": group(1)},
			},
			"boneGroups": groups,
		},
	}}
}
