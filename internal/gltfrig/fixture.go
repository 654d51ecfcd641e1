package gltfrig

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/qmuntal/gltf"

	"github.com/sway-anim/sway/systems/collide"
	"github.com/sway-anim/sway/systems/spring"
)

// FixtureOptions choose the variations of the fixture avatar. They
// combine freely, except where a field says otherwise; Fixture rejects
// a combination it cannot write.
type FixtureOptions struct {
	// Branch hangs a two-bone ribbon (ribbon0, ribbon1) from hairL1, after
	// hairL2 among its children: in 0.x it is a branch of the hairL tree,
	// in 1.0 a spring of its own ("ribbon") with hairL's settings.
	Branch bool
	// Repeat (0.x only) adds a first bone group "hairTip" listing hairL2
	// with other settings, so that hairL2 and hairL3 are joints of two
	// groups.
	Repeat bool
	// Pendulum adds two scene roots laid out as three-vrm's spring bone
	// examples (sphere-collider.gltf and its siblings): "Pendulum0", the
	// first of five nodes in a vertical line (Pendulum0 at (0, 2, 0)
	// scaled 0.25, each further node 2 units, 0.5 m, below its parent),
	// with a spring "pendulum" from Pendulum0 to Pendulum4; and "Ball", a
	// node at (0.75, 1, 0) turned a quarter turn about +Y and scaled 0.5,
	// with a sphere collider of radius 0.5 in a collider group of its own,
	// which the pendulum lists. The spring's first joint is a scene root:
	// its parent is the scene. In 1.0 the joints carry three-vrm's example
	// settings and the last joint only its node; in 0.x the spring is a
	// bone group "pendulum" listing Pendulum0.
	Pendulum bool
	// Bare leaves the avatar out (1.0 form only, with Pendulum): the file
	// holds the pendulum and the ball alone, with no skin, humanoid or
	// VRMC_vrm, as three-vrm's examples do.
	Bare bool
	// Colliders (1.0 form only) adds colliders with a
	// VRMC_springBone_extended_collider shape after the others, in one
	// collider group that every spring lists last.
	Colliders []FixtureCollider
	// Limits (1.0 form only) puts VRMC_springBone_limit limits on the
	// joints of springs; of two for one spring the later is written.
	Limits []FixtureLimit
	// Animations are written after everything else, their keys in the BIN
	// chunk (see FixtureAnimation).
	Animations []FixtureAnimation
	// Interleaved writes the outputs of an animation's channels with as
	// many keys, in FLOAT components, interleaved in one buffer view.
	Interleaved bool
	// BindMatrices writes skins[0].inverseBindMatrices in the BIN chunk:
	// for each joint the inverse of its model-space rest transform as the
	// file's nodes give it (the 0.x form's turned), as exporters write
	// them. Not with Bare, which has no skin.
	BindMatrices bool
}

// FixtureCollider is a collider with a VRMC_springBone_extended_collider
// shape.
type FixtureCollider struct {
	// Node is the node it is on: an avatar bone ("head", "hips", …),
	// "Pendulum0" … "Pendulum4" or "Ball".
	Node string
	// Shape is written in Node's space: a sphere or capsule, inside with
	// Bound Inside (a capsule's TailRadius is not written: the format has
	// one radius), or a plane, its Normal written as given.
	Shape collide.Desc
	// Fallback also writes the base VRMC_springBone shape the extension's
	// README recommends exporters write for readers without it: for an
	// inside sphere or capsule a sphere of radius 0 far away (offset
	// (0, -10000, 0)), for a plane a sphere of radius 1000 behind it
	// (offset - 1000·normal), for an outside sphere or capsule the same
	// shape. Without it the collider has no base shape.
	Fallback bool
	// SpecVersion is the extension's specVersion: "" writes
	// FixtureExtendedVersion, FixtureNoVersion leaves it out.
	SpecVersion string
}

// FixtureLimit is a VRMC_springBone_limit limit on the joints of a spring.
type FixtureLimit struct {
	// Spring is the spring's name: "hairL", "hairR", "ribbon" (with
	// Branch) or "pendulum" (with Pendulum).
	Spring string
	// Limit is written on each of the spring's joints but the last, which
	// is only the tail (three-vrm's examples write it so): a cone or hinge
	// with its angle, or a spherical limit with its pitch and yaw, each
	// given in degrees and written in radians as the format has them, and
	// Rotation as (x, y, z, w), not written when it is the zero value.
	Limit spring.Limit
	// SpecVersion is the extension's specVersion: "" writes
	// FixtureLimitVersion, FixtureNoVersion leaves it out.
	SpecVersion string
}

