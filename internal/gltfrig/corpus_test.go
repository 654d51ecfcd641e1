package gltfrig

import (
	"encoding/binary"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/systems/collide"
	"github.com/sway-anim/sway/systems/spring"
)

// mustGLB writes a corpus file.
func mustGLB(t testing.TB, c CorpusFile) []byte {
	t.Helper()
	glb, err := c.GLB()
	if err != nil {
		t.Fatal(err)
	}
	return glb
}

// loadCorpus writes and reads one corpus file; it also returns the file's
// JSON text.
func loadCorpus(t *testing.T, name string) (*Rig, string) {
	t.Helper()
	c, ok := CorpusByName(name)
	if !ok {
		t.Fatalf("no corpus file %q", name)
	}
	glb, err := c.GLB()
	if err != nil {
		t.Fatal(err)
	}
	n := binary.LittleEndian.Uint32(glb[12:])
	return decodeBytes(t, glb), string(glb[20 : 20+n])
}

// cRest is a bone's rest transform in model space, float64, composed as
// the project composes transforms (uniform scales in the corpus wherever
// it matters, so it is also the glTF matrix product).
type cRest struct {
	pos, scale [3]float64
	rot        [4]float64 // w, x, y, z
}

func cqmul(a, b [4]float64) [4]float64 {
	return [4]float64{
		a[0]*b[0] - a[1]*b[1] - a[2]*b[2] - a[3]*b[3],
		a[0]*b[1] + a[1]*b[0] + a[2]*b[3] - a[3]*b[2],
		a[0]*b[2] - a[1]*b[3] + a[2]*b[0] + a[3]*b[1],
		a[0]*b[3] + a[1]*b[2] - a[2]*b[1] + a[3]*b[0],
	}
}

func cqrot(q [4]float64, v [3]float64) [3]float64 {
	p := cqmul(cqmul(q, [4]float64{0, v[0], v[1], v[2]}), [4]float64{q[0], -q[1], -q[2], -q[3]})
	return [3]float64{p[1], p[2], p[3]}
}

// cModelRest composes every bone's rest transform from the rig's locals.
func cModelRest(r *Rig) map[string]cRest {
	out := map[string]cRest{}
	var get func(name string) cRest
	byName := map[string]int{}
	for i, b := range r.Skeleton.Bones {
		byName[b.Name] = i
	}
	get = func(name string) cRest {
		if m, ok := out[name]; ok {
			return m
		}
		b := r.Skeleton.Bones[byName[name]]
		l := cRest{pos: [3]float64{float64(b.Pos[0]), float64(b.Pos[1]), float64(b.Pos[2])},
			scale: [3]float64{float64(b.Scale[0]), float64(b.Scale[1]), float64(b.Scale[2])},
			rot:   [4]float64{float64(b.Rot.W), float64(b.Rot.V[0]), float64(b.Rot.V[1]), float64(b.Rot.V[2])}}
		if b.Parent != "" {
			p := get(b.Parent)
			off := cqrot(p.rot, [3]float64{p.scale[0] * l.pos[0], p.scale[1] * l.pos[1], p.scale[2] * l.pos[2]})
			l = cRest{pos: [3]float64{p.pos[0] + off[0], p.pos[1] + off[1], p.pos[2] + off[2]},
				rot:   cqmul(p.rot, l.rot),
				scale: [3]float64{p.scale[0] * l.scale[0], p.scale[1] * l.scale[1], p.scale[2] * l.scale[2]}}
		}
		out[name] = l
		return l
	}
	for _, b := range r.Skeleton.Bones {
		get(b.Name)
	}
	return out
}

// cColliderAt is a collider's offset (and tail) at rest in model space:
// node-local points through the node's whole transform.
func cColliderAt(m map[string]cRest, c Collider, p mgl32.Vec3) [3]float64 {
	n := m[c.Bone]
	v := cqrot(n.rot, [3]float64{n.scale[0] * float64(p[0]), n.scale[1] * float64(p[1]), n.scale[2] * float64(p[2])})
	return [3]float64{n.pos[0] + v[0], n.pos[1] + v[1], n.pos[2] + v[2]}
}

func cNear(a, b [3]float64, tol float64) bool {
	return math.Abs(a[0]-b[0]) <= tol && math.Abs(a[1]-b[1]) <= tol && math.Abs(a[2]-b[2]) <= tol
}

