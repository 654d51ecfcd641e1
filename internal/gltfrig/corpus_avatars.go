package gltfrig

import (
	"fmt"
	"math"

	"github.com/qmuntal/gltf"
)

// The corpus avatars. Lengths are metres unless a layout says otherwise;
// every layout is authored facing +Z with +X the character's left (VRM
// 1.0), and the 0.x one is turned as UniVRM 0.x writes it.

// vroidHuman maps VRM humanoid bone names to the node names VRoid Studio
// gives them.
var vroidHuman = [][2]string{
	{"hips", "J_Bip_C_Hips"}, {"spine", "J_Bip_C_Spine"}, {"chest", "J_Bip_C_Chest"},
	{"upperChest", "J_Bip_C_UpperChest"}, {"neck", "J_Bip_C_Neck"}, {"head", "J_Bip_C_Head"},
	{"leftEye", "J_Adj_L_FaceEye"}, {"rightEye", "J_Adj_R_FaceEye"},
	{"leftShoulder", "J_Bip_L_Shoulder"}, {"leftUpperArm", "J_Bip_L_UpperArm"}, {"leftLowerArm", "J_Bip_L_LowerArm"}, {"leftHand", "J_Bip_L_Hand"},
	{"rightShoulder", "J_Bip_R_Shoulder"}, {"rightUpperArm", "J_Bip_R_UpperArm"}, {"rightLowerArm", "J_Bip_R_LowerArm"}, {"rightHand", "J_Bip_R_Hand"},
	{"leftUpperLeg", "J_Bip_L_UpperLeg"}, {"leftLowerLeg", "J_Bip_L_LowerLeg"}, {"leftFoot", "J_Bip_L_Foot"}, {"leftToes", "J_Bip_L_ToeBase"},
	{"rightUpperLeg", "J_Bip_R_UpperLeg"}, {"rightLowerLeg", "J_Bip_R_LowerLeg"}, {"rightFoot", "J_Bip_R_Foot"}, {"rightToes", "J_Bip_R_ToeBase"},
}

// vroidBody adds VRoid Studio's skeleton without fingers (the hands and
// toes are leaves) under a "Root" node and returns its bone names.
func vroidBody(b *cBuilder) []string {
	b.add("Root", "", [3]float64{})
	bones := []string{}
	add := func(name, parent string, t [3]float64) {
		b.add(name, parent, t)
		bones = append(bones, name)
	}
	add("J_Bip_C_Hips", "Root", [3]float64{0, 0.93, 0.004})
	add("J_Bip_C_Spine", "J_Bip_C_Hips", [3]float64{0, 0.055, -0.004})
	add("J_Bip_C_Chest", "J_Bip_C_Spine", [3]float64{0, 0.1, 0.002})
	add("J_Bip_C_UpperChest", "J_Bip_C_Chest", [3]float64{0, 0.11, -0.005})
	add("J_Bip_C_Neck", "J_Bip_C_UpperChest", [3]float64{0, 0.13, -0.012})
	add("J_Bip_C_Head", "J_Bip_C_Neck", [3]float64{0, 0.075, 0.012})
	add("J_Adj_L_FaceEye", "J_Bip_C_Head", [3]float64{0.031, 0.058, 0.045})
	add("J_Adj_R_FaceEye", "J_Bip_C_Head", [3]float64{-0.031, 0.058, 0.045})
	for _, side := range []struct {
		s string
		x float64
	}{{"L", 1}, {"R", -1}} {
		p := "J_Bip_" + side.s + "_"
		add(p+"Shoulder", "J_Bip_C_UpperChest", [3]float64{side.x * 0.018, 0.1, -0.01})
		add(p+"UpperArm", p+"Shoulder", [3]float64{side.x * 0.075, -0.005, -0.004})
		add(p+"LowerArm", p+"UpperArm", [3]float64{side.x * 0.21, 0, 0})
		add(p+"Hand", p+"LowerArm", [3]float64{side.x * 0.205, 0, 0.002})
		add(p+"UpperLeg", "J_Bip_C_Hips", [3]float64{side.x * 0.075, -0.05, 0.003})
		add(p+"LowerLeg", p+"UpperLeg", [3]float64{0, -0.39, 0.004})
		add(p+"Foot", p+"LowerLeg", [3]float64{0, -0.4, -0.02})
		add(p+"ToeBase", p+"Foot", [3]float64{0, -0.045, 0.1})
	}
	return bones
}

// strand adds a chain of n nodes named name(1) … name(n): the first at
// root in parent's frame, each further one at step from the previous.
func (b *cBuilder) strand(parent string, name func(k int) string, n int, root, step [3]float64) []string {
	var out []string
	for k := 1; k <= n; k++ {
		t := step
		if k == 1 {
			t = root
		}
		b.add(name(k), parent, t)
		parent = name(k)
		out = append(out, parent)
	}
	return out
}

// around is a point at radius r around a vertical axis, angle deg from
// +Z towards +X, at height y.
func around(deg, r, y float64) [3]float64 {
	a := deg * math.Pi / 180
	return [3]float64{r * math.Sin(a), y, r * math.Cos(a)}
}

