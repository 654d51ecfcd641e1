package spring

import (
	"errors"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/internal/mathx"
	"github.com/sway-anim/sway/systems/collide"
)

func TestVRMRestStaysRest(t *testing.T) {
	// A bent chain (rest rotations of 20° about Z) on a rotated, scaled,
	// translated parent: with no gravity and no motion nothing moves.
	d := VRMChainDesc{VirtualTail: 0.05}
	bend := mgl32.QuatRotate(0.35, mgl32.Vec3{0, 0, 1})
	for i := range 4 {
		j := VRMJointDesc{LocalRot: bend, Stiffness: 0.8, DragForce: 0.4, HitRadius: 0.02}
		if i > 0 {
			j.LocalPos = mgl32.Vec3{0, 0.1, 0}
		}
		d.Joints = append(d.Joints, j)
	}
	c, err := NewVRMChain(&d)
	if err != nil {
		t.Fatal(err)
	}
	pPos, pRot, pScale := mgl32.Vec3{1, 2, 3}, mgl32.QuatRotate(0.7, mgl32.Vec3{1, 1, 0}.Normalize()), mgl32.Vec3{1.5, 1.5, 1.5}
	s := c.NewState()
	ResetVRM(&s, c, pPos, pRot, pScale, mgl32.Vec3{}, mgl32.QuatIdent())
	rest := append([]mgl32.Vec3(nil), s.CurTail...)
	rot := make([]mgl32.Quat, c.Len())
	for range 100 {
		StepVRM(rot, &s, c, pPos, pRot, pScale, mgl32.Vec3{}, mgl32.QuatIdent(), nil, 1.0/60)
	}
	for i := range rest {
		if dd := dist(s.CurTail[i], rest[i]); dd > 1e-5 {
			t.Errorf("tail %d moved by %v", i, dd)
		}
		if a := mathx.AngleBetween(rot[i], bend); a > 1e-3 {
			t.Errorf("joint %d: local rotation %v is %v rad from the rest rotation", i, rot[i], a)
		}
	}
}

func TestVRMGravityBends(t *testing.T) {
	// A horizontal chain with gravity and no stiffness falls, keeping its
	// bone lengths.
	c := straightVRM(t, 4, 0.1, mgl32.Vec3{1, 0, 0}, VRMJointDesc{GravityPower: 1, GravityDir: mgl32.Vec3{0, -1, 0}, DragForce: 0.2})
	s := c.NewState()
	ResetVRM(&s, c, mgl32.Vec3{}, mgl32.QuatIdent(), one, mgl32.Vec3{}, mgl32.QuatIdent())
	rot := make([]mgl32.Quat, c.Len())
	for range 30 {
		StepVRM(rot, &s, c, mgl32.Vec3{}, mgl32.QuatIdent(), one, mgl32.Vec3{}, mgl32.QuatIdent(), nil, 1.0/60)
	}
	heads := worldHeads(c, rot, mgl32.Vec3{}, mgl32.QuatIdent(), one)
	for i := range heads {
		if l := dist(s.CurTail[i], heads[i]); math.Abs(float64(l-0.1)) > 1e-5 {
			t.Errorf("bone %d length %v, want 0.1", i, l)
		}
		if s.CurTail[i][1] >= heads[i][1] {
			t.Errorf("bone %d: tail %v not below head %v", i, s.CurTail[i], heads[i])
		}
	}
	if tip := s.CurTail[3]; tip[1] > -0.1 {
		t.Errorf("tip %v has hardly fallen", tip)
	}
}

