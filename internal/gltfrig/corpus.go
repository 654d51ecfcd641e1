package gltfrig

import (
	"bytes"
	"fmt"
	"math"

	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"
)

// CorpusFile is one avatar of the corpus: a small file laid out the way
// one of the main VRM exporters lays out its files (node names and
// hierarchy, extension JSON, numbers written from float32, fields the
// loader never reads), so that tests and tools see what real files hold
// without shipping anyone's model.
type CorpusFile struct {
	Name     string // short and unique, usable as a file name
	Exporter string // the exporter whose layout the file mimics
	About    string // what the file covers, in one line
	// Twin names the entry with the same world geometry at rest written
	// without this entry's rest scale ("" for none). Under the scale rule
	// (a scale a file has at rest is only its authoring frame) the two
	// move alike.
	Twin string
	// Bare is set for a file that holds springs and colliders on plain
	// nodes and no avatar (no skin, humanoid or VRMC_vrm), its numbers
	// written by hand, as three-vrm's spring bone examples are.
	Bare bool
	// GLB writes the file.
	GLB func() ([]byte, error)
}

// Corpus returns every corpus file, in a fixed order.
func Corpus() []CorpusFile {
	return []CorpusFile{
		{Name: "univrm0-vroid", Exporter: "UniVRM 0.x",
			About: "VRoid avatar in 0.x: bone groups with and without colliders in both orders, a branching ribbon, 0.x end bones, colliders on leaf hands and toes, centres",
			GLB:   corpusUniVRM0},
		{Name: "vroid1", Exporter: "VRoid Studio (VRM 1.0)",
			About: "24 hair strands, 8 skirt strands and the bust as VRMC_springBone springs with per-joint settings, sphere and capsule colliders, centres on some springs",
			GLB:   corpusVRoid1},
		{Name: "univrm1-accessory", Exporter: "UniVRM 1.0",
			About: "hair ending in _end nodes; a hat with tassels and earrings outside every skin swinging, a collider on the unskinned hat, colliders on leaf joints",
			GLB:   corpusUniVRM1},
		{Name: "blender-cm", Exporter: "VRM Add-on for Blender (VRM 1.0)",
			About: "an Armature scaled 0.01 above bone translations in centimetres, collider offsets in that node-local frame, Blender bone rotations, a non-uniformly scaled eye",
			Twin:  "blender-m", GLB: func() ([]byte, error) { return corpusBlender(100) }},
		{Name: "blender-m", Exporter: "VRM Add-on for Blender (VRM 1.0)",
			About: "blender-cm written in metres: the same world geometry at rest with the Armature at scale 1",
			GLB:   func() ([]byte, error) { return corpusBlender(1) }},
		{Name: "blender-tail-scaled", Exporter: "VRM Add-on for Blender (VRM 1.0)",
			About: "a tail spring whose root node carries scale 0.25 and a collider empty scaled 0.5, as in three-vrm's sphere-collider example",
			Twin:  "blender-tail", GLB: func() ([]byte, error) { return corpusBlenderTail(true) }},
		{Name: "blender-tail", Exporter: "VRM Add-on for Blender (VRM 1.0)",
			About: "blender-tail-scaled without the node scales: the same world geometry at rest",
			GLB:   func() ([]byte, error) { return corpusBlenderTail(false) }},
		{Name: "univrm1-extended", Exporter: "UniVRM 1.0",
			About: "VRMC_springBone_extended_collider on a VRoid avatar: an inside sphere (long hair), an inside capsule (skirt), planes behind the back and before the face, each with the README's fallback shape",
			GLB:   func() ([]byte, error) { return corpusUniVRM1Extended(true) }},
		{Name: "univrm1-extended-nofallback", Exporter: "UniVRM 1.0",
			About: "univrm1-extended with no base shape on the extended colliders: the extension alone",
			GLB:   func() ([]byte, error) { return corpusUniVRM1Extended(false) }},
		{Name: "univrm1-limits", Exporter: "UniVRM 1.0",
			About: "VRMC_springBone_limit (1.0-draft) on a VRoid avatar: cones on the hair (the back strands' turned), hinges turned to the skirt strands' tangents, spherical limits with a turn on earrings straight down (the half-turn frame)",
			GLB:   corpusUniVRM1Limits},
		{Name: "threevrm-sphere", Exporter: "three-vrm examples (hand-written glTF)",
			About: "two scene roots: a spring from one, scaled 0.25 as in sphere-collider.gltf, and a sphere collider on the other, scaled 0.5",
			Twin:  "threevrm-sphere-unscaled", Bare: true, GLB: func() ([]byte, error) { return corpusThreeVRM(threeVRMSphere) }},
		{Name: "threevrm-sphere-unscaled", Exporter: "three-vrm examples (hand-written glTF)",
			About: "threevrm-sphere without the node scales: the same world geometry at rest",
			Bare:  true, GLB: func() ([]byte, error) { return corpusThreeVRM(threeVRMSphereUnscaled) }},
		{Name: "threevrm-plane", Exporter: "three-vrm examples (hand-written glTF)",
			About: "a spring from a scene root and a plane collider (extended_collider 1.0-draft) on a turned scene root, the normal in the node's space, a fallback sphere",
			Bare:  true, GLB: func() ([]byte, error) { return corpusThreeVRM(threeVRMPlane) }},
		{Name: "threevrm-inside", Exporter: "three-vrm examples (hand-written glTF)",
			About: "a spring from a scene root held in an inside sphere collider (extended_collider 1.0) on a scaled scene root, its offset left out, a far fallback sphere",
			Bare:  true, GLB: func() ([]byte, error) { return corpusThreeVRM(threeVRMInside) }},
	}
}

