package sway_test

import (
	"errors"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	arche "github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/internal/scene"
)

// armSkeleton is a two-bone arm along +X: the shoulder at (1, 0, 0),
// the elbow 1 m further, the wrist 1 m beyond.
func armSkeleton(t testing.TB) *sway.Skeleton {
	t.Helper()
	skel, err := sway.NewSkeleton(sway.SkeletonDesc{Name: "arm", Bones: []sway.BoneDesc{
		sway.Bone("shoulder", "", mgl32.Vec3{1, 0, 0}),
		sway.Bone("elbow", "shoulder", mgl32.Vec3{1, 0, 0}),
		sway.Bone("wrist", "elbow", mgl32.Vec3{1, 0, 0}),
	}})
	must(t, err)
	return skel
}

func nearMat(a, b mgl32.Mat4, tol float32) bool {
	for i := range a {
		if d := a[i] - b[i]; d > tol || d < -tol {
			return false
		}
	}
	return true
}

// The arm bent 90° at the elbow about +Z with the forearm scaled 2 along
// its own X; inverse binds from the rest pose; the skin lists the elbow
// before the shoulder. The numbers are worked by hand.
func TestSkinArmBent90(t *testing.T) {
	w, err := sway.NewWorld(sway.Options{Workers: 1})
	must(t, err)
	defer w.Close()
	skel := armSkeleton(t)
	e, err := w.AddCharacter(skel, sway.Identity())
	must(t, err)
	sk, err := sway.NewSkin(skel, sway.SkinDesc{Name: "arm", Joints: []string{"elbow", "shoulder"}})
	must(t, err)
	// The inverse bind of a translated bone is the opposite translation.
	if sk.InverseBind(0) != mgl32.Translate3D(-2, 0, 0) || sk.JointBone(0) != skel.Index("elbow") {
		t.Fatalf("joint 0: bone %d, inverse bind %v", sk.JointBone(0), sk.InverseBind(0))
	}
	rot := mgl32.QuatRotate(mgl32.DegToRad(90), mgl32.Vec3{0, 0, 1})
	must(t, w.SetBoneLocal(e, skel.Index("elbow"), sway.Transform{Pos: mgl32.Vec3{1, 0, 0}, Rot: rot, Scale: mgl32.Vec3{2, 1, 1}}))

	// No Step: SkinMatrices brings the pose up to date as Pose does.
	got, err := w.SkinMatrices(e, sk, nil)
	must(t, err)
	// Elbow: T(2,0,0)·Rz(90)·S(2,1,1)·T(-2,0,0). Rz(90)'s columns are
	// (0,1,0), (-1,0,0), (0,0,1); the first scaled by 2 is (0,2,0); the
	// translation A·(-2,0,0) + (2,0,0) = (2,-4,0).
	elbow := mgl32.Mat4{
		0, 2, 0, 0,
		-1, 0, 0, 0,
		0, 0, 1, 0,
		2, -4, 0, 1,
	}
	if len(got) != 2 || !nearMat(got[0], elbow, 1e-6) || !nearMat(got[1], mgl32.Ident4(), 1e-6) {
		t.Fatalf("matrices %v, want [%v identity]", got, elbow)
	}
	// The wrist's rest position goes where the posed wrist bone is.
	wrist, err := w.BoneWorld(e, skel.Index("wrist"))
	must(t, err)
	if v := got[0].Mul4x1(mgl32.Vec4{3, 0, 0, 1}).Vec3(); !v.ApproxEqualThreshold(wrist.Pos, 1e-6) || !v.ApproxEqualThreshold(mgl32.Vec3{2, 2, 0}, 1e-6) {
		t.Fatalf("rest wrist skinned to %v; the wrist bone is at %v, by hand (2, 2, 0)", v, wrist.Pos)
	}

	// The root's transform comes first: moved 10 m along X and turned a
	// quarter about +Y, every matrix is the root's matrix times the one
	// above.
	root := sway.Transform{Pos: mgl32.Vec3{10, 0, 0}, Rot: mgl32.QuatRotate(mgl32.DegToRad(90), mgl32.Vec3{0, 1, 0}), Scale: mgl32.Vec3{1, 1, 1}}
	must(t, w.SetRoot(e, root))
	got, err = w.SkinMatrices(e, sk, got[:0])
	must(t, err)
	for j, want := range []mgl32.Mat4{root.Mat4().Mul4(elbow), root.Mat4()} {
		if !nearMat(got[j], want, 1e-5) {
			t.Errorf("with the root moved, joint %d: %v, want %v", j, got[j], want)
		}
	}
}