func TestVRMStiffnessRestores(t *testing.T) {
	c := straightVRM(t, 3, 0.1, mgl32.Vec3{0, 1, 0}, VRMJointDesc{Stiffness: 1, DragForce: 0.4})
	s := c.NewState()
	ResetVRM(&s, c, mgl32.Vec3{}, mgl32.QuatIdent(), one, mgl32.Vec3{}, mgl32.QuatIdent())
	rest := append([]mgl32.Vec3(nil), s.CurTail...)
	// Knock the first bone 60° sideways.
	bent := mgl32.Vec3{float32(0.1 * math.Sin(math.Pi/3)), float32(0.1 * math.Cos(math.Pi/3)), 0}
	s.CurTail[0], s.PrevTail[0] = bent, bent
	rot := make([]mgl32.Quat, c.Len())
	StepVRM(rot, &s, c, mgl32.Vec3{}, mgl32.QuatIdent(), one, mgl32.Vec3{}, mgl32.QuatIdent(), nil, 1.0/60)
	first := dist(s.CurTail[0], rest[0])
	for range 300 {
		StepVRM(rot, &s, c, mgl32.Vec3{}, mgl32.QuatIdent(), one, mgl32.Vec3{}, mgl32.QuatIdent(), nil, 1.0/60)
	}
	if first < 0.05 {
		t.Fatalf("the knocked bone snapped back in one step (%v): the test shows nothing", first)
	}
	for i := range rest {
		if dd := dist(s.CurTail[i], rest[i]); dd > 1e-3 {
			t.Errorf("tail %d still %v from rest after 300 steps", i, dd)
		}
	}
}

// colliderScene builds a chain hanging from (0,1,0) along +X that falls
// under gravity onto a sphere, a capsule and a plane below it.
func colliderScene(t *testing.T, strict bool) (*VRMChain, []collide.Shape) {
	d := VRMChainDesc{HasTail: true, Tail: mgl32.Vec3{0.1, 0, 0}, StrictCollision: strict}
	for i := range 6 {
		j := VRMJointDesc{LocalRot: mgl32.QuatIdent(), GravityPower: 2, GravityDir: mgl32.Vec3{0, -1, 0}, DragForce: 0.1, HitRadius: 0.02}
		if i > 0 {
			j.LocalPos = mgl32.Vec3{0.1, 0, 0}
		}
		d.Joints = append(d.Joints, j)
	}
	c, err := NewVRMChain(&d)
	if err != nil {
		t.Fatal(err)
	}
	return c, []collide.Shape{
		{Kind: collide.Sphere, A: mgl32.Vec3{0.2, 0.9, 0}, B: mgl32.Vec3{0.2, 0.9, 0}, RA: 0.06, RB: 0.06},
		{Kind: collide.Capsule, A: mgl32.Vec3{0.45, 0.85, -0.2}, B: mgl32.Vec3{0.45, 0.85, 0.2}, RA: 0.05, RB: 0.05},
		{Kind: collide.Plane, A: mgl32.Vec3{0, 0.55, 0}, N: mgl32.Vec3{0, 1, 0}},
	}
}

// deepestPenetration runs the collider scene for 200 frames and returns
// how far the worst tail (as a sphere of the hit radius) got into a
// collider, and which colliders were touched.
func deepestPenetration(t *testing.T, strict bool) (float32, []bool) {
	const r = 0.02
	c, shapes := colliderScene(t, strict)
	root := mgl32.Vec3{0, 1, 0}
	s := c.NewState()
	ResetVRM(&s, c, root, mgl32.QuatIdent(), one, mgl32.Vec3{}, mgl32.QuatIdent())
	rot := make([]mgl32.Quat, c.Len())
	touched := make([]bool, len(shapes))
	worst := float32(0)
	for range 200 {
		StepVRM(rot, &s, c, root, mgl32.QuatIdent(), one, mgl32.Vec3{}, mgl32.QuatIdent(), shapes, 1.0/60)
		allFinite(t, "collider scene", s.CurTail, rot)
		for _, p := range s.CurTail {
			for k := range shapes {
				d := shapeDistance(p, &shapes[k]) - r
				worst = max(worst, -d)
				if d < 1e-3 {
					touched[k] = true
				}
			}
		}
	}
	return worst, touched
}

func TestVRMCollidersPushOut(t *testing.T) {
	worst, touched := deepestPenetration(t, true)
	if worst > 1e-4 {
		t.Errorf("StrictCollision: a tail got %v into a collider, want none", worst)
	}
	for k, ok := range touched {
		if !ok {
			t.Errorf("collider %d never touched: the scene does not test it", k)
		}
	}
	// The reference model (one push, then back to bone length) leaves
	// tails inside in this scene: the reason StrictCollision exists.
	if worst, _ := deepestPenetration(t, false); worst < 0.01 {
		t.Errorf("reference collision penetrates only %v: the scene is too easy to show the difference", worst)
	}
}