// CorpusByName returns the corpus file of that name.
func CorpusByName(name string) (CorpusFile, bool) {
	for _, c := range Corpus() {
		if c.Name == name {
			return c, true
		}
	}
	return CorpusFile{}, false
}

// corpusObj is a JSON object of an extension.
type corpusObj = map[string]any

// c32 rounds through float32, as the exporters (C# and Blender floats)
// hold every number before writing it: 0.8 is written 0.800000011920929.
func c32(x float64) float64 { return float64(float32(x)) }

func c32v(v [3]float64) []float64 { return []float64{c32(v[0]), c32(v[1]), c32(v[2])} }

// cNode is a node of a corpus avatar, authored in VRM 1.0 orientation
// (+Z forward, +X the character's left), in the file's units.
type cNode struct {
	name, parent string
	t            [3]float64
	r            [4]float64 // x, y, z, w
	s            [3]float64
	mesh         bool   // carries a mesh of its own (not skinned)
	skin         string // carries the mesh of this skin
}

// cSkin is a skin: its joints by name.
type cSkin struct {
	name   string
	joints []string
}

// cBuilder collects the nodes and skins of one avatar.
type cBuilder struct {
	nodes []*cNode
	index map[string]int
	skins []cSkin
}

func newCBuilder() *cBuilder { return &cBuilder{index: map[string]int{}} }

var (
	cIdent = [4]float64{0, 0, 0, 1}
	cOne   = [3]float64{1, 1, 1}
)

// add appends a node with identity rotation and unit scale.
func (b *cBuilder) add(name, parent string, t [3]float64) *cNode {
	n := &cNode{name: name, parent: parent, t: t, r: cIdent, s: cOne}
	b.index[name] = len(b.nodes)
	b.nodes = append(b.nodes, n)
	return n
}

func (b *cBuilder) node(name string) *cNode { return b.nodes[b.index[name]] }

// has reports whether the avatar has a node of that name.
func (b *cBuilder) has(name string) bool { _, ok := b.index[name]; return ok }

// cAxis is the glTF quaternion (x, y, z, w) of a turn of deg degrees
// about a unit axis.
func cAxis(axis [3]float64, deg float64) [4]float64 {
	h := deg * math.Pi / 360
	s := math.Sin(h)
	return [4]float64{axis[0] * s, axis[1] * s, axis[2] * s, math.Cos(h)}
}

// cMul is the quaternion product a*b (x, y, z, w).
func cMul(a, b [4]float64) [4]float64 {
	return [4]float64{
		a[3]*b[0] + a[0]*b[3] + a[1]*b[2] - a[2]*b[1],
		a[3]*b[1] - a[0]*b[2] + a[1]*b[3] + a[2]*b[0],
		a[3]*b[2] + a[0]*b[1] - a[1]*b[0] + a[2]*b[3],
		a[3]*b[3] - a[0]*b[0] - a[1]*b[1] - a[2]*b[2],
	}
}

