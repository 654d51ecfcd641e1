package sway_test

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	arche "github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/internal/scene"
	"github.com/sway-anim/sway/internal/store"
)

// vrmWorld builds n stress-rig characters with the standard VRM springs
// (every spring's settings passed through tweak when not nil) and the
// earrings.
func vrmWorld(t testing.TB, n, workers int, tweak func(*sway.VRMSpringSpec)) (*sway.World, []arche.Entity, *scene.Scene) {
	t.Helper()
	w, ents, sc := plainWorld(t, n, workers)
	rng := newRand(4)
	for _, e := range ents {
		specs := scene.VRMSpecs(rng)
		for i := range specs {
			if tweak != nil {
				tweak(&specs[i])
			}
		}
		if _, err := w.VRMSprings().Add(e, scene.Colliders(), specs); err != nil {
			t.Fatal(err)
		}
	}
	if err := sc.AddEarrings(w, ents); err != nil {
		t.Fatal(err)
	}
	return w, ents, sc
}

func stepStill(t testing.TB, w *sway.World, frames int) {
	t.Helper()
	for f := 0; f < frames; f++ {
		if err := w.Step(1.0 / 60); err != nil {
			t.Fatal(err)
		}
	}
}

// secondaryBones are the names of the 62 spring joints.
func secondaryBones() []string {
	var names []string
	for _, s := range scene.VRMSpecs(newRand(1)) {
		names = append(names, s.Joints...)
	}
	return names
}

func TestVRMRestStaysRestWithoutForces(t *testing.T) {
	ref, refEnts, sc := plainWorld(t, 2, 1)
	defer ref.Close()
	// No hit radius either: at rest the hair's 2 cm tails touch the head sphere.
	w, ents, _ := vrmWorld(t, 2, 1, func(s *sway.VRMSpringSpec) { s.Settings.GravityPower, s.Settings.HitRadius = 0, 0 })
	defer w.Close()
	stepStill(t, ref, 120)
	stepStill(t, w, 120)
	for _, name := range secondaryBones() {
		a := bonePos(t, ref, refEnts[1], sc.Skeleton, name)
		b := bonePos(t, w, ents[1], sc.Skeleton, name)
		if d := b.Sub(a).Len(); d > 1e-5 {
			t.Fatalf("%s moved %.2g m from rest with no force on a still character", name, d)
		}
	}
}

func TestVRMGravityBendsAndStiffnessRestores(t *testing.T) {
	w, ents, sc := vrmWorld(t, 1, 1, func(s *sway.VRMSpringSpec) {
		s.Settings.GravityPower, s.Settings.Stiffness = 3, 0.2
	})
	defer w.Close()
	skel := sc.Skeleton
	rest := func() mgl32.Vec3 { // the tail tip where the rest pose puts it
		root, _ := w.Root(ents[0])
		return root.Pos.Add(root.Rot.Rotate(skel.ModelPos()[skel.Index("tail.7")]))
	}
	stepStill(t, w, 120)
	bent := bonePos(t, w, ents[0], skel, "tail.7")
	if drop := rest()[1] - bent[1]; drop < 0.05 {
		t.Fatalf("the tail tip dropped %.4f m under gravity", drop)
	}
	// Gravity off, stiffness on (a runtime edit): the tail comes back.
	tail := w.VRMSprings().Of(ents[0]).Len() - 1
	s, err := w.VRMSprings().Of(ents[0]).JointSettings(tail, 0)
	if err != nil {
		t.Fatal(err)
	}
	s.GravityPower, s.Stiffness = 0, 2
	if err := w.VRMSprings().Of(ents[0]).SetSpringSettings(tail, s); err != nil {
		t.Fatal(err)
	}
	stepStill(t, w, 600)
	if d := bonePos(t, w, ents[0], skel, "tail.7").Sub(rest()).Len(); d > 1e-3 {
		t.Fatalf("stiffness left the tail tip %.4f m from rest", d)
	}
}