func TestVRMInsideColliderKeepsTailsIn(t *testing.T) {
	// A chain pulled sideways inside a sphere stays in it.
	const r = 0.02
	for _, strict := range []bool{false, true} {
		d := VRMChainDesc{HasTail: true, Tail: mgl32.Vec3{0, -0.1, 0}, StrictCollision: strict}
		for i := range 5 {
			j := VRMJointDesc{LocalRot: mgl32.QuatIdent(), GravityPower: 3, GravityDir: mgl32.Vec3{1, 0, 0}, DragForce: 0.1, HitRadius: r}
			if i > 0 {
				j.LocalPos = mgl32.Vec3{0, -0.1, 0}
			}
			d.Joints = append(d.Joints, j)
		}
		c, err := NewVRMChain(&d)
		if err != nil {
			t.Fatal(err)
		}
		in := collide.Shape{Kind: collide.Sphere, Bound: collide.Inside, A: mgl32.Vec3{0, -0.25, 0}, B: mgl32.Vec3{0, -0.25, 0}, RA: 0.3, RB: 0.3}
		s := c.NewState()
		ResetVRM(&s, c, mgl32.Vec3{}, mgl32.QuatIdent(), one, mgl32.Vec3{}, mgl32.QuatIdent())
		rot := make([]mgl32.Quat, c.Len())
		pushed := false
		for f := range 200 {
			StepVRM(rot, &s, c, mgl32.Vec3{}, mgl32.QuatIdent(), one, mgl32.Vec3{}, mgl32.QuatIdent(), []collide.Shape{in}, 1.0/60)
			for i, p := range s.CurTail {
				// Strict: the tail's hit sphere stays in; reference: at
				// least the tail itself does.
				limit := in.RA + 1e-5
				if strict {
					limit = in.RA - r + 1e-5
				}
				dd := dist(p, in.A)
				if dd > limit {
					t.Fatalf("strict=%v frame %d: tail %d at %v leaves the inside sphere (%v > %v)", strict, f, i, p, dd, limit)
				}
				if dd > in.RA-r-1e-3 {
					pushed = true
				}
			}
		}
		if !pushed {
			t.Errorf("strict=%v: no tail reached the wall: the scene does not test it", strict)
		}
	}
}

func TestVRMCentreSpace(t *testing.T) {
	// The root moves (without rotating) a lot; with the root as centre the
	// chain does not move relative to it, without a centre it swings.
	tmpl := VRMJointDesc{Stiffness: 0.5, DragForce: 0.3}
	for _, withCentre := range []bool{true, false} {
		c := straightVRM(t, 4, 0.1, mgl32.Vec3{0, 1, 0}, tmpl)
		s := c.NewState()
		rootAt := func(f int) mgl32.Vec3 {
			x := float32(f) / 60
			return mgl32.Vec3{float32(math.Sin(float64(3 * x))), 0.5 * x, float32(math.Cos(float64(2 * x)))}
		}
		centre := func(f int) mgl32.Vec3 {
			if withCentre {
				return rootAt(f)
			}
			return mgl32.Vec3{}
		}
		ResetVRM(&s, c, rootAt(0), mgl32.QuatIdent(), one, centre(0), mgl32.QuatIdent())
		rot := make([]mgl32.Quat, c.Len())
		worst := float32(0)
		for f := 1; f <= 120; f++ {
			root := rootAt(f)
			StepVRM(rot, &s, c, root, mgl32.QuatIdent(), one, centre(f), mgl32.QuatIdent(), nil, 1.0/60)
			for i := range s.CurTail {
				world := s.CurTail[i].Add(centre(f))
				want := root.Add(mgl32.Vec3{0, 0.1 * float32(i+1), 0})
				worst = max(worst, dist(world, want))
			}
		}
		if withCentre && worst > 1e-5 {
			t.Errorf("with the root as centre the chain moved by %v relative to the root", worst)
		}
		if !withCentre && worst < 1e-2 {
			t.Errorf("without a centre the chain moved only %v: the scene does not test inertia", worst)
		}
	}
}

