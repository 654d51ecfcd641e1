package anim_test

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/systems/anim"
)

// The classic locomotion layout: idle at the centre, walk forward, back,
// left and right. Halfway between forward and right, at half speed.
func ExampleSimpleDirectionalWeights() {
	samples := []mgl32.Vec2{{0, 0}, {0, 1}, {0, -1}, {-1, 0}, {1, 0}}
	if err := anim.ValidateSimpleDirectional(samples); err != nil {
		panic(err)
	}
	w := make([]float32, len(samples))
	for _, in := range []mgl32.Vec2{{0.5, 0.5}, {0, 0.5}, {-0.3, -0.3}} {
		anim.SimpleDirectionalWeights(w, samples, in)
		fmt.Printf("%v -> idle %.2f fwd %.2f back %.2f left %.2f right %.2f\n", in, w[0], w[1], w[2], w[3], w[4])
	}
	// Output:
	// [0.5 0.5] -> idle 0.00 fwd 0.50 back 0.00 left 0.00 right 0.50
	// [0 0.5] -> idle 0.50 fwd 0.50 back 0.00 left 0.00 right 0.00
	// [-0.3 -0.3] -> idle 0.40 fwd 0.00 back 0.30 left 0.30 right 0.00
}

// A 1D blend space of two one-bone clips, evaluated per character.
func ExampleBlendSpace_Evaluate() {
	turn := func(deg float64) *anim.Clip {
		q := mgl32.QuatRotate(float32(deg*math.Pi/180), mgl32.Vec3{0, 1, 0})
		c, err := anim.NewClip(anim.ClipDesc{
			Name: fmt.Sprint("turn", deg), SampleRate: 30, KeyCount: 2, Loop: true, BoneCount: 1,
			Tracks: []anim.TrackDesc{{Bone: 0, Rotations: []mgl32.Quat{q, q}}},
		})
		if err != nil {
			panic(err)
		}
		return c
	}
	space, err := anim.NewBlendSpace(anim.BlendSpaceDesc{
		Kind: anim.Kind1D, Clips: []*anim.Clip{turn(0), turn(90)}, Thresholds: []float32{0, 1},
	})
	if err != nil {
		panic(err)
	}
	rest := anim.MakePose(1)
	pose := anim.MakePose(1)
	var scratch anim.Scratch
	space.Evaluate(pose, &scratch, anim.Input{Param: mgl32.Vec2{0.5, 0}, Times: []float32{0, 0}}, rest)
	q := pose.Rot[0]
	fmt.Printf("weights %v, yaw %.1f degrees\n", scratch.Weights(), 2*math.Acos(float64(q.W))*180/math.Pi)
	// Output:
	// weights [0.5 0.5], yaw 45.0 degrees
}
