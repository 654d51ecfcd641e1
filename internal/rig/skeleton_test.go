package rig

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/internal/mathx"
)

func armDesc() SkeletonDesc {
	// Listed children-first on purpose: the builder must reorder.
	return SkeletonDesc{Name: "arm", Bones: []BoneDesc{
		Bone("hand", "forearm", mgl32.Vec3{0.25, 0, 0}),
		Bone("forearm", "upper", mgl32.Vec3{0.25, 0, 0}),
		Bone("upper", "root", mgl32.Vec3{0, 1, 0}),
		Bone("root", "", mgl32.Vec3{}),
		Bone("tail", "root", mgl32.Vec3{0, 0, -0.1}),
	}}
}

func TestNewSkeletonOrdersParentsFirst(t *testing.T) {
	s, err := NewSkeleton(armDesc())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"root", "upper", "forearm", "hand", "tail"}
	for i, name := range want {
		if s.BoneName(i) != name || s.Index(name) != i {
			t.Fatalf("bone %d = %q, want %q", i, s.BoneName(i), name)
		}
	}
	for i, p := range s.Parents() {
		if int(p) >= i {
			t.Fatalf("parent[%d] = %d, not before the child", i, p)
		}
	}
	if got := []int32{s.SubtreeEnd(0), s.SubtreeEnd(1), s.SubtreeEnd(3), s.SubtreeEnd(4)}; got != nil &&
		(got[0] != 5 || got[1] != 4 || got[2] != 4 || got[3] != 5) {
		t.Fatalf("subtree ends = %v", s.SubtreeEnds())
	}
	if s.Index("nope") != -1 {
		t.Fatal("unknown name found")
	}
	// Model-space rest: hand at (0.5, 1, 0).
	if got := s.ModelPos()[3]; !got.ApproxEqual(mgl32.Vec3{0.5, 1, 0}) {
		t.Fatalf("hand rest model pos = %v", got)
	}
}

func TestSubtreesAreContiguous(t *testing.T) {
	s, err := NewSkeleton(armDesc())
	if err != nil {
		t.Fatal(err)
	}
	// Every bone in [i, end) descends from i; every bone outside does not.
	for i := 0; i < s.NumBones(); i++ {
		for j := 0; j < s.NumBones(); j++ {
			in := j >= i && j < int(s.SubtreeEnd(i))
			if in != descends(s, j, i) {
				t.Fatalf("bone %d in subtree range of %d = %v, descends = %v", j, i, in, !in)
			}
		}
	}
}

func descends(s *Skeleton, j, i int) bool {
	for ; j >= 0; j = int(s.Parents()[j]) {
		if j == i {
			return true
		}
	}
	return false
}

func expectFieldError(t *testing.T, desc SkeletonDesc, field, reason string) {
	t.Helper()
	_, err := NewSkeleton(desc)
	var fe *check.FieldError
	if !errors.As(err, &fe) || !errors.Is(err, check.ErrInvalid) {
		t.Fatalf("want FieldError on %s, got %v", field, err)
	}
	if fe.Field != field || !strings.Contains(fe.Reason, reason) {
		t.Fatalf("got %s (%s), want field %s with %q", fe.Field, fe.Reason, field, reason)
	}
}

func TestNewSkeletonRejectsCycle(t *testing.T) {
	d := armDesc()
	d.Bones[3].Parent = "hand" // root -> hand -> forearm -> upper -> root
	expectFieldError(t, d, "Bones[0].Parent", "cycle")
}

func TestNewSkeletonRejectsSelfParent(t *testing.T) {
	d := armDesc()
	d.Bones[4].Parent = "tail"
	expectFieldError(t, d, "Bones[4].Parent", "own parent")
}

func TestNewSkeletonRejectsMissingParent(t *testing.T) {
	d := armDesc()
	d.Bones[4].Parent = "pelvis"
	expectFieldError(t, d, "Bones[4].Parent", "no bone")
}

func TestNewSkeletonRejectsDuplicateName(t *testing.T) {
	d := armDesc()
	d.Bones[4].Name = "hand"
	expectFieldError(t, d, "Bones[4].Name", "duplicate")
}

func TestNewSkeletonRejectsTooManyBones(t *testing.T) {
	d := SkeletonDesc{Bones: make([]BoneDesc, MaxBones+1)}
	expectFieldError(t, d, "Bones", "MaxBones")
}

func TestNewSkeletonRejectsEmpty(t *testing.T) {
	expectFieldError(t, SkeletonDesc{}, "Bones", "at least one")
}

func TestNewSkeletonRejectsNonFinite(t *testing.T) {
	d := armDesc()
	d.Bones[1].Pos[1] = float32(math.NaN())
	expectFieldError(t, d, "Bones[1].Pos", "finite")
	d = armDesc()
	d.Bones[2].Rot.W = float32(math.Inf(1))
	expectFieldError(t, d, "Bones[2].Rot", "finite")
}

func TestNewSkeletonRejectsZeroRotation(t *testing.T) {
	d := armDesc()
	d.Bones[2].Rot = mgl32.Quat{}
	expectFieldError(t, d, "Bones[2].Rot", "unit")
}

func TestNewSkeletonRejectsZeroScale(t *testing.T) {
	d := armDesc()
	d.Bones[2].Scale = mgl32.Vec3{}
	expectFieldError(t, d, "Bones[2].Scale", "MinScale")
}

