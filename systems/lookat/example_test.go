package lookat_test

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/systems/lookat"
)

// A head with a 60 degree limit and eyes limited to ±30 degrees follow a
// target 90 degrees to the side: the head turns 60, the eyes the last 30.
// The eyes are stepped after the head, with the head's new world rotation
// as their parent rotation.
func Example() {
	head, err := lookat.NewHead(lookat.DefaultHeadSettings())
	if err != nil {
		panic(err)
	}
	eye, err := lookat.NewEye(lookat.DefaultEyeSettings())
	if err != nil {
		panic(err)
	}
	target := mgl32.Vec3{10, 1.6, 0}
	hin := lookat.HeadInput{
		ParentWorldRot: mgl32.QuatIdent(), RestLocalRot: mgl32.QuatIdent(),
		HeadPos: mgl32.Vec3{0, 1.6, 0}, TargetPos: target, Weight: 1,
	}
	hst := lookat.NewHeadState(hin.RestLocalRot)
	var est lookat.EyeState
	var pose lookat.HeadPose
	var eyeLocal mgl32.Quat
	for frame := 0; frame < 300; frame++ { // 5 s at 60 Hz
		head.Step(&pose, &hst, &hin, 1.0/60)
		ein := lookat.EyeInput{
			ParentWorldRot: pose.World, // after the head step
			RestLocalRot:   mgl32.QuatIdent(),
			Origin:         hin.HeadPos, TargetPos: target, Weight: hst.Weight,
		}
		eye.Step(&eyeLocal, &est, &ein, 1.0/60)
	}
	yaw := func(q mgl32.Quat) float64 {
		f := q.Rotate(mgl32.Vec3{0, 0, 1})
		return math.Atan2(float64(f[0]), float64(f[2])) * 180 / math.Pi
	}
	fmt.Printf("head yaw %.1f\n", yaw(pose.Local))
	fmt.Printf("eye yaw %.1f\n", yaw(eyeLocal))
	fmt.Printf("weight %.3f\n", hst.Weight)
	// Output:
	// head yaw 60.0
	// eye yaw 30.0
	// weight 1.000
}