// runScaledReference runs the reference scene scaled by k about the origin
// (root path, rig, collider) and returns the tails relative to the root.
func runScaledReference(t *testing.T, k float32) [][]mgl32.Vec3 {
	c := refChain(t)
	s := c.NewState()
	scale := mgl32.Vec3{k, k, k}
	ResetVRM(&s, c, mgl32.Vec3{}, mgl32.QuatIdent(), scale, mgl32.Vec3{}, mgl32.QuatIdent())
	desc := collide.NewSphere(mgl32.Vec3{-0.12, 0.25, 0}, 0.05)
	shapes := make([]collide.Shape, 1)
	rot := make([]mgl32.Quat, c.Len())
	var out [][]mgl32.Vec3
	for f := 1; f <= refFrames; f++ {
		root := mgl32.Vec3{k * float32(refRootX(f)), 0, 0}
		collide.ToWorld(&shapes[0], &desc, root, mgl32.QuatIdent(), scale)
		StepVRM(rot, &s, c, root, mgl32.QuatIdent(), scale, mgl32.Vec3{}, mgl32.QuatIdent(), shapes, refDt)
		rel := make([]mgl32.Vec3, c.Len())
		for i := range rel {
			rel[i] = s.CurTail[i].Sub(root)
		}
		out = append(out, rel)
	}
	return out
}

func TestVRMScaledRigMovesScaled(t *testing.T) {
	base := runScaledReference(t, 1)
	for _, k := range []float32{0.5, 2} {
		got := runScaledReference(t, k)
		for f := range got {
			for i := range got[f] {
				if d := dist(got[f][i], base[f][i].Mul(k)); d > 1e-5 {
					t.Fatalf("scale %v frame %d tail %d: %v, want %v (off by %v)", k, f+1, i, got[f][i], base[f][i].Mul(k), d)
				}
			}
		}
	}
}

func TestVRMZeroDt(t *testing.T) {
	c := refChain(t)
	s := c.NewState()
	ResetVRM(&s, c, mgl32.Vec3{}, mgl32.QuatIdent(), one, mgl32.Vec3{}, mgl32.QuatIdent())
	rest := append([]mgl32.Vec3(nil), s.CurTail...)
	rot := make([]mgl32.Quat, c.Len())
	for _, dt := range []float32{0, float32(math.NaN()), float32(math.Inf(1)), -1} {
		StepVRM(rot, &s, c, mgl32.Vec3{}, mgl32.QuatIdent(), one, mgl32.Vec3{}, mgl32.QuatIdent(), nil, dt)
		allFinite(t, "zero dt", s.CurTail, rot)
		for i := range rest {
			if d := dist(s.CurTail[i], rest[i]); d > 1e-6 {
				t.Errorf("dt=%v: tail %d moved by %v without time passing", dt, i, d)
			}
		}
	}
}

func TestVRMZeroLengthBone(t *testing.T) {
	// Joint 1 sits on joint 0 (joint 0 has a zero-length bone) and the last
	// joint has a zero tail.
	d := VRMChainDesc{HasTail: true}
	for i := range 3 {
		j := VRMJointDesc{LocalRot: mgl32.QuatIdent(), Stiffness: 1, GravityPower: 1, GravityDir: mgl32.Vec3{0, -1, 0}, DragForce: 0.4, HitRadius: 0.02}
		if i == 2 {
			j.LocalPos = mgl32.Vec3{0, 0.1, 0}
		}
		d.Joints = append(d.Joints, j)
	}
	c, err := NewVRMChain(&d)
	if err != nil {
		t.Fatal(err)
	}
	s := c.NewState()
	ResetVRM(&s, c, mgl32.Vec3{}, mgl32.QuatIdent(), one, mgl32.Vec3{}, mgl32.QuatIdent())
	rot := make([]mgl32.Quat, c.Len())
	shapes := []collide.Shape{{Kind: collide.Sphere, RA: 0.05, RB: 0.05}}
	for f := range 60 {
		root := mgl32.Vec3{float32(math.Sin(float64(f))) * 0.1, 0, 0}
		StepVRM(rot, &s, c, root, mgl32.QuatIdent(), one, mgl32.Vec3{}, mgl32.QuatIdent(), shapes, 1.0/60)
		allFinite(t, "zero-length bone", s.CurTail, rot)
	}
}