// Translations and scales beyond the limits are rejected, those at the
// limits accepted; so are products of scales along a chain.
func TestNewSkeletonBoundsSizes(t *testing.T) {
	d := armDesc()
	d.Bones[1].Pos = mgl32.Vec3{0, 1.0001e4, 0}
	expectFieldError(t, d, "Bones[1].Pos", "MaxTranslation")
	d = armDesc()
	d.Bones[2].Scale = mgl32.Vec3{1, 2e4, 1}
	expectFieldError(t, d, "Bones[2].Scale", "MaxScale")
	d = armDesc()
	d.Bones[2].Scale = mgl32.Vec3{1, -5e-5, 1}
	expectFieldError(t, d, "Bones[2].Scale", "MinScale")
	// Each scale within the limits, their product along the chain not.
	d = armDesc()
	d.Bones[2].Scale = mgl32.Vec3{1, 200, 1} // upper
	d.Bones[1].Scale = mgl32.Vec3{1, 100, 1} // forearm, below it
	expectFieldError(t, d, "Bones[1].Scale", "relative to the root")
	d = armDesc()
	d.Bones[2].Scale = mgl32.Vec3{1, 1, 0.01}
	d.Bones[1].Scale = mgl32.Vec3{1, 1, 0.005}
	expectFieldError(t, d, "Bones[1].Scale", "relative to the root")

	// At the limits: accepted, and the model pose is finite.
	d = armDesc()
	for i := range d.Bones {
		d.Bones[i].Pos = mgl32.Vec3{-1e4, 1e4, 1e4}
	}
	d.Bones[3].Scale = mgl32.Vec3{100, -1e-2, 1e4} // root
	d.Bones[2].Scale = mgl32.Vec3{-100, 1e-2, 1}   // upper
	s, err := NewSkeleton(d)
	if err != nil {
		t.Fatal(err)
	}
	for k := range s.NumBones() {
		if !mathx.Vec3Finite(s.ModelPos()[k]) || !mathx.Vec3Finite(s.ModelScale()[k]) {
			t.Fatalf("bone %d: model pos %v scale %v", k, s.ModelPos()[k], s.ModelScale()[k])
		}
	}
	if got := s.ModelScale()[s.Index("hand")]; got != (mgl32.Vec3{-1e4, -1e-4, 1e4}) {
		t.Fatalf("the hand's model scale is %v", got)
	}
}

// ScaleBoundExceeded multiplies the bounds down each chain and names the
// first bone past MaxModelScale.
func TestScaleBoundExceeded(t *testing.T) {
	s, err := NewSkeleton(armDesc())
	if err != nil {
		t.Fatal(err)
	}
	// Storage order: root, upper, forearm, hand, tail.
	bounds := []float32{10, 100, 10, 1, 1000}
	if b, p := s.ScaleBoundExceeded(func(b int) float32 { return bounds[b] }); b != -1 || p != 1e4 {
		t.Fatalf("bounds %v: bone %d, product %g; want -1, 1e4", bounds, b, p)
	}
	bounds[2] = 10.01 // the forearm, and so the hand
	if b, p := s.ScaleBoundExceeded(func(b int) float32 { return bounds[b] }); b != 2 || !(p > 1e4) {
		t.Fatalf("bounds %v: bone %d, product %g; want 2 and more than 1e4", bounds, b, p)
	}
}

func TestNewSkeletonNormalisesNearUnitRotation(t *testing.T) {
	d := armDesc()
	d.Bones[2].Rot = mgl32.Quat{W: 1.0004}
	s, err := NewSkeleton(d)
	if err != nil {
		t.Fatal(err)
	}
	if q := s.RestRot()[s.Index("upper")]; q.W != 1 {
		t.Fatalf("not normalised: %v", q)
	}
	d.Bones[2].Rot = mgl32.Quat{W: 1.01}
	expectFieldError(t, d, "Bones[2].Rot", "unit")
}

func TestNewSkeletonSeveralRoots(t *testing.T) {
	s, err := NewSkeleton(SkeletonDesc{Bones: []BoneDesc{
		Bone("a", "", mgl32.Vec3{}), Bone("b", "", mgl32.Vec3{1, 0, 0}), Bone("a1", "a", mgl32.Vec3{0, 1, 0}),
	}})
	if err != nil {
		t.Fatal(err)
	}
	if s.Index("a1") != 1 || s.Parents()[2] != -1 {
		t.Fatalf("order: %v parents %v", s.names, s.Parents())
	}
}

// The derived limits hold what the limits on inputs allow.
func TestDerivedLimits(t *testing.T) {
	if got := float64(MaxBones) * check.MaxModelScale * check.MaxTranslation; got > check.MaxModelExtent {
		t.Errorf("MaxBones × MaxModelScale × MaxTranslation = %g, beyond MaxModelExtent (%g)", got, check.MaxModelExtent)
	}
	if got := check.MaxPosition + check.MaxScale*check.MaxModelExtent; got > check.MaxWorldPosition {
		t.Errorf("MaxPosition + MaxScale × MaxModelExtent = %g, beyond MaxWorldPosition (%g)", got, check.MaxWorldPosition)
	}
	if got := check.MaxScale * check.MaxModelScale; got > check.MaxWorldScale {
		t.Errorf("MaxScale × MaxModelScale = %g, beyond MaxWorldScale (%g)", got, check.MaxWorldScale)
	}
	// Squared world coordinates, as in lengths and dot products, stay
	// well within float32.
	if sq := check.MaxWorldPosition * check.MaxWorldPosition; sq > math.MaxFloat32/1e6 {
		t.Errorf("MaxWorldPosition² = %g, within a factor of a million of float32's range", sq)
	}
}
