package rig

import (
	"fmt"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// FuzzNewSkeleton builds descriptions from bytes (each byte a bone: its
// parent is another byte's bone, possibly missing, itself or a cycle) and
// checks that NewSkeleton never panics and that every skeleton it accepts
// keeps its invariants.
func FuzzNewSkeleton(f *testing.F) {
	f.Add([]byte{0, 0, 1, 2, 2})
	f.Add([]byte{3, 0, 1, 2})      // a cycle
	f.Add([]byte{200, 0, 0, 0, 0}) // a missing parent
	f.Add([]byte{0})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 64 {
			data = data[:64]
		}
		desc := SkeletonDesc{}
		for i, b := range data {
			parent := ""
			if b != 0 {
				parent = fmt.Sprintf("b%d", int(b)%(len(data)+2))
			}
			bone := Bone(fmt.Sprintf("b%d", i), parent, mgl32.Vec3{float32(b) / 100, 1, 0})
			if b%17 == 5 {
				bone.Rot = mgl32.Quat{W: float32(b) / 10} // not unit unless b = 10..
			}
			desc.Bones = append(desc.Bones, bone)
		}
		s, err := NewSkeleton(desc)
		if err != nil {
			return
		}
		for i, p := range s.Parents() {
			if int(p) >= i || p < -1 {
				t.Fatalf("parent[%d] = %d", i, p)
			}
			if end := s.SubtreeEnd(i); int(end) <= i || int(end) > s.NumBones() {
				t.Fatalf("subtree end of %d = %d", i, end)
			}
			if p >= 0 && s.SubtreeEnd(i) > s.SubtreeEnd(int(p)) {
				t.Fatalf("subtree of %d leaves its parent's", i)
			}
		}
		if len(s.LevelOrder()) != s.NumBones() {
			t.Fatalf("level order has %d of %d bones", len(s.LevelOrder()), s.NumBones())
		}
	})
}