func TestVRMTailsStayOutOfTheHeadSphere(t *testing.T) {
	w, ents, sc := vrmWorld(t, 2, 2, func(s *sway.VRMSpringSpec) { s.Settings.GravityPower = 2 })
	defer w.Close()
	skel := sc.Skeleton
	sphere := scene.Colliders()[0].Shape
	for f := 0; f < 240; f++ {
		stepMoving(t, w, ents, sc, f, 1)
		for _, e := range ents {
			head, _ := w.BoneWorld(e, skel.Index("head"))
			centre := head.Pos.Add(head.Rot.Rotate(sphere.Offset))
			for k := 0; k < scene.HairChains; k++ {
				for j := 1; j < scene.HairLength; j++ { // the tail of joint j-1
					p := bonePos(t, w, e, skel, fmt.Sprintf("hair%d.%d", k, j))
					if d := p.Sub(centre).Len(); d < sphere.Radius-1e-4 {
						t.Fatalf("frame %d: hair%d.%d is %.4f from the head centre (radius %.3f)", f, k, j, d, sphere.Radius)
					}
				}
			}
		}
	}
}

func TestVRMCentreSpaceFollowsTheRoot(t *testing.T) {
	centred := func(s *sway.VRMSpringSpec) { s.Center = "hips" }
	still, stillEnts, sc := vrmWorld(t, 1, 1, centred)
	defer still.Close()
	w, ents, _ := vrmWorld(t, 1, 1, centred)
	defer w.Close()
	start, _ := w.Root(ents[0])
	var moved bool
	for f := 1; f <= 90; f++ {
		root := start
		root.Pos = root.Pos.Add(mgl32.Vec3{0.03 * float32(f), 0, 0.01 * float32(f)}) // 1.9 m/s
		if err := w.SetRoot(ents[0], root); err != nil {
			t.Fatal(err)
		}
		stepStill(t, w, 1)
		stepStill(t, still, 1)
		r0, _ := still.Root(stillEnts[0])
		for _, name := range secondaryBones() {
			a := bonePos(t, still, stillEnts[0], sc.Skeleton, name).Sub(r0.Pos)
			b := bonePos(t, w, ents[0], sc.Skeleton, name).Sub(root.Pos)
			if d := b.Sub(a).Len(); d > 1e-4 {
				t.Fatalf("frame %d: %s is %.2g m off the still character's relative to the root", f, name, d)
			}
		}
		moved = true
	}
	if !moved {
		t.Fatal("nothing stepped")
	}
}

func TestVRMRuntimeScale(t *testing.T) {
	gravity := func(s *sway.VRMSpringSpec) { s.Settings.GravityPower = 2 }
	ref, refEnts, sc := vrmWorld(t, 1, 1, gravity)
	defer ref.Close()
	stepStill(t, ref, 60)
	r0, _ := ref.Root(refEnts[0])
	for _, scale := range []float32{0.5, 2} {
		w, ents, _ := vrmWorld(t, 1, 1, gravity)
		root, _ := w.Root(ents[0])
		root.Scale = mgl32.Vec3{scale, scale, scale}
		if err := w.SetRoot(ents[0], root); err != nil {
			t.Fatal(err)
		}
		// The springs started at scale 1 when they were added: restart them
		// under the scaled root.
		if err := w.VRMSprings().Of(ents[0]).Reset(); err != nil {
			t.Fatal(err)
		}
		stepStill(t, w, 60)
		for _, name := range append(secondaryBones(), "earring.L") {
			a := bonePos(t, ref, refEnts[0], sc.Skeleton, name).Sub(r0.Pos).Mul(scale)
			b := bonePos(t, w, ents[0], sc.Skeleton, name).Sub(root.Pos)
			if d := b.Sub(a).Len(); d > 2e-5*scale {
				t.Fatalf("scale %g: %s is %.2g m off the scaled pose", scale, name, d)
			}
		}
		// The tip did move under gravity: the comparison is not of rest poses.
		tip := bonePos(t, w, ents[0], sc.Skeleton, "tail.7").Sub(root.Pos)
		if d := tip.Sub(root.Rot.Rotate(sc.Skeleton.ModelPos()[sc.Skeleton.Index("tail.7")].Mul(scale))).Len(); d < 0.01*scale {
			t.Fatalf("scale %g: the tail did not bend (%.4f m)", scale, d)
		}
		w.Close()
	}
}