// vroidHair adds n hair strands on the head, J_Sec_Hair<i>_01 …, each
// bones long (counting a last node the caller may list as the tail), and
// returns them: the first quarter bangs in front, the rest around the
// sides and back, longer behind.
func vroidHair(b *cBuilder, n, bones int) [][]string {
	var out [][]string
	for i := 1; i <= n; i++ {
		deg := -150 + 300*float64(i-1)/float64(max(n-1, 1))
		elev := 20.0
		out = append(out, b.strand("J_Bip_C_Head", func(k int) string { return fmt.Sprintf("J_Sec_Hair%d_%02d", i, k) }, bones,
			add3(around(deg, 0.095*math.Cos(elev*math.Pi/180), 0.08+0.095*math.Sin(elev*math.Pi/180)), [3]float64{0, 0, 0.01}),
			around(deg, 0.012, -0.045-0.01*math.Abs(math.Cos(deg*math.Pi/360)))))
	}
	return out
}

func add3(a, b [3]float64) [3]float64 { return [3]float64{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }

func scale3(a [3]float64, k float64) [3]float64 { return [3]float64{a[0] * k, a[1] * k, a[2] * k} }

// vroidSkirt adds skirt strands around the hips, J_Sec_<side>_Skirt<part>_0<k>.
func vroidSkirt(b *cBuilder, bones int, parts []string) [][]string {
	angle := map[string]float64{"Front0": 25, "Side0": 70, "Side1": 110, "Back0": 155}
	var out [][]string
	for _, side := range []struct {
		s string
		x float64
	}{{"L", 1}, {"R", -1}} {
		for _, part := range parts {
			deg := side.x * angle[part]
			out = append(out, b.strand("J_Bip_C_Hips", func(k int) string { return fmt.Sprintf("J_Sec_%s_Skirt%s_%02d", side.s, part, k) }, bones,
				around(deg, 0.1, -0.04), around(deg, 0.04, -0.1)))
		}
	}
	return out
}

// vroidBust adds J_Sec_<side>_Bust1 … on the upper chest.
func vroidBust(b *cBuilder, bones int) [][]string {
	var out [][]string
	for _, side := range []struct {
		s string
		x float64
	}{{"L", 1}, {"R", -1}} {
		out = append(out, b.strand("J_Bip_C_UpperChest", func(k int) string { return fmt.Sprintf("J_Sec_%s_Bust%d", side.s, k) }, bones,
			[3]float64{side.x * 0.05, -0.02, 0.05}, [3]float64{side.x * 0.005, -0.01, 0.045}))
	}
	return out
}

// The 0.x form of a vector: turned with the model and in Unity's
// left-handed space (z negated again), as UniVRM 0.x writes offsets and
// gravity.
func unity0Vec(v [3]float64) corpusObj {
	return corpusObj{"x": c32(-v[0]), "y": c32(v[1]), "z": c32(v[2])}
}

// corpusUniVRM0 is a VRoid Studio avatar as UniVRM 0.x exports it: the
// skeleton under "Root", skinned meshes Face, Body and Hair beside it and
// the empty "secondary" node that holds the spring bone components in
// Unity; normalised bones (identity rotations); every chain ends in a bone
// without children, which swings with 0.x's 7 cm virtual tail.
func corpusUniVRM0() ([]byte, error) {
	b := newCBuilder()
	body := vroidBody(b)
	hair := vroidHair(b, 8, 3)
	skirt := vroidSkirt(b, 3, []string{"Front0", "Side0", "Back0"})
	bust := vroidBust(b, 2)
	// A ribbon on the back of the head whose root has two tails: a tree
	// that 0.x expands into a chain and a branch.
	b.add("J_Sec_Ribbon", "J_Bip_C_Head", [3]float64{0, 0.1, -0.09})
	b.strand("J_Sec_Ribbon", func(k int) string { return fmt.Sprintf("J_Sec_Ribbon_L_%02d", k) }, 2, [3]float64{0.03, -0.02, -0.01}, [3]float64{0.015, -0.05, -0.005})
	b.strand("J_Sec_Ribbon", func(k int) string { return fmt.Sprintf("J_Sec_Ribbon_R_%02d", k) }, 2, [3]float64{-0.03, -0.02, -0.01}, [3]float64{-0.015, -0.05, -0.005})
	for _, m := range []string{"Face", "Body", "Hair"} {
		b.add(m, "", [3]float64{}).skin = m
	}
	b.add("secondary", "", [3]float64{})
	var hairBones, skirtBones []string
	for _, s := range hair {
		hairBones = append(hairBones, s...)
	}
	for _, s := range append(skirt, bust...) {
		skirtBones = append(skirtBones, s...)
	}
	b.skins = []cSkin{
		{"Face", []string{"J_Bip_C_Head", "J_Adj_L_FaceEye", "J_Adj_R_FaceEye"}},
		{"Body", append(append([]string{}, body...), skirtBones...)},
		{"Hair", append([]string{"J_Bip_C_Head", "J_Sec_Ribbon", "J_Sec_Ribbon_L_01", "J_Sec_Ribbon_L_02", "J_Sec_Ribbon_R_01", "J_Sec_Ribbon_R_02"}, hairBones...)},
	}
	mtoon := func(name string) *gltf.Material {
		return &gltf.Material{Name: name, AlphaMode: gltf.AlphaOpaque, DoubleSided: false,
			PBRMetallicRoughness: &gltf.PBRMetallicRoughness{BaseColorFactor: &[4]float64{1, 1, 1, 1}, MetallicFactor: gltf.Float(0), RoughnessFactor: gltf.Float(0.9)},
			Extensions:           gltf.Extensions{"KHR_materials_unlit": corpusObj{}}}
	}
	doc, idx, err := b.document(cDocOptions{generator: "UniGLTF-2.52.0", vrm0: true,
		materials: []*gltf.Material{mtoon("F00_000_Face"), mtoon("N00_000_Body"), mtoon("N00_000_Hair")}})
	if err != nil {
		return nil, err
	}
	// Collider groups, one per node, spheres with Unity-space offsets.
	type sphere struct {
		off [3]float64
		r   float64
	}
	groups := []struct {
		node    string
		spheres []sphere
	}{
		{"J_Bip_C_Head", []sphere{{[3]float64{0, 0.08, 0.01}, 0.08}, {[3]float64{0, 0.05, 0.05}, 0.06}, {[3]float64{0, 0.02, -0.02}, 0.07}}},
		{"J_Bip_C_UpperChest", []sphere{{[3]float64{0, 0.02, 0.02}, 0.1}}},
		{"J_Bip_L_Hand", []sphere{{[3]float64{0.04, 0, 0}, 0.04}}},
		{"J_Bip_R_Hand", []sphere{{[3]float64{-0.04, 0, 0}, 0.04}}},
		{"J_Bip_L_UpperLeg", []sphere{{[3]float64{0, -0.06, 0}, 0.07}, {[3]float64{0, -0.2, 0}, 0.06}}},
		{"J_Bip_R_UpperLeg", []sphere{{[3]float64{0, -0.06, 0}, 0.07}, {[3]float64{0, -0.2, 0}, 0.06}}},
		{"J_Bip_L_ToeBase", []sphere{{[3]float64{0, 0, 0.02}, 0.03}}},
		{"J_Bip_R_ToeBase", []sphere{{[3]float64{0, 0, 0.02}, 0.03}}},
	}
	var cgs []any
	for _, g := range groups {
		var cs []any
		for _, s := range g.spheres {
			cs = append(cs, corpusObj{"offset": unity0Vec(s.off), "radius": c32(s.r)})
		}
		cgs = append(cgs, corpusObj{"node": idx[g.node], "colliders": cs})
	}
	roots := func(chains [][]string) []int {
		var out []int
		for _, c := range chains {
			out = append(out, idx[c[0]])
		}
		return out
	}
	down := [3]float64{0, -1, 0}
	group := func(comment string, stiff, power float64, dir [3]float64, drag, hit float64, center string, bones []int, colliders []int) corpusObj {
		c := -1
		if center != "" {
			c = idx[center]
		}
		if colliders == nil {
			colliders = []int{} // UniVRM writes the empty list
		}
		return corpusObj{"comment": comment, "stiffiness": c32(stiff), "gravityPower": c32(power), "gravityDir": unity0Vec(dir),
			"dragForce": c32(drag), "center": c, "hitRadius": c32(hit), "bones": bones, "colliderGroups": colliders}
	}
	// Groups without colliders before and after groups with them.
	boneGroups := []any{
		group("Bust", 0.8, 0, down, 0.3, 0.04, "", roots(bust), nil),
		group("Hair", 1.2, 0.1, down, 0.4, 0.02, "", roots(hair[:4]), []int{0, 1, 2, 3}),
		group("Ribbon", 2, 0.3, down, 0.35, 0.02, "", []int{idx["J_Sec_Ribbon"]}, nil),
		group("", 0.9, 0.15, [3]float64{0, -0.96, -0.28}, 0.45, 0.02, "J_Bip_C_Head", roots(hair[4:]), []int{0, 1, 2, 3}),
		group("Skirt", 1.5, 0.4, down, 0.3, 0.02, "J_Bip_C_Hips", roots(skirt), []int{4, 5, 2, 3, 6, 7}),
	}
	var human []any
	for _, h := range vroidHuman {
		human = append(human, corpusObj{"bone": h[0], "node": idx[h[1]], "useDefaultValues": true})
	}
	var props []any
	for _, m := range doc.Materials {
		props = append(props, corpusObj{"name": m.Name, "shader": "VRM/MToon", "renderQueue": 2000,
			"floatProperties": corpusObj{"_Cutoff": c32(0.5), "_ShadeShift": c32(-0.1)}, "vectorProperties": corpusObj{"_Color": []float64{1, 1, 1, 1}},
			"textureProperties": corpusObj{}, "keywordMap": corpusObj{}, "tagMap": corpusObj{"RenderType": "Opaque"}})
	}
	doc.ExtensionsUsed = []string{"KHR_materials_unlit", "VRM"}
	doc.Extensions = gltf.Extensions{"VRM": corpusObj{
		"exporterVersion": "UniVRM-0.104.0",
		"specVersion":     "0.0",
		"meta": corpusObj{"title": "Corpus 0.x", "version": "1", "author": "sway", "contactInformation": "", "reference": "",
			"texture": -1, "allowedUserName": "OnlyAuthor", "violentUssageName": "Disallow", "sexualUssageName": "Disallow",
			"commercialUssageName": "Disallow", "otherPermissionUrl": "", "licenseName": "Redistribution_Prohibited", "otherLicenseUrl": ""},
		"humanoid": corpusObj{"humanBones": human, "armStretch": c32(0.05), "legStretch": c32(0.05), "upperArmTwist": c32(0.5),
			"lowerArmTwist": c32(0.5), "upperLegTwist": c32(0.5), "lowerLegTwist": c32(0.5), "feetSpacing": 0, "hasTranslationDoF": false},
		"firstPerson": corpusObj{"firstPersonBone": idx["J_Bip_C_Head"], "firstPersonBoneOffset": corpusObj{"x": 0, "y": c32(0.06), "z": 0},
			"meshAnnotations": []any{corpusObj{"mesh": 0, "firstPersonFlag": "Auto"}}, "lookAtTypeName": "Bone"},
		"blendShapeMaster":   corpusObj{"blendShapeGroups": []any{corpusObj{"name": "Neutral", "presetName": "neutral", "binds": []any{}, "materialValues": []any{}, "isBinary": false}}},
		"secondaryAnimation": corpusObj{"boneGroups": boneGroups, "colliderGroups": cgs},
		"materialProperties": props,
	}}
	return corpusGLB(doc)
}

// springJoint1 is one joint of a VRMC_springBone spring as the 1.0
// exporters write it: every setting on every joint, the tail's too.
func springJoint1(node int, stiff, power float64, dir [3]float64, drag, hit float64) corpusObj {
	return corpusObj{"node": node, "hitRadius": c32(hit), "stiffness": c32(stiff), "gravityPower": c32(power),
		"gravityDir": c32v(dir), "dragForce": c32(drag)}
}

// vrm1Meta is VRMC_vrm's meta as the 1.0 exporters fill it.
func vrm1Meta(name string) corpusObj {
	return corpusObj{"name": name, "version": "1.0", "authors": []string{"sway"}, "licenseUrl": "https://vrm.dev/licenses/1.0/",
		"avatarPermission": "onlyAuthor", "allowExcessivelyViolentUsage": false, "allowExcessivelySexualUsage": false,
		"commercialUsage": "personalNonProfit", "allowPoliticalOrReligiousUsage": false, "allowAntisocialOrHateUsage": false,
		"creditNotation": "required", "allowRedistribution": false, "modification": "prohibited"}
}

// vrm1Ext is the VRMC_vrm extension: humanoid map and the fields the
// loader ignores.
func vrm1Ext(name string, idx map[string]int, human [][2]string, head string) corpusObj {
	bones := corpusObj{}
	for _, h := range human {
		bones[h[0]] = corpusObj{"node": idx[h[1]]}
	}
	return corpusObj{"specVersion": "1.0", "meta": vrm1Meta(name), "humanoid": corpusObj{"humanBones": bones},
		"firstPerson": corpusObj{"meshAnnotations": []any{corpusObj{"node": idx[head], "type": "auto"}}},
		"lookAt": corpusObj{"offsetFromHeadBone": c32v([3]float64{0, 0.06, 0}), "type": "bone",
			"rangeMapHorizontalInner": corpusObj{"inputMaxValue": 90, "outputScale": 10}},
		"expressions": corpusObj{"preset": corpusObj{"happy": corpusObj{"isBinary": false, "overrideBlink": "none"}}}}
}

// mtoon1 is a material with VRMC_materials_mtoon, as 1.0 exporters write.
func mtoon1(name string) *gltf.Material {
	return &gltf.Material{Name: name, AlphaMode: gltf.AlphaOpaque,
		PBRMetallicRoughness: &gltf.PBRMetallicRoughness{BaseColorFactor: &[4]float64{1, 1, 1, 1}, MetallicFactor: gltf.Float(0), RoughnessFactor: gltf.Float(1)},
		Extensions: gltf.Extensions{"KHR_materials_unlit": corpusObj{}, "VRMC_materials_mtoon": corpusObj{"specVersion": "1.0",
			"shadeColorFactor": []float64{c32(0.8), c32(0.7), c32(0.7)}, "shadingShiftFactor": c32(-0.05), "giEqualizationFactor": c32(0.9)}}}
}

var extensions1 = []string{"KHR_materials_unlit", "VRMC_materials_mtoon", "VRMC_springBone", "VRMC_vrm"}

// vroidColliders are the 1.0 colliders VRoid Studio puts on its skeleton:
// spheres on the head, chest and hips, capsules on the legs and forearms,
// spheres on the (leaf) hands.
func vroidColliders(idx map[string]int) (colliders, groups []any) {
	sphere := func(node string, off [3]float64, r float64) corpusObj {
		return corpusObj{"node": idx[node], "shape": corpusObj{"sphere": corpusObj{"offset": c32v(off), "radius": c32(r)}}}
	}
	capsule := func(node string, off, tail [3]float64, r float64) corpusObj {
		return corpusObj{"node": idx[node], "shape": corpusObj{"capsule": corpusObj{"offset": c32v(off), "radius": c32(r), "tail": c32v(tail)}}}
	}
	colliders = []any{
		sphere("J_Bip_C_Head", [3]float64{0, 0.08, 0.01}, 0.08),
		sphere("J_Bip_C_Head", [3]float64{0, 0.05, 0.05}, 0.06),
		sphere("J_Bip_C_UpperChest", [3]float64{0, 0.02, 0.02}, 0.1),
		sphere("J_Bip_C_Hips", [3]float64{0, 0, 0}, 0.1),
		capsule("J_Bip_L_UpperLeg", [3]float64{0, -0.02, 0}, [3]float64{0, -0.35, 0}, 0.055),
		capsule("J_Bip_R_UpperLeg", [3]float64{0, -0.02, 0}, [3]float64{0, -0.35, 0}, 0.055),
		capsule("J_Bip_L_LowerArm", [3]float64{0, 0, 0}, [3]float64{0.2, 0, 0}, 0.035),
		capsule("J_Bip_R_LowerArm", [3]float64{0, 0, 0}, [3]float64{-0.2, 0, 0}, 0.035),
		sphere("J_Bip_L_Hand", [3]float64{0.04, 0, 0}, 0.04),
		sphere("J_Bip_R_Hand", [3]float64{-0.04, 0, 0}, 0.04),
	}
	groups = []any{
		corpusObj{"name": "Head", "colliders": []int{0, 1}},
		corpusObj{"name": "Body", "colliders": []int{2, 3}},
		corpusObj{"name": "Legs", "colliders": []int{4, 5}},
		corpusObj{"name": "Arms", "colliders": []int{6, 7, 8, 9}},
	}
	return colliders, groups
}

// corpusVRoid1 is a VRoid Studio avatar exported as VRM 1.0: 24 hair
// strands of four nodes (the fourth is the tail joint), eight skirt
// strands, the bust, settings that soften along each strand, centres on
// the back hair (the head) and the skirt (the hips).
func corpusVRoid1() ([]byte, error) {
	b := newCBuilder()
	body := vroidBody(b)
	hair := vroidHair(b, 24, 4)
	skirt := vroidSkirt(b, 4, []string{"Front0", "Side0", "Side1", "Back0"})
	bust := vroidBust(b, 3)
	for _, m := range []string{"Face", "Body", "Hair"} {
		b.add(m, "", [3]float64{}).skin = m
	}
	var hairBones, rest []string
	for _, s := range hair {
		hairBones = append(hairBones, s...)
	}
	for _, s := range append(skirt, bust...) {
		rest = append(rest, s...)
	}
	b.skins = []cSkin{
		{"Face", []string{"J_Bip_C_Head", "J_Adj_L_FaceEye", "J_Adj_R_FaceEye"}},
		{"Body", append(append([]string{}, body...), rest...)},
		{"Hair", append([]string{"J_Bip_C_Head"}, hairBones...)},
	}
	doc, idx, err := b.document(cDocOptions{generator: "VRoid Studio-1.29.2", materials: []*gltf.Material{mtoon1("N00_000_00_Face_00"), mtoon1("N00_000_00_Body_00"), mtoon1("N00_000_Hair_00")}})
	if err != nil {
		return nil, err
	}
	colliders, groups := vroidColliders(idx)
	spring := func(name string, chain []string, stiff []float64, power, drag, hit float64, center string, cg []int) corpusObj {
		return corpusSpring(idx, name, chain, stiff, power, drag, hit, center, cg)
	}
	var springs []any
	for i, h := range hair {
		center := ""
		if i >= len(hair)/2 {
			center = "J_Bip_C_Head"
		}
		springs = append(springs, spring(fmt.Sprintf("Hair%d", i+1), h, []float64{1.4, 1.1, 0.8}, 0.05+0.01*float64(i%5), 0.4, 0.02, center, []int{0, 1, 3}))
	}
	for i, s := range skirt {
		springs = append(springs, spring(fmt.Sprintf("Skirt%d", i+1), s, []float64{2, 1.5, 1}, 0.3, 0.35, 0.02, "J_Bip_C_Hips", []int{2, 3}))
	}
	for i, s := range bust {
		springs = append(springs, spring(fmt.Sprintf("Bust%d", i+1), s, []float64{0.9}, 0, 0.25, 0.03, "", []int{}))
	}
	doc.ExtensionsUsed = extensions1
	doc.Extensions = gltf.Extensions{
		"VRMC_vrm":        vrm1Ext("Corpus VRoid", idx, vroidHuman, "J_Bip_C_Head"),
		"VRMC_springBone": corpusObj{"specVersion": "1.0", "colliders": colliders, "colliderGroups": groups, "springs": springs},
	}
	return corpusGLB(doc)
}

// corpusUniVRM1 is an avatar as UniVRM 1.0 exports it: VRoid bones whose
// hair chains end in the _end nodes UniVRM adds for the tail, and a hat
// with two tassels and two earrings that are plain mesh nodes under the
// head, in no skin, swinging as springs; the hat carries a collider.
func corpusUniVRM1() ([]byte, error) {
	b := newCBuilder()
	body := vroidBody(b)
	hair := vroidHair(b, 6, 3)
	for i, h := range hair {
		last := h[len(h)-1]
		b.add(last+"_end", last, around(-150+300*float64(i)/5, 0.012, -0.05))
		hair[i] = append(h, last+"_end")
	}
	hat := b.add("Hat", "J_Bip_C_Head", [3]float64{0, 0.16, -0.01})
	hat.mesh = true
	hat.r = cAxis([3]float64{1, 0, 0}, -8)
	var tassels [][]string
	for _, side := range []struct {
		s string
		x float64
	}{{"L", 1}, {"R", -1}} {
		tassel := b.strand("Hat", func(k int) string { return fmt.Sprintf("Tassel_%s_%02d", side.s, k) }, 4,
			[3]float64{side.x * 0.1, -0.01, -0.02}, [3]float64{side.x * 0.005, -0.04, 0})
		earring := b.strand("J_Bip_C_Head", func(k int) string { return fmt.Sprintf("Earring_%s_%02d", side.s, k) }, 3,
			[3]float64{side.x * 0.075, 0.03, 0.0}, [3]float64{0, -0.02, 0})
		for _, n := range append(tassel, earring...) {
			b.node(n).mesh = true
		}
		tassels = append(tassels, tassel, earring)
	}
	b.add("Body", "", [3]float64{}).skin = "Body"
	b.add("Hair", "", [3]float64{}).skin = "Hair"
	var hairBones []string
	for _, s := range hair {
		hairBones = append(hairBones, s...)
	}
	b.skins = []cSkin{{"Body", body}, {"Hair", append([]string{"J_Bip_C_Head"}, hairBones...)}}
	doc, idx, err := b.document(cDocOptions{generator: "UniGLTF-2.60.0", materials: []*gltf.Material{mtoon1("Body"), mtoon1("Hair"), mtoon1("Hat")}})
	if err != nil {
		return nil, err
	}
	colliders, groups := vroidColliders(idx)
	colliders = append(colliders,
		corpusObj{"node": idx["Hat"], "shape": corpusObj{"sphere": corpusObj{"offset": c32v([3]float64{0, 0.01, 0}), "radius": c32(0.05)}}},
		corpusObj{"node": idx["J_Bip_L_ToeBase"], "shape": corpusObj{"sphere": corpusObj{"offset": c32v([3]float64{0, 0, 0.03}), "radius": c32(0.03)}}},
		corpusObj{"node": idx["J_Bip_R_ToeBase"], "shape": corpusObj{"sphere": corpusObj{"offset": c32v([3]float64{0, 0, 0.03}), "radius": c32(0.03)}}})
	groups = append(groups, corpusObj{"name": "Hat", "colliders": []int{10}}, corpusObj{"name": "Feet", "colliders": []int{11, 12}})
	down := [3]float64{0, -1, 0}
	spring := func(name string, chain []string, stiff, power, drag, hit float64, center string, cg []int) corpusObj {
		var js []any
		for _, n := range chain {
			js = append(js, springJoint1(idx[n], stiff, power, down, drag, hit))
		}
		s := corpusObj{"name": name, "joints": js, "colliderGroups": cg}
		if center != "" {
			s["center"] = idx[center]
		}
		return s
	}
	var springs []any
	for i, h := range hair {
		springs = append(springs, spring(fmt.Sprintf("J_Sec_Hair%d_01", i+1), h, 1, 0.1, 0.4, 0.02, "", []int{0, 1, 3}))
	}
	springs = append(springs,
		spring("Tassel_L", tassels[0], 0.6, 0.5, 0.3, 0.01, "Hat", []int{4, 0, 3}),
		spring("Earring_L", tassels[1], 0.3, 0.8, 0.2, 0.008, "", []int{0, 3}),
		spring("Tassel_R", tassels[2], 0.6, 0.5, 0.3, 0.01, "Hat", []int{4, 0, 3}),
		spring("Earring_R", tassels[3], 0.3, 0.8, 0.2, 0.008, "", []int{0, 3}))
	doc.ExtensionsUsed = extensions1
	doc.Extensions = gltf.Extensions{
		"VRMC_vrm":        vrm1Ext("Corpus UniVRM", idx, vroidHuman, "J_Bip_C_Head"),
		"VRMC_springBone": corpusObj{"specVersion": "1.0", "colliders": colliders, "colliderGroups": groups, "springs": springs},
	}
	return corpusGLB(doc)
}

// blenderHuman maps VRM humanoid bone names to Blender's bone names.
var blenderHuman = [][2]string{
	{"hips", "hips"}, {"spine", "spine"}, {"chest", "chest"}, {"upperChest", "upper_chest"}, {"neck", "neck"}, {"head", "head"},
	{"leftEye", "eye.L"}, {"rightEye", "eye.R"},
	{"leftUpperArm", "upper_arm.L"}, {"leftLowerArm", "lower_arm.L"}, {"leftHand", "hand.L"},
	{"rightUpperArm", "upper_arm.R"}, {"rightLowerArm", "lower_arm.R"}, {"rightHand", "hand.R"},
	{"leftUpperLeg", "upper_leg.L"}, {"leftLowerLeg", "lower_leg.L"}, {"leftFoot", "foot.L"},
	{"rightUpperLeg", "upper_leg.R"}, {"rightLowerLeg", "lower_leg.R"}, {"rightFoot", "foot.R"},
}

// blenderBody adds an armature as Blender's glTF exporter writes it:
// "Armature" at scale 1/u above bones whose translations are in units of
// 1/u metres, each bone's +Y along the bone (rest rotations), the child of
// a bone at (0, length, 0) in its frame; the mesh "Body" is a child of
// the armature. It returns the bone names.
func blenderBody(b *cBuilder, u float64) []string {
	arm := b.add("Armature", "", [3]float64{})
	arm.s = [3]float64{1 / u, 1 / u, 1 / u}
	var bones []string
	add := func(name, parent string, t [3]float64, r [4]float64) *cNode {
		n := b.add(name, parent, scale3(t, u))
		n.r = r
		bones = append(bones, name)
		return n
	}
	up := func(l float64) [3]float64 { return [3]float64{0, l, 0} }
	x, z := [3]float64{1, 0, 0}, [3]float64{0, 0, 1}
	add("hips", "Armature", [3]float64{0, 0.92, 0}, cIdent)
	add("spine", "hips", up(0.1), cAxis(x, 3))
	add("chest", "spine", up(0.12), cAxis(x, -6))
	add("upper_chest", "chest", up(0.11), cAxis(x, 5))
	add("neck", "upper_chest", up(0.12), cAxis(x, -8))
	add("head", "neck", up(0.08), cAxis(x, 6))
	for _, side := range []struct {
		s string
		x float64
	}{{"L", 1}, {"R", -1}} {
		eye := add("eye."+side.s, "head", [3]float64{side.x * 0.032, 0.06, 0.05}, cIdent)
		eye.s = [3]float64{1, 1, 0.6} // flattened eyes: a non-uniform scale on a leaf
		add("upper_arm."+side.s, "upper_chest", [3]float64{side.x * 0.09, 0.09, -0.01}, cAxis(z, -side.x*90))
		add("lower_arm."+side.s, "upper_arm."+side.s, up(0.22), cAxis(x, 4))
		add("hand."+side.s, "lower_arm."+side.s, up(0.21), cIdent)
		add("upper_leg."+side.s, "hips", [3]float64{side.x * 0.08, -0.04, 0}, cAxis(x, 180))
		add("lower_leg."+side.s, "upper_leg."+side.s, up(0.4), cAxis(x, 3))
		add("foot."+side.s, "lower_leg."+side.s, up(0.41), cAxis(x, -100))
	}
	b.add("Body", "Armature", [3]float64{}).skin = "Armature"
	return bones
}

// blenderStrand adds a Blender chain: name, name.001, name.002, … under
// parent, the first pointing along dir (its rest rotation) at t.
func blenderStrand(b *cBuilder, u float64, parent, name string, n int, t [3]float64, r [4]float64, l float64) []string {
	var out []string
	for k := 0; k < n; k++ {
		nm := name
		if k > 0 {
			nm = fmt.Sprintf("%s.%03d", name, k)
		}
		tt := [3]float64{0, l, 0}
		rr := cAxis([3]float64{1, 0, 0}, 4)
		if k == 0 {
			tt, rr = t, r
		}
		nd := b.add(nm, parent, scale3(tt, u))
		nd.r = rr
		out = append(out, nm)
		parent = nm
	}
	return out
}

// corpusBlender is an avatar as the VRM Add-on for Blender exports VRM
// 1.0 from a scene in centimetres (u = 100: the Armature at scale 0.01,
// translations and collider offsets in centimetres) or in metres (u = 1):
// the two have the same world geometry at rest, and the same settings,
// hit radii and collider radii (world quantities at rest).
func corpusBlender(u float64) ([]byte, error) {
	b := newCBuilder()
	bones := blenderBody(b, u)
	x, y := [3]float64{1, 0, 0}, [3]float64{0, 1, 0}
	type strand struct {
		name string
		deg  float64
	}
	var hair [][]string
	for _, s := range []strand{{"hair_front.L", 20}, {"hair_front.R", -20}, {"hair_side.L", 80}, {"hair_side.R", -80}, {"hair_back.L", 150}, {"hair_back.R", -150}} {
		// Down and outwards: about +X by 165 degrees, then about +Y.
		r := cMul(cAxis(y, s.deg), cAxis(x, 165))
		hair = append(hair, blenderStrand(b, u, "head", s.name, 4, add3(around(s.deg, 0.09, 0.1), [3]float64{0, 0, 0.005}), r, 0.055))
	}
	var skirt [][]string
	for _, s := range []strand{{"skirt.F", 0}, {"skirt.L", 90}, {"skirt.B", 180}, {"skirt.R", -90}} {
		r := cMul(cAxis(y, s.deg), cAxis(x, 160))
		skirt = append(skirt, blenderStrand(b, u, "hips", s.name, 4, around(s.deg, 0.11, -0.03), r, 0.1))
	}
	for _, c := range append(hair, skirt...) {
		bones = append(bones, c...)
	}
	b.skins = []cSkin{{"Armature", bones}}
	doc, idx, err := b.document(cDocOptions{generator: "Khronos glTF Blender I/O v4.2.83", materials: []*gltf.Material{mtoon1("Material")}})
	if err != nil {
		return nil, err
	}
	// Collider offsets are node-local points: in centimetres when the
	// armature is. Radii stay what the author set in metres.
	sphere := func(node string, off [3]float64, r float64) corpusObj {
		return corpusObj{"node": idx[node], "shape": corpusObj{"sphere": corpusObj{"offset": c32v(scale3(off, u)), "radius": c32(r)}}}
	}
	capsule := func(node string, off, tail [3]float64, r float64) corpusObj {
		return corpusObj{"node": idx[node], "shape": corpusObj{"capsule": corpusObj{"offset": c32v(scale3(off, u)), "radius": c32(r), "tail": c32v(scale3(tail, u))}}}
	}
	colliders := []any{
		sphere("head", [3]float64{0, 0.09, 0.01}, 0.085),
		sphere("upper_chest", [3]float64{0, 0.03, 0.03}, 0.1),
		capsule("upper_leg.L", [3]float64{0, 0.03, 0}, [3]float64{0, 0.35, 0}, 0.06),
		capsule("upper_leg.R", [3]float64{0, 0.03, 0}, [3]float64{0, 0.35, 0}, 0.06),
		sphere("hand.L", [3]float64{0, 0.05, 0}, 0.045),
		sphere("hand.R", [3]float64{0, 0.05, 0}, 0.045),
	}
	groups := []any{
		corpusObj{"name": "Head", "colliders": []int{0}},
		corpusObj{"name": "Chest", "colliders": []int{1}},
		corpusObj{"name": "Legs", "colliders": []int{2, 3}},
		corpusObj{"name": "Hands", "colliders": []int{4, 5}},
	}
	var springs []any
	add := func(name string, chain []string, stiff, power, drag, hit float64, center string, cg []int) {
		var js []any
		for _, n := range chain {
			js = append(js, springJoint1(idx[n], stiff, power, [3]float64{0, -1, 0}, drag, hit))
		}
		s := corpusObj{"name": name, "joints": js, "colliderGroups": cg}
		if center != "" {
			s["center"] = idx[center]
		}
		springs = append(springs, s)
	}
	for _, h := range hair {
		add(h[0], h, 1.3, 0.2, 0.4, 0.02, "", []int{0, 1, 3})
	}
	for _, s := range skirt {
		add(s[0], s, 1.8, 0.5, 0.3, 0.025, "hips", []int{2, 3})
	}
	doc.ExtensionsUsed = extensions1
	doc.Extensions = gltf.Extensions{
		"VRMC_vrm":        vrm1Ext("Corpus Blender", idx, blenderHuman, "head"),
		"VRMC_springBone": corpusObj{"specVersion": "1.0", "colliders": colliders, "colliderGroups": groups, "springs": springs},
	}
	return corpusGLB(doc)
}

// corpusBlenderTail is a Blender avatar (in metres) with an animal tail
// whose root bone carries scale 0.25 (its children's translations four
// times their world length) and a collider on an empty scaled 0.5 (the
// sphere's offset twice its world length), as three-vrm's sphere-collider
// example lays out its spring and collider nodes; without scaled, the
// same world geometry with unit scales.
func corpusBlenderTail(scaled bool) ([]byte, error) {
	b := newCBuilder()
	bones := blenderBody(b, 1)
	k, kc := 1.0, 1.0 // the tail's and the collider empty's rest scales
	if scaled {
		k, kc = 0.25, 0.5
	}
	x := [3]float64{1, 0, 0}
	// The tail points backwards and down from the hips: +Y turned about
	// +X by -120 degrees.
	// Bones 8 cm long in the world: 0.08/k in the scaled tail's frame.
	tail := blenderStrand(b, 1/k, "hips", "tail", 5, [3]float64{}, cAxis(x, -120), 0.08)
	// The tail root's own translation is in the hips' frame (unscaled).
	b.node("tail").t = [3]float64{0, -0.03, -0.1}
	b.node("tail").s = [3]float64{k, k, k}
	col := b.add("tail_collider", "hips", [3]float64{0, -0.16, -0.13})
	col.s = [3]float64{kc, kc, kc}
	hair := blenderStrand(b, 1, "head", "hair_back", 4, around(180, 0.09, 0.09), cAxis(x, -170), 0.06)
	bones = append(append(bones, tail...), hair...)
	b.skins = []cSkin{{"Armature", bones}}
	doc, idx, err := b.document(cDocOptions{generator: "Khronos glTF Blender I/O v4.2.83", materials: []*gltf.Material{mtoon1("Material")}})
	if err != nil {
		return nil, err
	}
	colliders := []any{
		corpusObj{"node": idx["tail_collider"], "shape": corpusObj{"sphere": corpusObj{"offset": c32v([3]float64{0, 0.02 / kc, 0}), "radius": c32(0.06)}}},
		corpusObj{"node": idx["upper_chest"], "shape": corpusObj{"sphere": corpusObj{"offset": c32v([3]float64{0, 0.03, -0.02}), "radius": c32(0.1)}}},
	}
	groups := []any{corpusObj{"name": "Seat", "colliders": []int{0}}, corpusObj{"name": "Back", "colliders": []int{1}}}
	joints := func(chain []string, stiff, power, drag, hit float64) []any {
		var js []any
		for _, n := range chain {
			js = append(js, springJoint1(idx[n], stiff, power, [3]float64{0, -1, 0}, drag, hit))
		}
		return js
	}
	springs := []any{
		corpusObj{"name": "tail", "joints": joints(tail, 1, 0.3, 0.4, 0.025), "colliderGroups": []int{0}},
		corpusObj{"name": "hair_back", "joints": joints(hair, 1.2, 0.1, 0.4, 0.02), "colliderGroups": []int{1}, "center": idx["head"]},
	}
	doc.ExtensionsUsed = extensions1
	doc.Extensions = gltf.Extensions{
		"VRMC_vrm":        vrm1Ext("Corpus Blender tail", idx, blenderHuman, "head"),
		"VRMC_springBone": corpusObj{"specVersion": "1.0", "colliders": colliders, "colliderGroups": groups, "springs": springs},
	}
	return corpusGLB(doc)
}

// corpusSpring is a VRMC_springBone spring over the nodes of chain (by name),
// joint k's stiffness stiff[k] (the last value repeated past the end),
// gravity straight down, with a centre node unless center is "".
func corpusSpring(idx map[string]int, name string, chain []string, stiff []float64, power, drag, hit float64, center string, cg []int) corpusObj {
	down := [3]float64{0, -1, 0}
	var js []any
	for k, n := range chain {
		js = append(js, springJoint1(idx[n], stiff[min(k, len(stiff)-1)], power, down, drag, hit))
	}
	s := corpusObj{"name": name, "joints": js, "colliderGroups": cg}
	if center != "" {
		s["center"] = idx[center]
	}
	return s
}
