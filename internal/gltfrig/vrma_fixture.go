package gltfrig

import (
	"bytes"
	"fmt"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"
)

// VRMAFixtureRate is the key rate of the VRMA fixture: 30 keys per
// second, the rate the specification proposes and exporters write.
const VRMAFixtureRate = 30

// VRMAFixtureOptions is the content of a VRMA fixture file.
type VRMAFixtureOptions struct {
	// SpecVersion is the extension's: "" writes "1.0", FixtureNoVersion
	// leaves it out.
	SpecVersion string
	// HipsHeight is the rig's hips height at rest, metres; 0 writes 0.9.
	// Every position of the body scales with it.
	HipsHeight float64
	// Rest sets rest rotations of humanoid nodes, relative to their
	// parent node (the specification allows any); unset ones are the
	// identity, as UniVRM and three-vrm's exporters write a T-pose.
	Rest map[string]mgl32.Quat
	// Drop leaves humanoid bones out (their children hang from the
	// parent); hips cannot be dropped.
	Drop []string
	// Keys is the number of keys of every channel, at VRMAFixtureRate;
	// 0 takes it from the tracks below.
	Keys int
	// Rotations are local rotation keys (relative to the parent node) of
	// humanoid bones, Keys each, by VRM 1.0 bone name.
	Rotations map[string][]mgl32.Quat
	// HipsTranslations are the hips' local translation keys (relative to
	// the root node), nil for none.
	HipsTranslations []mgl32.Vec3
	// LookAt are the look-at node's rotation keys, nil for no look-at
	// node; LookAtOffset is written as offsetFromHeadBone when non-nil.
	LookAt       []mgl32.Quat
	LookAtOffset *mgl32.Vec3
	// Expressions are weights per expression, written as the X of the
	// expression node's translation keys; preset names (see
	// ExpressionTrack) go to expressions.preset, others to custom.
	Expressions map[string][]float32
}

// vrmaBody is the fixture's humanoid: bone, parent, Unity's
// HumanBodyBones node name, model-space rest position at a hips height
// of 1 m (facing +Z, its left at +X).
var vrmaBody = []struct {
	bone, parent, node string
	pos                [3]float64
}{
	{"hips", "", "Hips", [3]float64{0, 1, 0}},
	{"spine", "hips", "Spine", [3]float64{0, 1.1, 0.01}},
	{"chest", "spine", "Chest", [3]float64{0, 1.25, 0}},
	{"upperChest", "chest", "UpperChest", [3]float64{0, 1.38, -0.01}},
	{"neck", "upperChest", "Neck", [3]float64{0, 1.5, 0}},
	{"head", "neck", "Head", [3]float64{0, 1.6, 0.01}},
	{"leftShoulder", "upperChest", "LeftShoulder", [3]float64{0.03, 1.45, 0}},
	{"leftUpperArm", "leftShoulder", "LeftUpperArm", [3]float64{0.16, 1.45, 0}},
	{"leftLowerArm", "leftUpperArm", "LeftLowerArm", [3]float64{0.42, 1.45, 0}},
	{"leftHand", "leftLowerArm", "LeftHand", [3]float64{0.66, 1.45, 0}},
	{"rightShoulder", "upperChest", "RightShoulder", [3]float64{-0.03, 1.45, 0}},
	{"rightUpperArm", "rightShoulder", "RightUpperArm", [3]float64{-0.16, 1.45, 0}},
	{"rightLowerArm", "rightUpperArm", "RightLowerArm", [3]float64{-0.42, 1.45, 0}},
	{"rightHand", "rightLowerArm", "RightHand", [3]float64{-0.66, 1.45, 0}},
	{"leftUpperLeg", "hips", "LeftUpperLeg", [3]float64{0.09, 0.95, 0}},
	{"leftLowerLeg", "leftUpperLeg", "LeftLowerLeg", [3]float64{0.09, 0.52, 0}},
	{"leftFoot", "leftLowerLeg", "LeftFoot", [3]float64{0.09, 0.08, 0}},
	{"leftToes", "leftFoot", "LeftToes", [3]float64{0.09, 0.01, 0.12}},
	{"rightUpperLeg", "hips", "RightUpperLeg", [3]float64{-0.09, 0.95, 0}},
	{"rightLowerLeg", "rightUpperLeg", "RightLowerLeg", [3]float64{-0.09, 0.52, 0}},
	{"rightFoot", "rightLowerLeg", "RightFoot", [3]float64{-0.09, 0.08, 0}},
	{"rightToes", "rightFoot", "RightToes", [3]float64{-0.09, 0.01, 0.12}},
}

