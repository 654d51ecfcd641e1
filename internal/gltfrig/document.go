package gltfrig

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/qmuntal/gltf"

	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/internal/rig"
)

// document is the part of a glTF document a rig needs. Nodes, skins and
// scenes are decoded one at a time with the gltf package's types, so that
// an error names its index; animations, accessors, buffer views and
// buffers are decoded one at a time when they are read; the rest of the
// document (meshes, materials, images) is skipped by the decoder without
// being stored.
type document struct {
	Asset       *json.RawMessage           `json:"asset"`
	Scene       *int                       `json:"scene"`
	Scenes      []json.RawMessage          `json:"scenes"`
	Nodes       []json.RawMessage          `json:"nodes"`
	Skins       []json.RawMessage          `json:"skins"`
	Animations  []json.RawMessage          `json:"animations"`
	Accessors   []json.RawMessage          `json:"accessors"`
	BufferViews []json.RawMessage          `json:"bufferViews"`
	Buffers     []json.RawMessage          `json:"buffers"`
	Extensions  map[string]json.RawMessage `json:"extensions"`
}

// loader carries the decoded nodes while the rig is assembled.
type loader struct {
	nodes    []gltf.Node
	parent   []int32 // -1 for a root
	names    []string
	needed   []bool // in the skeleton
	rig      *Rig
	warnings []string
	// bin reads accessors (and through them buffers) when first needed.
	bin *accessors
	// fromScene: a spring's first joint is a root node, so the skeleton
	// gets a bone standing for the scene (see Rig.SceneBone).
	fromScene bool
}

// parseDocument scans and decodes a glTF document's JSON and checks what
// every file sway reads needs: an asset of version 2.x and 1 to MaxNodes
// nodes (what names the file in the nodes message: "a rig", "a VRM
// Animation").
func parseDocument(js []byte, what string) (*document, error) {
	js = trimBOM(js)
	if err := scanJSON(js); err != nil {
		return nil, err
	}
	var doc document
	if err := unmarshal(js, &doc, ""); err != nil {
		return nil, err
	}
	if doc.Asset == nil {
		return nil, bad("asset", nil, "required")
	}
	var asset gltf.Asset
	if err := unmarshal(*doc.Asset, &asset, "asset"); err != nil {
		return nil, err
	}
	if !strings.HasPrefix(asset.Version, "2.") {
		return nil, bad("asset.version", asset.Version, "must be 2.x")
	}
	if len(doc.Nodes) == 0 {
		return nil, bad("nodes", 0, "%s needs at least one node", what)
	}
	if len(doc.Nodes) > MaxNodes {
		return nil, bad("nodes", len(doc.Nodes), "more than MaxNodes (%d)", MaxNodes)
	}
	return &doc, nil
}

func decodeJSON(js []byte, src *binSource) (*Rig, error) {
	doc, err := parseDocument(js, "a rig")
	if err != nil {
		return nil, err
	}
	l := &loader{rig: &Rig{}, bin: newAccessors(doc, src)}
	if err := l.load(doc); err != nil {
		if len(l.warnings) > 0 {
			return nil, &LoadError{Err: err, Warnings: l.warnings}
		}
		return nil, err
	}
	l.rig.Warnings = l.warnings
	return l.rig, nil
}

func (l *loader) load(doc *document) error {
	if err := l.readNodes(doc.Nodes); err != nil {
		return err
	}
	if err := l.markSkeleton(doc); err != nil {
		return err
	}
	if err := l.readExtensions(doc.Extensions); err != nil {
		return err
	}
	if err := l.buildSkeleton(); err != nil {
		return err
	}
	if err := l.readSkins(doc.Skins); err != nil {
		return err
	}
	return l.readAnimations(doc.Animations)
}

// unmarshal decodes with the JSON path of data in its errors.
func unmarshal(data []byte, v any, path string) error {
	err := json.Unmarshal(data, v)
	if err == nil {
		return nil
	}
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		p := te.Field
		if path != "" && p != "" {
			p = path + "." + p
		} else if p == "" {
			p = path
		}
		return bad(orJSON(p), te.Value, "cannot be read as %v", te.Type)
	case errors.As(err, &se):
		return bad(orJSON(path), se.Offset, "syntax error at byte %d: %v", se.Offset, se)
	default:
		return bad(orJSON(path), nil, "%v", err)
	}
}

func orJSON(path string) string {
	if path == "" {
		return "json"
	}
	return path
}

// readNodes decodes every node, checks the hierarchy (indices, one parent
// each, no cycles) and names the nodes.
func (l *loader) readNodes(raw []json.RawMessage) error {
	n := len(raw)
	l.nodes = make([]gltf.Node, n)
	for i := range raw {
		if err := unmarshal(raw[i], &l.nodes[i], fmt.Sprintf("nodes[%d]", i)); err != nil {
			return err
		}
	}
	l.parent = make([]int32, n)
	for i := range l.parent {
		l.parent[i] = -1
	}
	for i := range l.nodes {
		for k, c := range l.nodes[i].Children {
			path := fmt.Sprintf("nodes[%d].children[%d]", i, k)
			switch {
			case c < 0 || c >= n:
				return bad(path, c, "no such node (%d nodes)", n)
			case c == i:
				return bad(path, c, "a node cannot be its own child")
			case l.parent[c] >= 0:
				return bad(path, c, "node %d is already a child of node %d", c, l.parent[c])
			}
			l.parent[c] = int32(i)
		}
	}
	if err := l.checkCycles(); err != nil {
		return err
	}
	l.nameNodes()
	l.needed = make([]bool, n)
	return nil
}

