package breath_test

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/systems/breath"
)

// A breath on a five-bone chain: hips, spine, chest, neck, head, with the
// shoulders missing. The example steps one cycle at 100 frames per second
// and prints each phase change with the spine's angle.
func Example() {
	parents := []int32{-1, 0, 1, 2, 3}
	local := []mgl32.Quat{mgl32.QuatIdent(), mgl32.QuatIdent(), mgl32.QuatIdent(), mgl32.QuatIdent(), mgl32.QuatIdent()}
	world := append([]mgl32.Quat(nil), local...)

	s := breath.DefaultSettings(1, 2, 3, 4, -1, -1)
	s.ChooseAxes(world, mgl32.Vec3{1, 0, 0}) // +X is the character's right
	if err := s.Validate(); err != nil {
		fmt.Println(err)
		return
	}
	var st breath.State
	breath.Init(&st, &s, 0)
	for frame := 1; frame <= 400; frame++ {
		before := st.Phase
		breath.Step(&st, &s, 0.01)
		if st.Phase != before {
			fmt.Printf("frame %3d: %-6v spine %+.2f°\n", frame, st.Phase, st.Angle[breath.Spine])
		}
	}
	// An animation would reset local every frame; here FK is the identity
	// chain, so applying the last frame's angle once bends the spine.
	breath.Apply(local, world, parents, &st, &s)
	fmt.Printf("spine %+.3f°, local rotation W %.5f X %+.5f\n", st.Angle[breath.Spine], local[1].W, local[1].V[0])
	// Output:
	// frame 120: Exhale spine +2.00°
	// frame 360: Rest   spine -2.00°
	// frame 380: Inhale spine -2.00°
	// spine -0.965°, local rotation W 0.99996 X -0.00842
}