func cBone(r *Rig, name string) (int, bool) {
	for i, b := range r.Skeleton.Bones {
		if b.Name == name {
			return i, true
		}
	}
	return 0, false
}

func cChildren(r *Rig, name string) []string {
	var out []string
	for _, b := range r.Skeleton.Bones {
		if b.Parent == name {
			out = append(out, b.Name)
		}
	}
	return out
}

// Every corpus file is described, loads without warnings as the version
// its exporter writes, and every spring and collider names bones of the
// rig; a twin is another entry of the list. An avatar maps its hips and
// head and writes its numbers from float32; a bare file (three-vrm's
// examples) has no skin and no humanoid, and is hand-written.
func TestCorpusLoads(t *testing.T) {
	names := map[string]bool{}
	for _, c := range Corpus() {
		if c.Name == "" || c.Exporter == "" || c.About == "" || names[c.Name] {
			t.Fatalf("entry %+v: needs a unique name, an exporter and a description", c)
		}
		names[c.Name] = true
	}
	for _, c := range Corpus() {
		t.Run(c.Name, func(t *testing.T) {
			if c.Twin != "" && !names[c.Twin] {
				t.Errorf("twin %q is not in the corpus", c.Twin)
			}
			r, js := loadCorpus(t, c.Name)
			want := VersionVRM1
			if strings.Contains(c.Exporter, "0.x") {
				want = VersionVRM0
			}
			if r.Version != want || len(r.Warnings) != 0 || len(r.Springs) == 0 || len(r.Colliders) == 0 {
				t.Fatalf("version %v (want %v), warnings %v, %d springs, %d colliders", r.Version, want, r.Warnings, len(r.Springs), len(r.Colliders))
			}
			for i, s := range r.Springs {
				for _, j := range s.Joints {
					if _, ok := cBone(r, j.Bone); !ok {
						t.Errorf("spring %d: joint %q is no bone", i, j.Bone)
					}
				}
			}
			if c.Bare {
				// No avatar, numbers as typed: three-vrm's examples.
				doc := glbJSON(t, mustGLB(t, c)).(map[string]any)
				if _, ok := doc["skins"]; ok || len(r.Humanoid) != 0 || strings.Contains(js, extVRM1) {
					t.Errorf("a bare file with skins %v, humanoid %v or %s", doc["skins"], r.Humanoid, extVRM1)
				}
				if g := doc["asset"].(map[string]any)["generator"]; g != "Handwritten" {
					t.Errorf("generator %v, want Handwritten", g)
				}
				return
			}
			if r.HumanBone("hips") == "" || r.HumanBone("head") == "" {
				t.Errorf("humanoid map without hips or head: %v", r.Humanoid)
			}
			// Numbers are written as the exporters hold them, in float32.
			if !strings.Contains(js, "000000") && !strings.Contains(js, "999999") {
				t.Error("no number in float32-rounded form in the JSON")
			}
		})
	}
}

