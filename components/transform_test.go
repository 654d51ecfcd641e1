package components

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

func TestTransformMat4(t *testing.T) {
	tr := Transform{
		Pos:   mgl32.Vec3{1, 2, 3},
		Rot:   mgl32.QuatRotate(mgl32.DegToRad(90), mgl32.Vec3{0, 0, 1}),
		Scale: mgl32.Vec3{2, 2, 2},
	}
	// (1,0,0) scaled to (2,0,0), turned to (0,2,0), moved to (1,4,3).
	got := tr.Mat4().Mul4x1(mgl32.Vec4{1, 0, 0, 1})
	want := mgl32.Vec4{1, 4, 3, 1}
	for i := range got {
		if d := got[i] - want[i]; d > 1e-5 || d < -1e-5 {
			t.Fatalf("Mat4 * (1,0,0,1) = %v, want %v", got, want)
		}
	}
}

func TestPoseDirtyRange(t *testing.T) {
	p := Pose{Count: 10}
	p.MarkClean()
	if !p.Clean() {
		t.Fatal("not clean after MarkClean")
	}
	p.MarkDirty(4, 6)
	p.MarkDirty(2, 3)
	if p.DirtyLo != 2 || p.DirtyHi != 6 {
		t.Fatalf("range = [%d,%d), want [2,6)", p.DirtyLo, p.DirtyHi)
	}
	p.MarkAllDirty()
	if p.DirtyLo != 0 || p.DirtyHi != 10 {
		t.Fatalf("all dirty = [%d,%d)", p.DirtyLo, p.DirtyHi)
	}
}
