//go:build linux

package fk

import (
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/memguard"
)

// guarded returns a copy of src ending at an inaccessible page.
func guarded[T any](t *testing.T, src []T) []T {
	t.Helper()
	s, free, err := memguard.End[T](len(src))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(free)
	copy(s, src)
	return s
}

// guardedJob moves every array of j to end at an inaccessible page.
func guardedJob(t *testing.T, j *Job) {
	t.Helper()
	j.LocalPos, j.LocalScale, j.WorldPos, j.WorldScale = guarded(t, j.LocalPos), guarded(t, j.LocalScale), guarded(t, j.WorldPos), guarded(t, j.WorldScale)
	j.LocalRot, j.WorldRot = guarded(t, j.LocalRot), guarded(t, j.WorldRot)
}

// RunOrder reads and writes nothing past the arrays, its arrays ending at
// an inaccessible page: a skeleton in level order, and one whose last
// bone is the parent of a bone stored before it (the SIMD kernel reads a
// parent by 16 bytes, so such a parent goes to the Go kernel). The
// results are the Go kernel's.
func TestRunOrderReadsNothingPastTheArrays(t *testing.T) {
	odd := randomJob(rand.New(rand.NewSource(3)), 3)
	odd.Parents = []int32{-1, 2, 0}
	for _, c := range []struct {
		name  string
		job   *Job
		order []int32
	}{
		{"level order", randomJob(rand.New(rand.NewSource(2)), 85), nil},
		{"a parent stored after its bone", odd, []int32{0, 2, 1}},
	} {
		j := c.job
		if c.order == nil {
			c.order = levelOrder(j.Parents)
		}
		want := append([]mgl32.Vec3(nil), j.WorldPos...)
		wantRot := append([]mgl32.Quat(nil), j.WorldRot...)
		wantScale := append([]mgl32.Vec3(nil), j.WorldScale...)
		runOrderGo(want, wantRot, wantScale, j.Parents, j.LocalPos, j.LocalRot, j.LocalScale, j.RootPos, j.RootRot, j.RootScale, c.order)
		guardedJob(t, j)
		RunOrder(j.WorldPos, j.WorldRot, j.WorldScale, j.Parents, j.LocalPos, j.LocalRot, j.LocalScale, j.RootPos, j.RootRot, j.RootScale, c.order)
		for i := range want {
			if j.WorldPos[i] != want[i] || j.WorldRot[i] != wantRot[i] || j.WorldScale[i] != wantScale[i] {
				t.Fatalf("%s: bone %d: %v %v %v, Go kernel %v %v %v", c.name, i,
					j.WorldPos[i], j.WorldRot[i], j.WorldScale[i], want[i], wantRot[i], wantScale[i])
			}
		}
	}
}