func TestVRMTeleportResetsAndEarringsSwing(t *testing.T) {
	w, ents, sc := vrmWorld(t, 1, 1, nil)
	defer w.Close()
	ref, refEnts, _ := plainWorld(t, 1, 1)
	defer ref.Close()
	stepMoving(t, w, ents, sc, 0, 60)
	stepMoving(t, ref, refEnts, sc, 0, 60)
	// The earring lags behind the animated (rest) pose while moving.
	a := bonePos(t, ref, refEnts[0], sc.Skeleton, "earring.L")
	b := bonePos(t, w, ents[0], sc.Skeleton, "earring.L")
	if a != b {
		t.Fatalf("the earring bone itself moved: %v vs %v", a, b)
	}
	ra, _ := ref.BoneWorld(refEnts[0], sc.Skeleton.Index("earring.L"))
	rb, _ := w.BoneWorld(ents[0], sc.Skeleton.Index("earring.L"))
	if mathx := math.Abs(float64(ra.Rot.Dot(rb.Rot))); mathx > 0.99999 {
		t.Fatalf("the earring did not swing (|dot| %.6f)", mathx)
	}
	root, _ := w.Root(ents[0])
	root.Pos = root.Pos.Add(mgl32.Vec3{50, 0, 0})
	if err := w.SetRoot(ents[0], root); err != nil {
		t.Fatal(err)
	}
	stepStill(t, w, 1)
	tip := bonePos(t, w, ents[0], sc.Skeleton, "hair0.5")
	animated := root.Pos.Add(root.Rot.Rotate(sc.Skeleton.ModelPos()[sc.Skeleton.Index("hair0.5")]))
	if d := tip.Sub(animated).Len(); d > 0.02 {
		t.Fatalf("after a 50 m teleport the hair is %.3f m from the animated pose", d)
	}
}

func TestVRMBitIdenticalForAnyWorkerCount(t *testing.T) {
	var sums []uint64
	for _, workers := range []int{1, 3} {
		w, ents, sc := vrmWorld(t, 50, workers, nil)
		stepMoving(t, w, ents, sc, 0, 40)
		sums = append(sums, w.Checksum())
		w.Close()
	}
	if sums[0] != sums[1] {
		t.Fatalf("checksums differ: %x (1 worker) vs %x (3 workers)", sums[0], sums[1])
	}
}