// restSkeleton is a chain of bones with rest rotations, non-uniform
// scales and offsets, and a branch.
func restSkeleton(t testing.TB) *sway.Skeleton {
	t.Helper()
	r := newRand(3)
	var bones []sway.BoneDesc
	names := []string{"a", "b", "c", "d", "e", "f", "g", "h"}
	for i, n := range names {
		parent := ""
		if i > 0 {
			parent = names[(i-1)/2] // a small binary tree
		}
		axis := mgl32.Vec3{float32(r.Float64()) - 0.5, float32(r.Float64()) - 0.5, float32(r.Float64()) - 0.5}.Normalize()
		bones = append(bones, sway.BoneDesc{
			Name: n, Parent: parent,
			Pos:   mgl32.Vec3{float32(r.Float64()), float32(r.Float64()), float32(r.Float64())},
			Rot:   mgl32.QuatRotate(float32(r.Float64()*6), axis),
			Scale: mgl32.Vec3{0.8 + 0.4*float32(r.Float64()), 0.8 + 0.4*float32(r.Float64()), 0.8 + 0.4*float32(r.Float64())},
		})
	}
	skel, err := sway.NewSkeleton(sway.SkeletonDesc{Name: "rest", Bones: bones})
	must(t, err)
	return skel
}

// At the rest pose, with inverse binds from the rest pose and the root
// at the identity, every skinning matrix is the identity within float32
// rounding.
func TestSkinRestPoseIsIdentity(t *testing.T) {
	w, err := sway.NewWorld(sway.Options{Workers: 1})
	must(t, err)
	defer w.Close()
	skel := restSkeleton(t)
	e, err := w.AddCharacter(skel, sway.Identity())
	must(t, err)
	joints := []string{"h", "a", "d", "c", "g", "b", "f", "e", "a"}
	sk, err := sway.NewSkin(skel, sway.SkinDesc{Joints: joints})
	must(t, err)
	got, err := w.SkinMatrices(e, sk, nil)
	must(t, err)
	if len(got) != len(joints) {
		t.Fatalf("%d matrices for %d joints", len(got), len(joints))
	}
	for j, m := range got {
		if !nearMat(m, mgl32.Ident4(), 1e-5) {
			t.Errorf("joint %d (%s): %v, want the identity", j, joints[j], m)
		}
	}
}

