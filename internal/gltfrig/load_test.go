package gltfrig

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/qmuntal/gltf"

	"github.com/sway-anim/sway/internal/mathx"
	"github.com/sway-anim/sway/internal/rig"
	"github.com/sway-anim/sway/systems/collide"
)

func v32(v [3]float64) mgl32.Vec3 { return mgl32.Vec3{float32(v[0]), float32(v[1]), float32(v[2])} }

func q32(r [4]float64) mgl32.Quat {
	return mgl32.Quat{W: float32(r[3]), V: mgl32.Vec3{float32(r[0]), float32(r[1]), float32(r[2])}}
}

func near3(a, b mgl32.Vec3, tol float32) bool {
	return mathx.Len(a.Sub(b)) <= tol
}

// sameRot accepts q and -q (the same rotation).
func sameRot(a, b mgl32.Quat, tol float32) bool {
	d := a.W*b.W + mathx.Dot(a.V, b.V)
	return d >= 1-tol || d <= -(1-tol)
}

// The 1.0 humanoid loads to exactly what was written.
func TestLoadVRM1(t *testing.T) {
	r := decodeBytes(t, encodeGLB(t, build1()))
	if r.Version != VersionVRM1 {
		t.Fatalf("version %v", r.Version)
	}
	if len(r.Warnings) != 0 {
		t.Errorf("warnings %q", r.Warnings)
	}
	// Skeleton: every node but the mesh node, in node order, with its TRS.
	spec := humanoid()
	var want []nodeSpec
	for _, ns := range spec {
		if ns.name != "Body" {
			want = append(want, ns)
		}
	}
	if len(r.Skeleton.Bones) != len(want) {
		t.Fatalf("%d bones, want %d", len(r.Skeleton.Bones), len(want))
	}
	for i, ns := range want {
		b := r.Skeleton.Bones[i]
		if b.Name != ns.name || b.Parent != ns.parent {
			t.Errorf("bone %d = %q under %q, want %q under %q", i, b.Name, b.Parent, ns.name, ns.parent)
		}
		tol := float32(0)
		if ns.matrix {
			tol = 1e-6 // decomposed
		}
		if !near3(b.Pos, v32(ns.t), tol) || !near3(b.Scale, v32(ns.s), tol) || !sameRot(b.Rot, q32(ns.r), tol) {
			t.Errorf("bone %q rest %v %v %v, want %v %v %v", ns.name, b.Pos, b.Rot, b.Scale, ns.t, ns.r, ns.s)
		}
	}
	if _, err := rig.NewSkeleton(r.Skeleton); err != nil {
		t.Fatal(err)
	}
	// Colliders: three spheres, then the extended inside sphere and plane.
	if len(r.Colliders) != 5 {
		t.Fatalf("%d colliders", len(r.Colliders))
	}
	for i := range colliderOffsets {
		want := Collider{Bone: colliderNodes[i], Shape: collide.NewSphere(v32(colliderOffsets[i]), float32(colliderRadii[i]))}
		if r.Colliders[i] != want {
			t.Errorf("collider %d = %+v, want %+v", i, r.Colliders[i], want)
		}
	}
	inside := collide.NewSphere(mgl32.Vec3{0, 0.3, 0}, 0.5)
	inside.Bound = collide.Inside
	if got := r.Colliders[3]; got != (Collider{Bone: "hips", Shape: inside}) {
		t.Errorf("extended sphere = %+v, want inside %+v", got, inside)
	}
	if got := r.Colliders[4]; got != (Collider{Bone: "hips", Shape: collide.NewPlane(mgl32.Vec3{0, -1, 0}, mgl32.Vec3{0, 1, 0})}) {
		t.Errorf("extended plane = %+v", got)
	}
	// Springs: every joint with its settings; groups flattened, each collider once.
	wantSprings := []Spring{
		{Name: "hairL", Colliders: []int{0, 1, 2}},
		{Name: "hairR", Colliders: []int{2, 0, 1}, Center: "hips"},
	}
	grav := []mgl32.Vec3{{0, -1, 0}, v32(hairRGravity)}
	for s, side := range []string{"L", "R"} {
		for k := 0; k < 4; k++ {
			wantSprings[s].Joints = append(wantSprings[s].Joints, Joint{Bone: "hair" + side + strconv.Itoa(k),
				Stiffness: 1.5, GravityPower: 0.3, GravityDir: grav[s], DragForce: 0.4, HitRadius: 0.02})
		}
	}
	if !reflect.DeepEqual(r.Springs, wantSprings) {
		t.Errorf("springs\n%+v\nwant\n%+v", r.Springs, wantSprings)
	}
	if !reflect.DeepEqual(r.Humanoid, humanBones) {
		t.Errorf("humanoid %v, want %v", r.Humanoid, humanBones)
	}
}

