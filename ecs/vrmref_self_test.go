package sway_test

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/internal/gltfrig"
	"github.com/sway-anim/sway/systems/collide"
	"github.com/sway-anim/sway/systems/spring"
)

// handRig is one 1.0 spring: j0 hangs 1 m above the root bone, its tail
// j1 10 cm along +X; no stiffness, gravity 1 downwards, drag 0.5.
func handRig() *sway.Rig {
	return &sway.Rig{
		Skeleton: sway.SkeletonDesc{Bones: []sway.BoneDesc{
			sway.Bone("base", "", mgl32.Vec3{}),
			sway.Bone("j0", "base", mgl32.Vec3{0, 1, 0}),
			sway.Bone("j1", "j0", mgl32.Vec3{0.1, 0, 0}),
		}},
		Springs: []sway.RigSpring{{Name: "s", Joints: []sway.RigJoint{
			{Bone: "j0", GravityPower: 1, GravityDir: mgl32.Vec3{0, -1, 0}, DragForce: 0.5},
			{Bone: "j1", GravityDir: mgl32.Vec3{0, -1, 0}, DragForce: 0.5},
		}}},
	}
}

func refBone(t *testing.T, ref *vrmRef, name string) v3d {
	t.Helper()
	for i, n := range ref.names {
		if n == name {
			return ref.world[i].pos
		}
	}
	t.Fatalf("no bone %q", name)
	return v3d{}
}

func wantNear(t *testing.T, what string, got, want v3d, tol float64) {
	t.Helper()
	if rLen(rSub(got, want)) > tol {
		t.Errorf("%s at %v, want %v", what, got, want)
	}
}

// The reference's step worked by hand. From rest (tail at (0.1, 1)),
// gravity 1 for 1/60 s puts the tail at (0.1, 1-1/60), back at 10 cm from
// the head (0, 1): (0.0986394, 0.9835601). The second step keeps half the
// velocity: (0.0979591, 0.9586734) before the length, (0.0921364,
// 0.9611299) after. A sphere of radius 3 cm at (0.1, 0.95) with a hit
// radius of 1 cm finds the first step's tail 3.36 cm from its centre,
// pushes it to 4 cm and the length brings it to (0.0994840, 0.9898545).
// The rig's numbers are float32 (0.1 is 0.10000000149): 5e-8 m.
func TestVRMRefHandWorked(t *testing.T) {
	dt := 1.0 / 60
	ref, err := newVRMRef(handRig(), sway.Identity())
	if err != nil {
		t.Fatal(err)
	}
	wantNear(t, "rest tail", refBone(t, ref, "j1"), v3d{0.1, 1, 0}, 5e-8)
	ref.step(sway.Identity(), dt)
	wantNear(t, "step 1", refBone(t, ref, "j1"), v3d{0.09863939238, 0.98356010127, 0}, 5e-8)
	ref.step(sway.Identity(), dt)
	wantNear(t, "step 2", refBone(t, ref, "j1"), v3d{0.09213640792, 0.96112993008, 0}, 5e-8)

	r := handRig()
	r.Colliders = []sway.RigCollider{{Bone: "base", Shape: collide.NewSphere(mgl32.Vec3{0.1, 0.95, 0}, 0.03)}}
	r.Springs[0].Colliders = []int{0}
	r.Springs[0].Joints[0].HitRadius = 0.01
	if ref, err = newVRMRef(r, sway.Identity()); err != nil {
		t.Fatal(err)
	}
	ref.step(sway.Identity(), dt)
	wantNear(t, "pushed", refBone(t, ref, "j1"), v3d{0.09948401711, 0.98985454090, 0}, 5e-8)
}

// Inertia is kept in the centre's space. With no force at all, the root
// raised 5 cm between the add (where the tails start) and the first step
// leaves a world-space tail behind, at (0.1, 1) seen from the head (0,
// 1.05): 10 cm along that direction is (0.0894427, 1.0052786). With the
// root bone as the centre the tail rides along: (0.1, 1.05).
func TestVRMRefCentreAndStartAtAdd(t *testing.T) {
	up := sway.At(mgl32.Vec3{0, 0.05, 0})
	for _, c := range []struct {
		centre string
		want   v3d
	}{{"", v3d{0.08944271910, 1.00527864045, 0}}, {"base", v3d{0.1, 1.05, 0}}} {
		r := handRig()
		r.Springs[0].Joints[0].GravityPower = 0
		r.Springs[0].Center = c.centre
		ref, err := newVRMRef(r, sway.Identity())
		if err != nil {
			t.Fatal(err)
		}
		ref.step(up, 1.0/60)
		wantNear(t, "centre "+c.centre, refBone(t, ref, "j1"), c.want, 5e-8)
	}
}

