package rig

import (
	"fmt"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/check"
)

// FuzzNewSkeleton builds descriptions from bytes (each byte a bone: its
// parent is another byte's bone, possibly missing, itself or a cycle) and
// checks that NewSkeleton never panics and that every skeleton it accepts
// keeps its invariants, its rest pose within the limits on sizes.
// sizes are translations and scales near the limits, some beyond them.
var sizes = []float32{1e4, -1e4, 1.0001e4, 1e-4, -1e-4, 0.99e-4, 1e3, 1e-3, 3e38, -1e-30}

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
			// Sizes at, inside and beyond the limits.
			if b%13 == 7 {
				bone.Pos[int(b)%3] = sizes[int(b)%len(sizes)]
			}
			if b%11 == 3 {
				bone.Scale[int(b/11)%3] = sizes[int(b/11)%len(sizes)]
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
		for k := range s.NumBones() {
			if !check.Within(s.ModelPos()[k], check.MaxModelExtent) || !check.Within(s.ModelScale()[k], check.MaxModelScale) {
				t.Fatalf("bone %d: model pos %v scale %v", k, s.ModelPos()[k], s.ModelScale()[k])
			}
		}
		if len(s.LevelOrder()) != s.NumBones() {
			t.Fatalf("level order has %d of %d bones", len(s.LevelOrder()), s.NumBones())
		}
	})
}
