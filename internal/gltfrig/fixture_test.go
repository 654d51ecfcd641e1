package gltfrig

import (
	"bytes"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

func loadFixture(t *testing.T, v Version, o FixtureOptions) *Rig {
	t.Helper()
	glb, err := Fixture(v, o)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Decode(bytes.NewReader(glb))
	if err != nil {
		t.Fatal(err)
	}
	if r.Version != v {
		t.Fatalf("version %v, want %v", r.Version, v)
	}
	return r
}

// The two forms load to the same model: bones, humanoid map, colliders
// and spring settings; 0.x springs swing their last joint.
func TestFixtureFormsLoadAlike(t *testing.T) {
	o := FixtureOptions{Branch: true}
	r1, r0 := loadFixture(t, VersionVRM1, o), loadFixture(t, VersionVRM0, o)
	if len(r1.Skeleton.Bones) != len(r0.Skeleton.Bones) || len(r1.Skeleton.Bones) != 18 {
		t.Fatalf("bones: %d and %d, want 18 (Body is no joint)", len(r1.Skeleton.Bones), len(r0.Skeleton.Bones))
	}
	for _, name := range fixHumanBones {
		if r1.HumanBone(name) != name || r0.HumanBone(name) != name {
			t.Errorf("HumanBone(%q) = %q and %q", name, r1.HumanBone(name), r0.HumanBone(name))
		}
	}
	if r1.HumanBone("leftFoot") != "" || (*Rig)(nil).HumanBone("head") != "" {
		t.Error("an unmapped humanoid bone must give \"\"")
	}
	if len(r1.Colliders) != 3 || len(r0.Colliders) != 3 {
		t.Fatalf("colliders %d and %d, want 3", len(r1.Colliders), len(r0.Colliders))
	}
	for i := range r1.Colliders {
		// 0.x bone frames are turned half a turn about +Y (see the
		// package doc): the same point has (-x, y, -z) there.
		a, b := r1.Colliders[i], r0.Colliders[i]
		o := b.Shape.Offset
		if a.Bone != b.Bone || !a.Shape.Offset.ApproxEqualThreshold(mgl32.Vec3{-o[0], o[1], -o[2]}, 1e-6) || a.Shape.Radius != b.Shape.Radius {
			t.Errorf("collider %d: %+v and %+v", i, a, b)
		}
	}
	// 1.0: hairL, hairR, ribbon; 0.x: hairL, its ribbon branch, hairR.
	if len(r1.Springs) != 3 || len(r0.Springs) != 3 {
		t.Fatalf("springs %d and %d, want 3", len(r1.Springs), len(r0.Springs))
	}
	byRoot := func(r *Rig) map[string]Spring {
		m := map[string]Spring{}
		for _, s := range r.Springs {
			m[s.Joints[0].Bone] = s
		}
		return m
	}
	s1, s0 := byRoot(r1), byRoot(r0)
	for root, a := range s1 {
		b, ok := s0[root]
		if !ok || len(a.Joints) != len(b.Joints) || a.Center != b.Center || a.VirtualTail != 0 || b.VirtualTail != VirtualTail0x {
			t.Fatalf("spring from %s: %+v and %+v", root, a, b)
		}
		for j := range a.Joints {
			ja, jb := a.Joints[j], b.Joints[j]
			if ja.Bone != jb.Bone || ja.Stiffness != jb.Stiffness || ja.DragForce != jb.DragForce || ja.HitRadius != jb.HitRadius ||
				ja.GravityPower != jb.GravityPower || !ja.GravityDir.ApproxEqualThreshold(jb.GravityDir, 1e-6) {
				t.Errorf("spring from %s joint %d: %+v and %+v", root, j, ja, jb)
			}
		}
		if !equalInts(a.Colliders, b.Colliders) {
			t.Errorf("spring from %s colliders %v and %v", root, a.Colliders, b.Colliders)
		}
	}
	if g := s1["hairR0"].Joints[0].GravityDir; !g.ApproxEqualThreshold(mgl32.Vec3{0.48, -0.8, 0.36}, 1e-6) {
		t.Errorf("hairR gravity %v", g)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Repeat lists hairL2 in a first group: the loader keeps both claims
// (the world decides), and Fixture refuses a form it has not.
func TestFixtureRepeatAndBadVersion(t *testing.T) {
	r := loadFixture(t, VersionVRM0, FixtureOptions{Repeat: true})
	if len(r.Springs) != 3 || r.Springs[0].Name != "hairTip" || r.Springs[0].Joints[0].Bone != "hairL2" ||
		r.Springs[0].Joints[0].Stiffness != FixtureTipStiffness {
		t.Fatalf("springs %+v", r.Springs)
	}
	if _, err := Fixture(VersionNone, FixtureOptions{}); err == nil || !strings.Contains(err.Error(), "glTF") {
		t.Errorf("Fixture(VersionNone): %v", err)
	}
}
