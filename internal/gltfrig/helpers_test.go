package gltfrig

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/qmuntal/gltf"
)

// nodeSpec is one node of the test humanoid, in VRM 1.0 orientation
// (+Z forward). joint: listed in the skin.
type nodeSpec struct {
	name, parent string
	t            [3]float64
	r            [4]float64 // x, y, z, w
	s            [3]float64
	matrix       bool // written as a matrix instead of TRS
	joint        bool
}

var ident = [4]float64{0, 0, 0, 1}
var one = [3]float64{1, 1, 1}

// rotX returns the glTF quaternion of a turn of deg degrees about +X.
func rotX(deg float64) [4]float64 {
	h := deg * math.Pi / 360
	return [4]float64{math.Sin(h), 0, 0, math.Cos(h)}
}

// humanoid is a small avatar: a spine to the head, two hair chains of
// four joints, an eye, an armature root that is no joint and a mesh node
// that is no joint either.
func humanoid() []nodeSpec {
	hair := func(side string, x float64) []nodeSpec {
		return []nodeSpec{
			{name: "hair" + side + "0", parent: "head", t: [3]float64{x, 0.1, -0.05}, r: ident, s: one, joint: true},
			{name: "hair" + side + "1", parent: "hair" + side + "0", t: [3]float64{0, -0.06, 0}, r: rotX(5), s: one, joint: true},
			{name: "hair" + side + "2", parent: "hair" + side + "1", t: [3]float64{0, -0.06, 0}, r: ident, s: one, joint: true},
			{name: "hair" + side + "3", parent: "hair" + side + "2", t: [3]float64{0, -0.06, 0.01}, r: ident, s: one, joint: true},
		}
	}
	n := []nodeSpec{
		{name: "Armature", t: [3]float64{0, 0, 0}, r: ident, s: one},
		{name: "hips", parent: "Armature", t: [3]float64{0, 1, 0}, r: ident, s: one, joint: true},
		{name: "spine", parent: "hips", t: [3]float64{0, 0.1, 0.01}, r: ident, s: one, joint: true},
		{name: "chest", parent: "spine", t: [3]float64{0, 0.12, 0}, r: rotX(-10), s: one, joint: true},
		{name: "neck", parent: "chest", t: [3]float64{0, 0.15, 0.02}, r: rotX(12), s: [3]float64{1, 1, 1}, matrix: true, joint: true},
		{name: "head", parent: "neck", t: [3]float64{0, 0.1, 0}, r: ident, s: one, joint: true},
		{name: "leftEye", parent: "head", t: [3]float64{0.03, 0.05, 0.08}, r: ident, s: one, joint: true},
	}
	n = append(n, hair("L", 0.05)...)
	n = append(n, hair("R", -0.05)...)
	n = append(n, nodeSpec{name: "Body", parent: "Armature", r: ident, s: one})
	return n
}

func indexOf(nodes []nodeSpec, name string) int {
	for i := range nodes {
		if nodes[i].name == name {
			return i
		}
	}
	panic("no node " + name)
}

// turned returns a glTF transform turned half a turn about +Y in every
// frame (T' = R T R⁻¹), which is how a 0.x file holds the same model.
func turned(t [3]float64, r [4]float64) ([3]float64, [4]float64) {
	return [3]float64{-t[0], t[1], -t[2]}, [4]float64{-r[0], r[1], -r[2], r[3]}
}

// trsMatrix composes a column-major glTF matrix.
func trsMatrix(t [3]float64, r [4]float64, s [3]float64) [16]float64 {
	x, y, z, w := r[0], r[1], r[2], r[3]
	c := [3][3]float64{
		{1 - 2*(y*y+z*z), 2 * (x*y + z*w), 2 * (x*z - y*w)},
		{2 * (x*y - z*w), 1 - 2*(x*x+z*z), 2 * (y*z + x*w)},
		{2 * (x*z + y*w), 2 * (y*z - x*w), 1 - 2*(x*x+y*y)},
	}
	var m [16]float64
	for a := 0; a < 3; a++ {
		for k := 0; k < 3; k++ {
			m[4*a+k] = c[a][k] * s[a]
		}
	}
	m[12], m[13], m[14], m[15] = t[0], t[1], t[2], 1
	return m
}

