package ik_test

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/systems/ik"
)

// A straight arm of two unit bones reaches for a point √2 away; the hint
// above makes the elbow go up.
func ExampleSolveTwoBone() {
	s := ik.DefaultTwoBoneSettings()
	in := ik.TwoBoneInput{
		UpperPos: mgl32.Vec3{0, 0, 0}, MiddlePos: mgl32.Vec3{1, 0, 0}, EndPos: mgl32.Vec3{2, 0, 0},
		UpperRot: mgl32.QuatIdent(), MiddleRot: mgl32.QuatIdent(), EndRot: mgl32.QuatIdent(),
		Target: mgl32.Vec3{1, 1, 0},
		Hint:   mgl32.Vec3{0, 5, 0}, UseHint: true,
	}
	var out ik.TwoBoneResult
	ik.SolveTwoBone(&out, &s, &in)
	fmt.Printf("reached %v\n", out.Reached)
	fmt.Printf("elbow (%.3f, %.3f, %.3f)\n", out.MiddlePos[0], out.MiddlePos[1], out.MiddlePos[2])
	fmt.Printf("hand  (%.3f, %.3f, %.3f)\n", out.EndPos[0], out.EndPos[1], out.EndPos[2])
	// Local rotations are written back parents first.
	elbow := ik.LocalRotation(out.UpperRot, out.MiddleRot)
	fmt.Printf("elbow local turn %.1f degrees\n", 2*math.Acos(float64(elbow.W))*180/math.Pi)
	// Output:
	// reached true
	// elbow (0.000, 1.000, 0.000)
	// hand  (1.000, 1.000, 0.000)
	// elbow local turn 90.0 degrees
}