// Fixture settings, the same in both forms.
const (
	FixtureHairLStiffness = 1.5
	FixtureHairRStiffness = 0.8
	FixtureTipStiffness   = 4
	// The pendulum's settings, three-vrm's examples': gravityPower 0, so
	// that only the moving root swings it.
	FixturePendulumHitRadius = 0.25
	FixturePendulumDrag      = 0.4
	FixtureBallRadius        = 0.5

	FixtureExtendedVersion = "1.0"       // VRMC_springBone_extended_collider's specVersion
	FixtureLimitVersion    = "1.0-draft" // VRMC_springBone_limit's specVersion
	FixtureNoVersion       = "-"         // a SpecVersion that leaves specVersion out
)

// fixNode is one node of the fixture, in VRM 1.0 orientation (+Z forward).
type fixNode struct {
	name, parent string
	t            [3]float64
	r            [4]float64 // x, y, z, w
	s            float64    // uniform scale; 0 for 1
}

// fixRotX is a glTF quaternion turning deg degrees about +X.
func fixRotX(deg float64) [4]float64 {
	h := deg * math.Pi / 360
	return [4]float64{math.Sin(h), 0, 0, math.Cos(h)}
}

// The pendulum's nodes: three-vrm's examples' layout.
const fixPendulumJoints = 5

func fixPendulumName(k int) string { return "Pendulum" + strconv.Itoa(k) }