// modelSpace returns every bone's model-space rest position and rotation.
func modelSpace(t *testing.T, r *Rig) (*rig.Skeleton, map[string]int) {
	t.Helper()
	s, err := rig.NewSkeleton(r.Skeleton)
	if err != nil {
		t.Fatal(err)
	}
	idx := map[string]int{}
	for i := 0; i < s.NumBones(); i++ {
		idx[s.BoneName(i)] = i
	}
	return s, idx
}

// The 0.x form of the same humanoid (facing -Z, vectors in Unity space)
// loads to the same model-space rig as the 1.0 form, apart from the 0.x
// virtual tail.
func TestLoadVRM0MatchesVRM1(t *testing.T) {
	r1 := decodeBytes(t, encodeGLB(t, build1()))
	r0 := decodeBytes(t, encodeGLB(t, build0()))
	if r0.Version != VersionVRM0 {
		t.Fatalf("version %v", r0.Version)
	}
	s1, i1 := modelSpace(t, r1)
	s0, i0 := modelSpace(t, r0)
	if len(i1) != len(i0) {
		t.Fatalf("%d bones against %d", len(i0), len(i1))
	}
	for name, a := range i1 {
		b, ok := i0[name]
		if !ok {
			t.Fatalf("0.x rig has no bone %q", name)
		}
		if p0, p1 := s0.ModelPos()[b], s1.ModelPos()[a]; !near3(p0, p1, 1e-6) {
			t.Errorf("bone %q at %v in 0.x, %v in 1.0", name, p0, p1)
		}
	}
	// Colliders at the same model-space place.
	if len(r0.Colliders) != len(colliderOffsets) {
		t.Fatalf("%d 0.x colliders", len(r0.Colliders))
	}
	for c := range r0.Colliders {
		place := func(s *rig.Skeleton, idx map[string]int, col Collider) collide.Shape {
			var sh collide.Shape
			b := idx[col.Bone]
			collide.ToWorld(&sh, &col.Shape, s.ModelPos()[b], s.ModelRot()[b], s.ModelScale()[b])
			return sh
		}
		w0, w1 := place(s0, i0, r0.Colliders[c]), place(s1, i1, r1.Colliders[c])
		if !near3(w0.A, w1.A, 1e-6) || w0.RA != w1.RA || r0.Colliders[c].Bone != r1.Colliders[c].Bone {
			t.Errorf("collider %d: 0.x %+v, 1.0 %+v", c, w0, w1)
		}
	}
	// Springs: the same joints and settings; 0.x swings its last joint
	// with the 7 cm virtual tail.
	if len(r0.Springs) != len(r1.Springs) {
		t.Fatalf("%d springs against %d", len(r0.Springs), len(r1.Springs))
	}
	for s := range r1.Springs {
		a, b := r1.Springs[s], r0.Springs[s]
		if a.VirtualTail != 0 || b.VirtualTail != VirtualTail0x {
			t.Errorf("spring %d virtual tails %v (1.0), %v (0.x)", s, a.VirtualTail, b.VirtualTail)
		}
		if a.Name != b.Name || a.Center != b.Center || !reflect.DeepEqual(a.Colliders, b.Colliders) || len(a.Joints) != len(b.Joints) {
			t.Fatalf("spring %d: 1.0 %+v, 0.x %+v", s, a, b)
		}
		for j := range a.Joints {
			ja, jb := a.Joints[j], b.Joints[j]
			if !near3(ja.GravityDir, jb.GravityDir, 1e-6) {
				t.Errorf("spring %d joint %d gravity %v in 0.x, %v in 1.0", s, j, jb.GravityDir, ja.GravityDir)
			}
			ja.GravityDir = jb.GravityDir
			if ja != jb {
				t.Errorf("spring %d joint %d: 1.0 %+v, 0.x %+v", s, j, ja, jb)
			}
		}
	}
	if !reflect.DeepEqual(r0.Humanoid, r1.Humanoid) {
		t.Errorf("humanoid 0.x %v, 1.0 %v", r0.Humanoid, r1.Humanoid)
	}
}

