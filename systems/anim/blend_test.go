package anim

import (
	"math"
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

func onePose(p mgl32.Vec3, q mgl32.Quat, s mgl32.Vec3) Pose {
	return Pose{Pos: []mgl32.Vec3{p}, Rot: []mgl32.Quat{q}, Scale: []mgl32.Vec3{s}}
}

func TestBlendPosesSingleWeightIsExact(t *testing.T) {
	rng := rand.New(rand.NewSource(6))
	poses := make([]Pose, 3)
	for i := range poses {
		poses[i] = MakePose(8)
		for b := range 8 {
			poses[i].Pos[b], poses[i].Rot[b], poses[i].Scale[b] = randVec(rng, 1), randQuat(rng), randVec(rng, 1)
		}
	}
	dst := MakePose(8)
	if !BlendPoses(dst, poses, []float32{0, 1, 0}, restPose(8)) {
		t.Fatal("returned false")
	}
	for b := range 8 {
		if dst.Pos[b] != poses[1].Pos[b] || dst.Rot[b] != poses[1].Rot[b] || dst.Scale[b] != poses[1].Scale[b] {
			t.Fatalf("bone %d differs from the only weighted pose", b)
		}
	}
}

// Identity and 90° about Y at 0.5 each: the normalised sum is exactly the
// 45° rotation; translations (0,0,0) and (2,4,0) average to (1,2,0); scales
// 1 and 3 to 2.
func TestBlendPosesHalfway(t *testing.T) {
	q90 := mgl32.QuatRotate(math.Pi/2, mgl32.Vec3{0, 1, 0})
	want := mgl32.QuatRotate(math.Pi/4, mgl32.Vec3{0, 1, 0})
	a := onePose(mgl32.Vec3{}, mgl32.QuatIdent(), mgl32.Vec3{1, 1, 1})
	for _, b := range []Pose{
		onePose(mgl32.Vec3{2, 4, 0}, q90, mgl32.Vec3{3, 3, 3}),
		onePose(mgl32.Vec3{2, 4, 0}, q90.Scale(-1), mgl32.Vec3{3, 3, 3}), // other hemisphere
	} {
		dst := MakePose(1)
		BlendPoses(dst, []Pose{a, b}, []float32{0.5, 0.5}, MakePose(1))
		if !quatNear(dst.Rot[0], want, 1e-6) {
			t.Fatalf("rotation %v, want %v", dst.Rot[0], want)
		}
		if !vecNear(dst.Pos[0], mgl32.Vec3{1, 2, 0}, 1e-6) || !vecNear(dst.Scale[0], mgl32.Vec3{2, 2, 2}, 1e-6) {
			t.Fatalf("pos %v scale %v", dst.Pos[0], dst.Scale[0])
		}
	}
}

// The hemisphere test is against the running sum: three poses whose
// quaternions alternate in sign still blend to their common rotation.
func TestBlendPosesHemisphereAgainstAccumulator(t *testing.T) {
	q := mgl32.QuatRotate(2.5, mgl32.Vec3{0, 0, 1})
	poses := []Pose{
		onePose(mgl32.Vec3{}, q, mgl32.Vec3{1, 1, 1}),
		onePose(mgl32.Vec3{}, q.Scale(-1), mgl32.Vec3{1, 1, 1}),
		onePose(mgl32.Vec3{}, q, mgl32.Vec3{1, 1, 1}),
	}
	dst := MakePose(1)
	BlendPoses(dst, poses, []float32{0.2, 0.5, 0.3}, MakePose(1))
	if !quatNear(dst.Rot[0], q, 1e-6) {
		t.Fatalf("%v, want %v", dst.Rot[0], q)
	}
}

// Weights short of one leave the remainder to the rest pose: 0.25 of
// (4,0,0) and 0.75 of rest (0,0,0) -> (1,0,0). Above one they are
// normalised: 2 and 2 behave as 0.5 and 0.5. All zero gives the rest pose.
func TestBlendPosesWeightTotals(t *testing.T) {
	rest := onePose(mgl32.Vec3{}, mgl32.QuatIdent(), mgl32.Vec3{1, 1, 1})
	a := onePose(mgl32.Vec3{4, 0, 0}, mgl32.QuatIdent(), mgl32.Vec3{1, 1, 1})
	b := onePose(mgl32.Vec3{0, 8, 0}, mgl32.QuatIdent(), mgl32.Vec3{1, 1, 1})
	dst := MakePose(1)
	BlendPoses(dst, []Pose{a}, []float32{0.25}, rest)
	if !vecNear(dst.Pos[0], mgl32.Vec3{1, 0, 0}, 1e-6) {
		t.Fatalf("remainder to rest: %v", dst.Pos[0])
	}
	BlendPoses(dst, []Pose{a, b}, []float32{2, 2}, rest)
	if !vecNear(dst.Pos[0], mgl32.Vec3{2, 4, 0}, 1e-6) {
		t.Fatalf("over one: %v", dst.Pos[0])
	}
	nan := float32(math.NaN())
	BlendPoses(dst, []Pose{a, b}, []float32{0, nan}, rest)
	if dst.Pos[0] != (mgl32.Vec3{}) || dst.Rot[0] != mgl32.QuatIdent() {
		t.Fatalf("zero weights: %v %v", dst.Pos[0], dst.Rot[0])
	}
	BlendPoses(dst, []Pose{a, b}, []float32{math.MaxFloat32, math.MaxFloat32}, rest)
	if !vecNear(dst.Pos[0], mgl32.Vec3{2, 4, 0}, 1e-5) {
		t.Fatalf("huge weights: %v", dst.Pos[0])
	}
}

func TestBlendPosesShortSlices(t *testing.T) {
	rest := MakePose(4)
	if BlendPoses(MakePose(3), []Pose{MakePose(4)}, []float32{1}, rest) {
		t.Fatal("short dst accepted")
	}
	if BlendPoses(MakePose(4), []Pose{MakePose(4), MakePose(4)}, []float32{1}, rest) {
		t.Fatal("short weights accepted")
	}
	if BlendPoses(MakePose(4), []Pose{MakePose(2)}, []float32{0.5}, rest) {
		t.Fatal("short pose accepted")
	}
	// A short pose with zero weight is never read.
	if !BlendPoses(MakePose(4), []Pose{MakePose(4), {}}, []float32{1, 0}, rest) {
		t.Fatal("short unweighted pose rejected")
	}
}

// Random blends stay unit and finite.
func TestBlendPosesRandomUnit(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	poses := make([]Pose, 4)
	for i := range poses {
		poses[i] = MakePose(16)
	}
	dst := MakePose(16)
	w := make([]float32, 4)
	for range 200 {
		for i := range poses {
			w[i] = rng.Float32()
			for b := range 16 {
				poses[i].Pos[b], poses[i].Rot[b] = randVec(rng, 2), randQuat(rng)
			}
		}
		BlendPoses(dst, poses, w, restPose(16))
		for b := range 16 {
			q := dst.Rot[b]
			if l := q.Len(); !near(l, 1, 1e-5) || !vecNear(dst.Pos[b], dst.Pos[b], 0) {
				t.Fatalf("bone %d: |q| = %v pos %v", b, l, dst.Pos[b])
			}
		}
	}
}

// dst is cleared before the inputs are read, so it may not be one of them.
func TestBlendPosesRejectsAliasing(t *testing.T) {
	a, rest := MakePose(2), MakePose(2)
	if BlendPoses(a, []Pose{a, MakePose(2)}, []float32{0.5, 0.5}, rest) {
		t.Fatal("dst as an input pose accepted")
	}
	if BlendPoses(rest, []Pose{a}, []float32{0.5}, rest) {
		t.Fatal("dst as the rest pose accepted")
	}
	s := locomotion(t, 27, KindSimpleDirectional)
	r := restPose(testBones)
	if s.Evaluate(r, new(Scratch), Input{Param: mgl32.Vec2{0.5, 0.5}, Times: testTimes}, r) {
		t.Fatal("Evaluate into the rest pose accepted")
	}
}
