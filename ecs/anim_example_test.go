package sway_test

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/ecs"
)

// A character plays a 1D blend space of two clips: the elbow straight, and
// the elbow bent 90 degrees about Y. The game sets the blend parameter each
// frame; with smoothing the elbow eases toward the bend instead of jumping.
func ExampleAnimationFeature_Add() {
	skel, err := sway.NewSkeleton(sway.SkeletonDesc{Name: "arm", Bones: []sway.BoneDesc{
		sway.Bone("shoulder", "", mgl32.Vec3{0, 1.5, 0}),
		sway.Bone("elbow", "shoulder", mgl32.Vec3{0.3, 0, 0}),
		sway.Bone("hand", "elbow", mgl32.Vec3{0.25, 0, 0}),
	}})
	if err != nil {
		panic(err)
	}
	w, err := sway.NewWorld(sway.Options{Workers: 2})
	if err != nil {
		panic(err)
	}
	defer w.Close()

	// Clips are shared data: add them once, with the bone indices of the
	// skeleton they are for. One-second loops at 30 keys/s.
	elbow := skel.Index("elbow")
	clip := func(name string, degrees float32) sway.ClipID {
		keys := make([]mgl32.Quat, 31)
		for k := range keys {
			keys[k] = mgl32.QuatRotate(mgl32.DegToRad(degrees), mgl32.Vec3{0, 1, 0})
		}
		id, err := w.AddClip(sway.ClipDesc{Name: name, SampleRate: 30, KeyCount: 31, Loop: true,
			BoneCount: skel.NumBones(), Tracks: []sway.TrackDesc{{Bone: elbow, Rotations: keys}}})
		if err != nil {
			panic(err)
		}
		return id
	}
	space, err := w.AddBlendSpace(sway.BlendSpaceDesc{
		Kind: sway.Blend1D, Clips: []sway.ClipID{clip("straight", 0), clip("bent", 90)}, Thresholds: []float32{0, 1},
	})
	if err != nil {
		panic(err)
	}

	char, _ := w.AddCharacter(skel, sway.Identity())
	settings := sway.DefaultAnimSettings()
	settings.Smoothing = 10 // the parameter covers 1 - exp(-10 dt) of the way per frame
	if _, err := w.Animation().Add(char, space, settings); err != nil {
		panic(err)
	}
	weights := make([]float32, 0, sway.MaxBlendSamples)
	for frame := 1; frame <= 30; frame++ {
		_ = w.Animation().Of(char).SetBlendParam(mgl32.Vec2{1, 0}) // e.g. from the game's input
		if err := w.Step(1.0 / 60); err != nil {
			panic(err)
		}
		if frame == 1 || frame == 30 {
			weights, _ = w.Animation().Of(char).BlendWeights(weights[:0])
			pose, _ := w.Pose(char)
			bend := 2 * math.Acos(math.Min(1, float64(pose.LocalRot[elbow].W))) * 180 / math.Pi
			fmt.Printf("frame %2d: weights [%.3f %.3f], elbow bent %.1f degrees\n", frame, weights[0], weights[1], bend)
		}
	}
	// Output:
	// frame  1: weights [0.846 0.154], elbow bent 13.0 degrees
	// frame 30: weights [0.007 0.993], elbow bent 89.5 degrees
}