// cMat is a column-major 4x4 matrix.
type cMat [16]float64

func cTRS(t [3]float64, r [4]float64, s [3]float64) cMat {
	x, y, z, w := r[0], r[1], r[2], r[3]
	rot := [9]float64{ // columns
		1 - 2*(y*y+z*z), 2 * (x*y + z*w), 2 * (x*z - y*w),
		2 * (x*y - z*w), 1 - 2*(x*x+z*z), 2 * (y*z + x*w),
		2 * (x*z + y*w), 2 * (y*z - x*w), 1 - 2*(x*x+y*y),
	}
	var m cMat
	for c := 0; c < 3; c++ {
		for row := 0; row < 3; row++ {
			m[c*4+row] = rot[c*3+row] * s[c]
		}
	}
	m[12], m[13], m[14], m[15] = t[0], t[1], t[2], 1
	return m
}

func (a cMat) mul(b cMat) cMat {
	var m cMat
	for c := 0; c < 4; c++ {
		for row := 0; row < 4; row++ {
			var s float64
			for k := 0; k < 4; k++ {
				s += a[k*4+row] * b[c*4+k]
			}
			m[c*4+row] = s
		}
	}
	return m
}

// inverse inverts an affine matrix.
func (a cMat) inverse() cMat {
	m := func(r, c int) float64 { return a[c*4+r] }
	det := m(0, 0)*(m(1, 1)*m(2, 2)-m(1, 2)*m(2, 1)) - m(0, 1)*(m(1, 0)*m(2, 2)-m(1, 2)*m(2, 0)) + m(0, 2)*(m(1, 0)*m(2, 1)-m(1, 1)*m(2, 0))
	var inv cMat
	set := func(r, c int, v float64) { inv[c*4+r] = v / det }
	set(0, 0, m(1, 1)*m(2, 2)-m(1, 2)*m(2, 1))
	set(0, 1, m(0, 2)*m(2, 1)-m(0, 1)*m(2, 2))
	set(0, 2, m(0, 1)*m(1, 2)-m(0, 2)*m(1, 1))
	set(1, 0, m(1, 2)*m(2, 0)-m(1, 0)*m(2, 2))
	set(1, 1, m(0, 0)*m(2, 2)-m(0, 2)*m(2, 0))
	set(1, 2, m(0, 2)*m(1, 0)-m(0, 0)*m(1, 2))
	set(2, 0, m(1, 0)*m(2, 1)-m(1, 1)*m(2, 0))
	set(2, 1, m(0, 1)*m(2, 0)-m(0, 0)*m(2, 1))
	set(2, 2, m(0, 0)*m(1, 1)-m(0, 1)*m(1, 0))
	for r := 0; r < 3; r++ {
		inv[12+r] = -(inv[r]*a[12] + inv[4+r]*a[13] + inv[8+r]*a[14])
	}
	inv[15] = 1
	return inv
}

// cDocOptions are what differs between the exporters' documents.
type cDocOptions struct {
	generator string
	// vrm0 writes the model as UniVRM 0.x does: turned half a turn about
	// +Y (facing -Z), in every node's frame.
	vrm0 bool
	// materials are the document's materials, each with its extensions.
	materials []*gltf.Material
	// handwritten writes node numbers as given, as a file typed by hand
	// holds them (three-vrm's examples), not rounded through float32.
	handwritten bool
}

