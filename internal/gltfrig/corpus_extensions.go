package gltfrig

import (
	"fmt"
	"math"

	"github.com/qmuntal/gltf"
)

// The corpus files of the spring bone extensions: springs rooted at scene
// roots as three-vrm's examples lay them out, and
// VRMC_springBone_extended_collider and VRMC_springBone_limit on avatars
// as UniVRM 1.0 writes them.

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

// extendedFallback is the base shape VRMC_springBone_extended_collider's
// README recommends an exporter write for readers without the extension:
// for an inside sphere or capsule a sphere of radius 0 far away, which
// touches nothing; for a plane a sphere of radius 1000 behind it
// (offset - 1000·normal), which stands for it.
func extendedFallback(kind string, part corpusObj) corpusObj {
	if kind == "plane" {
		off, n := part["offset"].([]float64), part["normal"].([]float64)
		return corpusObj{"sphere": corpusObj{"offset": []float64{c32(off[0] - 1000*n[0]), c32(off[1] - 1000*n[1]), c32(off[2] - 1000*n[2])}, "radius": c32(1000)}}
	}
	return corpusObj{"sphere": corpusObj{"offset": c32v([3]float64{0, -10000, 0}), "radius": c32(0)}}
}

// extendedCollider is a collider with a VRMC_springBone_extended_collider
// shape (kind "sphere", "capsule" or "plane"), with the fallback base
// shape or with none.
func extendedCollider(node int, kind string, part corpusObj, fallback bool) corpusObj {
	c := corpusObj{"node": node, "extensions": corpusObj{extExtended: corpusObj{"specVersion": "1.0", "shape": corpusObj{kind: part}}}}
	if fallback {
		c["shape"] = extendedFallback(kind, part)
	}
	return c
}

// vroidLongHair adds n strands of long hair down the back from the back
// of the head, J_Sec_Hair_Long<i>_01 …, each bones long (the last is the
// tail), slanting away from the back as they fall.
func vroidLongHair(b *cBuilder, n, bones int) [][]string {
	var out [][]string
	for i := 1; i <= n; i++ {
		x := 0.06 * (float64(i-1)/float64(max(n-1, 1)) - 0.5)
		out = append(out, b.strand("J_Bip_C_Head", func(k int) string { return fmt.Sprintf("J_Sec_Hair_Long%d_%02d", i, k) }, bones,
			[3]float64{x, 0.05, -0.09}, [3]float64{x * 0.1, -0.07, -0.015}))
	}
	return out
}

