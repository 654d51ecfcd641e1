package sway_test

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/ecs"
)

// VRM springs start from the pose at the moment they are added (the
// specification's initialisation), not from the pose of the first step.
// The hand-worked rig of TestVRMRefCentreAndStartAtAdd, without forces,
// has its root raised 5 cm between AddRig and the first step: the
// world-space tail stays behind, 10 cm from the head (0, 1.05) towards
// (0.1, 1): (0.0894427, 1.0052786); with the root bone as centre it rides
// along to (0.1, 1.05).
func TestVRMSpringsStartFromThePoseAtAdd(t *testing.T) {
	for _, c := range []struct {
		centre string
		want   v3d
	}{{"", v3d{0.08944271910, 1.00527864045, 0}}, {"base", v3d{0.1, 1.05, 0}}} {
		r := handRig()
		r.Springs[0].Joints[0].GravityPower = 0
		r.Springs[0].Center = c.centre
		w, err := sway.NewWorld(sway.Options{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		e, err := w.AddRig(r, sway.Identity())
		if err != nil {
			t.Fatal(err)
		}
		if err := w.SetRoot(e, sway.At(mgl32.Vec3{0, 0.05, 0})); err != nil {
			t.Fatal(err)
		}
		if err := w.Step(1.0 / 60); err != nil {
			t.Fatal(err)
		}
		skel, _ := w.Skeleton(e)
		p, _ := w.BoneWorld(e, skel.Index("j1"))
		wantNear(t, "centre "+c.centre, v3d{float64(p.Pos[0]), float64(p.Pos[1]), float64(p.Pos[2])}, c.want, 1e-6)
		w.Close()
	}
}
