package gltfrig

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"
)

// FixtureAnimation is an animation the fixture writes, its keys in the
// GLB's BIN chunk (buffers[0], without a uri), laid out as Blender's
// glTF exporter writes them: one sampler per channel, channels naming
// their nodes by index, each accessor in a buffer view of its own (or,
// with FixtureOptions.Interleaved, outputs interleaved), the key times of
// channels with equal times shared in one input accessor with its min and
// max written.
type FixtureAnimation struct {
	Name     string // "" writes none
	Channels []FixtureChannel
}

// FixtureChannel is one channel and its sampler.
type FixtureChannel struct {
	// Node is a node of the fixture ("hips", "hairL1", "Armature", "Body",
	// …), or "" to write a node index (NodeIndex) as it is.
	Node      string
	NodeIndex int
	// Path is "translation", "rotation", "scale" or "weights".
	Path string
	// Interpolation is written as given ("" writes none: LINEAR).
	Interpolation string
	// Times are the key times in seconds.
	Times []float32
	// Values are the outputs, components of one element after another
	// (x, y, z, w for a rotation; 1 per element for weights), three
	// elements per key for CUBICSPLINE (in-tangent, value, out-tangent).
	// They are given in VRM 1.0 orientation (+Z forward); the 0.x form
	// writes translations and rotations turned half a turn about +Y in
	// every frame, as its nodes.
	Values []float32
	// ComponentType (rotations only) writes the values as normalized
	// integers: 5120 BYTE, 5121 UNSIGNED_BYTE, 5122 SHORT, 5123
	// UNSIGNED_SHORT, rounded as the specification's inverse formulas;
	// 0 writes FLOAT.
	ComponentType int
}

// fixtureAnimations writes o.Animations into doc.
func fixtureAnimations(doc *gltf.Document, index map[string]int, v Version, o FixtureOptions) error {
	if len(o.Animations) == 0 {
		return nil
	}
	type key struct {
		n     int
		first float32
		last  float32
		hash  float64
	}
	times := map[key]int{} // shared input accessors
	input := func(ts []float32) int {
		h := 0.0
		for i, t := range ts {
			h += float64(t) * float64(i+1)
		}
		k := key{len(ts), ts[0], ts[len(ts)-1], h}
		if a, ok := times[k]; ok {
			return a
		}
		a := modeler.WriteAccessor(doc, gltf.TargetNone, ts)
		doc.BufferViews[*doc.Accessors[a].BufferView].Target = gltf.TargetNone
		lo, hi := float64(ts[0]), float64(ts[len(ts)-1])
		if !math.IsNaN(lo+hi) && !math.IsInf(lo+hi, 0) { // JSON has no NaN: bad times for tests go without
			doc.Accessors[a].Min, doc.Accessors[a].Max = []float64{lo}, []float64{hi}
		}
		times[k] = a
		return a
	}
	for ai, fa := range o.Animations {
		anim := &gltf.Animation{Name: fa.Name}
		var pending []pendingOutput
		for ci, fc := range fa.Channels {
			if len(fc.Times) == 0 {
				return fmt.Errorf("gltfrig: FixtureOptions.Animations[%d].Channels[%d]: no key times", ai, ci)
			}
			node := fc.NodeIndex
			if fc.Node != "" {
				n, ok := index[fc.Node]
				if !ok {
					return fmt.Errorf("gltfrig: FixtureOptions.Animations[%d].Channels[%d].Node: no node %q", ai, ci, fc.Node)
				}
				node = n
			}
			comps := map[string]int{"translation": 3, "rotation": 4, "scale": 3, "weights": 1}[fc.Path]
			if comps == 0 || len(fc.Values)%comps != 0 {
				return fmt.Errorf("gltfrig: FixtureOptions.Animations[%d].Channels[%d]: %d values for path %q", ai, ci, len(fc.Values), fc.Path)
			}
			values := fc.Values
			if v == VersionVRM0 && (fc.Path == "translation" || fc.Path == "rotation") {
				values = fixTurnValues(values, comps, fc.Path == "rotation")
			}
			interp := gltf.InterpolationLinear
			switch fc.Interpolation {
			case interpStep:
				interp = gltf.InterpolationStep
			case interpCubic:
				interp = gltf.InterpolationCubicSpline
			}
			s := &gltf.AnimationSampler{Input: input(fc.Times), Interpolation: interp}
			anim.Samplers = append(anim.Samplers, s)
			anim.Channels = append(anim.Channels, &gltf.AnimationChannel{Sampler: len(anim.Samplers) - 1,
				Target: gltf.AnimationChannelTarget{Node: gltf.Index(node), Path: fixPath(fc.Path)}})
			pending = append(pending, pendingOutput{s: s, data: fixOutput(values, comps, fc.ComponentType), normalized: fc.ComponentType != 0, interp: fc.Interpolation})
		}
		if err := writeOutputs(doc, pending, o.Interleaved); err != nil {
			return err
		}
		doc.Animations = append(doc.Animations, anim)
	}
	return nil
}

type pendingOutput struct {
	s          *gltf.AnimationSampler
	data       any
	normalized bool
	interp     string
}