// checkCycles walks every node's parent chain once: a chain that comes
// back to a node still being walked is a cycle.
func (l *loader) checkCycles() error {
	const (
		unseen = iota
		walking
		done
	)
	state := make([]uint8, len(l.nodes))
	var stack []int32
	for i := range l.nodes {
		stack = stack[:0]
		for j := int32(i); j >= 0 && state[j] != done; j = l.parent[j] {
			if state[j] == walking {
				return bad(fmt.Sprintf("nodes[%d].children", l.parent[j]), j, "the node hierarchy has a cycle through node %d", j)
			}
			state[j] = walking
			stack = append(stack, j)
		}
		for _, j := range stack {
			state[j] = done
		}
	}
	return nil
}

// nameNodes gives every node a unique name in node order: its own name
// when free, "node<i>" when it has none, "<name>#<i>" when the name is
// taken (glTF does not require unique names).
func (l *loader) nameNodes() {
	l.names = make([]string, len(l.nodes))
	used := make(map[string]bool, len(l.nodes))
	for i := range l.nodes {
		base := l.nodes[i].Name
		if base == "" {
			base = fmt.Sprintf("node%d", i)
		}
		name := base
		for k := 0; used[name]; k++ {
			if k == 0 {
				name = fmt.Sprintf("%s#%d", base, i)
			} else {
				name = fmt.Sprintf("%s#%d.%d", base, i, k)
			}
		}
		used[name] = true
		l.names[i] = name
	}
}

// markSkeleton selects the skeleton's nodes: every skin's joints, or when
// there is no skin every node of the default scene (of all nodes when
// there is no scene). Ancestors are added in buildSkeleton.
func (l *loader) markSkeleton(doc *document) error {
	n := len(l.nodes)
	if len(doc.Skins) > 0 {
		for s, raw := range doc.Skins {
			var skin gltf.Skin
			path := fmt.Sprintf("skins[%d]", s)
			if err := unmarshal(raw, &skin, path); err != nil {
				return err
			}
			for k, j := range skin.Joints {
				if j < 0 || j >= n {
					return bad(fmt.Sprintf("%s.joints[%d]", path, k), j, "no such node (%d nodes)", n)
				}
				l.needed[j] = true
			}
		}
		return nil
	}
	if len(doc.Scenes) == 0 {
		for i := range l.needed {
			l.needed[i] = true
		}
		return nil
	}
	s := 0
	if doc.Scene != nil {
		s = *doc.Scene
		if s < 0 || s >= len(doc.Scenes) {
			return bad("scene", s, "no such scene (%d scenes)", len(doc.Scenes))
		}
	}
	var scene gltf.Scene
	path := fmt.Sprintf("scenes[%d]", s)
	if err := unmarshal(doc.Scenes[s], &scene, path); err != nil {
		return err
	}
	stack := make([]int, 0, len(scene.Nodes))
	for k, r := range scene.Nodes {
		if r < 0 || r >= n {
			return bad(fmt.Sprintf("%s.nodes[%d]", path, k), r, "no such node (%d nodes)", n)
		}
		stack = append(stack, r)
	}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if l.needed[i] {
			continue // listed twice, or a root listed under another root
		}
		l.needed[i] = true
		stack = append(stack, l.nodes[i].Children...)
	}
	return nil
}

// firstJoint notes the first joint of a spring: a root node hangs from
// the scene.
func (l *loader) firstJoint(node int) {
	if l.parent[node] < 0 {
		l.fromScene = true
	}
}

// need adds node i (checked) to the skeleton and returns its bone name.
func (l *loader) need(path string, i int) (string, error) {
	if i < 0 || i >= len(l.nodes) {
		return "", bad(path, i, "no such node (%d nodes)", len(l.nodes))
	}
	l.needed[i] = true
	return l.names[i], nil
}