// UniVRM 0.x: bone groups without colliders before and after groups with
// them, a group without a comment, a tree split into a chain and a
// branch, 0.x end bones, colliders on leaf hands and toes, and the head
// collider where hand-composed translations put it.
func TestCorpusUniVRM0(t *testing.T) {
	r, js := loadCorpus(t, "univrm0-vroid")
	// 2 bust, 4 hair, ribbon chain and branch, 4 hair, 6 skirt.
	if len(r.Springs) != 18 || len(r.Colliders) != 12 {
		t.Fatalf("%d springs, %d colliders; want 18 and 12", len(r.Springs), len(r.Colliders))
	}
	names := []string{}
	for _, s := range r.Springs {
		names = append(names, s.Name)
		if s.VirtualTail != VirtualTail0x {
			t.Errorf("spring %s: virtual tail %v, want 0.07", s.Name, s.VirtualTail)
		}
		if last := s.Joints[len(s.Joints)-1].Bone; len(cChildren(r, last)) != 0 {
			t.Errorf("spring %s ends at %q, which has children", s.Name, last)
		}
	}
	want := "Bust Bust Hair Hair Hair Hair Ribbon Ribbon boneGroups[3] boneGroups[3] boneGroups[3] boneGroups[3] Skirt Skirt Skirt Skirt Skirt Skirt"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("springs %s\nwant    %s", got, want)
	}
	if n := len(r.Springs[0].Colliders); n != 0 {
		t.Errorf("the bust has %d colliders, want none", n)
	}
	if n := len(r.Springs[2].Colliders); n != 6 {
		t.Errorf("the hair has %d colliders, want 6 (head 3, chest, hands)", n)
	}
	rib, branch := r.Springs[6], r.Springs[7]
	if len(rib.Joints) != 3 || rib.Joints[0].Bone != "J_Sec_Ribbon" || len(branch.Joints) != 2 || branch.Joints[0].Bone != "J_Sec_Ribbon_R_01" || len(rib.Colliders) != 0 {
		t.Errorf("ribbon %+v, branch %+v", rib, branch)
	}
	if r.Springs[8].Center != "J_Bip_C_Head" || r.Springs[12].Center != "J_Bip_C_Hips" || r.Springs[2].Center != "" {
		t.Errorf("centres %q %q %q", r.Springs[8].Center, r.Springs[12].Center, r.Springs[2].Center)
	}
	if got := r.Springs[0].Joints[0].Stiffness; got != 0.8 {
		t.Errorf("bust stiffness %v", got)
	}
	if !strings.Contains(js, `"stiffiness":0.800000011920929`) {
		t.Error("stiffiness not written as UniVRM writes a float32 0.8")
	}
	// The head's model position: the sum of the translations from the
	// hips, (0, 1.4, -0.003); its first collider's offset (0, 0.08, 0.01)
	// puts the centre at (0, 1.48, 0.007) in the loaded rig (facing +Z).
	m := cModelRest(r)
	if c := r.Colliders[0]; c.Bone != "J_Bip_C_Head" || !cNear(cColliderAt(m, c, c.Shape.Offset), [3]float64{0, 1.48, 0.007}, 1e-6) {
		t.Errorf("head collider %+v at %v, want (0, 1.48, 0.007)", c, cColliderAt(m, c, c.Shape.Offset))
	}
	// Gravity of the unnamed group leans back: (0, -0.96, -0.28) facing +Z.
	if g := r.Springs[8].Joints[0].GravityDir; !g.ApproxEqualThreshold(mgl32.Vec3{0, -0.96, -0.28}, 1e-6) {
		t.Errorf("gravity %v", g)
	}
	for _, leaf := range []string{"J_Bip_L_Hand", "J_Bip_R_ToeBase"} {
		found := false
		for _, c := range r.Colliders {
			found = found || c.Bone == leaf
		}
		if !found || len(cChildren(r, leaf)) != 0 {
			t.Errorf("%s: a collider %v, children %v; want a collider on a leaf", leaf, found, cChildren(r, leaf))
		}
	}
}

// VRoid Studio 1.0: 34 springs of per-joint settings, the tail joint
// listed last, centres on half the hair and the skirt, capsules.
func TestCorpusVRoid1(t *testing.T) {
	r, _ := loadCorpus(t, "vroid1")
	if len(r.Springs) != 34 || len(r.Colliders) != 10 {
		t.Fatalf("%d springs, %d colliders; want 34 and 10", len(r.Springs), len(r.Colliders))
	}
	centred, capsules := 0, 0
	for _, s := range r.Springs {
		if s.VirtualTail != 0 {
			t.Errorf("spring %s: a 1.0 spring with a virtual tail", s.Name)
		}
		if s.Center != "" {
			centred++
		}
	}
	for _, c := range r.Colliders {
		if c.Shape.Kind == collide.Capsule {
			capsules++
		}
	}
	if centred != 12+8 || capsules != 4 {
		t.Errorf("%d springs with a centre (want 20), %d capsules (want 4)", centred, capsules)
	}
	h := r.Springs[0]
	if len(h.Joints) != 4 || h.Joints[3].Bone != "J_Sec_Hair1_04" {
		t.Fatalf("Hair1: %+v", h)
	}
	for k, want := range []float32{1.4, 1.1, 0.8, 0.8} {
		if got := h.Joints[k].Stiffness; got != want {
			t.Errorf("Hair1 joint %d stiffness %v, want %v", k, got, want)
		}
	}
}