// writeOutputs writes the samplers' outputs: each in its own buffer view,
// or with interleave those of equal length and FLOAT components in one
// buffer view with a byte stride.
func writeOutputs(doc *gltf.Document, ps []pendingOutput, interleave bool) error {
	done := make([]bool, len(ps))
	for i := range ps {
		if done[i] {
			continue
		}
		group := []int{i}
		if interleave && !ps[i].normalized {
			for j := i + 1; j < len(ps); j++ {
				if !done[j] && !ps[j].normalized && sliceLen(ps[j].data) == sliceLen(ps[i].data) {
					group = append(group, j)
				}
			}
		}
		if len(group) == 1 {
			a := modeler.WriteAccessor(doc, gltf.TargetNone, ps[i].data)
			doc.BufferViews[*doc.Accessors[a].BufferView].Target = gltf.TargetNone
			doc.Accessors[a].Normalized = ps[i].normalized
			ps[i].s.Output = a
			done[i] = true
			continue
		}
		data := make([]any, len(group))
		for k, j := range group {
			data[k] = ps[j].data
		}
		idx, err := modeler.WriteAccessorsInterleaved(doc, data...)
		if err != nil {
			return err
		}
		doc.BufferViews[*doc.Accessors[idx[0]].BufferView].Target = gltf.TargetNone
		for k, j := range group {
			ps[j].s.Output = idx[k]
			done[j] = true
		}
	}
	return nil
}

func sliceLen(d any) int {
	switch d := d.(type) {
	case []float32:
		return len(d)
	case [][3]float32:
		return len(d)
	case [][4]float32:
		return len(d)
	case [][4]int8:
		return len(d)
	case [][4]uint8:
		return len(d)
	case [][4]int16:
		return len(d)
	case [][4]uint16:
		return len(d)
	}
	return -1
}

func fixPath(p string) gltf.TRSProperty {
	switch p {
	case "translation":
		return gltf.TRSTranslation
	case "rotation":
		return gltf.TRSRotation
	case "scale":
		return gltf.TRSScale
	}
	return gltf.TRSWeights
}

// fixTurnValues writes 1.0 translations or rotations as a 0.x file holds
// them: turned half a turn about +Y in every frame (x and z negated; a
// quaternion's w kept; a scale is unchanged). The turn is linear, so
// tangents turn the same way.
func fixTurnValues(v []float32, comps int, rot bool) []float32 {
	out := make([]float32, len(v))
	for i := 0; i < len(v); i += comps {
		out[i], out[i+1], out[i+2] = 0-v[i], v[i+1], 0-v[i+2]
		if rot {
			out[i+3] = v[i+3]
		}
	}
	return out
}

// fixOutput packs values as the accessor data modeler writes: float32
// elements, or normalized integers rounded as the specification's
// inverse formulas (round(f·127), round(f·255), round(f·32767),
// round(f·65535)).
func fixOutput(v []float32, comps, ct int) any {
	n := len(v) / comps
	q := func(f float32, s float64) float64 { return math.Round(float64(f) * s) }
	switch {
	case comps == 1:
		return v
	case comps == 3:
		out := make([][3]float32, n)
		for i := range out {
			copy(out[i][:], v[i*3:])
		}
		return out
	case ct == compByte:
		out := make([][4]int8, n)
		for i := range out {
			for c := 0; c < 4; c++ {
				out[i][c] = int8(q(v[i*4+c], 127))
			}
		}
		return out
	case ct == compUbyte:
		out := make([][4]uint8, n)
		for i := range out {
			for c := 0; c < 4; c++ {
				out[i][c] = uint8(q(v[i*4+c], 255))
			}
		}
		return out
	case ct == compShort:
		out := make([][4]int16, n)
		for i := range out {
			for c := 0; c < 4; c++ {
				out[i][c] = int16(q(v[i*4+c], 32767))
			}
		}
		return out
	case ct == compUshort:
		out := make([][4]uint16, n)
		for i := range out {
			for c := 0; c < 4; c++ {
				out[i][c] = uint16(q(v[i*4+c], 65535))
			}
		}
		return out
	}
	out := make([][4]float32, n)
	for i := range out {
		copy(out[i][:], v[i*4:])
	}
	return out
}

// fixtureBindMatrices writes skins[0].inverseBindMatrices: the inverse of
// each joint's model-space rest transform composed from the nodes.
func fixtureBindMatrices(doc *gltf.Document) {
	parent := make([]int, len(doc.Nodes))
	for i := range parent {
		parent[i] = -1
	}
	for i, n := range doc.Nodes {
		for _, c := range n.Children {
			parent[c] = i
		}
	}
	var world func(i int) mgl32.Mat4
	world = func(i int) mgl32.Mat4 {
		n := doc.Nodes[i]
		t, r, s := n.Translation, n.Rotation, n.Scale
		q := mgl32.Quat{W: float32(r[3]), V: mgl32.Vec3{float32(r[0]), float32(r[1]), float32(r[2])}}
		m := mgl32.Translate3D(float32(t[0]), float32(t[1]), float32(t[2])).Mul4(q.Mat4()).Mul4(mgl32.Scale3D(float32(s[0]), float32(s[1]), float32(s[2])))
		if p := parent[i]; p >= 0 {
			m = world(p).Mul4(m)
		}
		return m
	}
	skin := doc.Skins[0]
	data := make([][4][4]float32, len(skin.Joints))
	for k, j := range skin.Joints {
		inv := world(j).Inv()
		for c := 0; c < 4; c++ {
			for r := 0; r < 4; r++ {
				data[k][r][c] = inv[c*4+r] // modeler: [row][column], written column-major
			}
		}
	}
	a := modeler.WriteInverseBindMatrices(doc, data)
	doc.BufferViews[*doc.Accessors[a].BufferView].Target = gltf.TargetNone
	skin.InverseBindMatrices = gltf.Index(a)
}
