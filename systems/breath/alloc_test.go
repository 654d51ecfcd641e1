package breath

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

func TestPerFrameKernelsDoNotAllocate(t *testing.T) {
	rest := testRig(5)
	s := rigSettings()
	pose := newPose(rigBones)
	pose.copyLocals(rest)
	pose.fk(rigParents)
	var st State
	Init(&st, &s, 0)
	plan, err := NewPlan(&s, rigParents)
	if err != nil {
		t.Fatal(err)
	}
	var sink float32
	var q mgl32.Quat
	for _, k := range []struct {
		name string
		f    func()
	}{
		{"Step", func() { Step(&st, &s, 0.016) }},
		{"Apply", func() { Apply(pose.LocalRot, pose.WorldRot, rigParents, &st, &s) }},
		{"Plan.Apply", func() { plan.Apply(pose.LocalRot, rigParents, &st) }},
		{"Plan.Prefetch", func() { plan.Prefetch(pose.LocalRot) }},
		{"Init", func() { Init(&st, &s, 1.7) }},
		{"Ease", func() { sink += Ease(OutExpo, 0.3, 1, 2, 1) + EaseOutSine(0.3, 1, 2, 1) }},
		{"AxisRotation", func() { q = AxisRotation(AxisZ, 3) }},
		{"ShoulderLocal", func() { q = ShoulderLocal(pose.WorldRot[rigLShoulder], pose.WorldRot[rigChest]) }},
		{"ChooseAxis", func() { _, sink = ChooseAxis(pose.WorldRot[rigSpine], mgl32.Vec3{1, 0, 0}) }},
	} {
		if n := testing.AllocsPerRun(100, k.f); n != 0 {
			t.Errorf("%s: %v allocations per run, want 0", k.name, n)
		}
	}
	_, _ = sink, q
}