// UniVRM 1.0: springs on mesh nodes outside every skin (the tassels and
// earrings) are bones of the rig, with a centre on the unskinned hat,
// which also carries a collider; hair chains end in _end nodes.
func TestCorpusUniVRM1OutsideTheSkin(t *testing.T) {
	c, _ := CorpusByName("univrm1-accessory")
	glb, err := c.GLB()
	if err != nil {
		t.Fatal(err)
	}
	r := decodeBytes(t, glb)
	doc := glbJSON(t, glb).(map[string]any)
	nodes := doc["nodes"].([]any)
	inSkin := map[string]bool{}
	for _, s := range doc["skins"].([]any) {
		for _, j := range s.(map[string]any)["joints"].([]any) {
			inSkin[nodes[int(j.(float64))].(map[string]any)["name"].(string)] = true
		}
	}
	outside := 0
	for _, s := range r.Springs {
		for _, j := range s.Joints {
			if !inSkin[j.Bone] {
				outside++
			}
		}
		if strings.HasPrefix(s.Name, "J_Sec_Hair") && !strings.HasSuffix(s.Joints[len(s.Joints)-1].Bone, "_end") {
			t.Errorf("%s does not end in an _end node", s.Name)
		}
		if strings.HasPrefix(s.Name, "Tassel") && s.Center != "Hat" {
			t.Errorf("%s: centre %q, want Hat", s.Name, s.Center)
		}
	}
	if outside != 4*2+3*2 {
		t.Errorf("%d joints outside the skins, want 14 (tassels and earrings)", outside)
	}
	hat := false
	for _, c := range r.Colliders {
		hat = hat || (c.Bone == "Hat" && !inSkin["Hat"])
	}
	if !hat {
		t.Error("no collider on the unskinned hat")
	}
}

// The twins have the same world geometry at rest: every bone, every
// collider centre and tail, the same radii and joint settings; only the
// rest scales differ. Hand-worked: blender-cm writes the head collider's
// offset as (0, 9, 1) centimetres under an armature scaled 0.01, the
// tail's bones 0.32 long under scale 0.25 and the seat collider's offset
// 0.04 under 0.5.
func TestCorpusTwinsAgreeAtRest(t *testing.T) {
	pairs := 0
	for _, c := range Corpus() {
		if c.Twin == "" {
			continue
		}
		pairs++
		t.Run(c.Name, func(t *testing.T) {
			a, _ := loadCorpus(t, c.Name)
			b, _ := loadCorpus(t, c.Twin)
			ma, mb := cModelRest(a), cModelRest(b)
			if len(ma) != len(mb) || len(a.Springs) != len(b.Springs) || len(a.Colliders) != len(b.Colliders) {
				t.Fatalf("shapes differ: %d/%d bones, %d/%d springs, %d/%d colliders", len(ma), len(mb), len(a.Springs), len(b.Springs), len(a.Colliders), len(b.Colliders))
			}
			scaled := 0
			for name, x := range ma {
				y, ok := mb[name]
				if !ok || !cNear(x.pos, y.pos, 1e-6) {
					t.Errorf("%s: at %v and %v", name, x.pos, y.pos)
				}
				if math.Abs(x.scale[0]-y.scale[0]) > 1e-6 {
					scaled++
				}
			}
			if scaled == 0 {
				t.Error("no bone has another rest scale than in its twin")
			}
			for i := range a.Colliders {
				ca, cb := a.Colliders[i], b.Colliders[i]
				if ca.Bone != cb.Bone || ca.Shape.Radius != cb.Shape.Radius || ca.Shape.Kind != cb.Shape.Kind ||
					!cNear(cColliderAt(ma, ca, ca.Shape.Offset), cColliderAt(mb, cb, cb.Shape.Offset), 1e-6) ||
					!cNear(cColliderAt(ma, ca, ca.Shape.Tail), cColliderAt(mb, cb, cb.Shape.Tail), 1e-6) {
					t.Errorf("collider %d: %+v and %+v", i, ca, cb)
				}
			}
			for i := range a.Springs {
				sa, sb := a.Springs[i], b.Springs[i]
				for j := range sa.Joints {
					if sa.Joints[j] != sb.Joints[j] {
						t.Errorf("spring %d joint %d: %+v and %+v", i, j, sa.Joints[j], sb.Joints[j])
					}
				}
			}
		})
	}
	if pairs != 3 {
		t.Errorf("%d twin pairs, want 3", pairs)
	}
	cm, _ := loadCorpus(t, "blender-cm")
	if c := cm.Colliders[0]; c.Bone != "head" || !c.Shape.Offset.ApproxEqualThreshold(mgl32.Vec3{0, 9, 1}, 1e-5) || c.Shape.Radius != 0.085 {
		t.Errorf("blender-cm head collider %+v", c)
	}
	if i, _ := cBone(cm, "Armature"); cm.Skeleton.Bones[i].Scale != (mgl32.Vec3{0.01, 0.01, 0.01}) {
		t.Errorf("Armature scale %v", cm.Skeleton.Bones[i].Scale)
	}
	if i, _ := cBone(cm, "eye.L"); cm.Skeleton.Bones[i].Scale != (mgl32.Vec3{1, 1, 0.6}) {
		t.Errorf("eye.L scale %v, want the non-uniform (1, 1, 0.6)", cm.Skeleton.Bones[i].Scale)
	}
	tail, _ := loadCorpus(t, "blender-tail-scaled")
	i, _ := cBone(tail, "tail")
	k, _ := cBone(tail, "tail.001")
	if tail.Skeleton.Bones[i].Scale[0] != 0.25 || math.Abs(float64(tail.Skeleton.Bones[k].Pos[1])-0.32) > 1e-6 {
		t.Errorf("tail scale %v, tail.001 at %v", tail.Skeleton.Bones[i].Scale, tail.Skeleton.Bones[k].Pos)
	}
	if c := tail.Colliders[0]; c.Bone != "tail_collider" || math.Abs(float64(c.Shape.Offset[1])-0.04) > 1e-7 || c.Shape.Radius != 0.06 {
		t.Errorf("seat collider %+v", c)
	}
}

