package sway_test

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/ecs"
)

// chainEarringWalk runs the walker (see simple_walk_test.go) with a 3 cm
// earring of three 1 cm bones as a dynamic chain with settings set, along
// profile p, and returns the largest angle (degrees) between the
// earring's root-to-tip direction and the head's down axis in each window.
func chainEarringWalk(t *testing.T, set sway.ChainSettings, p walkProfile, end float64, windows ...[2]float64) []float64 {
	t.Helper()
	skel, err := sway.NewSkeleton(sway.SkeletonDesc{Name: "chain-walker", Bones: []sway.BoneDesc{
		sway.Bone("hips", "", mgl32.Vec3{0, 1, 0}),
		sway.Bone("head", "hips", mgl32.Vec3{0, 0.6, 0}),
		sway.Bone("earring.0", "head", mgl32.Vec3{0.075, -0.05, 0}),
		sway.Bone("earring.1", "earring.0", mgl32.Vec3{0, -0.01, 0}),
		sway.Bone("earring.2", "earring.1", mgl32.Vec3{0, -0.01, 0}),
		sway.Bone("earring.3", "earring.2", mgl32.Vec3{0, -0.01, 0}),
	}})
	if err != nil {
		t.Fatal(err)
	}
	w, err := sway.NewWorld(sway.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	e, err := w.AddCharacter(skel, sway.Identity())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Chains().Add(e, nil, []sway.ChainSpec{{Root: "earring.0", Settings: set}}); err != nil {
		t.Fatal(err)
	}
	return walkWindows(t, w, e, p, end, windows, func() float64 {
		head, err := w.BoneWorld(e, skel.Index("head"))
		if err != nil {
			t.Fatal(err)
		}
		a, b := worldOf(t, w, e, skel.Index("earring.0")), worldOf(t, w, e, skel.Index("earring.3"))
		want, got := head.Rot.Rotate(mgl32.Vec3{0, -1, 0}), b.Sub(a)
		c := float64(got.Dot(want)) / math.Sqrt(float64(got.Dot(got)))
		return 180 / math.Pi * math.Acos(max(-1, min(1, c)))
	})
}

// TestChainEarringOnAWalk: with the default chain settings a 3 cm earring
// hangs within 15° of rest at a steady 1.2 m/s walk and while turning in
// place at 180°/s, and swings at least 20° when the walker starts or stops
// over 0.2 or 0.3 s. With DynamicBone's defaults (Inert 0, Damping 0.1) it
// trails about 61° behind the steady walk.
func TestChainEarringOnAWalk(t *testing.T) {
	for _, rampTime := range []float64{0.2, 0.3} {
		p, end, win := startWalkStop(rampTime)
		got := chainEarringWalk(t, sway.DefaultChainSettings(), p, end, win...)
		start, steady, stop := got[0], got[1], got[2]
		t.Logf("ramp %.1f s: start %.1f°, steady walk %.1f°, stop %.1f°", rampTime, start, steady, stop)
		if steady > 15 {
			t.Errorf("ramp %.1f s: the earring trails %.1f° at a steady walk (want <= 15°)", rampTime, steady)
		}
		if start < 20 || stop < 20 {
			t.Errorf("ramp %.1f s: the earring swings %.1f° at the start and %.1f° at the stop (want >= 20°)", rampTime, start, stop)
		}
	}
	p, end, win := turnInPlace(math.Pi)
	if got := chainEarringWalk(t, sway.DefaultChainSettings(), p, end, win...); got[0] > 15 {
		t.Errorf("turning in place at 180°/s the earring sticks out %.1f° (want <= 15°)", got[0])
	}
	dynamicBone := sway.DefaultChainSettings()
	dynamicBone.Inert, dynamicBone.Damping = 0, 0.1
	p, end, win = startWalkStop(0.2)
	if got := chainEarringWalk(t, dynamicBone, p, end, win...); got[1] < 45 {
		t.Errorf("with DynamicBone's defaults the earring trails only %.1f° at a steady walk: the test cannot tell the defaults apart", got[1])
	}
}
