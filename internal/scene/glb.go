package scene

import (
	"bytes"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"
)

// LocomotionGLB writes the standard rig and its five locomotion clips
// (LocomotionClips) as a binary glTF file, laid out as an exporter writes
// one: a node per bone (named, with its rest transform), a skin over
// every bone, and one animation per clip with a LINEAR rotation (and
// translation) channel per animated bone, keyed at the clip's own key
// times. Loaded back, its clips are the hand-built ones, through the
// file path (resampling at the same rate, name mapping): the benchmark
// that compares the two, and tools, use it.
func (s *Scene) LocomotionGLB() ([]byte, error) {
	skel := s.Skeleton
	n := skel.NumBones()
	doc := gltf.NewDocument()
	doc.Nodes = make([]*gltf.Node, n)
	joints := make([]int, n)
	var roots []int
	for b := range n {
		p, q, sc := skel.RestPos()[b], skel.RestRot()[b], skel.RestScale()[b]
		doc.Nodes[b] = &gltf.Node{Name: skel.BoneName(b),
			Translation: [3]float64{float64(p[0]), float64(p[1]), float64(p[2])},
			Rotation:    [4]float64{float64(q.V[0]), float64(q.V[1]), float64(q.V[2]), float64(q.W)},
			Scale:       [3]float64{float64(sc[0]), float64(sc[1]), float64(sc[2])}}
		joints[b] = b
		if parent := skel.Parents()[b]; parent >= 0 {
			doc.Nodes[parent].Children = append(doc.Nodes[parent].Children, b)
		} else {
			roots = append(roots, b)
		}
	}
	doc.Scenes[0].Nodes = roots
	doc.Skins = []*gltf.Skin{{Name: "body", Joints: joints}}
	for _, c := range s.LocomotionClips() {
		times := make([]float32, c.KeyCount)
		for k := range times {
			times[k] = float32(k) / c.SampleRate
		}
		in := modeler.WriteAccessor(doc, gltf.TargetNone, times)
		doc.Accessors[in].Min, doc.Accessors[in].Max = []float64{0}, []float64{float64(times[len(times)-1])}
		a := &gltf.Animation{Name: c.Name}
		channel := func(node int, path gltf.TRSProperty, out int) {
			a.Samplers = append(a.Samplers, &gltf.AnimationSampler{Input: in, Output: out, Interpolation: gltf.InterpolationLinear})
			a.Channels = append(a.Channels, &gltf.AnimationChannel{Sampler: len(a.Samplers) - 1,
				Target: gltf.AnimationChannelTarget{Node: gltf.Index(node), Path: path}})
		}
		for _, t := range c.Tracks {
			if t.Rotations != nil {
				rot := make([][4]float32, len(t.Rotations))
				for k, q := range t.Rotations {
					rot[k] = [4]float32{q.V[0], q.V[1], q.V[2], q.W}
				}
				channel(t.Bone, gltf.TRSRotation, modeler.WriteAccessor(doc, gltf.TargetNone, rot))
			}
			if t.Translations != nil {
				channel(t.Bone, gltf.TRSTranslation, modeler.WriteAccessor(doc, gltf.TargetNone, vec3s(t.Translations)))
			}
			if t.Scales != nil {
				channel(t.Bone, gltf.TRSScale, modeler.WriteAccessor(doc, gltf.TargetNone, vec3s(t.Scales)))
			}
		}
		doc.Animations = append(doc.Animations, a)
	}
	var buf bytes.Buffer
	enc := gltf.NewEncoder(&buf)
	enc.AsBinary = true
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func vec3s(v []mgl32.Vec3) [][3]float32 {
	out := make([][3]float32, len(v))
	for i, x := range v {
		out[i] = x
	}
	return out
}