// three-vrm's examples: two scene roots, the spring from one and its
// collider on the other, so the spring hangs from the scene bone; the
// spring root scaled 0.25 puts the tip, four nodes of 2 units below
// (0, 2, 0), at the origin. Hand-worked colliders: the sphere's offset
// (0, 0.2, 0) under the node at (0, 0.7, -0.75) scaled 0.5 is the centre
// (0, 0.8, -0.75), radius 0.35 as written; the plane's normal (-1, 0, 0)
// under the node's quarter turn about +Y faces +Z from (0, 1, -0.3); the
// inside sphere, its offset left out, is centred on its node (0, 0.9, 0)
// with radius 1.2. The extended shapes replace their fallbacks.
func TestCorpusThreeVRMExamples(t *testing.T) {
	type want struct {
		kind          collide.Kind
		bound         collide.Bound
		at, normal    [3]float64
		radius        float32
		version, base string
	}
	for _, c := range []struct {
		name  string
		scale float32
		want  want
	}{
		{"threevrm-sphere", 0.25, want{collide.Sphere, collide.Outside, [3]float64{0, 0.8, -0.75}, [3]float64{}, 0.35, "", `"radius":0.35`}},
		{"threevrm-sphere-unscaled", 1, want{collide.Sphere, collide.Outside, [3]float64{0, 0.8, -0.75}, [3]float64{}, 0.35, "", `"radius":0.35`}},
		{"threevrm-plane", 0.25, want{collide.Plane, collide.Outside, [3]float64{0, 1, -0.3}, [3]float64{0, 0, 1}, 0, `"specVersion":"1.0-draft"`, `"offset":[1000,0,0],"radius":1000`}},
		{"threevrm-inside", 0.25, want{collide.Sphere, collide.Inside, [3]float64{0, 0.9, 0}, [3]float64{}, 1.2, `"specVersion":"1.0"`, `"offset":[0,-10000,0],"radius":0`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, js := loadCorpus(t, c.name)
			if r.SceneBone != SceneBoneName || r.Skeleton.Bones[0].Name != SceneBoneName {
				t.Fatalf("scene bone %q, first bone %q", r.SceneBone, r.Skeleton.Bones[0].Name)
			}
			if got := cChildren(r, SceneBoneName); strings.Join(got, ",") != "Spring 1,Collider" {
				t.Errorf("scene roots %v, want Spring 1 and Collider", got)
			}
			if len(r.Springs) != 1 || len(r.Springs[0].Joints) != 5 || r.Springs[0].Joints[0].Bone != "Spring 1" || r.Springs[0].Colliders[0] != 0 {
				t.Fatalf("springs %+v", r.Springs)
			}
			j := r.Springs[0].Joints[0]
			if j.Stiffness != 1 || j.GravityPower != 0 || j.DragForce != 0.4 || j.HitRadius != 0.25 {
				t.Errorf("joint settings %+v", j)
			}
			i, _ := cBone(r, "Spring 1")
			m := cModelRest(r)
			if s := r.Skeleton.Bones[i].Scale; s != (mgl32.Vec3{c.scale, c.scale, c.scale}) || !cNear(m["Spring 5"].pos, [3]float64{}, 1e-9) {
				t.Errorf("Spring 1 scale %v (want %v), the tip at %v (want the origin)", s, c.scale, m["Spring 5"].pos)
			}
			if len(r.Colliders) != 1 {
				t.Fatalf("%d colliders", len(r.Colliders))
			}
			col, w := r.Colliders[0], c.want
			d := col.Shape
			if col.Bone != "Collider" || d.Kind != w.kind || d.Bound != w.bound || d.Radius != w.radius || !cNear(cColliderAt(m, col, d.Offset), w.at, 1e-6) {
				t.Errorf("collider %+v at %v, want %+v", col, cColliderAt(m, col, d.Offset), w)
			}
			if w.kind == collide.Plane {
				n := m["Collider"]
				if got := cqrot(n.rot, [3]float64{float64(d.Normal[0]), float64(d.Normal[1]), float64(d.Normal[2])}); !cNear(got, w.normal, 1e-6) {
					t.Errorf("the plane faces %v, want %v", got, w.normal)
				}
			}
			if !strings.Contains(js, w.version) || !strings.Contains(js, w.base) {
				t.Errorf("the JSON lacks %s or %s", w.version, w.base)
			}
		})
	}
}