// The 0.x virtual tail is VirtualTail in the joint's local units along
// the direction from its parent: a joint 10 cm below its parent, scaled
// 0.5, has its tail 3.5 cm below it; unforced, it stays there.
func TestVRMRefVirtualTail(t *testing.T) {
	r := handRig()
	r.Skeleton.Bones[2].Pos = mgl32.Vec3{0, -0.1, 0}
	r.Skeleton.Bones[2].Scale = mgl32.Vec3{0.5, 0.5, 0.5}
	r.Springs[0] = sway.RigSpring{Name: "s", VirtualTail: gltfrig.VirtualTail0x, Joints: []sway.RigJoint{{Bone: "j1", Stiffness: 1, DragForce: 0.4}}}
	ref, err := newVRMRef(r, sway.Identity())
	if err != nil {
		t.Fatal(err)
	}
	for k := 0; k < 3; k++ {
		ref.step(sway.Identity(), 1.0/60)
	}
	_, pts := ref.tailPoints()
	wantNear(t, "virtual tail", pts[len(pts)-1], v3d{0, 0.865, 0}, 5e-8)
}

// refWalk runs the reference along the walk, the root's position times
// grow and its scale grow, and returns every point of every frame.
func refWalk(t *testing.T, r *sway.Rig, grow float32) [][]v3d {
	t.Helper()
	root := func(k int) sway.Transform {
		x := corpusRoot(k)
		x.Pos, x.Scale = x.Pos.Mul(grow), mgl32.Vec3{grow, grow, grow}
		return x
	}
	ref, err := newVRMRef(r, root(0))
	if err != nil {
		t.Fatal(err)
	}
	var out [][]v3d
	for k := 0; k < corpusFrames; k++ {
		ref.step(root(k), float64(corpusDt))
		_, pts := ref.tailPoints()
		out = append(out, pts)
	}
	return out
}

// The reference follows the scale rule. A scale a file has at rest
// changes nothing: each rest-scaled file and its twin move alike. A
// scale the game gives the root scales the motion exactly: the character
// at twice the size walking the doubled path is the same motion doubled.
func TestVRMRefScaleRule(t *testing.T) {
	for _, c := range gltfrig.Corpus() {
		if c.Twin == "" {
			continue
		}
		twin, _ := gltfrig.CorpusByName(c.Twin)
		a, b := refWalk(t, loadCorpusRig(t, c), 1), refWalk(t, loadCorpusRig(t, twin), 1)
		worst := 0.0
		for k := range a {
			for i := range a[k] {
				worst = max(worst, rLen(rSub(a[k][i], b[k][i])))
			}
		}
		t.Logf("%s and %s: %.3g m apart at most", c.Name, c.Twin, worst)
		if worst > 1e-6 {
			t.Errorf("%s and its twin %s move apart by %.3g m", c.Name, c.Twin, worst)
		}
	}
	for _, name := range []string{"vroid1", "univrm0-vroid"} {
		c, _ := gltfrig.CorpusByName(name)
		r := loadCorpusRig(t, c)
		a, b := refWalk(t, r, 1), refWalk(t, r, 2)
		worst := 0.0
		for k := range a {
			for i := range a[k] {
				worst = max(worst, rLen(rSub(rMul(a[k][i], 2), b[k][i])))
			}
		}
		t.Logf("%s at twice the size: %.3g m from the doubled motion", name, worst)
		if worst > 1e-9 || math.IsNaN(worst) {
			t.Errorf("%s at twice the size is %.3g m from the doubled motion", name, worst)
		}
	}
}

// handCase is a variation of handRig with the tail after its first step,
// worked by hand.
type handCase struct {
	name string
	rig  func() *sway.Rig
	want v3d
}