func TestVRMCoincidentColliders(t *testing.T) {
	// Two identical spheres, a capsule with coincident ends, all centred on
	// a rest tail, and a zero parent scale: finite results, tails pushed out.
	d := VRMChainDesc{HasTail: true, Tail: mgl32.Vec3{0, 0.1, 0}, StrictCollision: true}
	for i := range 3 {
		j := VRMJointDesc{LocalRot: mgl32.QuatIdent(), Stiffness: 1, DragForce: 0.4, HitRadius: 0.01}
		if i > 0 {
			j.LocalPos = mgl32.Vec3{0, 0.1, 0}
		}
		d.Joints = append(d.Joints, j)
	}
	c, err := NewVRMChain(&d)
	if err != nil {
		t.Fatal(err)
	}
	p := mgl32.Vec3{0, 0.2, 0}
	shapes := []collide.Shape{
		{Kind: collide.Sphere, A: p, B: p, RA: 0.03, RB: 0.03},
		{Kind: collide.Sphere, A: p, B: p, RA: 0.03, RB: 0.03},
		{Kind: collide.Capsule, A: p, B: p, RA: 0.03, RB: 0.03},
	}
	s := c.NewState()
	ResetVRM(&s, c, mgl32.Vec3{}, mgl32.QuatIdent(), one, mgl32.Vec3{}, mgl32.QuatIdent())
	rot := make([]mgl32.Quat, c.Len())
	for range 10 {
		StepVRM(rot, &s, c, mgl32.Vec3{}, mgl32.QuatIdent(), one, mgl32.Vec3{}, mgl32.QuatIdent(), shapes, 1.0/60)
		allFinite(t, "coincident colliders", s.CurTail, rot)
	}
	if d := dist(s.CurTail[1], p); d < 0.03 {
		t.Errorf("tail 1 at %v is inside the colliders (distance %v)", s.CurTail[1], d)
	}
	StepVRM(rot, &s, c, mgl32.Vec3{}, mgl32.QuatIdent(), mgl32.Vec3{}, mgl32.Vec3{}, mgl32.QuatIdent(), shapes, 1.0/60)
	allFinite(t, "zero scale", s.CurTail, rot)
}

func TestVRMVirtualTail(t *testing.T) {
	for _, tc := range []struct {
		length, want float32
	}{{0, 0.17}, {0.05, 0.15}} {
		d := VRMChainDesc{VirtualTail: tc.length, Joints: []VRMJointDesc{
			{LocalRot: mgl32.QuatIdent()},
			{LocalPos: mgl32.Vec3{0, 0.1, 0}, LocalRot: mgl32.QuatRotate(math.Pi/2, mgl32.Vec3{0, 0, 1})},
		}}
		c, err := NewVRMChain(&d)
		if err != nil {
			t.Fatal(err)
		}
		s := c.NewState()
		ResetVRM(&s, c, mgl32.Vec3{}, mgl32.QuatIdent(), one, mgl32.Vec3{}, mgl32.QuatIdent())
		// 7 cm (or 5) further along parent→joint (+Y), whatever the joint's
		// own rotation.
		if got := s.CurTail[1]; dist(got, mgl32.Vec3{0, tc.want, 0}) > 1e-6 {
			t.Errorf("VirtualTail=%v: tail %v, want (0, %v, 0)", tc.length, got, tc.want)
		}
	}
}

