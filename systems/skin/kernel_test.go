package skin

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// The kernels Matrices runs (on amd64 AVX2 for groups of eight joints
// and SSE for the rest, or SSE alone) give matricesGo's bits, for random
// poses with non-finite joints, negative inverse bind entries (whose
// products with a zero lane are -0) and huge scales.
func TestKernelMatchesGoBitForBit(t *testing.T) {
	forEachKernel(t, testKernelMatchesGo)
}

func testKernelMatchesGo(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	for trial := range 300 {
		bones, joints := 1+r.IntN(40), r.IntN(60)
		if trial%3 == 0 {
			joints = 8 * r.IntN(8) // whole groups only
		}
		j := randomJob(r, bones, joints)
		for range r.IntN(6) {
			b := r.IntN(bones)
			switch r.IntN(5) {
			case 0:
				j.Pos[b][r.IntN(3)] = nan
			case 1:
				j.Rot[b].V[r.IntN(3)] = inf
			case 2:
				j.Scale[b][r.IntN(3)] = -inf
			case 3:
				j.Scale[b] = mgl32.Vec3{3e38, 3e38, 3e38}
			case 4:
				j.Rot[b].W = nan
			}
		}
		want := make([]mgl32.Mat4, joints)
		got := make([]mgl32.Mat4, joints)
		for k := range got {
			got[k] = mgl32.Mat4{nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan}
		}
		b1 := matricesGo(want, j.Pos, j.Rot, j.Scale, j.Joints, j.InvBind)
		b2 := Matrices(got, &j)
		if b1 != b2 {
			t.Fatalf("trial %d: %d and %d joints replaced", trial, b1, b2)
		}
		for k := range want {
			for i := range 16 {
				if math.Float32bits(want[k][i]) != math.Float32bits(got[k][i]) {
					t.Fatalf("trial %d joint %d entry %d: Go %g (%#x), kernel %g (%#x)", trial, k, i,
						want[k][i], math.Float32bits(want[k][i]), got[k][i], math.Float32bits(got[k][i]))
				}
			}
		}
	}
}

// A joint outside the bones (which Validate rejects) stops the kernel
// with Go's bounds-check panic, after the joints before it are written.
func TestKernelBadIndexPanics(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	j := randomJob(r, 4, 3)
	j.Joints = []int32{0, 9, 1}
	dst := make([]mgl32.Mat4, 3)
	defer func() {
		if recover() == nil {
			t.Fatal("no panic")
		}
		if dst[0] == (mgl32.Mat4{}) {
			t.Fatal("joint 0 was not written before the bad one")
		}
	}()
	Matrices(dst, &j)
}

// A bad index in a later group of eight: the groups before it and the
// joints of its group before it are written, then Go's panic.
func TestKernelBadIndexInGroupPanics(t *testing.T) {
	forEachKernel(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(25, 26))
		j := randomJob(r, 4, 20)
		for k := range j.Joints {
			j.Joints[k] = int32(k % 4)
		}
		j.Joints[11] = -1
		dst := make([]mgl32.Mat4, 20)
		defer func() {
			if recover() == nil {
				t.Fatal("no panic")
			}
			for k := range 11 {
				if dst[k] == (mgl32.Mat4{}) {
					t.Fatalf("joint %d was not written before the bad one", k)
				}
			}
			for k := 11; k < 20; k++ {
				if dst[k] != (mgl32.Mat4{}) {
					t.Fatalf("joint %d was written after the bad one", k)
				}
			}
		}()
		Matrices(dst, &j)
	})
}