// corpusUniVRM1Extended is a VRoid Studio avatar as UniVRM 1.0 exports it
// with VRMC_springBone_extended_collider colliders after VRoid's own: an
// inside sphere about the back of the head that the long hair stays in,
// an inside capsule down from the hips that the skirt stays in, a plane
// behind the back (normal -Z on the upper chest) that keeps the long hair
// off it and a plane before the face (normal +Z on the head) that keeps
// the bangs off it, each in a collider group of its own listed by the
// springs it holds. With fallback every extended collider also has the
// base shape the extension's README recommends; without, none, as an
// exporter that writes only the extension does: the two load alike.
func corpusUniVRM1Extended(fallback bool) ([]byte, error) {
	b := newCBuilder()
	body := vroidBody(b)
	hair := vroidHair(b, 8, 4)
	long := vroidLongHair(b, 4, 6)
	skirt := vroidSkirt(b, 4, []string{"Front0", "Side0", "Side1", "Back0"})
	for _, m := range []string{"Face", "Body", "Hair"} {
		b.add(m, "", [3]float64{}).skin = m
	}
	var hairBones, skirtBones []string
	for _, s := range append(hair, long...) {
		hairBones = append(hairBones, s...)
	}
	for _, s := range skirt {
		skirtBones = append(skirtBones, s...)
	}
	b.skins = []cSkin{
		{"Face", []string{"J_Bip_C_Head", "J_Adj_L_FaceEye", "J_Adj_R_FaceEye"}},
		{"Body", append(append([]string{}, body...), skirtBones...)},
		{"Hair", append([]string{"J_Bip_C_Head"}, hairBones...)},
	}
	doc, idx, err := b.document(cDocOptions{generator: "UniGLTF-2.60.0", materials: []*gltf.Material{mtoon1("Face"), mtoon1("Body"), mtoon1("Hair")}})
	if err != nil {
		return nil, err
	}
	colliders, groups := vroidColliders(idx)
	extended := []struct {
		group, node, kind string
		part              corpusObj
	}{
		{"HairVolume", "J_Bip_C_Head", "sphere", corpusObj{"offset": c32v([3]float64{0, -0.15, -0.1}), "radius": c32(0.25), "inside": true}},
		{"SkirtVolume", "J_Bip_C_Hips", "capsule", corpusObj{"offset": c32v([3]float64{0, 0, 0}), "radius": c32(0.26), "tail": c32v([3]float64{0, -0.45, 0}), "inside": true}},
		{"Back", "J_Bip_C_UpperChest", "plane", corpusObj{"offset": c32v([3]float64{0, 0, -0.08}), "normal": c32v([3]float64{0, 0, -1})}},
		{"Face", "J_Bip_C_Head", "plane", corpusObj{"offset": c32v([3]float64{0, 0.06, 0.08}), "normal": c32v([3]float64{0, 0, 1})}},
	}
	group := map[string]int{}
	for _, e := range extended {
		group[e.group] = len(groups)
		groups = append(groups, corpusObj{"name": e.group, "colliders": []int{len(colliders)}})
		colliders = append(colliders, extendedCollider(idx[e.node], e.kind, e.part, fallback))
	}
	spring := func(name string, chain []string, stiff []float64, power, drag, hit float64, center string, cg []int) corpusObj {
		return corpusSpring(idx, name, chain, stiff, power, drag, hit, center, cg)
	}
	var springs []any
	for i, h := range hair {
		cg := []int{0, 3}
		if deg := -150 + 300*float64(i)/7; deg > -30 && deg < 30 {
			cg = append(cg, group["Face"]) // the bangs
		}
		springs = append(springs, spring(fmt.Sprintf("Hair%d", i+1), h, []float64{1.2, 1, 0.8}, 0.05, 0.4, 0.02, "", cg))
	}
	for i, h := range long {
		springs = append(springs, spring(fmt.Sprintf("HairLong%d", i+1), h, []float64{0.8, 0.6, 0.5}, 0.1, 0.3, 0.02, "", []int{0, 1, group["Back"], group["HairVolume"]}))
	}
	for i, s := range skirt {
		springs = append(springs, spring(fmt.Sprintf("Skirt%d", i+1), s, []float64{2, 1.5, 1}, 0.3, 0.35, 0.02, "", []int{2, group["SkirtVolume"]}))
	}
	doc.ExtensionsUsed = append(append([]string{}, extensions1...), extExtended)
	doc.Extensions = gltf.Extensions{
		"VRMC_vrm":        vrm1Ext("Corpus UniVRM extended colliders", idx, vroidHuman, "J_Bip_C_Head"),
		"VRMC_springBone": corpusObj{"specVersion": "1.0", "colliders": colliders, "colliderGroups": groups, "springs": springs},
	}
	return corpusGLB(doc)
}

// limitJoint1 is a joint as UniVRM 1.0 writes it with a
// VRMC_springBone_limit limit (kind "cone", "hinge" or "spherical"; the
// limit's fields, its rotation x, y, z, w always written).
func limitJoint1(j corpusObj, kind string, part corpusObj) corpusObj {
	j["extensions"] = corpusObj{extLimit: corpusObj{"specVersion": "1.0-draft", "limit": corpusObj{kind: part}}}
	return j
}

// cQuat writes a glTF quaternion from float32, as UniVRM holds it.
func cQuat(q [4]float64) []float64 { return []float64{c32(q[0]), c32(q[1]), c32(q[2]), c32(q[3])} }