func TestVRMLimits(t *testing.T) {
	// One joint along +Y, gravity pulling along (1, -0.2, 1): the tail
	// direction is clamped by each limit.
	cases := []struct {
		name  string
		limit Limit
		check func(u mgl32.Vec3) bool // u: unit tail direction (limit frame = world here)
	}{
		{"cone 30°", Limit{Kind: ConeLimit, AngleDegrees: 30}, func(u mgl32.Vec3) bool {
			return u[1] >= float32(math.Cos(math.Pi/6))-1e-5
		}},
		{"hinge 45°", Limit{Kind: HingeLimit, AngleDegrees: 45}, func(u mgl32.Vec3) bool {
			return math.Abs(float64(u[0])) < 1e-5 && u[1] >= float32(math.Cos(math.Pi/4))-1e-5
		}},
		{"spherical 20°/40°", Limit{Kind: SphericalLimit, PitchDegrees: 20, YawDegrees: 40}, func(u mgl32.Vec3) bool {
			phi := math.Atan2(float64(u[2]), float64(u[1]))
			return math.Abs(float64(u[0])) <= math.Sin(40*math.Pi/180)+1e-5 && math.Abs(phi) <= 20*math.Pi/180+1e-4
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := straightVRM(t, 1, 0.1, mgl32.Vec3{0, 1, 0}, VRMJointDesc{
				GravityPower: 3, GravityDir: mgl32.Vec3{1, -0.2, 1}, DragForce: 0.3, Limit: tc.limit})
			s := c.NewState()
			ResetVRM(&s, c, mgl32.Vec3{}, mgl32.QuatIdent(), one, mgl32.Vec3{}, mgl32.QuatIdent())
			rot := make([]mgl32.Quat, 1)
			for f := range 100 {
				StepVRM(rot, &s, c, mgl32.Vec3{}, mgl32.QuatIdent(), one, mgl32.Vec3{}, mgl32.QuatIdent(), nil, 1.0/60)
				u := s.CurTail[0].Mul(10)
				if !tc.check(u) {
					t.Fatalf("frame %d: tail direction %v breaks the limit", f, u)
				}
			}
			// The limit binds: without it the tail would be elsewhere.
			u := s.CurTail[0].Mul(10)
			free := mgl32.Vec3{1, -0.2, 1}.Normalize()
			if u.Sub(free).Len() < 0.1 {
				t.Errorf("tail %v reached the free direction: the limit did nothing", u)
			}
		})
	}
}

// A limit on a bone pointing exactly -Y (a hair bone with the identity
// rotation and its child straight below, the common case) turns its frame
// as VRMC_springBone_limit requires: +Y onto -Y by the half turn about +X,
// then by the limit's rotation. Hand-worked: a cone of 12° turned 36°
// about X has its axis at Rx(180°)·Rx(36°)·(0, 1, 0) =
// (0, -cos 36°, -sin 36°), back and down; gravity straight down (36° from
// that axis) holds the tail on the cone's edge nearest -Y, at
// (0, -cos 24°, -sin 24°). A half turn about Z instead (the shortest-arc
// construction's choice) would tilt the cone forward, to +Z.
func TestVRMLimitFrameOnADownwardBone(t *testing.T) {
	rad := func(deg float64) float64 { return deg * math.Pi / 180 }
	cone := Limit{Kind: ConeLimit, AngleDegrees: 12, Rotation: mgl32.QuatRotate(float32(rad(36)), mgl32.Vec3{1, 0, 0})}
	c := straightVRM(t, 1, 0.1, mgl32.Vec3{0, -1, 0}, VRMJointDesc{
		GravityPower: 2, GravityDir: mgl32.Vec3{0, -1, 0}, DragForce: 0.4, Limit: cone})
	s := c.NewState()
	ResetVRM(&s, c, mgl32.Vec3{}, mgl32.QuatIdent(), one, mgl32.Vec3{}, mgl32.QuatIdent())
	axis := mgl32.Vec3{0, float32(-math.Cos(rad(36))), float32(-math.Sin(rad(36)))}
	rot := make([]mgl32.Quat, 1)
	for f := range 300 {
		StepVRM(rot, &s, c, mgl32.Vec3{}, mgl32.QuatIdent(), one, mgl32.Vec3{}, mgl32.QuatIdent(), nil, 1.0/60)
		u := s.CurTail[0].Normalize()
		if a := math.Acos(float64(mathx.Clamp(u.Dot(axis), -1, 1))); a > rad(12)+1e-4 {
			t.Fatalf("frame %d: tail %v is %.4g° from the cone's axis %v (angle 12°)", f, u, a*180/math.Pi, axis)
		}
	}
	want := mgl32.Vec3{0, float32(-math.Cos(rad(24))), float32(-math.Sin(rad(24)))}
	if u := s.CurTail[0].Normalize(); dist(u, want) > 1e-3 {
		t.Errorf("tail settles at %v, want %v", u, want)
	}
}