// VRMAFixtureNode returns the node name the VRMA fixture gives a VRM 1.0
// humanoid bone (Unity's HumanBodyBones name: "Hips", "LeftUpperArm"),
// or "".
func VRMAFixtureNode(bone string) string {
	for _, b := range vrmaBody {
		if b.bone == bone {
			return b.node
		}
	}
	return ""
}

// VRMAFixtureBones lists the humanoid bones of the VRMA fixture, parents
// first.
func VRMAFixtureBones() []string {
	out := make([]string, len(vrmaBody))
	for i, b := range vrmaBody {
		out[i] = b.bone
	}
	return out
}

// FixtureVRMA writes a VRM Animation file as GLB bytes, laid out as
// UniVRM's VRMA export and three-vrm-based exporters write one: a scene
// root "Root" at the origin holding a T-pose humanoid hierarchy whose
// nodes are named after Unity's humanoid bones (Hips, Spine, …,
// LeftUpperArm, …) with identity rest rotations (unless Rest says
// otherwise); one animation whose channels share one key-time accessor
// at 30 keys/s, LINEAR, the hips translation first and then a rotation
// channel per animated humanoid bone; expression nodes and the look-at
// node as further scene roots; and extensions.VRMC_vrm_animation mapping
// them (extensionsUsed lists it).
func FixtureVRMA(o VRMAFixtureOptions) ([]byte, error) {
	h := o.HipsHeight
	if h == 0 {
		h = 0.9
	}
	keys := o.Keys
	if keys == 0 {
		for _, r := range o.Rotations {
			keys = max(keys, len(r))
		}
		keys = max(keys, len(o.HipsTranslations), len(o.LookAt))
		for _, e := range o.Expressions {
			keys = max(keys, len(e))
		}
	}
	if keys == 0 {
		return nil, fmt.Errorf("gltfrig: FixtureVRMA: no keys")
	}
	drop := map[string]bool{}
	for _, d := range o.Drop {
		if d == "hips" {
			return nil, fmt.Errorf("gltfrig: FixtureVRMA: hips cannot be dropped")
		}
		drop[d] = true
	}
	doc := gltf.NewDocument()
	doc.Asset.Generator = "sway fixture (VRMA)"
	doc.ExtensionsUsed = []string{extVRMA}
	addNode := func(n *gltf.Node, parent int) int {
		doc.Nodes = append(doc.Nodes, n)
		i := len(doc.Nodes) - 1
		if parent < 0 {
			doc.Scenes[0].Nodes = append(doc.Scenes[0].Nodes, i)
		} else {
			doc.Nodes[parent].Children = append(doc.Nodes[parent].Children, i)
		}
		return i
	}
	newNode := func(name string) *gltf.Node {
		return &gltf.Node{Name: name, Matrix: gltf.DefaultMatrix, Rotation: gltf.DefaultRotation, Scale: gltf.DefaultScale}
	}
	root := addNode(newNode("Root"), -1)

	// Model-space rest rotations, to place children: world = parent world × local.
	type placed struct {
		node  int
		pos   [3]float64
		world mgl32.Quat
	}
	bones := map[string]placed{}
	human := map[string]any{}
	for _, b := range vrmaBody {
		if drop[b.bone] {
			continue
		}
		parent := b.parent
		for drop[parent] {
			parent = vrmaBodyParent(parent)
		}
		pos := [3]float64{b.pos[0] * h, b.pos[1] * h, b.pos[2] * h}
		pNode, pWorld, pPos := root, mgl32.QuatIdent(), [3]float64{}
		if parent != "" {
			p := bones[parent]
			pNode, pWorld, pPos = p.node, p.world, p.pos
		}
		d := pWorld.Inverse().Rotate(mgl32.Vec3{float32(pos[0] - pPos[0]), float32(pos[1] - pPos[1]), float32(pos[2] - pPos[2])})
		n := newNode(b.node)
		n.Translation = [3]float64{float64(d[0]), float64(d[1]), float64(d[2])}
		local := mgl32.QuatIdent()
		if r, ok := o.Rest[b.bone]; ok {
			local = r.Normalize()
			n.Rotation = [4]float64{float64(local.V[0]), float64(local.V[1]), float64(local.V[2]), float64(local.W)}
		}
		i := addNode(n, pNode)
		bones[b.bone] = placed{i, pos, pWorld.Mul(local)}
		human[b.bone] = map[string]any{"node": i}
	}
	ext := map[string]any{"humanoid": map[string]any{"humanBones": human}}
	switch o.SpecVersion {
	case "":
		ext["specVersion"] = "1.0"
	case FixtureNoVersion:
	default:
		ext["specVersion"] = o.SpecVersion
	}

	times := make([]float32, keys)
	for k := range times {
		times[k] = float32(k) / VRMAFixtureRate
	}
	anim := &gltf.Animation{Name: "Clip"}
	input := -1
	channel := func(node int, path gltf.TRSProperty, data any, n int, what string) error {
		if n != keys {
			return fmt.Errorf("gltfrig: FixtureVRMA: %s has %d keys, want %d", what, n, keys)
		}
		if input < 0 {
			input = modeler.WriteAccessor(doc, gltf.TargetNone, times)
			doc.BufferViews[*doc.Accessors[input].BufferView].Target = gltf.TargetNone
			doc.Accessors[input].Min, doc.Accessors[input].Max = []float64{0}, []float64{float64(times[keys-1])}
		}
		out := modeler.WriteAccessor(doc, gltf.TargetNone, data)
		doc.BufferViews[*doc.Accessors[out].BufferView].Target = gltf.TargetNone
		anim.Samplers = append(anim.Samplers, &gltf.AnimationSampler{Input: input, Output: out, Interpolation: gltf.InterpolationLinear})
		anim.Channels = append(anim.Channels, &gltf.AnimationChannel{Sampler: len(anim.Samplers) - 1,
			Target: gltf.AnimationChannelTarget{Node: gltf.Index(node), Path: path}})
		return nil
	}
	if o.HipsTranslations != nil {
		if err := channel(bones["hips"].node, gltf.TRSTranslation, vec3s(o.HipsTranslations), len(o.HipsTranslations), "HipsTranslations"); err != nil {
			return nil, err
		}
	}
	for _, b := range vrmaBody {
		r, ok := o.Rotations[b.bone]
		if !ok {
			continue
		}
		if drop[b.bone] {
			return nil, fmt.Errorf("gltfrig: FixtureVRMA: Rotations[%s]: the bone is dropped", b.bone)
		}
		if err := channel(bones[b.bone].node, gltf.TRSRotation, quats(r), len(r), "Rotations["+b.bone+"]"); err != nil {
			return nil, err
		}
	}
	for name := range o.Rotations {
		if VRMAFixtureNode(name) == "" {
			return nil, fmt.Errorf("gltfrig: FixtureVRMA: Rotations[%s]: no such bone", name)
		}
	}

	if len(o.Expressions) > 0 {
		preset, custom := map[string]any{}, map[string]any{}
		for _, name := range sortedNames(o.Expressions) {
			w := o.Expressions[name]
			i := addNode(newNode(name), -1)
			t := make([]mgl32.Vec3, len(w))
			for k := range w {
				t[k] = mgl32.Vec3{w[k], 0, 0}
			}
			if err := channel(i, gltf.TRSTranslation, vec3s(t), len(t), "Expressions["+name+"]"); err != nil {
				return nil, err
			}
			if vrmaPresets[name] || vrmaLookPresets[name] {
				preset[name] = map[string]any{"node": i}
			} else {
				custom[name] = map[string]any{"node": i}
			}
		}
		e := map[string]any{}
		if len(preset) > 0 {
			e["preset"] = preset
		}
		if len(custom) > 0 {
			e["custom"] = custom
		}
		ext["expressions"] = e
	}
	if o.LookAt != nil || o.LookAtOffset != nil {
		la := map[string]any{}
		if o.LookAt != nil {
			i := addNode(newNode("lookAt"), -1)
			if err := channel(i, gltf.TRSRotation, quats(o.LookAt), len(o.LookAt), "LookAt"); err != nil {
				return nil, err
			}
			la["node"] = i
		}
		if o.LookAtOffset != nil {
			la["offsetFromHeadBone"] = []float32{o.LookAtOffset[0], o.LookAtOffset[1], o.LookAtOffset[2]}
		}
		ext["lookAt"] = la
	}
	if len(anim.Channels) > 0 {
		doc.Animations = []*gltf.Animation{anim}
	}
	doc.Extensions = gltf.Extensions{extVRMA: ext}
	var buf bytes.Buffer
	if err := gltf.NewEncoder(&buf).Encode(doc); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func vrmaBodyParent(bone string) string {
	for _, b := range vrmaBody {
		if b.bone == bone {
			return b.parent
		}
	}
	return ""
}

func vec3s(v []mgl32.Vec3) [][3]float32 {
	out := make([][3]float32, len(v))
	for i, t := range v {
		out[i] = [3]float32(t)
	}
	return out
}

func quats(q []mgl32.Quat) [][4]float32 {
	out := make([][4]float32, len(q))
	for i, r := range q {
		out[i] = [4]float32{r.V[0], r.V[1], r.V[2], r.W}
	}
	return out
}
