package collide_test

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/systems/collide"
)

// A head sphere on a bone one metre up: a hair particle that sank into it is
// pushed back to the surface, grown by the particle's radius.
func Example() {
	head := collide.NewSphere(mgl32.Vec3{0, 0.1, 0}, 0.1)
	if err := head.Validate(); err != nil {
		panic(err)
	}
	var s collide.Shape
	collide.ToWorld(&s, &head, mgl32.Vec3{0, 1, 0}, mgl32.QuatIdent(), mgl32.Vec3{1, 1, 1})

	p, moved := collide.Collide(mgl32.Vec3{0.05, 1.1, 0}, 0.02, &s)
	fmt.Printf("moved=%v p=(%.2f, %.2f, %.2f)\n", moved, p[0], p[1], p[2])
	// Output: moved=true p=(0.12, 1.10, 0.00)
}