// buildNodes writes the node hierarchy and a skin of the joints; vrm0
// turns every transform as a 0.x file does.
func buildNodes(spec []nodeSpec, vrm0 bool) *gltf.Document {
	doc := gltf.NewDocument()
	var joints []int
	for i, ns := range spec {
		t, r := ns.t, ns.r
		if vrm0 {
			t, r = turned(t, r)
		}
		nd := &gltf.Node{Name: ns.name, Matrix: gltf.DefaultMatrix, Rotation: r, Scale: ns.s, Translation: t}
		if ns.matrix {
			nd.Matrix = trsMatrix(t, r, ns.s)
			nd.Rotation, nd.Scale, nd.Translation = gltf.DefaultRotation, gltf.DefaultScale, [3]float64{}
		}
		doc.Nodes = append(doc.Nodes, nd)
		if ns.parent == "" {
			doc.Scenes[0].Nodes = append(doc.Scenes[0].Nodes, i)
		} else {
			p := doc.Nodes[indexOf(spec, ns.parent)]
			p.Children = append(p.Children, i)
		}
		if ns.joint {
			joints = append(joints, i)
		}
	}
	doc.Skins = []*gltf.Skin{{Name: "body", Joints: joints}}
	doc.Nodes[indexOf(spec, "Body")].Skin = gltf.Index(0)
	return doc
}

// Test settings, shared by both forms.
var (
	colliderOffsets = [][3]float64{{0.02, 0.05, 0.03}, {0, 0.02, 0.08}, {0.01, 0, 0.05}}
	colliderRadii   = []float64{0.1, 0.03, 0.12}
	colliderNodes   = []string{"head", "head", "chest"}
	hairRGravity    = [3]float64{0.48, -0.8, 0.36}
	humanBones      = map[string]string{"hips": "hips", "spine": "spine", "chest": "chest", "neck": "neck", "head": "head", "leftEye": "leftEye"}
)

type obj = map[string]any

// build1 writes the humanoid in VRM 1.0 form: two hair springs, three
// sphere colliders in two groups, and two extended colliders (an inside
// sphere with a fallback, a plane) that no spring uses.
func build1() *gltf.Document {
	spec := humanoid()
	doc := buildNodes(spec, false)
	node := func(name string) int { return indexOf(spec, name) }
	var colliders []any
	for i := range colliderOffsets {
		colliders = append(colliders, obj{"node": node(colliderNodes[i]), "shape": obj{"sphere": obj{"offset": colliderOffsets[i], "radius": colliderRadii[i]}}})
	}
	colliders = append(colliders,
		obj{"node": node("hips"), "shape": obj{"sphere": obj{"offset": []float64{0, -10000, 0}, "radius": 0}},
			"extensions": obj{extExtended: obj{"specVersion": "1.0", "shape": obj{"sphere": obj{"offset": []float64{0, 0.3, 0}, "radius": 0.5, "inside": true}}}}},
		obj{"node": node("hips"), "shape": obj{"sphere": obj{"offset": []float64{0, -1000, 0}, "radius": 1000}},
			"extensions": obj{extExtended: obj{"specVersion": "1.0", "shape": obj{"plane": obj{"offset": []float64{0, -1, 0}, "normal": []float64{0, 2, 0}}}}}},
	)
	joints := func(side string, grav [3]float64) []any {
		var js []any
		for k := 0; k < 4; k++ {
			js = append(js, obj{"node": node("hair" + side + strconv.Itoa(k)), "hitRadius": 0.02, "stiffness": 1.5, "gravityPower": 0.3, "gravityDir": grav, "dragForce": 0.4})
		}
		return js
	}
	bones := obj{}
	for k, v := range humanBones {
		bones[k] = obj{"node": node(v)}
	}
	doc.ExtensionsUsed = []string{extVRM1, extSpring1, extExtended}
	doc.Extensions = gltf.Extensions{
		extVRM1: obj{"specVersion": "1.0", "humanoid": obj{"humanBones": bones}},
		extSpring1: obj{
			"specVersion":    "1.0",
			"colliders":      colliders,
			"colliderGroups": []any{obj{"name": "head", "colliders": []int{0, 1}}, obj{"name": "chest", "colliders": []int{2}}},
			"springs": []any{
				obj{"name": "hairL", "joints": joints("L", [3]float64{0, -1, 0}), "colliderGroups": []int{0, 1}},
				obj{"name": "hairR", "joints": joints("R", hairRGravity), "colliderGroups": []int{1, 0, 1}, "center": node("hips")},
			},
		},
		"EXT_unknown_to_sway": obj{"whatever": []int{1, 2, 3}},
	}
	return doc
}

// unity writes a 1.0 vector as a 0.x file holds it: turned with the model
// (-x, y, -z), then in Unity's space (z negated): (-x, y, z).
func unity(v [3]float64) obj { return obj{"x": -v[0], "y": v[1], "z": v[2]} }

