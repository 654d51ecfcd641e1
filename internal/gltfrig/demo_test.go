package gltfrig

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/go-gl/mathgl/mgl64"
	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"

	"github.com/sway-anim/sway/systems/collide"
)

func demoGLB(t testing.TB) []byte {
	t.Helper()
	glb, err := DemoAvatar()
	if err != nil {
		t.Fatal(err)
	}
	return glb
}

// vrm1Required are the humanoid bones VRM 1.0 requires.
var vrm1Required = []string{"hips", "spine", "head",
	"leftUpperLeg", "leftLowerLeg", "leftFoot", "rightUpperLeg", "rightLowerLeg", "rightFoot",
	"leftUpperArm", "leftLowerArm", "leftHand", "rightUpperArm", "rightLowerArm", "rightHand"}

// The demo avatar is a VRM 1.0 file that loads without warnings: a
// humanoid map with every required bone and the optional ones it
// promises, its springs and colliders in the documented counts, one skin,
// the same bytes on every call, well under 1 MB.
func TestDemoAvatarLoads(t *testing.T) {
	glb := demoGLB(t)
	if again := demoGLB(t); !bytes.Equal(glb, again) {
		t.Fatal("two calls write different bytes")
	}
	if len(glb) > 512<<10 {
		t.Errorf("%d bytes, want at most 512 KiB", len(glb))
	}
	r := decodeBytes(t, glb)
	checkRig(t, r)
	if r.Version != VersionVRM1 || len(r.Warnings) != 0 || r.SceneBone != "" {
		t.Fatalf("version %v, warnings %q, scene bone %q", r.Version, r.Warnings, r.SceneBone)
	}
	for _, h := range append(append([]string{}, vrm1Required...), "chest", "upperChest", "neck", "leftEye", "rightEye",
		"leftShoulder", "rightShoulder", "leftToes", "rightToes") {
		if b := r.HumanBone(h); b == "" {
			t.Errorf("humanoid map has no %s", h)
		}
	}
	if len(r.Humanoid) != len(vroidHuman) {
		t.Errorf("%d humanoid bones, want %d", len(r.Humanoid), len(vroidHuman))
	}
	if len(r.Springs) != DemoSprings || len(r.Colliders) != DemoColliders {
		t.Fatalf("%d springs, %d colliders; want %d, %d", len(r.Springs), len(r.Colliders), DemoSprings, DemoColliders)
	}
	count := map[string]int{}
	for _, s := range r.Springs {
		kind := strings.TrimRight(s.Name, "0123456789LR")
		count[kind]++
		want := map[string]int{"Hair": DemoHairJoints, "Skirt": DemoSkirtJoints, "Tail": DemoTailJoints, "Earring": DemoEarringJoints}[kind]
		if len(s.Joints) != want || s.VirtualTail != 0 || len(s.Colliders) == 0 {
			t.Errorf("spring %q: %d joints (want %d), virtual tail %v, colliders %v", s.Name, len(s.Joints), want, s.VirtualTail, s.Colliders)
		}
		for _, j := range s.Joints {
			if j.Stiffness <= 0 || j.DragForce <= 0 || j.HitRadius <= 0 || j.GravityDir != (mgl32.Vec3{0, -1, 0}) {
				t.Errorf("spring %q joint %s: %+v", s.Name, j.Bone, j)
			}
		}
	}
	if count["Hair"] != DemoHairStrands || count["Skirt"] != DemoSkirtStrands || count["Tail"] != 1 || count["Earring"] != DemoEarrings {
		t.Errorf("springs by kind: %v", count)
	}
	js := glbJSON(t, glb)
	if g, ok := getPath(t, js, "extensions.VRMC_springBone.colliderGroups").([]any); !ok || len(g) != DemoColliderGroups {
		t.Errorf("collider groups %v, want %d", g, DemoColliderGroups)
	}
	if n := getPath(t, js, "extensions.VRMC_vrm.meta.name"); n != "sway demo avatar" {
		t.Errorf("meta name %v", n)
	}
	kinds := map[collide.Kind]int{}
	for _, c := range r.Colliders {
		kinds[c.Shape.Kind]++
	}
	if kinds[collide.Sphere] != 3 || kinds[collide.Capsule] != 4 {
		t.Errorf("colliders by kind: %v, want 3 spheres and 4 capsules", kinds)
	}
	if len(r.Skins) != 1 || len(r.Skins[0].Joints) != len(r.Skeleton.Bones)-1 {
		t.Fatalf("%d skins; the first has %d joints for %d bones (all but Root)", len(r.Skins), len(r.Skins[0].Joints), len(r.Skeleton.Bones))
	}
	t.Logf("%d bytes: %d bones, %d springs, %d colliders", len(glb), len(r.Skeleton.Bones), len(r.Springs), len(r.Colliders))
}

