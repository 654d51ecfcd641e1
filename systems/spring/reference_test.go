package spring

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/systems/collide"
)

// The reference scene, shared by the independent float64 model below and
// the production kernel:
//
//   - a root node (the chain's parent bone) with identity rotation and unit
//     scale, at (0.3*sin(2π t), 0, 0), t = f/60 for frame f; frame 0 is the
//     rest pose (ResetVRM), frames 1..120 are steps of dt = 1/60;
//   - joints j0..j4, each node the child of the previous, j0 the child of
//     the root: j0 at local (0,0,0) (on the root), j1..j4 at local
//     (0,0.1,0), all with identity rest rotation and unit scale;
//   - a sixth node at local (0,0.1,0) under j4 is j4's tail (HasTail; no
//     virtual tail), so the rest tails are at y = 0.1, 0.2, ..., 0.5;
//   - every joint: stiffness 0.5, gravityPower 1, gravityDir (0,-1,0),
//     dragForce 0.3, hitRadius 0.02;
//   - one sphere collider on the root: offset (-0.12,0.25,0), radius 0.05;
//   - no centre (inertia in world space).
const (
	refJoints = 5
	refFrames = 120
	refDt     = 1.0 / 60
)

func refRootX(f int) float64 { return 0.3 * math.Sin(2*math.Pi*float64(f)/60) }

// refTails are the world positions (x, y) of the tails of j0..j4 after
// frames 1, 10, 60 and 120, from vrmReference64 (z stays 0: the scene is
// planar).
var refTails = map[int][refJoints][2]float64{
	1:   {{-0.0010092031112295, 0.0946167494257570}, {-0.0027564371621993, 0.1946014841264659}, {-0.0000676001412684, 0.2945653283676458}, {0.0002327846245529, 0.3945648772115904}, {0.0000188316512498, 0.4945646483319545}},
	10:  {{0.1995838204720357, -0.0798316593443203}, {0.1460040469396277, -0.1642662960061540}, {0.0471971483363526, -0.1796674903884775}, {0.0555508846619087, -0.0800170258165394}, {0.1547989434160306, -0.0677768120300735}},
	60:  {{-0.0777755077377765, -0.0628567450329010}, {-0.1391644972953390, -0.1417959112376532}, {-0.1951305994305156, -0.2246680743070155}, {-0.2478571946234308, -0.3096381052553590}, {-0.2952043488208594, -0.3977190168617049}},
	120: {{-0.0777754657910737, -0.0628567969354279}, {-0.1391643647883743, -0.1417960335665180}, {-0.1951303623482258, -0.2246682672586944}, {-0.2478576350282689, -0.3096378778010782}, {-0.2952046725922903, -0.3977188521026329}},
}