// build0 writes the same humanoid in VRM 0.x form.
func build0() *gltf.Document {
	spec := humanoid()
	doc := buildNodes(spec, true)
	node := func(name string) int { return indexOf(spec, name) }
	var headColliders []any
	for i := 0; i < 2; i++ {
		headColliders = append(headColliders, obj{"offset": unity(colliderOffsets[i]), "radius": colliderRadii[i]})
	}
	var bones []any
	for k, v := range humanBones {
		bones = append(bones, obj{"bone": k, "node": node(v), "useDefaultValues": true})
	}
	doc.ExtensionsUsed = []string{extVRM0}
	doc.Extensions = gltf.Extensions{extVRM0: obj{
		"exporterVersion": "UniVRM-0.99",
		"humanoid":        obj{"humanBones": bones},
		"secondaryAnimation": obj{
			"colliderGroups": []any{
				obj{"node": node("head"), "colliders": headColliders},
				obj{"node": node("chest"), "colliders": []any{obj{"offset": unity(colliderOffsets[2]), "radius": colliderRadii[2]}}},
			},
			"boneGroups": []any{
				obj{"comment": "hairL", "stiffiness": 1.5, "gravityPower": 0.3, "gravityDir": unity([3]float64{0, -1, 0}), "dragForce": 0.4,
					"center": -1, "hitRadius": 0.02, "bones": []int{node("hairL0")}, "colliderGroups": []int{0, 1}},
				obj{"comment": "hairR", "stiffiness": 1.5, "gravityPower": 0.3, "gravityDir": unity(hairRGravity), "dragForce": 0.4,
					"center": node("hips"), "hitRadius": 0.02, "bones": []int{node("hairR0")}, "colliderGroups": []int{1, 0, 1}},
			},
		},
	}}
	return doc
}

func encodeGLB(t testing.TB, doc *gltf.Document) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := gltf.NewEncoder(&buf).Encode(doc); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func decodeBytes(t testing.TB, b []byte) *Rig {
	t.Helper()
	r, err := Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// glbJSON returns the JSON chunk of a GLB as a generic value.
func glbJSON(t testing.TB, glb []byte) any {
	t.Helper()
	n := binary.LittleEndian.Uint32(glb[12:])
	var v any
	if err := json.Unmarshal(glb[20:20+n], &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// wrapGLB packs JSON text into a GLB without a BIN chunk.
func wrapGLB(js []byte) []byte {
	for len(js)%4 != 0 {
		js = append(js, ' ')
	}
	out := make([]byte, 20, 20+len(js))
	copy(out, "glTF")
	binary.LittleEndian.PutUint32(out[4:], 2)
	binary.LittleEndian.PutUint32(out[8:], uint32(20+len(js)))
	binary.LittleEndian.PutUint32(out[12:], uint32(len(js)))
	binary.LittleEndian.PutUint32(out[16:], chunkJSON)
	return append(out, js...)
}

var pathPart = regexp.MustCompile(`^([^\[]*)((?:\[\d+\])*)$`)

// setPath sets (or with del deletes) the value at a JSON path such as
// "extensions.VRMC_springBone.springs[1].joints[0].node".
func setPath(t testing.TB, root any, path string, v any, del bool) {
	t.Helper()
	parts := strings.Split(path, ".")
	cur := root
	for i, part := range parts {
		m := pathPart.FindStringSubmatch(part)
		if m == nil {
			t.Fatalf("bad path %q", path)
		}
		idx := regexp.MustCompile(`\d+`).FindAllString(m[2], -1)
		last := i == len(parts)-1
		if m[1] != "" {
			o := cur.(map[string]any)
			if last && len(idx) == 0 {
				if del {
					delete(o, m[1])
				} else {
					o[m[1]] = v
				}
				return
			}
			cur = o[m[1]]
		}
		for k, s := range idx {
			j, _ := strconv.Atoi(s)
			a := cur.([]any)
			if last && k == len(idx)-1 {
				a[j] = v
				return
			}
			cur = a[j]
		}
	}
}

// getPath returns the value at a JSON path (as setPath spells it), or nil
// when there is none.
func getPath(t testing.TB, root any, path string) any {
	t.Helper()
	cur := root
	for _, part := range strings.Split(path, ".") {
		m := pathPart.FindStringSubmatch(part)
		if m == nil {
			t.Fatalf("bad path %q", path)
		}
		if m[1] != "" {
			o, ok := cur.(map[string]any)
			if !ok {
				return nil
			}
			cur = o[m[1]]
		}
		for _, s := range regexp.MustCompile(`\d+`).FindAllString(m[2], -1) {
			j, _ := strconv.Atoi(s)
			a, ok := cur.([]any)
			if !ok || j >= len(a) {
				return nil
			}
			cur = a[j]
		}
	}
	return cur
}

// mutate returns glb with the value at path replaced (or deleted).
func mutate(t testing.TB, glb []byte, path string, v any, del bool) []byte {
	t.Helper()
	root := glbJSON(t, glb)
	setPath(t, root, path, v, del)
	js, err := json.Marshal(root)
	if err != nil {
		t.Fatal(err)
	}
	return wrapGLB(js)
}