// document turns the avatar into a glTF document: nodes (numbers through
// float32), the default scene, the skins with inverse bind matrices of the
// rest pose, and a small mesh on every mesh node (a skinned triangle on
// the joints of its skin, or a plain one), so that the file is a whole
// glTF a viewer opens. It returns the document and the node index by
// name.
func (b *cBuilder) document(o cDocOptions) (*gltf.Document, map[string]int, error) {
	doc := gltf.NewDocument()
	doc.Asset.Generator = o.generator
	doc.Scenes[0].Name = "Scene"
	doc.Materials = o.materials
	world := make([]cMat, len(b.nodes))
	num := c32
	if o.handwritten {
		num = func(x float64) float64 { return x }
	}
	for i, n := range b.nodes {
		t, r := n.t, n.r
		if o.vrm0 {
			t, r = [3]float64{-t[0], t[1], -t[2]}, [4]float64{-r[0], r[1], -r[2], r[3]}
		}
		nd := &gltf.Node{Name: n.name, Matrix: gltf.DefaultMatrix,
			Translation: [3]float64{num(t[0]), num(t[1]), num(t[2])},
			Rotation:    [4]float64{num(r[0]), num(r[1]), num(r[2]), num(r[3])},
			Scale:       [3]float64{num(n.s[0]), num(n.s[1]), num(n.s[2])}}
		doc.Nodes = append(doc.Nodes, nd)
		local := cTRS(t, r, n.s)
		if n.parent == "" {
			doc.Scenes[0].Nodes = append(doc.Scenes[0].Nodes, i)
			world[i] = local
			continue
		}
		p, ok := b.index[n.parent]
		if !ok || p >= i {
			return nil, nil, fmt.Errorf("gltfrig: corpus node %q: parent %q must come before it", n.name, n.parent)
		}
		doc.Nodes[p].Children = append(doc.Nodes[p].Children, i)
		world[i] = world[p].mul(local)
	}
	skinIndex := map[string]int{}
	for s, sk := range b.skins {
		skinIndex[sk.name] = s
		ibm := make([][4][4]float32, len(sk.joints))
		joints := make([]int, len(sk.joints))
		for k, name := range sk.joints {
			j, ok := b.index[name]
			if !ok {
				return nil, nil, fmt.Errorf("gltfrig: corpus skin %q: no node %q", sk.name, name)
			}
			joints[k] = j
			inv := world[j].inverse()
			for c := 0; c < 4; c++ {
				for r := 0; r < 4; r++ {
					ibm[k][r][c] = float32(inv[c*4+r]) // the modeler takes [row][column]
				}
			}
		}
		acc := modeler.WriteInverseBindMatrices(doc, ibm)
		doc.Skins = append(doc.Skins, &gltf.Skin{Name: sk.name, Joints: joints, InverseBindMatrices: gltf.Index(acc), Skeleton: gltf.Index(joints[0])})
	}
	for i, n := range b.nodes {
		if !n.mesh && n.skin == "" {
			continue
		}
		// A triangle about the node's rest position (skinned: about its
		// skin's first joints, bound to them).
		var pts [3][3]float32
		attr := gltf.PrimitiveAttributes{}
		if n.skin != "" {
			s, ok := skinIndex[n.skin]
			if !ok {
				return nil, nil, fmt.Errorf("gltfrig: corpus node %q: no skin %q", n.name, n.skin)
			}
			doc.Nodes[i].Skin = gltf.Index(s)
			sk := doc.Skins[s]
			jw := make([][4]uint8, 3)
			for v := 0; v < 3; v++ {
				k := min(v, len(sk.Joints)-1)
				m := world[sk.Joints[k]]
				pts[v] = [3]float32{float32(m[12]) + 0.01*float32(v), float32(m[13]), float32(m[14])}
				jw[v] = [4]uint8{uint8(k), 0, 0, 0}
			}
			attr[gltf.JOINTS_0] = modeler.WriteJoints(doc, jw)
			attr[gltf.WEIGHTS_0] = modeler.WriteWeights(doc, [][4]float32{{1, 0, 0, 0}, {1, 0, 0, 0}, {1, 0, 0, 0}})
		} else {
			pts = [3][3]float32{{0, 0, 0}, {0.02, 0, 0}, {0, 0.02, 0}}
		}
		attr[gltf.POSITION] = modeler.WritePosition(doc, pts[:])
		prim := &gltf.Primitive{Attributes: attr, Indices: gltf.Index(modeler.WriteIndices(doc, []uint16{0, 1, 2}))}
		if len(doc.Materials) > 0 {
			prim.Material = gltf.Index(len(doc.Meshes) % len(doc.Materials))
		}
		doc.Meshes = append(doc.Meshes, &gltf.Mesh{Name: n.name, Primitives: []*gltf.Primitive{prim}})
		doc.Nodes[i].Mesh = gltf.Index(len(doc.Meshes) - 1)
	}
	return doc, b.index, nil
}

// corpusGLB writes a document as GLB bytes.
func corpusGLB(doc *gltf.Document) ([]byte, error) {
	var buf bytes.Buffer
	if err := gltf.NewEncoder(&buf).Encode(doc); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