// Each joint's inverse bind matrix undoes its model-space rest transform:
// the skinning matrices of the rest pose are the identity.
func TestDemoAvatarBindPose(t *testing.T) {
	r := decodeBytes(t, demoGLB(t))
	rest := cModelRest(r)
	s := r.Skins[0]
	worst := 0.0
	for k, name := range s.Joints {
		m := rest[name]
		world := mgl32.Translate3D(float32(m.pos[0]), float32(m.pos[1]), float32(m.pos[2])).
			Mul4(mgl32.Quat{W: float32(m.rot[0]), V: mgl32.Vec3{float32(m.rot[1]), float32(m.rot[2]), float32(m.rot[3])}}.Mat4()).
			Mul4(mgl32.Scale3D(float32(m.scale[0]), float32(m.scale[1]), float32(m.scale[2])))
		d := world.Mul4(s.InverseBind[k]).Sub(mgl32.Ident4())
		for _, v := range d {
			worst = max(worst, math.Abs(float64(v)))
		}
	}
	if worst > 1e-6 {
		t.Errorf("rest transform times inverse bind differs from the identity by %.3g", worst)
	}
}

// At rest no spring joint but the first (which does not move) lies
// inside a collider of its spring, so nothing is pushed on the first
// step; the tail and the earrings hang clear of everything.
func TestDemoAvatarClearAtRest(t *testing.T) {
	r := decodeBytes(t, demoGLB(t))
	rest := cModelRest(r)
	for _, s := range r.Springs {
		for k, j := range s.Joints[1:] {
			p := mgl64.Vec3(rest[j.Bone].pos)
			for _, ci := range s.Colliders {
				c := r.Colliders[ci]
				a := mgl64.Vec3(cColliderAt(rest, c, c.Shape.Offset))
				d := p.Sub(a).Len()
				if c.Shape.Kind == collide.Capsule {
					b := mgl64.Vec3(cColliderAt(rest, c, c.Shape.Tail))
					ab := b.Sub(a)
					t := math.Max(0, math.Min(1, p.Sub(a).Dot(ab)/ab.Dot(ab)))
					d = p.Sub(a.Add(ab.Mul(t))).Len()
				}
				if gap := d - float64(c.Shape.Radius+s.Joints[k].HitRadius); gap < 0 {
					t.Errorf("spring %q joint %s: %.3g m inside collider %d on %s", s.Name, j.Bone, -gap, ci, c.Bone)
				}
			}
		}
	}
}

