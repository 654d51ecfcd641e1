package sway_test

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	arche "github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/internal/gltfrig"
	"github.com/sway-anim/sway/systems/collide"
	"github.com/sway-anim/sway/systems/spring"
)

// writeRigFile writes the fixture avatar to a .vrm in a temp dir.
func writeRigFile(t testing.TB, v sway.RigVersion, o gltfrig.FixtureOptions) string {
	t.Helper()
	glb, err := gltfrig.Fixture(gltfrig.Version(v), o)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "avatar.vrm")
	if err := os.WriteFile(path, glb, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// walkRoot is a character walking a curve, bobbing and turning.
func walkRoot(frame int) sway.Transform {
	s := float64(frame) / 60
	t := sway.At(mgl32.Vec3{float32(0.4 * math.Sin(2*s)), float32(0.05 * math.Sin(9*s)), float32(0.5 * math.Sin(0.7*s))})
	t.Rot = mgl32.QuatRotate(float32(0.9*math.Sin(1.3*s)), mgl32.Vec3{0, 1, 0})
	return t
}

func rigWorld(t testing.TB, path string) (*sway.World, arche.Entity, *sway.Rig) {
	t.Helper()
	r, err := sway.LoadRig(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := sway.NewWorld(sway.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	e, err := w.AddRig(r, walkRoot(0))
	if err != nil {
		t.Fatal(err)
	}
	return w, e, r
}

func quatDist(a, b mgl32.Quat) float64 {
	if a.Dot(b) < 0 {
		b = b.Scale(-1)
	}
	d := a.Sub(b)
	return float64(max(abs32(d.W), abs32(d.V[0]), abs32(d.V[1]), abs32(d.V[2])))
}

func abs32(x float32) float32 { return float32(math.Abs(float64(x))) }

// The 0.x and 1.0 forms of one avatar (with a 0.x branch: a ribbon hanging
// from hairL1) simulate alike under a moving root. The 0.x form differs
// by its tail only: the leaves (hairL3, hairR3, ribbon1) are tails in 1.0
// and swing with a virtual tail in 0.x, and a leaf's rotation moves
// nothing else (its tail is the last thing its spring steps, and it has
// no children). So every bone's world position, and every other bone's
// world rotation, must agree; 0.x bone frames are the 1.0 ones turned half
// a turn about +Y (the loader's coordinate note), so rotations are compared
// as rot0 · turn against rot1.
//
// Positions agree to 1e-6 m, which pins every swinging joint: its rotation
// is what places the next joint. Rotations are held to 1e-5 per quaternion
// component: the two forms compute in frames turned half a turn, and
// float32 noise of 3e-7 m at the end of a 6 cm bone is 5e-6 rad.
func TestRigVRM0AndVRM1SimulateAlike(t *testing.T) {
	o := gltfrig.FixtureOptions{Branch: true}
	w1, e1, _ := rigWorld(t, writeRigFile(t, sway.RigVRM1, o))
	w0, e0, _ := rigWorld(t, writeRigFile(t, sway.RigVRM0, o))
	if n1, n0 := w1.VRMSprings().Of(e1).Len(), w0.VRMSprings().Of(e0).Len(); n1 != 3 || n0 != 3 {
		t.Fatalf("springs: %d (1.0) and %d (0.x), want 3", n1, n0)
	}
	s1, _ := w1.Skeleton(e1)
	s0, _ := w0.Skeleton(e0)
	leaf := map[string]bool{"hairL3": true, "hairR3": true, "ribbon1": true}
	turn := mgl32.QuatRotate(math.Pi, mgl32.Vec3{0, 1, 0})
	tip := s1.Index("hairL2")
	rest0, _ := w1.BoneWorld(e1, tip)
	var worstPos, worstRot, leafDiff, swing float64
	for f := 1; f <= 240; f++ {
		for _, c := range []struct {
			w *sway.World
			e arche.Entity
		}{{w1, e1}, {w0, e0}} {
			if err := c.w.SetRoot(c.e, walkRoot(f)); err != nil {
				t.Fatal(err)
			}
			if err := c.w.Step(1.0 / 60); err != nil {
				t.Fatal(err)
			}
		}
		p1, _ := w1.Pose(e1)
		p0, _ := w0.Pose(e0)
		for b := 0; b < s1.NumBones(); b++ {
			name := s1.BoneName(b)
			k := s0.Index(name)
			worstPos = max(worstPos, float64(p1.WorldPos[b].Sub(p0.WorldPos[k]).Len()))
			d := quatDist(p1.WorldRot[b], p0.WorldRot[k].Mul(turn))
			if leaf[name] {
				leafDiff = max(leafDiff, d)
			} else {
				worstRot = max(worstRot, d)
			}
		}
		// How far the hair swings relative to its rest under the head.
		root := walkRoot(f)
		at := root.Rot.Rotate(rest0.Pos.Sub(walkRoot(0).Pos)).Add(root.Pos)
		swing = max(swing, float64(p1.WorldPos[tip].Sub(at).Len()))
	}
	t.Logf("worst position %.3g m, rotation %.3g; leaves differ by %.3g; hair swings %.3g m", worstPos, worstRot, leafDiff, swing)
	if worstPos > 1e-6 {
		t.Errorf("0.x and 1.0 positions differ by %.3g m (want <= 1e-6)", worstPos)
	}
	if worstRot > 1e-5 {
		t.Errorf("0.x and 1.0 rotations differ by %.3g (want <= 1e-5)", worstRot)
	}
	if swing < 0.01 {
		t.Errorf("the hair hardly moves (%.3g m): the comparison shows nothing", swing)
	}
	if leafDiff < 1e-3 {
		t.Errorf("the 0.x leaves do not swing (%.3g): the documented tail is not in effect", leafDiff)
	}
}

// A 0.x branch (the ribbon hanging from hairL1, a joint of the hairL
// spring) steps after hairL, on hairL1's new rotation of the same frame:
// the ribbon's rotations equal a standalone kernel stepped with hairL1's
// final world transform each frame. The same kernel fed the previous
// frame's transform (the order reversed) is far off, so the test can fail.
func TestRigBranchStepsAfterItsParentSpring(t *testing.T) {
	w, e, r := rigWorld(t, writeRigFile(t, sway.RigVRM0, gltfrig.FixtureOptions{Branch: true}))
	skel, _ := w.Skeleton(e)
	var rs *sway.RigSpring
	for i := range r.Springs {
		if r.Springs[i].Joints[0].Bone == "ribbon0" {
			rs = &r.Springs[i]
		}
	}
	if rs == nil || len(rs.Joints) != 2 || rs.VirtualTail != gltfrig.VirtualTail0x {
		t.Fatalf("no 0.x ribbon branch of two joints: %+v", rs)
	}
	desc := spring.VRMChainDesc{VirtualTail: rs.VirtualTail}
	bones := make([]int, len(rs.Joints))
	for j, jt := range rs.Joints {
		b := skel.Index(jt.Bone)
		bones[j] = b
		desc.Joints = append(desc.Joints, spring.VRMJointDesc{
			LocalPos: skel.RestPos()[b], LocalRot: skel.RestRot()[b], LocalScale: skel.RestScale()[b],
			Stiffness: jt.Stiffness, GravityPower: jt.GravityPower, GravityDir: jt.GravityDir,
			DragForce: jt.DragForce, HitRadius: jt.HitRadius})
	}
	chain, err := spring.NewVRMChain(&desc)
	if err != nil {
		t.Fatal(err)
	}
	now, late := chain.NewState(), chain.NewState()
	rotNow, rotLate := make([]mgl32.Quat, 2), make([]mgl32.Quat, 2)
	parent := skel.Index("hairL1")
	shapes := make([]collide.Shape, len(rs.Colliders))
	// The springs start when they are added: the reference starts from the
	// same pose.
	prev, _ := w.BoneWorld(e, parent)
	spring.ResetVRM(&now, chain, prev.Pos, prev.Rot, prev.Scale, mgl32.Vec3{}, mgl32.QuatIdent())
	spring.ResetVRM(&late, chain, prev.Pos, prev.Rot, prev.Scale, mgl32.Vec3{}, mgl32.QuatIdent())
	var worst, lateWorst float64
	for f := 0; f <= 240; f++ {
		if f > 0 {
			if err := w.SetRoot(e, walkRoot(f)); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Step(1.0 / 60); err != nil {
			t.Fatal(err)
		}
		for k, c := range rs.Colliders {
			bw, _ := w.BoneWorld(e, skel.Index(r.Colliders[c].Bone))
			collide.ToWorld(&shapes[k], &r.Colliders[c].Shape, bw.Pos, bw.Rot, bw.Scale)
		}
		p, _ := w.BoneWorld(e, parent)
		spring.StepVRM(rotNow, &now, chain, p.Pos, p.Rot, p.Scale, mgl32.Vec3{}, mgl32.QuatIdent(), shapes, 1.0/60)
		spring.StepVRM(rotLate, &late, chain, prev.Pos, prev.Rot, prev.Scale, mgl32.Vec3{}, mgl32.QuatIdent(), shapes, 1.0/60)
		prev = p
		pose, _ := w.Pose(e)
		for j, b := range bones {
			worst = max(worst, quatDist(pose.LocalRot[b], rotNow[j]))
			lateWorst = max(lateWorst, quatDist(pose.LocalRot[b], rotLate[j]))
		}
	}
	t.Logf("ribbon vs same-frame parent %.3g, vs previous-frame parent %.3g", worst, lateWorst)
	if worst > 1e-6 {
		t.Errorf("the branch differs from a kernel on its parent's same-frame transform by %.3g (want <= 1e-6)", worst)
	}
	if lateWorst < 1e-3 {
		t.Errorf("a one-frame-late parent changes the branch by %.3g only: the test cannot tell the order", lateWorst)
	}
}

// A 0.x file listing hairL2 in a first group "hairTip" and hairL0's tree
// in a later one: hairTip keeps hairL2 and hairL3 with its settings, hairL
// keeps hairL0 and hairL1 (hairL1's tail is then the bone hairL2), and
// LoadRig says so in Warnings.
func TestRigJointInTwoGroupsKeepsTheFirst(t *testing.T) {
	w, e, r := rigWorld(t, writeRigFile(t, sway.RigVRM0, gltfrig.FixtureOptions{Repeat: true}))
	found := false
	for _, msg := range r.Warnings {
		found = found || strings.Contains(msg, `"hairL2"`) && strings.Contains(msg, "hairTip")
	}
	if !found {
		t.Errorf("no warning about hairL2 in %q", r.Warnings)
	}
	if n := w.VRMSprings().Of(e).Len(); n != 3 {
		t.Fatalf("%d springs, want 3 (hairTip, hairL, hairR)", n)
	}
	for j := 0; j < 2; j++ {
		tip, err := w.VRMSprings().Of(e).JointSettings(0, j)
		if err != nil || tip.Stiffness != gltfrig.FixtureTipStiffness {
			t.Errorf("hairTip joint %d: %+v %v", j, tip, err)
		}
		hair, err := w.VRMSprings().Of(e).JointSettings(1, j)
		if err != nil || hair.Stiffness != gltfrig.FixtureHairLStiffness {
			t.Errorf("hairL joint %d: %+v %v", j, hair, err)
		}
	}
	if _, err := w.VRMSprings().Of(e).JointSettings(1, 2); err == nil {
		t.Error("hairL keeps a third joint (hairL2 belongs to hairTip)")
	}
	skel, _ := w.Skeleton(e)
	for f := 1; f <= 120; f++ {
		_ = w.SetRoot(e, walkRoot(f))
		if err := w.Step(1.0 / 60); err != nil {
			t.Fatal(err)
		}
	}
	pose, _ := w.Pose(e)
	for b := 0; b < skel.NumBones(); b++ {
		if !finite4(pose.WorldRot[b]) {
			t.Fatalf("bone %s: %v", skel.BoneName(b), pose.WorldRot[b])
		}
	}
	if faults, _ := w.VRMSprings().Of(e).Faults(); faults != 0 {
		t.Errorf("%d spring faults", faults)
	}
}

// AddRig names what the world cannot use in the Rig's own fields, with a
// *FieldError wrapping ErrInvalid, and adds nothing.
func TestAddRigErrorsAreTyped(t *testing.T) {
	path := writeRigFile(t, sway.RigVRM1, gltfrig.FixtureOptions{})
	fresh := func() *sway.Rig {
		r, err := sway.LoadRig(path)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	cases := []struct {
		name, field string
		edit        func(r *sway.Rig, root *sway.Transform)
	}{
		{"nil rig", "Rig", nil},
		{"collider bone", "Colliders[1].Bone", func(r *sway.Rig, _ *sway.Transform) { r.Colliders[1].Bone = "nose" }},
		{"collider shape", "Radius", func(r *sway.Rig, _ *sway.Transform) { r.Colliders[0].Shape.Radius = -1 }},
		{"joint bone", "Springs[0].Joints[1].Bone", func(r *sway.Rig, _ *sway.Transform) { r.Springs[0].Joints[1].Bone = "nose" }},
		{"broken chain", "Springs[1].Joints[2].Bone", func(r *sway.Rig, _ *sway.Transform) { r.Springs[1].Joints[2].Bone = "hairL3" }},
		{"root joint", "Springs[0].Joints[0].Bone", func(r *sway.Rig, _ *sway.Transform) { r.Springs[0].Joints[0].Bone = "Armature" }},
		{"collider index", "Springs[1].Colliders[0]", func(r *sway.Rig, _ *sway.Transform) { r.Springs[1].Colliders[0] = 3 }},
		{"centre", "Springs[1].Center", func(r *sway.Rig, _ *sway.Transform) { r.Springs[1].Center = "tail" }},
		{"stiffness", "Springs[0].Joints[2].Stiffness", func(r *sway.Rig, _ *sway.Transform) { r.Springs[0].Joints[2].Stiffness = -1 }},
		{"drag", "Springs[1].Joints[0].DragForce", func(r *sway.Rig, _ *sway.Transform) { r.Springs[1].Joints[0].DragForce = 2 }},
		{"gravity", "Springs[0].Joints[0].GravityDir", func(r *sway.Rig, _ *sway.Transform) {
			r.Springs[0].Joints[0].GravityDir[1] = float32(math.Inf(-1))
		}},
		{"virtual tail", "Springs[0].VirtualTail", func(r *sway.Rig, _ *sway.Transform) { r.Springs[0].VirtualTail = -0.07 }},
		{"limit", "Springs[1].Joints[2].Limit.AngleDegrees", func(r *sway.Rig, _ *sway.Transform) {
			r.Springs[1].Joints[2].Limit = spring.Limit{Kind: spring.HingeLimit, AngleDegrees: -30}
		}},
		{"limit yaw past a quarter turn", "Springs[1].Joints[2].Limit.YawDegrees", func(r *sway.Rig, _ *sway.Transform) {
			r.Springs[1].Joints[2].Limit = spring.Limit{Kind: spring.SphericalLimit, PitchDegrees: 30, YawDegrees: 120}
		}},
		{"skeleton", "Bones", func(r *sway.Rig, _ *sway.Transform) { r.Skeleton.Bones[3].Name = r.Skeleton.Bones[2].Name }},
		{"root", "Root", func(_ *sway.Rig, root *sway.Transform) { root.Pos[0] = float32(math.NaN()) }},
	}
	w, err := sway.NewWorld(sway.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for _, c := range cases {
		var r *sway.Rig
		root := sway.Identity()
		if c.edit != nil {
			r = fresh()
			c.edit(r, &root)
		}
		_, err := w.AddRig(r, root)
		var fe *sway.FieldError
		if !errors.As(err, &fe) || !errors.Is(err, sway.ErrInvalid) || !strings.Contains(fe.Field, c.field) {
			t.Errorf("%s: %v (%T), want a FieldError on %s", c.name, err, err, c.field)
		}
		if n := w.NumCharacters(); n != 0 {
			t.Fatalf("%s: %d characters added", c.name, n)
		}
	}
	// Springs the world cannot use are left out, not fatal: a 1.0 spring
	// of one joint, a spring of no joints.
	r := fresh()
	r.Springs[0].Joints = r.Springs[0].Joints[:1]
	r.Springs[1].Joints = nil
	if _, err := w.AddRig(r, sway.Identity()); err != nil {
		t.Errorf("rig with empty springs: %v", err)
	}
}

// A spring whose first joint is a scene root (three-vrm's spring bone
// examples lay theirs out so: several scene roots, the spring from one,
// its collider on another) hangs from the scene, which is the
// character's root transform: the file loads, AddRig adds it, and under a
// moving root the first joint rides the root exactly while the tip
// swings, 600 frames without NaN or a fault. In both forms, alone (the
// bare layout of three-vrm's examples) and beside an avatar.
func TestRigSpringFromASceneRoot(t *testing.T) {
	cases := []struct {
		name    string
		v       sway.RigVersion
		o       gltfrig.FixtureOptions
		springs int
	}{
		{"bare 1.0", sway.RigVRM1, gltfrig.FixtureOptions{Pendulum: true, Bare: true}, 1},
		{"avatar 1.0", sway.RigVRM1, gltfrig.FixtureOptions{Pendulum: true}, 3},
		{"avatar 0.x", sway.RigVRM0, gltfrig.FixtureOptions{Pendulum: true}, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w, e, r := rigWorld(t, writeRigFile(t, c.v, c.o))
			if n := w.VRMSprings().Of(e).Len(); n != c.springs {
				t.Fatalf("%d springs, want %d", n, c.springs)
			}
			skel, _ := w.Skeleton(e)
			first, tip := skel.Index("Pendulum0"), skel.Index("Pendulum4")
			if first < 0 || tip < 0 || r.SceneBone == "" || skel.Parents()[first] != int32(skel.Index(r.SceneBone)) {
				t.Fatalf("Pendulum0 (%d) does not hang from the scene bone %q", first, r.SceneBone)
			}
			// Model space: Pendulum0 at (0, 2, 0), the tip 2 m below it,
			// the ball at (0.75, 1, 0) with radius 0.5 (its node's 0.5
			// scale is the authoring frame: radii are metres at rest).
			var swing float64
			closest := math.Inf(1)
			for f := 1; f <= 600; f++ {
				root := walkRoot(f)
				if err := w.SetRoot(e, root); err != nil {
					t.Fatal(err)
				}
				if err := w.Step(1.0 / 60); err != nil {
					t.Fatal(err)
				}
				p, _ := w.Pose(e)
				for b := range p.WorldPos {
					if !finite3(p.WorldPos[b]) || !finite4(p.WorldRot[b]) {
						t.Fatalf("frame %d: bone %s is not finite", f, skel.BoneName(b))
					}
				}
				at := func(v mgl32.Vec3) mgl32.Vec3 { return root.Pos.Add(root.Rot.Rotate(v)) }
				if d := p.WorldPos[first].Sub(at(mgl32.Vec3{0, 2, 0})).Len(); d > 1e-5 {
					t.Fatalf("frame %d: Pendulum0 is %.3g m off the root's (0, 2, 0)", f, d)
				}
				swing = max(swing, float64(p.WorldPos[tip].Sub(at(mgl32.Vec3{})).Len()))
				ball := at(mgl32.Vec3{0.75, 1, 0})
				for k := 1; k <= 4; k++ {
					closest = min(closest, float64(p.WorldPos[skel.Index(fmt.Sprintf("Pendulum%d", k))].Sub(ball).Len()))
				}
			}
			t.Logf("the tip swings %.3g m; the pendulum comes within %.3g m of the ball's centre", swing, closest)
			if swing < 0.05 {
				t.Errorf("the tip swings %.3g m: the spring hardly moves", swing)
			}
			// The pendulum reaches the ball: without its collider it comes
			// within 0.281 m; the collider keeps the tails at the ball's
			// radius plus the hit radius, 0.5 + 0.25, less what the
			// reference's length restore gives back (1 mm here).
			if closest < 0.74 {
				t.Errorf("a tail came within %.3g m of the ball's centre: its collider (on another scene root) is not in effect", closest)
			}
			if faults, _ := w.VRMSprings().Of(e).Faults(); faults != 0 {
				t.Errorf("%d spring faults", faults)
			}
		})
	}
}

// A file LoadRig rejects after warnings gives a *RigLoadError carrying
// them, through which errors.As finds the *FieldError with the JSON path.
func TestLoadRigRejectionCarriesWarnings(t *testing.T) {
	plane := collide.NewPlane(mgl32.Vec3{}, mgl32.Vec3{0, 0, 1})
	path := writeRigFile(t, sway.RigVRM1, gltfrig.FixtureOptions{Pendulum: true, Bare: true,
		Colliders: []gltfrig.FixtureCollider{{Node: "Ball", Shape: plane, SpecVersion: gltfrig.FixtureNoVersion}}})
	r, err := sway.LoadRig(path)
	var le *sway.RigLoadError
	var fe *sway.FieldError
	if r != nil || !errors.As(err, &le) || !errors.As(err, &fe) || !errors.Is(err, sway.ErrInvalid) {
		t.Fatalf("LoadRig: %v (%T)", err, err)
	}
	if fe.Field != "extensions.VRMC_springBone.colliders[1].shape" || len(le.Warnings) != 1 || !strings.Contains(le.Warnings[0], "no specVersion") {
		t.Errorf("rejected at %s with warnings %q", fe.Field, le.Warnings)
	}
}

// A file's joint limits reach the world's springs as loaded.
func TestRigLimitsReachTheWorld(t *testing.T) {
	cone := spring.Limit{Kind: spring.ConeLimit, AngleDegrees: 25, Rotation: mgl32.QuatRotate(0.2, mgl32.Vec3{1, 0, 0})}
	w, e, r := rigWorld(t, writeRigFile(t, sway.RigVRM1, gltfrig.FixtureOptions{
		Limits: []gltfrig.FixtureLimit{{Spring: "hairR", Limit: cone}}}))
	for j := 0; j < 3; j++ {
		got, err := w.VRMSprings().Of(e).JointSettings(1, j)
		if err != nil || got.Limit != r.Springs[1].Joints[j].Limit || got.Limit.Kind != spring.ConeLimit || got.Limit.AngleDegrees != 25 {
			t.Errorf("hairR joint %d: limit %+v (%v), want the file's %+v", j, got.Limit, err, cone)
		}
		if got, _ := w.VRMSprings().Of(e).JointSettings(0, j); got.Limit.Kind != spring.NoLimit {
			t.Errorf("hairL joint %d: limit %+v, want none", j, got.Limit)
		}
	}
}

// A limit read from a file acts in the frame VRMC_springBone_limit
// defines. Hand-worked on three-vrm's pendulum (bones with the identity
// rotation, each child straight below: the bone axis is exactly -Y): a
// cone of 0.2 rad (given in degrees) with rotation (x, y, z, w) = (sin 0.3, 0, 0, cos 0.3),
// 0.6 rad about X, has its axis at Rx(π)·Rx(0.6)·(0, 1, 0) =
// (0, -cos 0.6, -sin 0.6) in Pendulum0's frame, which is the scene's; the
// stiffness pulls the tail to its rest direction, -Y, 0.6 rad off that
// axis, so with the root at rest the first bone settles on the cone's edge
// nearest -Y: from Pendulum0 towards (0, -cos 0.4, -sin 0.4).
func TestRigLimitFromAFileHandWorked(t *testing.T) {
	cone := spring.Limit{Kind: spring.ConeLimit, AngleDegrees: degrees(0.2), Rotation: mgl32.Quat{W: float32(math.Cos(0.3)), V: mgl32.Vec3{float32(math.Sin(0.3)), 0, 0}}}
	path := writeRigFile(t, sway.RigVRM1, gltfrig.FixtureOptions{Pendulum: true, Bare: true,
		Limits: []gltfrig.FixtureLimit{{Spring: "pendulum", Limit: cone}}})
	r, err := sway.LoadRig(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := sway.NewWorld(sway.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	e, err := w.AddRig(r, sway.Identity())
	if err != nil {
		t.Fatal(err)
	}
	skel, _ := w.Skeleton(e)
	p0, p1 := skel.Index("Pendulum0"), skel.Index("Pendulum1")
	for f := 0; f < 300; f++ {
		if err := w.Step(1.0 / 60); err != nil {
			t.Fatal(err)
		}
	}
	pose, _ := w.Pose(e)
	got := pose.WorldPos[p1].Sub(pose.WorldPos[p0]).Normalize()
	want := mgl32.Vec3{0, float32(-math.Cos(0.4)), float32(-math.Sin(0.4))}
	if got.Sub(want).Len() > 1e-3 {
		t.Errorf("Pendulum0's bone points along %v, want %v", got, want)
	}
}

// A plane collider's offset and normal are in its node's space, scale and
// rotation included, as VRMC_springBone_extended_collider has them.
// Hand-worked on three-vrm's plane-collider layout: Ball at (0.75, 1, 0),
// turned a quarter turn about +Y (local (x, y, z) -> (z, y, -x)), scaled
// 0.5; a plane through local (0, 0, -1.1) with normal (0, 0, -1) lies at
// x = 0.75 - 0.5·1.1 = 0.2 in the character's space, facing -X. The
// pendulum, swung by the walking root, would pass it; its tails (hit
// radius 0.25 m: the pendulum's 0.25 node scale is its authoring frame, as
// three-vrm reads it) stay at x <= 0.2 - 0.25 = -0.05, less what the
// reference's length restore gives back.
func TestRigPlaneColliderInNodeSpace(t *testing.T) {
	plane := collide.NewPlane(mgl32.Vec3{0, 0, -1.1}, mgl32.Vec3{0, 0, -1})
	run := func(withPlane bool) (reach float64) {
		o := gltfrig.FixtureOptions{Pendulum: true, Bare: true}
		if withPlane {
			o.Colliders = []gltfrig.FixtureCollider{{Node: "Ball", Shape: plane, Fallback: true}}
		}
		w, e, _ := rigWorld(t, writeRigFile(t, sway.RigVRM1, o))
		skel, _ := w.Skeleton(e)
		reach = math.Inf(-1)
		for f := 1; f <= 600; f++ {
			root := walkRoot(f)
			_ = w.SetRoot(e, root)
			if err := w.Step(1.0 / 60); err != nil {
				t.Fatal(err)
			}
			p, _ := w.Pose(e)
			for k := 1; k <= 4; k++ {
				local := root.Rot.Inverse().Rotate(p.WorldPos[skel.Index(fmt.Sprintf("Pendulum%d", k))].Sub(root.Pos))
				reach = max(reach, float64(local[0]))
			}
		}
		return reach
	}
	free, held := run(false), run(true)
	t.Logf("the tails reach x = %.3g without the plane, %.3g with it", free, held)
	if free < 0.3 {
		t.Fatalf("without the plane the tails reach only x = %.3g: the test shows nothing", free)
	}
	if math.Abs(held-(-0.05)) > 0.005 {
		t.Errorf("with the plane the tails reach x = %.3g, want -0.05 (the plane at x = 0.2 less the hit radius)", held)
	}
}