// corpusUniVRM1Limits is a VRoid Studio avatar as UniVRM 1.0 exports it
// with VRMC_springBone_limit limits (specVersion 1.0-draft) on every joint
// of its strands but the last, which is only the tail: cones on the hair,
// wider down each strand, the back strands' cones leaning away from the
// head; hinges
// on the skirt, each turned about its limit frame's +Y by the strand's
// angle around the hips so that its axis is the strand's tangent (the
// shortest arc from +Y to a strand falling outwards turns about that
// tangent): the skirt swings in and out but not sideways; spherical
// limits with a turn on earrings that hang straight down, where the
// limit frame is the half turn about +X. VRoid's colliders.
func corpusUniVRM1Limits() ([]byte, error) {
	b := newCBuilder()
	body := vroidBody(b)
	hair := vroidHair(b, 10, 4)
	skirt := vroidSkirt(b, 4, []string{"Front0", "Side0", "Side1", "Back0"})
	var earrings [][]string
	for _, side := range []struct {
		s string
		x float64
	}{{"L", 1}, {"R", -1}} {
		e := b.strand("J_Bip_C_Head", func(k int) string { return fmt.Sprintf("J_Sec_%s_Earring_%02d", side.s, k) }, 4,
			[3]float64{side.x * 0.075, 0.03, 0.0}, [3]float64{0, -0.025, 0})
		for _, n := range e {
			b.node(n).mesh = true
		}
		earrings = append(earrings, e)
	}
	for _, m := range []string{"Face", "Body", "Hair"} {
		b.add(m, "", [3]float64{}).skin = m
	}
	var hairBones, skirtBones []string
	for _, s := range hair {
		hairBones = append(hairBones, s...)
	}
	for _, s := range skirt {
		skirtBones = append(skirtBones, s...)
	}
	b.skins = []cSkin{
		{"Face", []string{"J_Bip_C_Head", "J_Adj_L_FaceEye", "J_Adj_R_FaceEye"}},
		{"Body", append(append([]string{}, body...), skirtBones...)},
		{"Hair", append([]string{"J_Bip_C_Head"}, hairBones...)},
	}
	doc, idx, err := b.document(cDocOptions{generator: "UniGLTF-2.60.0", materials: []*gltf.Material{mtoon1("Face"), mtoon1("Body"), mtoon1("Hair"), mtoon1("Earring")}})
	if err != nil {
		return nil, err
	}
	colliders, groups := vroidColliders(idx)
	down := [3]float64{0, -1, 0}
	y := [3]float64{0, 1, 0}
	spring := func(name string, chain []string, stiff, power, drag, hit float64, cg []int, limit func(k int) (string, corpusObj)) corpusObj {
		var js []any
		for k, n := range chain {
			j := springJoint1(idx[n], stiff, power, down, drag, hit)
			if k < len(chain)-1 {
				kind, part := limit(k)
				j = limitJoint1(j, kind, part)
			}
			js = append(js, j)
		}
		return corpusObj{"name": name, "joints": js, "colliderGroups": cg}
	}
	var springs []any
	for i, h := range hair {
		deg := -150 + 300*float64(i)/9
		tilt := cIdent
		if deg < -90 || deg > 90 {
			// The back strands' cones lean 15 degrees away from the head:
			// a turn about the strand's tangent (cos, 0, -sin) of its
			// angle, the axis of the shortest arc from +Y to the strand,
			// the other way.
			a := deg * math.Pi / 180
			tilt = cAxis([3]float64{math.Cos(a), 0, -math.Sin(a)}, -15)
		}
		springs = append(springs, spring(fmt.Sprintf("Hair%d", i+1), h, 1.1, 0.05, 0.4, 0.02, []int{0, 3}, func(k int) (string, corpusObj) {
			return "cone", corpusObj{"angle": c32(0.3 + 0.1*float64(k)), "rotation": cQuat(tilt)}
		}))
	}
	angle := map[string]float64{"Front0": 25, "Side0": 70, "Side1": 110, "Back0": 155}
	k := 0
	for _, side := range []float64{1, -1} {
		for _, part := range []string{"Front0", "Side0", "Side1", "Back0"} {
			turn := cAxis(y, side*angle[part])
			springs = append(springs, spring(fmt.Sprintf("Skirt%d", k+1), skirt[k], 1.5, 0.3, 0.35, 0.02, []int{2}, func(int) (string, corpusObj) {
				return "hinge", corpusObj{"angle": c32(0.35), "rotation": cQuat(turn)}
			}))
			k++
		}
	}
	for i, e := range earrings {
		springs = append(springs, spring(fmt.Sprintf("Earring%d", i+1), e, 0.4, 0.6, 0.2, 0.008, []int{0}, func(int) (string, corpusObj) {
			return "spherical", corpusObj{"pitch": c32(0.3), "yaw": c32(0.15), "rotation": cQuat(cAxis(y, 30))}
		}))
	}
	doc.ExtensionsUsed = append(append([]string{}, extensions1...), extLimit)
	doc.Extensions = gltf.Extensions{
		"VRMC_vrm":        vrm1Ext("Corpus UniVRM limits", idx, vroidHuman, "J_Bip_C_Head"),
		"VRMC_springBone": corpusObj{"specVersion": "1.0", "colliders": colliders, "colliderGroups": groups, "springs": springs},
	}
	return corpusGLB(doc)
}