func fixtureNodes(o FixtureOptions) []fixNode {
	id := [4]float64{0, 0, 0, 1}
	var n []fixNode
	if !o.Bare {
		n = []fixNode{
			{name: "Armature", r: id},
			{name: "hips", parent: "Armature", t: [3]float64{0, 1, 0}, r: id},
			{name: "spine", parent: "hips", t: [3]float64{0, 0.1, 0.01}, r: id},
			{name: "chest", parent: "spine", t: [3]float64{0, 0.12, 0}, r: fixRotX(-10)},
			{name: "neck", parent: "chest", t: [3]float64{0, 0.15, 0.02}, r: fixRotX(12)},
			{name: "head", parent: "neck", t: [3]float64{0, 0.1, 0}, r: id},
			{name: "leftEye", parent: "head", t: [3]float64{0.03, 0.05, 0.08}, r: id},
			{name: "rightEye", parent: "head", t: [3]float64{-0.03, 0.05, 0.08}, r: id},
		}
		for _, side := range []struct {
			s string
			x float64
		}{{"L", 0.05}, {"R", -0.05}} {
			h := "hair" + side.s
			n = append(n,
				fixNode{name: h + "0", parent: "head", t: [3]float64{side.x, 0.1, -0.05}, r: id},
				fixNode{name: h + "1", parent: h + "0", t: [3]float64{0, -0.06, 0}, r: fixRotX(5)},
				fixNode{name: h + "2", parent: h + "1", t: [3]float64{0, -0.06, 0}, r: id},
				fixNode{name: h + "3", parent: h + "2", t: [3]float64{0, -0.06, 0.01}, r: id})
		}
		if o.Branch {
			n = append(n,
				fixNode{name: "ribbon0", parent: "hairL1", t: [3]float64{0.02, -0.01, -0.02}, r: id},
				fixNode{name: "ribbon1", parent: "ribbon0", t: [3]float64{0.03, -0.05, 0}, r: id})
		}
		n = append(n, fixNode{name: "Body", parent: "Armature", r: id})
	}
	if o.Pendulum {
		n = append(n, fixNode{name: fixPendulumName(0), t: [3]float64{0, 2, 0}, r: id, s: 0.25})
		for k := 1; k < fixPendulumJoints; k++ {
			n = append(n, fixNode{name: fixPendulumName(k), parent: fixPendulumName(k - 1), t: [3]float64{0, -2, 0}, r: id})
		}
		h := math.Sqrt(0.5) // a quarter turn about +Y
		n = append(n, fixNode{name: "Ball", t: [3]float64{0.75, 1, 0}, r: [4]float64{0, h, 0, h}, s: 0.5})
	}
	return n
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
// the tail in 1.0. FixtureOptions add to it (or, Bare, replace it); the
// JSON is laid out as UniVRM and three-vrm's examples write theirs. Tests
// build their files with it.
func Fixture(v Version, o FixtureOptions) ([]byte, error) {
	if err := o.check(v); err != nil {
		return nil, err
	}
	spec := fixtureNodes(o)
	index := map[string]int{}
	doc := gltf.NewDocument()
	var joints []int
	for i, fn := range spec {
		index[fn.name] = i
		t, r := fn.t, fn.r
		if v == VersionVRM0 { // half a turn about +Y in every frame (0-x: no -0 in the file)
			t, r = [3]float64{0 - t[0], t[1], 0 - t[2]}, [4]float64{0 - r[0], r[1], 0 - r[2], r[3]}
		}
		s := gltf.DefaultScale
		if fn.s != 0 {
			s = [3]float64{fn.s, fn.s, fn.s}
		}
		doc.Nodes = append(doc.Nodes, &gltf.Node{Name: fn.name, Matrix: gltf.DefaultMatrix, Rotation: r, Scale: s, Translation: t})
		if fn.parent == "" {
			doc.Scenes[0].Nodes = append(doc.Scenes[0].Nodes, i)
		} else {
			p := doc.Nodes[index[fn.parent]]
			p.Children = append(p.Children, i)
		}
		if !o.Bare && fn.name != "Armature" && fn.name != "Body" && fn.name != "Ball" && !fixPendulumNode(fn.name) {
			joints = append(joints, i) // the avatar's skin
		}
	}
	if !o.Bare {
		doc.Skins = []*gltf.Skin{{Name: "body", Joints: joints}}
		doc.Nodes[index["Body"]].Skin = gltf.Index(0)
	}
	if v == VersionVRM1 {
		fixture1(doc, index, o)
	} else {
		fixture0(doc, index, o)
	}
	if o.BindMatrices {
		fixtureBindMatrices(doc)
	}
	if err := fixtureAnimations(doc, index, v, o); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := gltf.NewEncoder(&buf).Encode(doc); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func fixPendulumNode(name string) bool {
	for k := 0; k < fixPendulumJoints; k++ {
		if name == fixPendulumName(k) {
			return true
		}
	}
	return false
}

// check rejects options Fixture cannot write in form v.
func (o *FixtureOptions) check(v Version) error {
	if v != VersionVRM0 && v != VersionVRM1 {
		return fmt.Errorf("gltfrig: no fixture in %s form", v)
	}
	if v == VersionVRM0 && (o.Bare || len(o.Colliders) > 0 || len(o.Limits) > 0) {
		return errors.New("gltfrig: Bare, Colliders and Limits are VRM 1.0 fixture options")
	}
	if v == VersionVRM1 && o.Repeat {
		return errors.New("gltfrig: Repeat is a VRM 0.x fixture option")
	}
	if o.Bare && o.BindMatrices {
		return errors.New("gltfrig: a Bare fixture has no skin for BindMatrices")
	}
	if o.Bare && (!o.Pendulum || o.Branch) {
		return errors.New("gltfrig: a Bare fixture holds the Pendulum alone")
	}
	nodes := map[string]bool{}
	for _, n := range fixtureNodes(*o) {
		nodes[n.name] = true
	}
	for i, c := range o.Colliders {
		if !nodes[c.Node] {
			return fmt.Errorf("gltfrig: FixtureOptions.Colliders[%d].Node: no node %q", i, c.Node)
		}
		if c.Shape.Kind > collide.Plane {
			return fmt.Errorf("gltfrig: FixtureOptions.Colliders[%d].Shape.Kind: %d", i, c.Shape.Kind)
		}
	}
	springs := map[string]bool{}
	for _, g := range fixGroups(*o) {
		springs[g.name] = true
	}
	for i, l := range o.Limits {
		if !springs[l.Spring] {
			return fmt.Errorf("gltfrig: FixtureOptions.Limits[%d].Spring: no spring %q", i, l.Spring)
		}
		if l.Limit.Kind == spring.NoLimit || l.Limit.Kind > spring.SphericalLimit {
			return fmt.Errorf("gltfrig: FixtureOptions.Limits[%d].Limit.Kind: %d", i, l.Limit.Kind)
		}
	}
	return nil
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
	bones     []string // 1.0: the joints; 0.x: the first is the group's bone
	stiffness float64
	gravity   [3]float64
	power     float64
	drag      float64
	hit       float64
	center    string
	colliders []int // collider groups
	bareTail  bool  // 1.0: the last joint is written with its node only
}

// fixGroups are the springs of the file, in the order the 1.0 form lists
// them; collider group indices count the head, chest and ball groups
// that are there.
func fixGroups(o FixtureOptions) []fixGroup {
	chain := func(name string, n int) []string {
		var b []string
		for k := 0; k < n; k++ {
			b = append(b, name+strconv.Itoa(k))
		}
		return b
	}
	var gs []fixGroup
	if !o.Bare {
		gs = []fixGroup{
			{name: "hairL", bones: chain("hairL", 4), stiffness: FixtureHairLStiffness, gravity: [3]float64{0, -1, 0}, power: 0.3, drag: 0.4, hit: 0.02, colliders: []int{0, 1}},
			{name: "hairR", bones: chain("hairR", 4), stiffness: FixtureHairRStiffness, gravity: fixHairRGravity, power: 0.5, drag: 0.3, hit: 0.015, center: "hips", colliders: []int{1, 0}},
		}
		if o.Branch {
			g := gs[0]
			g.name, g.bones = "ribbon", chain("ribbon", 2)
			gs = append(gs, g)
		}
	}
	if o.Pendulum {
		ball := 2
		if o.Bare {
			ball = 0
		}
		gs = append(gs, fixGroup{name: "pendulum", bones: chain("Pendulum", fixPendulumJoints), stiffness: 1, gravity: [3]float64{0, -1, 0},
			drag: FixturePendulumDrag, hit: FixturePendulumHitRadius, colliders: []int{ball}, bareTail: true})
	}
	return gs
}

// fixNum writes a float32 as the shortest decimal that reads back to it
// (0.1, not 0.10000000149011612).
func fixNum(f float32) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(float64(f), 'g', -1, 32), 64)
	return v
}