// vrmReference64 is a straightforward float64 model of the scene written
// from the VRMC_springBone 1.0 algorithm, sharing no code with the kernel.
// It returns the world tails (x, y, z) after each frame and the number of
// collider pushes.
func vrmReference64() (out [refFrames + 1][refJoints][3]float64, hits int) {
	type vec [3]float64
	type quat [4]float64 // w, x, y, z
	add := func(a, b vec) vec { return vec{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }
	sub := func(a, b vec) vec { return vec{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }
	scl := func(a vec, k float64) vec { return vec{a[0] * k, a[1] * k, a[2] * k} }
	length := func(a vec) float64 { return math.Sqrt(a[0]*a[0] + a[1]*a[1] + a[2]*a[2]) }
	unit := func(a vec) vec { return scl(a, 1/length(a)) }
	qmul := func(a, b quat) quat {
		return quat{
			a[0]*b[0] - a[1]*b[1] - a[2]*b[2] - a[3]*b[3],
			a[0]*b[1] + a[1]*b[0] + a[2]*b[3] - a[3]*b[2],
			a[0]*b[2] - a[1]*b[3] + a[2]*b[0] + a[3]*b[1],
			a[0]*b[3] + a[1]*b[2] - a[2]*b[1] + a[3]*b[0],
		}
	}
	conj := func(q quat) quat { return quat{q[0], -q[1], -q[2], -q[3]} }
	rotate := func(q quat, v vec) vec { // q v q*
		r := qmul(qmul(q, quat{0, v[0], v[1], v[2]}), conj(q))
		return vec{r[1], r[2], r[3]}
	}
	fromTo := func(a, b vec) quat { // shortest arc, a and b unit, not opposite
		c := vec{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
		w := 1 + a[0]*b[0] + a[1]*b[1] + a[2]*b[2]
		n := math.Sqrt(w*w + c[0]*c[0] + c[1]*c[1] + c[2]*c[2])
		return quat{w / n, c[0] / n, c[1] / n, c[2] / n}
	}

	localPos := [refJoints]vec{{0, 0, 0}, {0, 0.1, 0}, {0, 0.1, 0}, {0, 0.1, 0}, {0, 0.1, 0}}
	axis := vec{0, 1, 0}
	const boneLength = 0.1
	stiffness, gravityPower, drag, hitRadius := 0.5, 1.0, 0.3, 0.02
	gravityDir := vec{0, -1, 0}
	colliderOffset, colliderRadius := vec{-0.12, 0.25, 0}, 0.05

	var cur, prev [refJoints]vec
	for i := range refJoints { // rest: tails straight up from the origin
		cur[i] = vec{0, 0.1 * float64(i+1), 0}
		prev[i] = cur[i]
		out[0][i] = cur[i]
	}
	for f := 1; f <= refFrames; f++ {
		root := vec{refRootX(f), 0, 0}
		centre := add(root, colliderOffset)
		parentPos, parentRot := root, quat{1, 0, 0, 0}
		for i := range refJoints {
			head := add(parentPos, rotate(parentRot, localPos[i]))
			restRot := parentRot // parent world rotation * identity initial local rotation
			restDir := rotate(restRot, axis)
			next := add(cur[i], scl(sub(cur[i], prev[i]), 1-drag))
			next = add(next, scl(restDir, stiffness*refDt))
			next = add(next, scl(gravityDir, gravityPower*refDt))
			next = add(head, scl(unit(sub(next, head)), boneLength))
			if d := sub(next, centre); length(d) < colliderRadius+hitRadius {
				hits++
				next = add(centre, scl(unit(d), colliderRadius+hitRadius))
				next = add(head, scl(unit(sub(next, head)), boneLength))
			}
			prev[i], cur[i] = cur[i], next
			to := unit(rotate(conj(restRot), sub(next, head)))
			local := fromTo(axis, to)
			parentPos, parentRot = head, qmul(parentRot, local)
			out[f][i] = next
		}
	}
	return out, hits
}

func refChain(tb testing.TB) *VRMChain {
	tb.Helper()
	d := VRMChainDesc{HasTail: true, Tail: mgl32.Vec3{0, 0.1, 0}}
	for i := range refJoints {
		j := VRMJointDesc{
			LocalRot: mgl32.QuatIdent(), Stiffness: 0.5, GravityPower: 1,
			GravityDir: mgl32.Vec3{0, -1, 0}, DragForce: 0.3, HitRadius: 0.02,
		}
		if i > 0 {
			j.LocalPos = mgl32.Vec3{0, 0.1, 0}
		}
		d.Joints = append(d.Joints, j)
	}
	c, err := NewVRMChain(&d)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

func TestVRMReferenceModelIsReproducible(t *testing.T) {
	out, hits := vrmReference64()
	if hits == 0 {
		t.Fatal("the reference scene never touches the collider; it must exercise collisions")
	}
	for f, want := range refTails {
		for i := range refJoints {
			got := out[f][i]
			if math.Abs(got[0]-want[i][0]) > 1e-12 || math.Abs(got[1]-want[i][1]) > 1e-12 || got[2] != 0 {
				t.Errorf("frame %d joint %d: float64 model gives %.16f, literal %.16f", f, i, got, want[i])
			}
		}
	}
}

func TestVRMMatchesReference(t *testing.T) {
	c := refChain(t)
	s := c.NewState()
	rot := make([]mgl32.Quat, c.Len())
	one := mgl32.Vec3{1, 1, 1}
	ResetVRM(&s, c, mgl32.Vec3{}, mgl32.QuatIdent(), one, mgl32.Vec3{}, mgl32.QuatIdent())
	desc := collide.NewSphere(mgl32.Vec3{-0.12, 0.25, 0}, 0.05)
	shapes := make([]collide.Shape, 1)
	model, _ := vrmReference64()
	worst := 0.0
	for f := 1; f <= refFrames; f++ {
		root := mgl32.Vec3{float32(refRootX(f)), 0, 0}
		collide.ToWorld(&shapes[0], &desc, root, mgl32.QuatIdent(), one)
		StepVRM(rot, &s, c, root, mgl32.QuatIdent(), one, mgl32.Vec3{}, mgl32.QuatIdent(), shapes, refDt)
		for i := range refJoints {
			for k := range 3 {
				worst = max(worst, math.Abs(float64(s.CurTail[i][k])-model[f][i][k]))
			}
		}
		want, ok := refTails[f]
		if !ok {
			continue
		}
		for i := range refJoints {
			got := s.CurTail[i]
			if math.Abs(float64(got[0])-want[i][0]) > 1e-5 || math.Abs(float64(got[1])-want[i][1]) > 1e-5 || math.Abs(float64(got[2])) > 1e-5 {
				t.Errorf("frame %d joint %d: tail %v, reference (%.7f, %.7f, 0)", f, i, got, want[i][0], want[i][1])
			}
		}
	}
	if worst > 1e-5 {
		t.Errorf("largest deviation from the float64 model over all frames: %g, want <= 1e-5", worst)
	}
}