func TestVRMFixedStepAtReferenceRateMatchesDefault(t *testing.T) {
	run := func(fixed float32) []mgl32.Vec3 {
		d := VRMChainDesc{FixedStep: fixed, HasTail: true, Tail: mgl32.Vec3{0, 0.1, 0}}
		for i := range 4 {
			j := VRMJointDesc{LocalRot: mgl32.QuatIdent(), Stiffness: 0.7, GravityPower: 1, GravityDir: mgl32.Vec3{0, -1, 0}, DragForce: 0.3}
			if i > 0 {
				j.LocalPos = mgl32.Vec3{0, 0.1, 0}
			}
			d.Joints = append(d.Joints, j)
		}
		c, err := NewVRMChain(&d)
		if err != nil {
			t.Fatal(err)
		}
		s := c.NewState()
		ResetVRM(&s, c, mgl32.Vec3{}, mgl32.QuatIdent(), one, mgl32.Vec3{}, mgl32.QuatIdent())
		rot := make([]mgl32.Quat, c.Len())
		for f := 1; f <= 60; f++ {
			root := mgl32.Vec3{float32(refRootX(f)), 0, 0}
			StepVRM(rot, &s, c, root, mgl32.QuatIdent(), one, mgl32.Vec3{}, mgl32.QuatIdent(), nil, 1.0/60)
		}
		return s.CurTail
	}
	a, b := run(0), run(1.0/60)
	for i := range a {
		if d := dist(a[i], b[i]); d > 1e-5 {
			t.Errorf("tail %d: default %v, fixed 1/60 %v", i, a[i], b[i])
		}
	}
}

func TestDragAndForcePerStep(t *testing.T) {
	// Hand-worked: 1 - (1-0.4)^(60/120) = 1 - √0.6 = 0.2254033307585166.
	if got := DragPerStep(0.4, 1.0/120); math.Abs(float64(got)-0.2254033307585166) > 1e-7 {
		t.Errorf("DragPerStep(0.4, 1/120) = %v, want 0.2254033", got)
	}
	if got := DragPerStep(0.3, 1.0/60); math.Abs(float64(got)-0.3) > 1e-7 {
		t.Errorf("DragPerStep(0.3, 1/60) = %v, want 0.3", got)
	}
	if got := ForcePerStep(0.3, 1.0/60); math.Abs(float64(got)-1.0/60) > 1e-8 {
		t.Errorf("ForcePerStep(0.3, 1/60) = %v, want 1/60", got)
	}
	if got := DragPerStep(1, 1.0/120); got != 1 {
		t.Errorf("DragPerStep(1, h) = %v, want 1", got)
	}
	// The velocity after 1/60 s of constant force from rest is the same
	// whether taken in one reference step or in n steps of h (velocity per
	// second: per-step displacement / step).
	const F = 2.5
	for _, drag := range []float32{0, 0.05, 0.4, 0.9} {
		for _, n := range []int{2, 3, 4, 8} {
			h := float32(1.0/60) / float32(n)
			ref := F * (1.0 / 60) / (1.0 / 60) // one step from rest: v = F*dt per step
			dh, a := float64(DragPerStep(drag, h)), float64(ForcePerStep(drag, h))*F
			v := 0.0
			for range n {
				v = v*(1-dh) + a
			}
			if got := v / float64(h); math.Abs(got-ref)/ref > 1e-4 {
				t.Errorf("drag %v, %d steps: velocity %v per s, reference %v", drag, n, got, ref)
			}
		}
	}
}