// handLimitCases are handRig's spring with a joint limit; unlimited, the
// first step puts the tail at (0.0986394, 0.9835601), 0.165 rad below +X.
//
//   - Cone of 0.1 rad: the bone axis is +X, which the shortest arc from +Y
//     (a quarter turn about -Z) makes the limit's +Y; the tail stops on
//     the cone, 0.1 rad below +X: (0.1 cos 0.1, 1 - 0.1 sin 0.1, 0).
//   - Hinge of 0.1 rad, gravity along (0, -0.6, -0.8): the same arc makes
//     the limit's X axis, the hinge's, world -Y, so the tail stays
//     level; the unlimited tail (0.1, 0.99, -0.01333) from the head turns
//     level to 0.133 rad from +X, and stops at 0.1 rad towards -Z:
//     (0.1 cos 0.1, 1, -0.1 sin 0.1).
//   - Spherical, pitch 0.05 and yaw 0.1, turned a quarter turn about +Y,
//     on a bone hanging straight down (j1 at (0, -0.1, 0)), gravity along
//     (0.6, 0, 0.8): the limit frame is the half turn about +X (the axis
//     is exactly -Y) then the quarter turn, so the limit's X, Y and Z are
//     world +Z, -Y and +X. The unlimited tail (0.01, 0.9, 0.01333) has
//     pitch atan2(0.01, 0.1) = 0.0997 and yaw asin(0.01333/0.10138) =
//     0.1319, each clamped: the tail is 0.1·(sin yaw, cos yaw cos pitch,
//     cos yaw sin pitch) in the limit frame, in the world
//     (0.1 cos 0.1 sin 0.05, 1 - 0.1 cos 0.1 cos 0.05, 0.1 sin 0.1).
func handLimitCases() []handCase {
	return []handCase{
		{"cone", func() *sway.Rig {
			r := handRig()
			r.Springs[0].Joints[0].Limit = spring.Limit{Kind: spring.ConeLimit, AngleDegrees: degrees(0.1)}
			return r
		}, v3d{0.09950041653, 0.99001665834, 0}},
		{"hinge", func() *sway.Rig {
			r := handRig()
			r.Springs[0].Joints[0].GravityDir = mgl32.Vec3{0, -0.6, -0.8}
			r.Springs[0].Joints[0].Limit = spring.Limit{Kind: spring.HingeLimit, AngleDegrees: degrees(0.1), Rotation: mgl32.QuatIdent()}
			return r
		}, v3d{0.09950041653, 1, -0.00998334166}},
		{"spherical", func() *sway.Rig {
			r := handRig()
			r.Skeleton.Bones[2].Pos = mgl32.Vec3{0, -0.1, 0}
			r.Springs[0].Joints[0].GravityDir = mgl32.Vec3{0.6, 0, 0.8}
			r.Springs[0].Joints[0].Limit = spring.Limit{Kind: spring.SphericalLimit, PitchDegrees: degrees(0.05), YawDegrees: degrees(0.1),
				Rotation: mgl32.Quat{W: float32(math.Sqrt(0.5)), V: mgl32.Vec3{0, float32(math.Sqrt(0.5)), 0}}}
			return r
		}, v3d{0.00497294816, 0.90062393308, 0.00998334166}},
	}
}

// handColliderCases are handRig's spring with an extended collider on
// the base (hit radius as given); the unlimited tail of the first step
// is t = (0.0986394, 0.9835601).
//
//   - Inside sphere about (0.05, 1, 0), radius 0.06, hit radius 0.01: t
//     is 0.0513426 from the centre, beyond 0.05, and is pushed back to
//     0.05 along that line, to (0.0973675, 0.9839900); the bone length
//     brings it out again, 0.1 from the head: (0.0986750, 0.9837750).
//   - Inside capsule along y = 0.99 from x = 0 to 0.2, radius 0.01, hit
//     radius 0.005: t is 0.0064399 below the axis, beyond 0.005, and is
//     pushed up to y = 0.985; the bone length: (0.0988634, 0.9849659).
//   - Plane y = 0.99 facing +Y, hit radius 0: t is pushed up onto it,
//     (0.0986394, 0.99), and the bone length takes it back below:
//     (0.0994900, 0.9899138).
func handColliderCases() []handCase {
	with := func(shape collide.Desc, hit float32) func() *sway.Rig {
		return func() *sway.Rig {
			r := handRig()
			r.Colliders = []sway.RigCollider{{Bone: "base", Shape: shape}}
			r.Springs[0].Colliders = []int{0}
			r.Springs[0].Joints[0].HitRadius = hit
			return r
		}
	}
	sphere := collide.NewSphere(mgl32.Vec3{0.05, 1, 0}, 0.06)
	sphere.Bound = collide.Inside
	capsule := collide.NewCapsule(mgl32.Vec3{0, 0.99, 0}, mgl32.Vec3{0.2, 0.99, 0}, 0.01, 0.01)
	capsule.Bound = collide.Inside
	return []handCase{
		{"inside sphere", with(sphere, 0.01), v3d{0.09867497002, 0.98377501026, 0}},
		{"inside capsule", with(capsule, 0.005), v3d{0.09886342492, 0.98496593158, 0}},
		{"plane", with(collide.NewPlane(mgl32.Vec3{0, 0.99, 0}, mgl32.Vec3{0, 1, 0}), 0), v3d{0.09949003871, 0.98991376201, 0}},
	}
}

// The reference's joint limits and extended colliders, worked by hand
// (handLimitCases, handColliderCases): the first step's tail. The rig's
// numbers are float32: 5e-8 m. Without its limit or collider, each tail
// goes elsewhere.
func TestVRMRefExtensionsHandWorked(t *testing.T) {
	first := func(r *sway.Rig) v3d {
		ref, err := newVRMRef(r, sway.Identity())
		if err != nil {
			t.Fatal(err)
		}
		ref.step(sway.Identity(), 1.0/60)
		return refBone(t, ref, "j1")
	}
	for _, c := range append(handLimitCases(), handColliderCases()...) {
		got := first(c.rig())
		wantNear(t, c.name, got, c.want, 5e-8)
		r := c.rig()
		r.Springs[0].Joints[0].Limit, r.Springs[0].Colliders = spring.Limit{}, nil
		if free := first(r); rLen(rSub(got, free)) < 1e-4 {
			t.Errorf("%s: the tail is at %v, where it goes without the limit or collider", c.name, free)
		}
	}
}