func TestVRMStepDoesNotAllocate(t *testing.T) {
	w, ents, sc := vrmWorld(t, 100, 2, nil)
	defer w.Close()
	stepMoving(t, w, ents, sc, 0, 5)
	f := 5
	allocs := testing.AllocsPerRun(30, func() {
		f++
		stepMoving(t, w, ents, sc, f, 1)
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per frame with springs", allocs)
	}
}

// twinVRMWorlds returns two alike worlds of n characters with VRM springs,
// stepped 20 frames: a test changes one and compares.
func twinVRMWorlds(t *testing.T, n, workers int) (a *sway.World, entsA []arche.Entity, b *sway.World, entsB []arche.Entity, sc *scene.Scene) {
	t.Helper()
	a, entsA, sc = vrmWorld(t, n, workers, nil)
	b, entsB, _ = vrmWorld(t, n, workers, nil)
	stepMoving(t, a, entsA, sc, 0, 20)
	stepMoving(t, b, entsB, sc, 0, 20)
	return a, entsA, b, entsB, sc
}

func TestVRMRemovingCharactersLeavesOthersUntouched(t *testing.T) {
	a, entsA, b, entsB, sc := twinVRMWorlds(t, 6, 2)
	defer a.Close()
	defer b.Close()
	if err := b.RemoveCharacter(entsB[0]); err != nil {
		t.Fatal(err)
	}
	if err := b.VRMSprings().Of(entsB[2]).Remove(); err != nil {
		t.Fatal(err)
	}
	if err := b.SimpleSprings().Of(entsB[5]).Remove(); err != nil {
		t.Fatal(err)
	}
	for f := 20; f < 40; f++ {
		_ = sc.MoveRoots(a, entsA, float64(f+1)/60)
		for _, k := range []int{1, 2, 3, 4, 5} {
			_ = b.SetRoot(entsB[k], sc.RootAt(k, float64(f+1)/60))
		}
		stepStill(t, a, 1)
		stepStill(t, b, 1)
	}
	for _, k := range []int{1, 3, 4} {
		pa, _ := a.Pose(entsA[k])
		pb, _ := b.Pose(entsB[k])
		for i := range pa.WorldPos {
			if pa.WorldPos[i] != pb.WorldPos[i] || pa.WorldRot[i] != pb.WorldRot[i] {
				t.Fatalf("character %d bone %d changed after its neighbours' springs were removed", k, i)
			}
		}
	}
	st := arche.GetResource[store.SpringStore](b.ECS())
	if n := len(st.VRM.Springs); n != 4*11 {
		t.Fatalf("%d VRM springs stored after compaction, want 44", n)
	}
	if n := len(st.Simple.Chains); n != 4*2 {
		t.Fatalf("%d simple springs stored after compaction, want 8", n)
	}
	// Without springs character 2 shows the animated pose.
	ref, refEnts, _ := plainWorld(t, 6, 1)
	defer ref.Close()
	for f := 0; f < 40; f++ {
		_ = ref.SetRoot(refEnts[2], sc.RootAt(2, float64(f+1)/60))
		stepStill(t, ref, 1)
	}
	h := sc.Skeleton.Index("hair0.5")
	pr, _ := ref.Pose(refEnts[2])
	pb, _ := b.Pose(entsB[2])
	if pr.WorldPos[h] != pb.WorldPos[h] {
		t.Fatal("removed springs still move character 2's hair")
	}
}

func TestVRMNonFiniteStateResetsTheSpring(t *testing.T) {
	w, ents, sc := vrmWorld(t, 2, 2, nil)
	defer w.Close()
	stepMoving(t, w, ents, sc, 0, 10)
	st := arche.GetResource[store.SpringStore](w.ECS())
	info := st.VRM.Info[11] // character 1's first spring
	st.VRM.Cur[info.Joint0+2][1] = float32(math.Inf(1))
	stepMoving(t, w, ents, sc, 10, 1)
	if n, _ := w.VRMSprings().Of(ents[1]).Faults(); n != 1 {
		t.Fatalf("faults = %d, want 1", n)
	}
	if n, _ := w.VRMSprings().Of(ents[0]).Faults(); n != 0 {
		t.Fatalf("character 0 faults = %d", n)
	}
	// The faulted spring shows the rest pose it restarts from, which the
	// step (writing into the pose) had overwritten.
	p, _ := w.Pose(ents[1])
	for j := info.Joint0; j < info.Joint0+info.N; j++ {
		if got, want := p.LocalRot[st.VRM.JointBone[j]], st.VRM.JointDesc[j].LocalRot; got != want {
			t.Fatalf("joint %d shows %v on the fault's frame, want its rest rotation %v", j-info.Joint0, got, want)
		}
	}
	stepMoving(t, w, ents, sc, 11, 30)
	for _, e := range ents {
		p, _ := w.Pose(e)
		for i := range p.WorldPos {
			if !finite3(p.WorldPos[i]) || !finite4(p.WorldRot[i]) {
				t.Fatalf("bone %d not finite after the reset", i)
			}
		}
	}
	if n, _ := w.VRMSprings().Of(ents[1]).Faults(); n != 1 {
		t.Fatalf("the spring did not recover: faults = %d", n)
	}
}

// TestVRMSpringsFollowThePoseWhenItsArraysMove adds characters to one of
// two alike worlds mid-run, which moves the pose pool's arrays: batched
// springs write their rotations straight into the pose, and must follow
// it, so that both worlds' characters keep the same poses bit for bit.
func TestVRMSpringsFollowThePoseWhenItsArraysMove(t *testing.T) {
	a, entsA, b, entsB, sc := twinVRMWorlds(t, 3, 1)
	defer a.Close()
	defer b.Close()
	p, _ := a.Pose(entsA[0])
	before := &p.LocalRot[0]
	for range 50 {
		if _, err := a.AddCharacter(sc.Skeleton, sway.Identity()); err != nil {
			t.Fatal(err)
		}
	}
	stepMoving(t, a, entsA, sc, 20, 40)
	stepMoving(t, b, entsB, sc, 20, 40)
	if p, _ = a.Pose(entsA[0]); &p.LocalRot[0] == before {
		t.Fatal("the pose's arrays did not move: the test shows nothing")
	}
	for i := range entsA {
		pa, _ := a.Pose(entsA[i])
		pb, _ := b.Pose(entsB[i])
		for k := range pa.LocalRot {
			if qa, qb := pa.LocalRot[k], pb.LocalRot[k]; quatBits(qa) != quatBits(qb) {
				t.Fatalf("character %d bone %d: %v after the arrays moved, %v in the world left alone", i, k, qa, qb)
			}
		}
	}
}

// quatBits returns q's bits, W first: equal for the same bits only.
func quatBits(q mgl32.Quat) [4]uint32 {
	return [4]uint32{math.Float32bits(q.W), math.Float32bits(q.V[0]), math.Float32bits(q.V[1]), math.Float32bits(q.V[2])}
}

func TestVRMPauseShowsTheAnimatedPose(t *testing.T) {
	ref, refEnts, sc := plainWorld(t, 1, 1)
	defer ref.Close()
	w, ents, _ := vrmWorld(t, 1, 1, nil)
	defer w.Close()
	stepMoving(t, w, ents, sc, 0, 30)
	if err := w.VRMSprings().Of(ents[0]).Pause(); err != nil {
		t.Fatal(err)
	}
	if err := w.SimpleSprings().Of(ents[0]).Pause(); err != nil {
		t.Fatal(err)
	}
	stepMoving(t, w, ents, sc, 30, 1)
	stepMoving(t, ref, refEnts, sc, 0, 31)
	a, _ := ref.Pose(refEnts[0])
	b, _ := w.Pose(ents[0])
	for i := range a.WorldPos {
		if a.WorldPos[i] != b.WorldPos[i] || a.WorldRot[i] != b.WorldRot[i] {
			t.Fatalf("paused: bone %d differs from the animated pose", i)
		}
	}
	if err := w.VRMSprings().Of(ents[0]).Resume(); err != nil {
		t.Fatal(err)
	}
	stepMoving(t, w, ents, sc, 31, 30)
	b, _ = w.Pose(ents[0])
	if !finite3(b.WorldPos[sc.Skeleton.Index("hair0.5")]) {
		t.Fatal("not finite after resuming")
	}
}

func TestAddVRMSpringsRejectsBadSpecs(t *testing.T) {
	w, ents, _ := plainWorld(t, 2, 1)
	defer w.Close()
	good := scene.VRMSpecs(newRand(1))
	clone := func() []sway.VRMSpringSpec { return append([]sway.VRMSpringSpec(nil), good...) }
	var fe *sway.FieldError
	cases := []struct {
		field string
		edit  func(s []sway.VRMSpringSpec)
	}{
		{"[0].Joints[2]", func(s []sway.VRMSpringSpec) { s[0].Joints = []string{"hair0.0", "hair0.1", "ponytail"} }},
		{"[1].Joints[1]", func(s []sway.VRMSpringSpec) { s[1].Joints = []string{"hair1.0", "hair1.2"} }},
		{"[2].Joints[0]", func(s []sway.VRMSpringSpec) { s[2].Joints = []string{"hair0.3"} }},
		{"[3].Colliders", func(s []sway.VRMSpringSpec) { s[3].Colliders = []int{0, 7} }},
		{"[4].Center", func(s []sway.VRMSpringSpec) { s[4].Center = "hat" }},
		{"[5].Settings.DragForce", func(s []sway.VRMSpringSpec) { s[5].Settings.DragForce = 1.5 }},
		{"[6].Settings.Stiffness", func(s []sway.VRMSpringSpec) { s[6].Settings.Stiffness = float32(math.NaN()) }},
		{"[7].JointSettings", func(s []sway.VRMSpringSpec) { s[7].JointSettings = make([]sway.VRMJointSettings, 2) }},
		{"[8].VirtualTail", func(s []sway.VRMSpringSpec) { s[8].VirtualTail = -1 }},
		{"[0].Joints", func(s []sway.VRMSpringSpec) { s[0].Joints = nil }},
		{"[1].Joints", func(s []sway.VRMSpringSpec) { s[1].Joints = []string{"hips"} }},
	}
	for _, c := range cases {
		specs := clone()
		c.edit(specs)
		if _, err := w.VRMSprings().Add(ents[0], scene.Colliders(), specs); !errors.As(err, &fe) || fe.Field != c.field {
			t.Fatalf("%s: %v", c.field, err)
		}
	}
	cols := scene.Colliders()
	cols[0].Shape.Radius = -1
	if _, err := w.VRMSprings().Add(ents[0], cols, good); !errors.Is(err, sway.ErrInvalid) {
		t.Fatalf("negative radius: %v", err)
	}
	if _, err := w.VRMSprings().Add(arche.Entity{}, scene.Colliders(), good); !errors.Is(err, sway.ErrNotCharacter) {
		t.Fatalf("not a character: %v", err)
	}
	if _, err := w.VRMSprings().Add(ents[0], scene.Colliders(), good); err != nil {
		t.Fatal(err)
	}
	if _, err := w.VRMSprings().Add(ents[0], scene.Colliders(), good); !errors.Is(err, sway.ErrInvalid) {
		t.Fatalf("second VRMSprings.Add: %v", err)
	}
	s := sway.DefaultVRMJointSettings()
	s.HitRadius = float32(math.Inf(1))
	if err := w.VRMSprings().Of(ents[0]).SetSpringSettings(0, s); !errors.Is(err, sway.ErrInvalid) {
		t.Fatalf("Inf hit radius edit: %v", err)
	}
	if err := w.VRMSprings().Of(ents[0]).SetSpringSettings(99, sway.DefaultVRMJointSettings()); !errors.Is(err, sway.ErrInvalid) {
		t.Fatalf("spring 99: %v", err)
	}
	if err := w.VRMSprings().Of(ents[0]).SetJointSettings(0, 6, sway.DefaultVRMJointSettings()); !errors.Is(err, sway.ErrInvalid) {
		t.Fatalf("joint 6 of 6: %v", err)
	}
	// Simple springs.
	bad := scene.EarringSpecs()
	bad[1].SpringEnd = mgl32.Vec3{}
	if _, err := w.SimpleSprings().Add(ents[1], bad); !errors.As(err, &fe) || fe.Field != "[1].SpringEnd" {
		t.Fatalf("zero spring end: %v", err)
	}
	bad = scene.EarringSpecs()
	bad[0].Settings.Damping = -1
	if _, err := w.SimpleSprings().Add(ents[1], bad); !errors.As(err, &fe) || fe.Field != "[0].Settings.Damping" {
		t.Fatalf("negative damping: %v", err)
	}
	bad = scene.EarringSpecs()
	bad[1].Bones = []string{"earring.L"}
	if _, err := w.SimpleSprings().Add(ents[1], bad); !errors.As(err, &fe) || fe.Field != "[1].Joints[0]" {
		t.Fatalf("bone twice: %v", err)
	}
}