// UniVRM 1.0 with extended colliders after VRoid's ten: an inside sphere
// and an inside capsule, a plane behind the back and one before the
// face, in groups of their own listed by the springs they hold. The
// file with the README's fallback shapes and the one without load to the
// same rig: the fallback is not read. Hand-worked: the head at
// (0, 1.4, -0.003) puts the inside sphere's centre (offset
// (0, -0.15, -0.1)) at (0, 1.25, -0.103); the upper chest at
// (0, 1.195, -0.003) puts the back plane's point (offset (0, 0, -0.08))
// at (0, 1.195, -0.083); its fallback sphere of radius 1000 is centred
// at offset - 1000·normal = (0, 0, 999.92).
func TestCorpusExtendedColliders(t *testing.T) {
	r, js := loadCorpus(t, "univrm1-extended")
	bare, bareJS := loadCorpus(t, "univrm1-extended-nofallback")
	if !reflect.DeepEqual(r.Skeleton, bare.Skeleton) || !reflect.DeepEqual(r.Colliders, bare.Colliders) || !reflect.DeepEqual(r.Springs, bare.Springs) {
		t.Error("the files with and without the fallback shapes load to different rigs")
	}
	if len(r.Colliders) != 14 {
		t.Fatalf("%d colliders, want 14", len(r.Colliders))
	}
	sphere := collide.NewSphere(mgl32.Vec3{0, -0.15, -0.1}, 0.25)
	sphere.Bound = collide.Inside
	capsule := collide.NewCapsule(mgl32.Vec3{}, mgl32.Vec3{0, -0.45, 0}, 0.26, 0.26)
	capsule.Bound = collide.Inside
	want := []Collider{
		{"J_Bip_C_Head", sphere},
		{"J_Bip_C_Hips", capsule},
		{"J_Bip_C_UpperChest", collide.NewPlane(mgl32.Vec3{0, 0, -0.08}, mgl32.Vec3{0, 0, -1})},
		{"J_Bip_C_Head", collide.NewPlane(mgl32.Vec3{0, 0.06, 0.08}, mgl32.Vec3{0, 0, 1})},
	}
	for i, w := range want {
		got := r.Colliders[10+i]
		if got.Bone != w.Bone || got.Shape.Kind != w.Shape.Kind || got.Shape.Bound != w.Shape.Bound || got.Shape.Radius != w.Shape.Radius ||
			!got.Shape.Offset.ApproxEqualThreshold(w.Shape.Offset, 1e-7) || !got.Shape.Tail.ApproxEqualThreshold(w.Shape.Tail, 1e-7) ||
			!got.Shape.Normal.ApproxEqualThreshold(w.Shape.Normal, 1e-7) {
			t.Errorf("collider %d: %+v, want %+v", 10+i, got, w)
		}
	}
	m := cModelRest(r)
	if c := r.Colliders[10]; !cNear(cColliderAt(m, c, c.Shape.Offset), [3]float64{0, 1.25, -0.103}, 1e-6) {
		t.Errorf("the inside sphere's centre at %v", cColliderAt(m, c, c.Shape.Offset))
	}
	if c := r.Colliders[12]; !cNear(cColliderAt(m, c, c.Shape.Offset), [3]float64{0, 1.195, -0.083}, 1e-6) {
		t.Errorf("the back plane through %v", cColliderAt(m, c, c.Shape.Offset))
	}
	// The fallbacks, in one file only: a far sphere of radius 0 for each
	// inside shape, a sphere of radius 1000 behind each plane.
	for w, n := range map[string]int{
		`"shape":{"sphere":{"offset":[0,-10000,0],"radius":0}}`:                                  2,
		`"shape":{"sphere":{"offset":[0,0,999.9199829101562],"radius":1000}}`:                    1,
		`"shape":{"sphere":{"offset":[0,0.05999999865889549,-999.9199829101562],"radius":1000}}`: 1,
	} {
		if got := strings.Count(js, w); got != n {
			t.Errorf("%d fallbacks %s, want %d", got, w, n)
		}
		if strings.Contains(bareJS, w) {
			t.Errorf("the file without fallbacks has %s", w)
		}
	}
	for _, j := range []string{js, bareJS} {
		if n := strings.Count(j, `"specVersion":"1.0"}},"node"`); n != 4 {
			t.Errorf("the extension is written %d times with specVersion 1.0, want 4", n)
		}
	}
	// The groups: the bangs list the face plane, the long hair the back
	// plane and the inside sphere, the skirt the inside capsule.
	lists := func(s Spring, c int) bool {
		for _, k := range s.Colliders {
			if k == c {
				return true
			}
		}
		return false
	}
	for _, s := range r.Springs {
		bangs := s.Name == "Hair4" || s.Name == "Hair5"
		long := strings.HasPrefix(s.Name, "HairLong")
		skirt := strings.HasPrefix(s.Name, "Skirt")
		if lists(s, 10) != long || lists(s, 11) != skirt || lists(s, 12) != long || lists(s, 13) != bangs {
			t.Errorf("spring %s lists colliders %v", s.Name, s.Colliders)
		}
	}
}