// demoDoc decodes the file with the glTF library, buffers and all.
func demoDoc(t *testing.T) *gltf.Document {
	t.Helper()
	doc := new(gltf.Document)
	if err := gltf.NewDecoder(bytes.NewReader(demoGLB(t))).Decode(doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// The mesh: one skinned mesh on skins[0], its primitives sharing
// POSITION, NORMAL, JOINTS_0 (UNSIGNED_BYTE) and WEIGHTS_0 (FLOAT);
// weights non-negative and summing to 1, joint indices in the skin,
// unit normals on the outside of the triangles' winding (counter-
// clockwise seen from outside, as glTF's front faces), every spring
// moving some vertex, one material per primitive with a base colour
// factor and no texture, standing on the ground 1.5 m tall.
func TestDemoAvatarMesh(t *testing.T) {
	doc := demoDoc(t)
	if len(doc.Meshes) != 1 || len(doc.Skins) != 1 || len(doc.Textures) != 0 || len(doc.Images) != 0 {
		t.Fatalf("%d meshes, %d skins, %d textures, %d images", len(doc.Meshes), len(doc.Skins), len(doc.Textures), len(doc.Images))
	}
	var body *gltf.Node
	for _, n := range doc.Nodes {
		if n.Mesh != nil {
			body = n
		}
	}
	if body == nil || body.Skin == nil || *body.Skin != 0 || *body.Mesh != 0 {
		t.Fatalf("mesh node %+v", body)
	}
	skin := doc.Skins[0]
	prims := doc.Meshes[0].Primitives
	attr := prims[0].Attributes
	for _, p := range prims {
		for _, a := range []string{gltf.POSITION, gltf.NORMAL, gltf.JOINTS_0, gltf.WEIGHTS_0} {
			if i, ok := p.Attributes[a]; !ok || i != attr[a] {
				t.Fatalf("primitive without the shared %s", a)
			}
		}
		m := doc.Materials[*p.Material]
		if m.PBRMetallicRoughness == nil || m.PBRMetallicRoughness.BaseColorFactor == nil || m.PBRMetallicRoughness.BaseColorTexture != nil {
			t.Errorf("material %q: no base colour factor, or a texture", m.Name)
		}
	}
	if ja, wa := doc.Accessors[attr[gltf.JOINTS_0]], doc.Accessors[attr[gltf.WEIGHTS_0]]; ja.ComponentType != gltf.ComponentUbyte || wa.ComponentType != gltf.ComponentFloat {
		t.Fatalf("JOINTS_0 %v, WEIGHTS_0 %v", ja.ComponentType, wa.ComponentType)
	}
	pos, err := modeler.ReadPosition(doc, doc.Accessors[attr[gltf.POSITION]], nil)
	if err != nil {
		t.Fatal(err)
	}
	nrm, err := modeler.ReadNormal(doc, doc.Accessors[attr[gltf.NORMAL]], nil)
	if err != nil {
		t.Fatal(err)
	}
	joints, err := modeler.ReadJoints(doc, doc.Accessors[attr[gltf.JOINTS_0]], nil)
	if err != nil {
		t.Fatal(err)
	}
	weights, err := modeler.ReadWeights(doc, doc.Accessors[attr[gltf.WEIGHTS_0]], nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(nrm) != len(pos) || len(joints) != len(pos) || len(weights) != len(pos) {
		t.Fatalf("%d positions, %d normals, %d joints, %d weights", len(pos), len(nrm), len(joints), len(weights))
	}
	used := map[int]bool{}
	lo, hi := mgl32.Vec3{1e9, 1e9, 1e9}, mgl32.Vec3{-1e9, -1e9, -1e9}
	for v := range pos {
		sum := float32(0)
		for k := 0; k < 4; k++ {
			w, j := weights[v][k], int(joints[v][k])
			if w < 0 || j >= len(skin.Joints) {
				t.Fatalf("vertex %d: joint %d of %d, weight %v", v, j, len(skin.Joints), w)
			}
			if w > 0 {
				used[skin.Joints[j]] = true
			}
			sum += w
		}
		if math.Abs(float64(sum)-1) > 1e-6 {
			t.Fatalf("vertex %d: weights %v sum to %v", v, weights[v], sum)
		}
		if n := mgl32.Vec3(nrm[v]).Len(); math.Abs(float64(n)-1) > 1e-5 {
			t.Fatalf("vertex %d: normal %v", v, nrm[v])
		}
		for c := 0; c < 3; c++ {
			lo[c], hi[c] = min(lo[c], pos[v][c]), max(hi[c], pos[v][c])
		}
	}
	if math.Abs(float64(hi[1]-DemoHeight)) > 0.03 || lo[1] < 0 || lo[1] > 0.01 {
		t.Errorf("the mesh spans y %v to %v, want 0 to %v", lo[1], hi[1], DemoHeight)
	}
	triangles, inward := 0, 0
	for _, p := range prims {
		idx, err := modeler.ReadIndices(doc, doc.Accessors[*p.Indices], nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i+2 < len(idx); i += 3 {
			a, b, c := mgl32.Vec3(pos[idx[i]]), mgl32.Vec3(pos[idx[i+1]]), mgl32.Vec3(pos[idx[i+2]])
			face := b.Sub(a).Cross(c.Sub(a))
			if face.Len() < 1e-9 {
				continue // at a pole
			}
			triangles++
			if face.Dot(mgl32.Vec3(nrm[idx[i]]).Add(nrm[idx[i+1]]).Add(nrm[idx[i+2]])) <= 0 {
				inward++
			}
		}
	}
	if inward > 0 {
		t.Errorf("%d of %d triangles wound against their normals", inward, triangles)
	}
	r := decodeBytes(t, demoGLB(t))
	for _, s := range r.Springs {
		if !used[indexOfNode(doc, s.Joints[0].Bone)] {
			t.Errorf("spring %q moves no vertex", s.Name)
		}
	}
	for _, h := range vrm1Required {
		if !used[indexOfNode(doc, r.HumanBone(h))] {
			t.Errorf("humanoid bone %s moves no vertex", h)
		}
	}
	t.Logf("%d vertices, %d triangles in %d primitives, %d joints; y from %.3f to %.3f, x %.3f to %.3f, z %.3f to %.3f",
		len(pos), triangles, len(prims), len(skin.Joints), lo[1], hi[1], lo[0], hi[0], lo[2], hi[2])
}

func indexOfNode(doc *gltf.Document, name string) int {
	for i, n := range doc.Nodes {
		if n.Name == name {
			return i
		}
	}
	panic(fmt.Sprintf("no node %q", name))
}