// fixRad writes an angle given in degrees in radians, as the formats have
// angles; the loader's conversion back gives the same float32.
func fixRad(deg float32) float64 { return float64(deg) * (math.Pi / 180) }

// fixVec writes a vector as glTF's number[3].
func fixVec(v [3]float32) []float64 { return []float64{fixNum(v[0]), fixNum(v[1]), fixNum(v[2])} }

// fixExtended writes a collider with a VRMC_springBone_extended_collider
// shape, and the base shape with Fallback.
func fixExtended(c FixtureCollider, node int) fixObj {
	d := c.Shape
	part := fixObj{"offset": fixVec(d.Offset)}
	kind := "sphere"
	switch d.Kind {
	case collide.Capsule:
		kind = "capsule"
		part["tail"] = fixVec(d.Tail)
		part["radius"] = fixNum(d.Radius)
	case collide.Plane:
		kind = "plane"
		part["normal"] = fixVec(d.Normal)
	default:
		part["radius"] = fixNum(d.Radius)
	}
	if d.Bound == collide.Inside && d.Kind != collide.Plane {
		part["inside"] = true
	}
	ext := fixObj{"shape": fixObj{kind: part}}
	switch c.SpecVersion {
	case FixtureNoVersion:
	case "":
		ext["specVersion"] = FixtureExtendedVersion
	default:
		ext["specVersion"] = c.SpecVersion
	}
	out := fixObj{"node": node, "extensions": fixObj{extExtended: ext}}
	if c.Fallback {
		switch {
		case d.Kind == collide.Plane:
			n := d.Normal.Normalize()
			out["shape"] = fixObj{"sphere": fixObj{"offset": fixVec(d.Offset.Sub(n.Mul(1000))), "radius": 1000.0}}
		case d.Bound == collide.Inside:
			out["shape"] = fixObj{"sphere": fixObj{"offset": []float64{0, -10000, 0}, "radius": 0.0}}
		default:
			base := fixObj{}
			for k, v := range part {
				if k != "inside" {
					base[k] = v
				}
			}
			out["shape"] = fixObj{kind: base}
		}
	}
	return out
}

// fixLimit writes a VRMC_springBone_limit extension.
func fixLimit(l FixtureLimit) fixObj {
	lim := l.Limit
	var part fixObj
	kind := "cone"
	switch lim.Kind {
	case spring.HingeLimit:
		kind = "hinge"
		part = fixObj{"angle": fixRad(lim.AngleDegrees)}
	case spring.SphericalLimit:
		kind = "spherical"
		part = fixObj{"pitch": fixRad(lim.PitchDegrees), "yaw": fixRad(lim.YawDegrees)}
	default:
		part = fixObj{"angle": fixRad(lim.AngleDegrees)}
	}
	if q := lim.Rotation; q != (mgl32.Quat{}) {
		part["rotation"] = []float64{fixNum(q.V[0]), fixNum(q.V[1]), fixNum(q.V[2]), fixNum(q.W)}
	}
	out := fixObj{"limit": fixObj{kind: part}}
	switch l.SpecVersion {
	case FixtureNoVersion:
	case "":
		out["specVersion"] = FixtureLimitVersion
	default:
		out["specVersion"] = l.SpecVersion
	}
	return out
}