// cLimitFrame is joint k's limit frame at rest in model space (w, x, y,
// z): the joint's rest frame, the shortest arc from +Y to its bone axis
// (the half turn about +X for exactly -Y), the limit's rotation.
func cLimitFrame(r *Rig, m map[string]cRest, s Spring, k int) [4]float64 {
	i, _ := cBone(r, s.Joints[k].Bone)
	c, _ := cBone(r, s.Joints[k+1].Bone)
	b := r.Skeleton.Bones[i]
	p := r.Skeleton.Bones[c].Pos
	a := [3]float64{float64(p[0]), float64(p[1]), float64(p[2])}
	l := math.Sqrt(cDot(a, a))
	a = [3]float64{a[0] / l, a[1] / l, a[2] / l}
	arc := [4]float64{0, 1, 0, 0}
	if a[1]+1 >= 1e-8 {
		arc = [4]float64{1 + a[1], a[2], 0, -a[0]}
		n := math.Sqrt(arc[0]*arc[0] + arc[1]*arc[1] + arc[3]*arc[3])
		arc = [4]float64{arc[0] / n, arc[1] / n, 0, arc[3] / n}
	}
	q := s.Joints[k].Limit.Rotation
	rest := cqmul(m[b.Parent].rot, [4]float64{float64(b.Rot.W), float64(b.Rot.V[0]), float64(b.Rot.V[1]), float64(b.Rot.V[2])})
	return cqmul(cqmul(rest, arc), [4]float64{float64(q.W), float64(q.V[0]), float64(q.V[1]), float64(q.V[2])})
}

func cDot(a, b [3]float64) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }

