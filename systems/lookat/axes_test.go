package lookat

import (
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/mathx"
)

// Every branch of Shepperd's method (trace positive, each diagonal term
// largest) rebuilds the rotation whose columns it was given.
func TestQuatFromBasis(t *testing.T) {
	r := rand.New(rand.NewSource(11))
	qs := []mgl32.Quat{
		mgl32.QuatIdent(),
		{W: 0, V: mgl32.Vec3{1, 0, 0}}, // half turns: trace -1, one diagonal +1
		{W: 0, V: mgl32.Vec3{0, 1, 0}},
		{W: 0, V: mgl32.Vec3{0, 0, 1}},
		{W: 0, V: mgl32.Vec3{0.6, 0.8, 0}},
	}
	for i := 0; i < 200; i++ {
		qs = append(qs, randUnitQuat(r))
	}
	for i, q := range qs {
		x := mathx.Rotate(q, mgl32.Vec3{1, 0, 0})
		y := mathx.Rotate(q, mgl32.Vec3{0, 1, 0})
		z := mathx.Rotate(q, mgl32.Vec3{0, 0, 1})
		if d := angleDiff(quatFromBasis(x, y, z), q); d > 1e-5 {
			t.Fatalf("case %d (%v): off by %v rad", i, q, d)
		}
	}
}