func fixture1(doc *gltf.Document, index map[string]int, o FixtureOptions) {
	var colliders, groups []any
	if !o.Bare {
		for i, n := range fixColliderNodes {
			colliders = append(colliders, fixObj{"node": index[n], "shape": fixObj{"sphere": fixObj{"offset": fixColliderOffsets[i], "radius": fixColliderRadii[i]}}})
		}
		groups = append(groups, fixObj{"name": "head", "colliders": []int{0, 1}}, fixObj{"name": "chest", "colliders": []int{2}})
	}
	if o.Pendulum {
		groups = append(groups, fixObj{"colliders": []int{len(colliders)}})
		colliders = append(colliders, fixObj{"node": index["Ball"], "shape": fixObj{"sphere": fixObj{"offset": []float64{0, 0, 0}, "radius": FixtureBallRadius}}})
	}
	used := []string{extSpring1}
	extended := -1
	if len(o.Colliders) > 0 {
		var ids []int
		for _, c := range o.Colliders {
			ids = append(ids, len(colliders))
			colliders = append(colliders, fixExtended(c, index[c.Node]))
		}
		extended = len(groups)
		groups = append(groups, fixObj{"name": "extended", "colliders": ids})
		used = append(used, extExtended)
	}
	limits := map[string][]FixtureLimit{}
	for _, l := range o.Limits {
		limits[l.Spring] = append(limits[l.Spring], l)
	}
	if len(o.Limits) > 0 {
		used = append(used, extLimit)
	}
	var springs []any
	for _, g := range fixGroups(o) {
		var js []any
		for k, b := range g.bones {
			j := fixObj{"node": index[b]}
			if k < len(g.bones)-1 || !g.bareTail {
				j["hitRadius"], j["stiffness"], j["gravityPower"], j["gravityDir"], j["dragForce"] = g.hit, g.stiffness, g.power, g.gravity, g.drag
			}
			if ls := limits[g.name]; len(ls) > 0 && k < len(g.bones)-1 {
				j["extensions"] = fixObj{extLimit: fixLimit(ls[len(ls)-1])}
			}
			js = append(js, j)
		}
		cg := g.colliders
		if extended >= 0 {
			cg = append(append([]int(nil), cg...), extended)
		}
		s := fixObj{"name": g.name, "joints": js, "colliderGroups": cg}
		if g.center != "" {
			s["center"] = index[g.center]
		}
		springs = append(springs, s)
	}
	sb := fixObj{"specVersion": "1.0", "colliders": colliders, "colliderGroups": groups, "springs": springs}
	if o.Bare {
		doc.ExtensionsUsed = used
		doc.Extensions = gltf.Extensions{extSpring1: sb}
		return
	}
	bones := fixObj{}
	for _, b := range fixHumanBones {
		bones[b] = fixObj{"node": index[b]}
	}
	doc.ExtensionsUsed = append([]string{extVRM1}, used...)
	doc.Extensions = gltf.Extensions{
		extVRM1:    fixObj{"specVersion": "1.0", "humanoid": fixObj{"humanBones": bones}},
		extSpring1: sb,
	}
}

// fixUnity writes a 1.0 vector as a 0.x file holds it: turned with the
// model (-x, y, -z), then in Unity's space (z negated).
func fixUnity(v [3]float64) fixObj { return fixObj{"x": 0 - v[0], "y": v[1], "z": v[2]} }

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
		g := fixGroups(o)[0]
		g.name, g.stiffness = "hairTip", FixtureTipStiffness
		groups = append(groups, boneGroup(g, "hairL2"))
	}
	for _, g := range fixGroups(o) {
		if g.name != "ribbon" { // 0.x: a branch of the hairL tree
			groups = append(groups, boneGroup(g, g.bones[0]))
		}
	}
	colliderGroups := []any{
		fixObj{"node": index["head"], "colliders": group(0)},
		fixObj{"node": index["chest"], "colliders": group(1)},
	}
	if o.Pendulum {
		colliderGroups = append(colliderGroups, fixObj{"node": index["Ball"], "colliders": []any{fixObj{"offset": fixUnity([3]float64{}), "radius": FixtureBallRadius}}})
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
			"colliderGroups": colliderGroups,
			"boneGroups":     groups,
		},
	}}
}