// SkinFloats appends the same values as SkinMatrices, bit for bit, after
// what dst held; both append.
func TestSkinFloatsEqualMatrices(t *testing.T) {
	w, err := sway.NewWorld(sway.Options{Workers: 1})
	must(t, err)
	defer w.Close()
	sc, err := scene.New(scene.Config{Characters: 3, Seed: 1})
	must(t, err)
	es, err := sc.Populate(w)
	must(t, err)
	for range 20 {
		must(t, w.Step(1.0/60))
	}
	skel := sc.Skeleton
	var joints []string
	for b := skel.NumBones() - 1; b >= 0; b-- {
		joints = append(joints, skel.BoneName(b))
	}
	sk, err := sway.NewSkin(skel, sway.SkinDesc{Name: "body", Joints: joints})
	must(t, err)
	if sk.Name() != "body" || sk.NumJoints() != skel.NumBones() {
		t.Fatalf("skin %q with %d joints", sk.Name(), sk.NumJoints())
	}
	for _, e := range es {
		mats, err := w.SkinMatrices(e, sk, []mgl32.Mat4{{7}})
		must(t, err)
		flat, err := w.SkinFloats(e, sk, []float32{7})
		must(t, err)
		if len(mats) != 1+sk.NumJoints() || len(flat) != 1+16*sk.NumJoints() || mats[0][0] != 7 || flat[0] != 7 {
			t.Fatalf("lengths %d and %d, or the prefix was overwritten", len(mats), len(flat))
		}
		for j, m := range mats[1:] {
			for i := range 16 {
				if math.Float32bits(m[i]) != math.Float32bits(flat[1+16*j+i]) {
					t.Fatalf("joint %d entry %d: %g and %g", j, i, m[i], flat[1+16*j+i])
				}
			}
		}
		// Moved by the simulation, the matrices are not all the identity.
		if nearMat(mats[1], mgl32.Ident4(), 1e-3) && nearMat(mats[len(mats)-1], mgl32.Ident4(), 1e-3) {
			t.Error("the matrices of a running character are the identity")
		}
	}
}

func TestSkinNoAllocations(t *testing.T) {
	w, err := sway.NewWorld(sway.Options{Workers: 1})
	must(t, err)
	defer w.Close()
	sc, err := scene.New(scene.Config{Characters: 1, Seed: 1})
	must(t, err)
	es, err := sc.Populate(w)
	must(t, err)
	var joints []string
	for b := range sc.Skeleton.NumBones() {
		joints = append(joints, sc.Skeleton.BoneName(b))
	}
	sk, err := sway.NewSkin(sc.Skeleton, sway.SkinDesc{Joints: joints})
	must(t, err)
	mats := make([]mgl32.Mat4, 0, sk.NumJoints())
	flat := make([]float32, 0, 16*sk.NumJoints())
	if n := testing.AllocsPerRun(100, func() {
		mats, _ = w.SkinMatrices(es[0], sk, mats[:0])
		flat, _ = w.SkinFloats(es[0], sk, flat[:0])
	}); n != 0 {
		t.Fatalf("%v allocations per call pair with room in dst", n)
	}
}

func TestSkinZeroJoints(t *testing.T) {
	w, err := sway.NewWorld(sway.Options{Workers: 1})
	must(t, err)
	defer w.Close()
	skel := armSkeleton(t)
	e, err := w.AddCharacter(skel, sway.Identity())
	must(t, err)
	sk, err := sway.NewSkin(skel, sway.SkinDesc{})
	must(t, err)
	mats, err := w.SkinMatrices(e, sk, nil)
	must(t, err)
	flat, err := w.SkinFloats(e, sk, []float32{1})
	must(t, err)
	if len(mats) != 0 || len(flat) != 1 {
		t.Fatalf("a skin of no joints appended %d matrices, %d floats", len(mats), len(flat)-1)
	}
}

func TestNewSkinRejects(t *testing.T) {
	skel := armSkeleton(t)
	id := mgl32.Ident4()
	nan := float32(math.NaN())
	for _, c := range []struct {
		name, field string
		skel        *sway.Skeleton
		desc        sway.SkinDesc
	}{
		{"no skeleton", "Skeleton", nil, sway.SkinDesc{}},
		{"unknown bone", "Joints[1]", skel, sway.SkinDesc{Joints: []string{"elbow", "knee"}}},
		{"too few matrices", "InverseBind", skel, sway.SkinDesc{Joints: []string{"elbow", "wrist"}, InverseBind: []mgl32.Mat4{id}}},
		{"matrices without joints", "InverseBind", skel, sway.SkinDesc{InverseBind: []mgl32.Mat4{id}}},
		{"NaN matrix", "InverseBind[1]", skel, sway.SkinDesc{Joints: []string{"elbow", "wrist"}, InverseBind: []mgl32.Mat4{id, {nan}}}},
		{"singular matrix", "InverseBind[0]", skel, sway.SkinDesc{Joints: []string{"elbow"}, InverseBind: []mgl32.Mat4{mgl32.Scale3D(1, 0, 1)}}},
		{"projective matrix", "InverseBind[0]", skel, sway.SkinDesc{Joints: []string{"elbow"}, InverseBind: []mgl32.Mat4{{1, 0, 0, 0.5, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}}}},
	} {
		_, err := sway.NewSkin(c.skel, c.desc)
		var fe *sway.FieldError
		if !errors.As(err, &fe) || fe.Type != "SkinDesc" || fe.Field != c.field {
			t.Errorf("%s: %v, want a *FieldError on SkinDesc.%s", c.name, err, c.field)
		} else {
			t.Logf("%s: %v", c.name, err)
		}
	}
}

