package sway_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/systems/spring"
)

// TestVRMSpringsStartWhenAdded: springs added at t = 0 and then moved with
// SetRoot before each Step swing from the first frame, as the spec and
// three-vrm initialise them (tails at rest under the pose when added).
// The reference is the kernel started from the add-time parent; a spring
// started at the first Step (under that frame's pose, as before) is more
// than 5 cm off it, so the test tells the two apart.
func TestVRMSpringsStartWhenAdded(t *testing.T) {
	bones := []sway.BoneDesc{sway.Bone("hips", "", mgl32.Vec3{0, 1, 0})}
	parent := "hips"
	for j := range 6 { // five joints and the tip bone that is the last one's tail
		name := fmt.Sprintf("strand.%d", j)
		bones = append(bones, sway.Bone(name, parent, mgl32.Vec3{0, 0.1, 0}))
		parent = name
	}
	skel, err := sway.NewSkeleton(sway.SkeletonDesc{Name: "strand", Bones: bones})
	if err != nil {
		t.Fatal(err)
	}
	path := func(f int) sway.Transform { // 2 m/s along +X, swaying in Z
		tt := float64(f) / 60
		return sway.At(mgl32.Vec3{float32(2 * tt), 0, float32(0.3 * math.Sin(4*tt))})
	}
	w, err := sway.NewWorld(sway.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	e, err := w.AddCharacter(skel, path(0))
	if err != nil {
		t.Fatal(err)
	}
	set := sway.DefaultVRMJointSettings()
	set.Stiffness, set.DragForce = 0.5, 0.2
	spec := sway.VRMSpringSpec{Settings: set}
	for j := range 5 {
		spec.Joints = append(spec.Joints, fmt.Sprintf("strand.%d", j))
	}
	if _, err := w.VRMSprings().Add(e, nil, []sway.VRMSpringSpec{spec}); err != nil {
		t.Fatal(err)
	}

	desc := spring.VRMChainDesc{HasTail: true, Tail: mgl32.Vec3{0, 0.1, 0}}
	for range 5 {
		desc.Joints = append(desc.Joints, spring.VRMJointDesc{
			LocalPos: mgl32.Vec3{0, 0.1, 0}, LocalRot: mgl32.QuatIdent(),
			Stiffness: set.Stiffness, GravityDir: set.GravityDir, DragForce: set.DragForce})
	}
	chain, err := spring.NewVRMChain(&desc)
	if err != nil {
		t.Fatal(err)
	}
	now, late := chain.NewState(), chain.NewState()
	rotNow, rotLate := make([]mgl32.Quat, 5), make([]mgl32.Quat, 5)
	hips := func(f int) mgl32.Vec3 { return path(f).Pos.Add(mgl32.Vec3{0, 1, 0}) }
	id, one := mgl32.QuatIdent(), mgl32.Vec3{1, 1, 1}
	spring.ResetVRM(&now, chain, hips(0), id, one, mgl32.Vec3{}, id)
	var worst, lateWorst float32
	for f := 1; f <= 30; f++ {
		if err := w.SetRoot(e, path(f)); err != nil {
			t.Fatal(err)
		}
		if err := w.Step(1.0 / 60); err != nil {
			t.Fatal(err)
		}
		if f == 1 { // the old start: at rest under the first frame's pose
			spring.ResetVRM(&late, chain, hips(f), id, one, mgl32.Vec3{}, id)
		}
		spring.StepVRM(rotNow, &now, chain, hips(f), id, one, mgl32.Vec3{}, id, nil, 1.0/60)
		spring.StepVRM(rotLate, &late, chain, hips(f), id, one, mgl32.Vec3{}, id, nil, 1.0/60)
		tip, _ := w.BoneWorld(e, skel.Index("strand.5"))
		worst = max(worst, tip.Pos.Sub(now.CurTail[4]).Len())
		lateWorst = max(lateWorst, tip.Pos.Sub(late.CurTail[4]).Len())
	}
	t.Logf("tip vs started when added %.2g m, vs started at the first Step %.3f m", worst, lateWorst)
	if worst > 1e-5 {
		t.Errorf("the tip is %.2g m off a spring started when it was added (want <= 1e-5)", worst)
	}
	if lateWorst < 0.05 {
		t.Errorf("a spring started one frame late is only %.3f m off: the test cannot tell the start", lateWorst)
	}
}

// TestChainsStartWhenAdded: dynamic chains start from the pose they are
// added under, as DynamicBone sets its particles up when it starts. A
// character added at rest and moved from the first Step on moves exactly
// as one that stood still for a frame first (with no force on it, a chain
// at rest stays at rest): the motion before the first Step is not lost.
// A chain started at the first Step instead would start under that
// frame's root and lag the twin by centimetres.
func TestChainsStartWhenAdded(t *testing.T) {
	bones := []sway.BoneDesc{sway.Bone("hips", "", mgl32.Vec3{0, 1, 0})}
	parent := "hips"
	for j := range 5 {
		name := fmt.Sprintf("tail.%d", j)
		bones = append(bones, sway.Bone(name, parent, mgl32.Vec3{0, 0, -0.1}))
		parent = name
	}
	skel, err := sway.NewSkeleton(sway.SkeletonDesc{Name: "tail", Bones: bones})
	if err != nil {
		t.Fatal(err)
	}
	path := func(f int) sway.Transform { // 3 m/s along +X
		return sway.At(mgl32.Vec3{float32(f) * 0.05, 0, 0})
	}
	set := sway.DefaultChainSettings()
	set.Damping, set.Elasticity, set.Stiffness = 0.1, 0.05, 0.1
	run := func(still int) []mgl32.Vec3 {
		w, err := sway.NewWorld(sway.Options{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		e, err := w.AddCharacter(skel, path(0))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Chains().Add(e, nil, []sway.ChainSpec{{Root: "tail.0", Settings: set}}); err != nil {
			t.Fatal(err)
		}
		var tips []mgl32.Vec3
		for f := 1 - still; f <= 30; f++ {
			if err := w.SetRoot(e, path(max(f, 0))); err != nil {
				t.Fatal(err)
			}
			if err := w.Step(1.0 / 60); err != nil {
				t.Fatal(err)
			}
			if f >= 1 {
				tip, _ := w.BoneWorld(e, skel.Index("tail.4"))
				tips = append(tips, tip.Pos)
			}
		}
		return tips
	}
	moved, waited := run(0), run(1)
	var worst, lag float32
	for f := range moved {
		worst = max(worst, moved[f].Sub(waited[f]).Len())
		rest := path(f + 1).Pos.Add(mgl32.Vec3{0, 1, -0.4})
		lag = max(lag, waited[f].Sub(rest).Len())
	}
	t.Logf("moved at once vs after a still frame %.2g m; the tip lags its rest by up to %.3f m", worst, lag)
	if worst > 1e-6 {
		t.Errorf("a chain moved from its first Step is %.2g m off one that stood still a frame first (want <= 1e-6)", worst)
	}
	if lag < 0.01 {
		t.Errorf("the tip lags only %.3f m: the test cannot tell a late start", lag)
	}
}