// .gltf JSON, a .vrm on disk and the GLB stream give the same rig.
func TestLoadForms(t *testing.T) {
	doc := build1()
	want := decodeBytes(t, encodeGLB(t, doc))
	var js bytes.Buffer
	enc := gltf.NewEncoder(&js)
	enc.AsBinary = false
	if err := enc.Encode(doc); err != nil {
		t.Fatal(err)
	}
	if got := decodeBytes(t, js.Bytes()); !reflect.DeepEqual(got, want) {
		t.Errorf(".gltf JSON loads differently:\n%+v\n%+v", got, want)
	}
	path := filepath.Join(t.TempDir(), "humanoid.vrm")
	if err := os.WriteFile(path, encodeGLB(t, doc), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.Skeleton.Name != "humanoid" {
		t.Errorf("skeleton named %q, want the file's name", got.Skeleton.Name)
	}
	got.Skeleton.Name = ""
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Load differs from Decode")
	}
	if _, err := Load(filepath.Join(t.TempDir(), "missing.vrm")); err == nil {
		t.Error("a missing file loads")
	}
}

// Node matrices decompose into TRS that compose back to the matrix,
// mirrors included.
func TestDecomposeMatrix(t *testing.T) {
	cases := []struct {
		t [3]float64
		r [4]float64
		s [3]float64
	}{
		{[3]float64{1, 2, 3}, ident, one},
		{[3]float64{0, 0.5, 0}, rotX(170), [3]float64{2, 0.5, 3}},
		{[3]float64{-1, 0, 4}, [4]float64{0.5, 0.5, 0.5, 0.5}, [3]float64{-1, 1, 1}},
		{[3]float64{0, 0, 0}, [4]float64{0, 0, 1, 0}, [3]float64{0.01, -2, 5}},
	}
	for i, c := range cases {
		m := trsMatrix(c.t, c.r, c.s)
		tt, r, s, err := decompose(m)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		back := trsMatrix(tt, r, s)
		for k := range m {
			if d := back[k] - m[k]; d > 1e-12 || d < -1e-12 {
				t.Fatalf("case %d: composes back to %v, want %v", i, back, m)
			}
		}
	}
	shear := trsMatrix([3]float64{}, ident, one)
	shear[4] = 0.5 // x leaks into the y axis
	if _, _, _, err := decompose(shear); err == nil {
		t.Error("a sheared matrix decomposes")
	}
	flat := trsMatrix([3]float64{}, ident, [3]float64{1, 0, 1})
	if _, _, _, err := decompose(flat); err == nil {
		t.Error("a matrix with a zero axis decomposes")
	}
	proj := trsMatrix([3]float64{}, ident, one)
	proj[3] = 0.1
	if _, _, _, err := decompose(proj); err == nil {
		t.Error("a projective matrix decomposes")
	}
}