func TestSkinMatricesRejects(t *testing.T) {
	w, err := sway.NewWorld(sway.Options{Workers: 1})
	must(t, err)
	defer w.Close()
	arm, other := armSkeleton(t), armSkeleton(t) // equal, but two skeletons
	e, err := w.AddCharacter(arm, sway.Identity())
	must(t, err)
	sk, err := sway.NewSkin(other, sway.SkinDesc{Joints: []string{"elbow"}})
	must(t, err)
	dst := []mgl32.Mat4{{3}}
	var fe *sway.FieldError
	if got, err := w.SkinMatrices(e, sk, dst); !errors.As(err, &fe) || len(got) != 1 {
		t.Errorf("a skin of another skeleton: %v, %d matrices", err, len(got))
	}
	if _, err := w.SkinFloats(e, nil, nil); !errors.As(err, &fe) {
		t.Errorf("a nil skin: %v", err)
	}
	if _, err := w.SkinMatrices(arche.Entity{}, sk, nil); !errors.Is(err, sway.ErrNotCharacter) {
		t.Errorf("the zero entity: %v", err)
	}
}

// A Skin holds nothing per character: characters added and removed
// around it leave nothing behind, and a removed character's entity is
// refused.
func TestSkinCharacterCycles(t *testing.T) {
	w, err := sway.NewWorld(sway.Options{Workers: 1})
	must(t, err)
	defer w.Close()
	skel := armSkeleton(t)
	sk, err := sway.NewSkin(skel, sway.SkinDesc{Joints: []string{"shoulder", "elbow", "wrist"}})
	must(t, err)
	keep, err := w.AddCharacter(skel, sway.Identity())
	must(t, err)
	mats := make([]mgl32.Mat4, 0, 3)
	flat := make([]float32, 0, 48)
	var bones int
	for i := range 1000 {
		e, err := w.AddCharacter(skel, sway.At(mgl32.Vec3{float32(i), 0, 0}))
		must(t, err)
		mats, err = w.SkinMatrices(e, sk, mats[:0])
		must(t, err)
		if want := mgl32.Translate3D(float32(i), 0, 0); !nearMat(mats[2], want, 1e-4) {
			t.Fatalf("cycle %d: %v, want %v", i, mats[2], want)
		}
		flat, err = w.SkinFloats(e, sk, flat[:0])
		must(t, err)
		must(t, w.RemoveCharacter(e))
		if _, err := w.SkinMatrices(e, sk, nil); !errors.Is(err, sway.ErrNotCharacter) {
			t.Fatalf("cycle %d: a removed character: %v", i, err)
		}
		pv, err := w.Pose(keep)
		must(t, err)
		if i == 0 {
			bones = cap(pv.WorldPos)
		} else if cap(pv.WorldPos) > bones {
			t.Fatalf("cycle %d: the pose pool grew to %d slots", i, cap(pv.WorldPos))
		}
		if _, err := w.SkinMatrices(keep, sk, mats[:0]); err != nil {
			t.Fatal(err)
		}
	}
	if n := w.NumCharacters(); n != 1 {
		t.Fatalf("%d characters left, want 1", n)
	}
}
