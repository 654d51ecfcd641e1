package gltfrig

import (
	"fmt"

	"github.com/qmuntal/gltf"
)

// The corpus files of the spring bone extensions: springs rooted at scene
// roots as three-vrm's examples lay them out, VRMC_springBone_extended_collider
// and VRMC_springBone_limit on avatars as UniVRM 1.0 writes them.

// threeVRMKind selects one of the three-vrm-style example files.
type threeVRMKind int

const (
	threeVRMSphere         threeVRMKind = iota // a sphere collider, the spring root scaled 0.25
	threeVRMSphereUnscaled                     // threeVRMSphere without its node scales
	threeVRMPlane                              // a plane collider (extended_collider 1.0-draft)
	threeVRMInside                             // an inside sphere collider (extended_collider 1.0)
)

// corpusThreeVRM is a spring bone example laid out as three-vrm's are
// (packages/three-vrm-springbone/examples/models): a glTF written by hand,
// with no skin, humanoid or VRMC_vrm, whose scene has two roots: a spring
// of five nodes from one ("Spring 1", scaled 0.25, each further node 2
// units, 0.5 m, below its parent, every node with a mesh of its own) and a
// node carrying the collider ("Collider"), in a collider group the spring
// lists. Every joint but the last carries the example's settings (no
// gravity: only a moving root swings it; a hit radius of 0.25); the last,
// only the tail, its node alone. The colliders stand where the corpus walk
// swings the spring into them: behind it (the sphere, on a node scaled 0.5
// with the sphere's offset in that frame), a plane behind it whose normal
// (-1, 0, 0) in the node's space turns to +Z with the node's quarter turn
// about +Y, and an inside sphere about its lower half.
func corpusThreeVRM(kind threeVRMKind) ([]byte, error) {
	b := newCBuilder()
	k := 0.25 // the spring root's scale: node translations below it are 4 times their world length
	if kind == threeVRMSphereUnscaled {
		k = 1
	}
	root := b.add("Spring 1", "", [3]float64{0, 2, 0})
	root.s, root.mesh = [3]float64{k, k, k}, true
	for i := 2; i <= 5; i++ {
		b.add(fmt.Sprintf("Spring %d", i), fmt.Sprintf("Spring %d", i-1), [3]float64{0, -0.5 / k, 0}).mesh = true
	}
	col := b.add("Collider", "", [3]float64{})
	col.mesh = true
	used := []string{extSpring1}
	var collider corpusObj
	switch kind {
	case threeVRMSphere, threeVRMSphereUnscaled:
		// Centre (0, 0.8, -0.75), radius 0.35 m: 0.1 above the node,
		// written 0.2 in the frame of the node scaled 0.5.
		kc := 0.5
		if kind == threeVRMSphereUnscaled {
			kc = 1
		}
		col.t, col.s = [3]float64{0, 0.7, -0.75}, [3]float64{kc, kc, kc}
		collider = corpusObj{"node": b.index["Collider"], "shape": corpusObj{"sphere": corpusObj{"offset": []float64{0, 0.1 / kc, 0}, "radius": 0.35}}}
	case threeVRMPlane:
		// The plane z = -0.3 facing +Z: the node's quarter turn about +Y
		// takes its local (x, y, z) to (z, y, -x). The fallback is a sphere
		// of radius 1000 behind the plane (offset - 1000·normal).
		col.t, col.r = [3]float64{0, 1, -0.3}, [4]float64{0, 0.70710678, 0, 0.70710678}
		collider = corpusObj{"node": b.index["Collider"],
			"shape": corpusObj{"sphere": corpusObj{"offset": []float64{1000, 0, 0}, "radius": 1000.0}},
			"extensions": corpusObj{extExtended: corpusObj{"specVersion": "1.0-draft",
				"shape": corpusObj{"plane": corpusObj{"offset": []float64{0, 0, 0}, "normal": []float64{-1, 0, 0}}}}}}
		used = append(used, extExtended)
	case threeVRMInside:
		// A sphere of radius 1.2 m about (0, 0.9, 0) the tails (hit radius
		// 0.25) stay in: within 0.95 of its centre, the tip 0.9 away at
		// rest. The node's scale 1.5 is its authoring frame; the extended
		// shape leaves its offset out (the default, the node's origin).
		// The fallback is a sphere of radius 0 far away.
		col.t, col.s = [3]float64{0, 0.9, 0}, [3]float64{1.5, 1.5, 1.5}
		collider = corpusObj{"node": b.index["Collider"],
			"shape": corpusObj{"sphere": corpusObj{"offset": []float64{0, -10000, 0}, "radius": 0.0}},
			"extensions": corpusObj{extExtended: corpusObj{"specVersion": "1.0",
				"shape": corpusObj{"sphere": corpusObj{"radius": 1.2, "inside": true}}}}}
		used = append(used, extExtended)
	}
	material := func(name string, rgba [4]float64, blend bool) *gltf.Material {
		m := &gltf.Material{Name: name, AlphaMode: gltf.AlphaOpaque,
			PBRMetallicRoughness: &gltf.PBRMetallicRoughness{BaseColorFactor: &rgba, MetallicFactor: gltf.Float(0), RoughnessFactor: gltf.Float(0.5)}}
		if blend {
			m.AlphaMode = gltf.AlphaBlend
		}
		return m
	}
	doc, idx, err := b.document(cDocOptions{generator: "Handwritten", handwritten: true,
		materials: []*gltf.Material{material("Spring Material", [4]float64{0.7, 0.9, 1, 1}, false), material("Collider Material", [4]float64{1, 0.8, 0.6, 0.5}, true)}})
	if err != nil {
		return nil, err
	}
	var joints []any
	for i := 1; i <= 5; i++ {
		j := corpusObj{"node": idx[fmt.Sprintf("Spring %d", i)]}
		if i < 5 {
			j["hitRadius"], j["stiffness"], j["gravityPower"], j["gravityDir"], j["dragForce"] = 0.25, 1.0, 0.0, []float64{0, -1, 0}, 0.4
		}
		joints = append(joints, j)
	}
	doc.ExtensionsUsed = used
	doc.Extensions = gltf.Extensions{extSpring1: corpusObj{"specVersion": "1.0",
		"colliders":      []any{collider},
		"colliderGroups": []any{corpusObj{"colliders": []int{0}}},
		"springs":        []any{corpusObj{"joints": joints, "colliderGroups": []int{0}}},
	}}
	return corpusGLB(doc)
}