// UniVRM 1.0 with joint limits (1.0-draft) on every joint but the tail:
// cones on the hair, 0.3, 0.4 and 0.5 rad down each strand, hinges of
// 0.35 rad on the skirt, spherical limits of pitch 0.3 and yaw 0.15 on
// the earrings. Hand-worked frames at rest: the skirt strand at angle d
// around the hips falls outwards, so the shortest arc from +Y turns about
// its tangent (cos d, 0, -sin d); the hinge's rotation, a turn of d about
// +Y, takes the limit's X axis (the hinge's) onto that tangent. A back
// hair strand's cone leans 15 degrees off the strand, away from the head.
// An earring hangs exactly down: the half turn about +X, then the turn of
// 30 degrees about +Y, take the limit's X to Rx(π)(cos 30°, 0, -sin 30°)
// = (0.866, 0, 0.5).
func TestCorpusLimits(t *testing.T) {
	r, js := loadCorpus(t, "univrm1-limits")
	if len(r.Springs) != 20 {
		t.Fatalf("%d springs, want 20", len(r.Springs))
	}
	m := cModelRest(r)
	limited, leaning := 0, 0
	for _, s := range r.Springs {
		for k, j := range s.Joints {
			if k == len(s.Joints)-1 {
				if j.Limit.Kind != spring.NoLimit {
					t.Errorf("%s: a limit on the tail", s.Name)
				}
				continue
			}
			limited++
			l := j.Limit
			frame := cLimitFrame(r, m, s, k)
			head, tail := m[j.Bone].pos, m[s.Joints[k+1].Bone].pos
			bone := [3]float64{tail[0] - head[0], tail[1] - head[1], tail[2] - head[2]}
			bl := math.Sqrt(cDot(bone, bone))
			bone = [3]float64{bone[0] / bl, bone[1] / bl, bone[2] / bl}
			axisY, axisX := cqrot(frame, [3]float64{0, 1, 0}), cqrot(frame, [3]float64{1, 0, 0})
			switch {
			case strings.HasPrefix(s.Name, "Hair"):
				if want := (0.3 + 0.1*float64(k)) * 180 / math.Pi; l.Kind != spring.ConeLimit || math.Abs(float64(l.AngleDegrees)-want) > 1e-5 {
					t.Errorf("%s joint %d: %+v, want a cone of %.1f rad (%.4g°)", s.Name, k, l, 0.3+0.1*float64(k), want)
				}
				// The lean: 15 degrees off the strand, outwards (further
				// from the head's vertical axis), for the back strands.
				lean := math.Acos(min(1, cDot(axisY, bone)))
				radial := func(v [3]float64) float64 { return math.Hypot(v[0], v[2]) }
				back := l.Rotation != mgl32.QuatIdent()
				if back {
					leaning++
				}
				if back && (math.Abs(lean-15*math.Pi/180) > 1e-5 || radial(axisY) <= radial(bone)) || !back && lean > 1e-6 {
					t.Errorf("%s joint %d: the cone's axis %v leans %.4g rad off the strand %v", s.Name, k, axisY, lean, bone)
				}
			case strings.HasPrefix(s.Name, "Skirt"):
				if l.Kind != spring.HingeLimit || l.AngleDegrees != float32(0.35*180/math.Pi) {
					t.Errorf("%s joint %d: %+v, want a hinge of 0.35 rad (20.05°)", s.Name, k, l)
				}
				// The tangent: perpendicular to the strand and level.
				if math.Abs(cDot(axisX, bone)) > 1e-6 || math.Abs(axisX[1]) > 1e-6 || math.Abs(cDot(axisY, bone)-1) > 1e-6 {
					t.Errorf("%s joint %d: the hinge's axis %v is not the tangent of the strand %v", s.Name, k, axisX, bone)
				}
			case strings.HasPrefix(s.Name, "Earring"):
				if l.Kind != spring.SphericalLimit || l.PitchDegrees != float32(0.3*180/math.Pi) || l.YawDegrees != float32(0.15*180/math.Pi) || !cNear(bone, [3]float64{0, -1, 0}, 0) ||
					!cNear(axisX, [3]float64{math.Sqrt(3) / 2, 0, 0.5}, 1e-6) || !cNear(axisY, [3]float64{0, -1, 0}, 1e-6) {
					t.Errorf("%s joint %d: %+v, frame X %v and Y %v on the bone %v", s.Name, k, l, axisX, axisY, bone)
				}
			default:
				t.Errorf("spring %s", s.Name)
			}
		}
	}
	if limited != 60 || strings.Count(js, `"specVersion":"1.0-draft"`) != 60 || leaning != 4*3 {
		t.Errorf("%d joints with a limit, %d limits in the JSON, %d leaning cones; want 60, 60 and 12 (4 back strands)", limited, strings.Count(js, `"specVersion":"1.0-draft"`), leaning)
	}
	// The first skirt strand, at 25 degrees: its hinge turned 25 degrees
	// about +Y, (0, sin 12.5°, 0, cos 12.5°), written from float32.
	if !strings.Contains(js, `"hinge":{"angle":0.3499999940395355,"rotation":[0,0.2164396196603775,0,0.9762960076332092]}`) {
		t.Error("the first skirt hinge is not written as UniVRM writes it")
	}
}