// buildSkeleton closes the selected nodes under their ancestors and turns
// them into bones in node order, with rest TRS from the node (a matrix is
// decomposed). A VRM 0.x rig is turned to face +Z (see the package doc).
func (l *loader) buildSkeleton() error {
	count := 0
	for i := range l.nodes {
		if !l.needed[i] {
			continue
		}
		for p := l.parent[i]; p >= 0 && !l.needed[p]; p = l.parent[p] {
			l.needed[p] = true
		}
	}
	for i := range l.needed {
		if l.needed[i] {
			count++
		}
	}
	scene := ""
	if l.fromScene {
		scene = l.sceneName()
		count++
	}
	if count > MaxBones {
		return bad("nodes", count, "the skeleton would have more than MaxBones (%d) bones", MaxBones)
	}
	bones := make([]rig.BoneDesc, 0, count)
	nodeOf := make([]int, 0, count) // the node of each bone; -1 for the scene's
	if scene != "" {
		bones = append(bones, rig.BoneDesc{Name: scene, Rot: mgl32.QuatIdent(), Scale: mgl32.Vec3{1, 1, 1}})
		nodeOf = append(nodeOf, -1)
	}
	for i := range l.nodes {
		if !l.needed[i] {
			continue
		}
		b, err := l.bone(i)
		if err != nil {
			return err
		}
		if b.Parent == "" && l.rig.Version == VersionVRM0 {
			b.Pos = turnY(b.Pos)
			b.Rot = turnYQuat(b.Rot)
		}
		if b.Parent == "" {
			b.Parent = scene
		}
		bones = append(bones, b)
		nodeOf = append(nodeOf, i)
	}
	l.rig.Skeleton = rig.SkeletonDesc{Name: "", Bones: bones}
	l.rig.SceneBone = scene
	l.rig.NodeBones = make([]string, len(l.nodes))
	for i := range l.nodes {
		if l.needed[i] {
			l.rig.NodeBones[i] = l.names[i]
		}
	}
	// The rig's own validation, so that a loaded rig always builds.
	if _, err := rig.NewSkeleton(l.rig.Skeleton); err != nil {
		return nodeError(err, nodeOf, count)
	}
	return nil
}

// nodeError reports a rejected skeleton at the node of the bone it names
// (a scale beyond the limits relative to the root is only seen once the
// whole hierarchy is built), or at "nodes" for the skeleton as a whole.
func nodeError(err error, nodeOf []int, count int) error {
	var fe *check.FieldError
	var k int
	var field string
	if errors.As(err, &fe) {
		prop := map[string]string{"Pos": "translation", "Rot": "rotation", "Scale": "scale"}
		if n, _ := fmt.Sscanf(fe.Field, "Bones[%d].%s", &k, &field); n == 2 && k >= 0 && k < len(nodeOf) && nodeOf[k] >= 0 && prop[field] != "" {
			return bad(fmt.Sprintf("nodes[%d].%s", nodeOf[k], prop[field]), fe.Value, "%s", fe.Reason)
		}
	}
	return bad("nodes", count, "%v", err)
}

// sceneName is SceneBoneName, or when a node has that name the first of
// "<SceneBoneName>#1", "#2", … that none has.
func (l *loader) sceneName() string {
	used := make(map[string]bool, len(l.names))
	for _, n := range l.names {
		used[n] = true
	}
	name := SceneBoneName
	for k := 1; used[name]; k++ {
		name = fmt.Sprintf("%s#%d", SceneBoneName, k)
	}
	return name
}

func (l *loader) bone(i int) (rig.BoneDesc, error) {
	nd := &l.nodes[i]
	b := rig.BoneDesc{Name: l.names[i]}
	if p := l.parent[i]; p >= 0 {
		b.Parent = l.names[p]
	}
	path := fmt.Sprintf("nodes[%d]", i)
	if nd.Matrix != gltf.DefaultMatrix {
		t, r, s, err := decompose(nd.Matrix)
		if err != nil {
			return b, bad(path+".matrix", nd.Matrix, "%v", err)
		}
		nd.Translation, nd.Rotation, nd.Scale = t, r, s
	}
	var err error
	if b.Pos, err = vec3(path+".translation", nd.Translation[:], mgl32.Vec3{}); err != nil {
		return b, err
	}
	if !check.Within(b.Pos, check.MaxTranslation) {
		return b, bad(path+".translation", b.Pos, "every component must be within ±%g m (MaxTranslation)", float32(check.MaxTranslation))
	}
	if b.Scale, err = vec3(path+".scale", nd.Scale[:], mgl32.Vec3{1, 1, 1}); err != nil {
		return b, err
	}
	for a := 0; a < 3; a++ {
		if s := b.Scale[a]; s < 1e-6 && s > -1e-6 {
			return b, bad(path+".scale", b.Scale, "a zero scale component cannot be a bone's rest scale")
		}
	}
	if err := check.Scale(errType, path+".scale", b.Scale); err != nil {
		return b, err
	}
	r := nd.Rotation
	q := mgl32.Quat{W: float32(r[3]), V: mgl32.Vec3{float32(r[0]), float32(r[1]), float32(r[2])}}
	if q, err = unitQuat(path+".rotation", q); err != nil {
		return b, err
	}
	b.Rot = q
	return b, nil
}

// turnY turns a vector half a turn about +Y.
func turnY(v mgl32.Vec3) mgl32.Vec3 { return mgl32.Vec3{-v[0], v[1], -v[2]} }

// turnYQuat is the rotation q preceded (in the parent's frame) by half a
// turn about +Y: (0,1,0,0)*q.
func turnYQuat(q mgl32.Quat) mgl32.Quat {
	return mgl32.Quat{W: -q.V[1], V: mgl32.Vec3{q.V[2], q.W, -q.V[0]}}
}