func TestVRMChainDescValidate(t *testing.T) {
	good := func() VRMChainDesc {
		return VRMChainDesc{Joints: []VRMJointDesc{{LocalRot: mgl32.QuatIdent(), DragForce: 0.5}}}
	}
	cases := []struct {
		field string
		edit  func(d *VRMChainDesc)
	}{
		{"Joints", func(d *VRMChainDesc) { d.Joints = nil }},
		{"Joints[0].LocalRot", func(d *VRMChainDesc) { d.Joints[0].LocalRot = mgl32.Quat{} }},
		{"Joints[0].LocalPos", func(d *VRMChainDesc) { d.Joints[0].LocalPos[1] = float32(math.NaN()) }},
		{"Joints[0].Stiffness", func(d *VRMChainDesc) { d.Joints[0].Stiffness = -1 }},
		{"Joints[0].DragForce", func(d *VRMChainDesc) { d.Joints[0].DragForce = 1.5 }},
		{"Joints[0].HitRadius", func(d *VRMChainDesc) { d.Joints[0].HitRadius = -0.1 }},
		{"Joints[0].GravityDir", func(d *VRMChainDesc) { d.Joints[0].GravityDir[0] = float32(math.Inf(1)) }},
		{"Joints[0].Limit.AngleDegrees", func(d *VRMChainDesc) { d.Joints[0].Limit = Limit{Kind: ConeLimit, AngleDegrees: -1} }},
		{"Joints[0].Limit.AngleDegrees", func(d *VRMChainDesc) { d.Joints[0].Limit = Limit{Kind: HingeLimit, AngleDegrees: 181} }},
		{"Joints[0].Limit.YawDegrees", func(d *VRMChainDesc) {
			d.Joints[0].Limit = Limit{Kind: SphericalLimit, PitchDegrees: 30, YawDegrees: 91}
		}},
		{"Joints[0].Limit.Rotation", func(d *VRMChainDesc) {
			d.Joints[0].Limit = Limit{Kind: HingeLimit, AngleDegrees: 60, Rotation: mgl32.Quat{W: 2}}
		}},
		{"Joints[0].Limit.Kind", func(d *VRMChainDesc) { d.Joints[0].Limit.Kind = 9 }},
		{"FixedStep", func(d *VRMChainDesc) { d.FixedStep = -1 }},
		{"Joints[2].DragForce", func(d *VRMChainDesc) {
			d.Joints = append(d.Joints, d.Joints[0], d.Joints[0])
			d.Joints[2].DragForce = 2
		}},
		{"Joints[1].Limit.Kind", func(d *VRMChainDesc) {
			d.Joints = append(d.Joints, d.Joints[0])
			d.Joints[1].Limit.Kind = 9
		}},
	}
	for _, tc := range cases {
		d := good()
		tc.edit(&d)
		_, err := NewVRMChain(&d)
		var fe *check.FieldError
		if !errors.As(err, &fe) || fe.Field != tc.field || fe.Type != "spring.VRMChainDesc" {
			t.Errorf("%s: got %v", tc.field, err)
		}
	}
	d := good()
	if _, err := NewVRMChain(&d); err != nil {
		t.Errorf("valid desc: %v", err)
	}
}

func TestVRMStepDoesNotAllocate(t *testing.T) {
	chains, shapes := stressRig(t)
	states := make([]VRMState, len(chains))
	rots := make([][]mgl32.Quat, len(chains))
	for k, c := range chains {
		states[k] = c.chain.NewState()
		rots[k] = make([]mgl32.Quat, c.chain.Len())
	}
	n := testing.AllocsPerRun(50, func() {
		for k, c := range chains {
			ResetVRM(&states[k], c.chain, c.pos, mgl32.QuatIdent(), one, mgl32.Vec3{}, mgl32.QuatIdent())
			StepVRM(rots[k], &states[k], c.chain, c.pos, mgl32.QuatIdent(), one, mgl32.Vec3{}, mgl32.QuatIdent(), shapes, 1.0/60)
		}
	})
	if n != 0 {
		t.Errorf("allocs per run = %v, want 0", n)
	}
}

// TestLimitFrameNearlyDown: the limit extension turns +Y onto a bone axis
// by the shortest arc unless 1 + axis.y < 1e-8 (within 1.4e-4 rad of
// -Y), where it takes the half turn about +X. A bone 2e-4 rad off -Y
// (towards +X) is past that band; in float32 its axis rounds to exactly
// -Y, which took the half turn about +X, a frame turned a quarter turn
// from the shortest arc about -Z.
func TestLimitFrameNearlyDown(t *testing.T) {
	e := 2e-4
	tail := mgl32.Vec3{float32(math.Sin(e)), float32(-math.Cos(e)), 0}
	got := limitAxisRotation(tail)
	want := mathx.FromToRotation(mgl32.Vec3{0, 1, 0}, tail.Normalize())
	if got.Dot(want) < 0 {
		want = want.Scale(-1)
	}
	if d := got.Sub(want); d.Len() > 1e-5 {
		t.Errorf("a bone 2e-4 rad off -Y: limit frame %v, want the shortest arc %v", got, want)
	}
	// Within the band, and exactly down: the half turn about +X.
	for _, e := range []float64{0, 1e-4} {
		tail := mgl32.Vec3{float32(math.Sin(e)), float32(-math.Cos(e)), 0}
		if q := limitAxisRotation(tail); q != (mgl32.Quat{V: mgl32.Vec3{1, 0, 0}}) {
			t.Errorf("a bone %g rad off -Y: limit frame %v, want the half turn about +X", e, q)
		}
	}
}
