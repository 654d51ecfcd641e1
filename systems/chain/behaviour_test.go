package chain

import (
	"math"
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/mathx"
	"github.com/sway-anim/sway/systems/collide"
)

// run animates and updates n frames, calling each after every frame.
func (r *testRig) run(t *testing.T, p Particles, c *Chain, shapes []collide.Shape, n int, move func(frame int), each func(frame int)) {
	t.Helper()
	for f := 0; f < n; f++ {
		if move != nil {
			move(f)
		}
		r.animate()
		Update(p, c, r.pose, shapes, &r.obj)
		if each != nil {
			each(f)
		}
	}
}

func TestHangingChainSettlesToRestLength(t *testing.T) {
	r := line(5, 0.2)
	r.animRot[0] = rotZ(90) // animated pose sticks out along +X
	s := still()
	s.Damping = 0.2
	s.Gravity = db60(mgl32.Vec3{0, -0.005, 0})
	pool, c := r.build(t, Desc{Settings: s})
	p := c.Particles(pool)
	r.run(t, p, c, nil, 600, nil, nil)
	for i := 1; i < p.Len(); i++ {
		l := p.Pos[i].Sub(p.Pos[p.Parent[i]]).Len()
		if d := l - 0.2; d > 1e-4 || d < -1e-4 {
			t.Errorf("segment %d length %v, want 0.2 ± 1e-4", i, l)
		}
		if v := p.Pos[i].Sub(p.Prev[i]).Len(); v > 1e-5 {
			t.Errorf("particle %d still moving %v per step", i, v)
		}
	}
	if tip := p.Pos[5]; tip[1] > -0.999 || math.Abs(float64(tip[0])) > 1e-3 {
		t.Errorf("tip at %v, want hanging straight down at (0,-1,0)", tip)
	}
}

func TestElasticityOneReturnsToAnimatedPose(t *testing.T) {
	r := line(4, 0.25)
	r.animRot[0] = rotZ(60)
	s := still()
	s.Elasticity, s.Damping = 1, 0.1
	s.Gravity = db60(mgl32.Vec3{0, -0.01, 0})
	pool, c := r.build(t, Desc{EndLength: 0.5, Settings: s})
	p := c.Particles(pool)
	r.run(t, p, c, nil, 3, nil, nil)
	rng := rand.New(rand.NewSource(1))
	for i := 1; i < p.Len(); i++ {
		p.Pos[i] = p.Pos[i].Add(mgl32.Vec3{rng.Float32() - 0.5, rng.Float32() - 0.5, rng.Float32() - 0.5})
	}
	r.run(t, p, c, nil, 1, nil, nil)
	anim := r.animated(p)
	for i := range p.Pos {
		assertVec(t, "particle", p.Pos[i], anim[i], 1e-5)
	}
	for b := 1; b < 5; b++ {
		assertVec(t, "LocalPos", r.pose.LocalPos[b], r.animPos[b], 1e-5)
		if a := mathx.AngleBetween(r.pose.LocalRot[b], r.animRot[b]); a > 1e-3 {
			t.Errorf("bone %d turned %v rad away from the animation", b, a)
		}
	}
}

func TestStiffnessOneKeepsAnimatedShape(t *testing.T) {
	r := line(4, 0.25)
	s := still()
	s.Stiffness, s.Damping = 1, 0.1
	s.Gravity = db60(mgl32.Vec3{0, -0.01, 0})
	s.Force = db60(mgl32.Vec3{0.01, 0, 0})
	pool, c := r.build(t, Desc{Settings: s})
	p := c.Particles(pool)
	r.run(t, p, c, nil, 120, func(f int) {
		ft := float64(f) / 60
		r.obj.ObjectPos = mgl32.Vec3{float32(0.5 * math.Sin(3*ft)), 0, float32(0.3 * math.Cos(2*ft))}
		r.animRot[0] = rotZ(40 * math.Sin(2*ft))
	}, func(f int) {
		anim := r.animated(p)
		for i := range p.Pos {
			if !nearVec(p.Pos[i], anim[i], 1e-5) {
				t.Fatalf("frame %d: particle %d at %v, animated %v", f, i, p.Pos[i], anim[i])
			}
		}
	})
}

func TestWeightZeroLeavesAnimatedPose(t *testing.T) {
	r := line(4, 0.25)
	s := still()
	s.Damping = 0.1
	s.Force = db60(mgl32.Vec3{0.01, -0.01, 0})
	pool, c := r.build(t, Desc{Settings: s})
	p := c.Particles(pool)
	r.run(t, p, c, nil, 30, nil, nil)
	if r.pose.LocalRot[0] == r.animRot[0] {
		t.Fatal("the simulation did not move the chain; the test proves nothing")
	}
	c.Settings.Weight = 0
	r.animate()
	if got := Update(p, c, r.pose, nil, &r.obj); got != -1 {
		t.Errorf("Update at weight 0 returned %d, want -1 (nothing written)", got)
	}
	for b := range r.animPos {
		if r.pose.LocalPos[b] != r.animPos[b] || r.pose.LocalRot[b] != r.animRot[b] {
			t.Errorf("bone %d: pose %v %v differs from the animation %v %v", b,
				r.pose.LocalPos[b], r.pose.LocalRot[b], r.animPos[b], r.animRot[b])
		}
	}
	// Back on: the chain restarts from the animated pose.
	c.Settings.Weight = 1
	if n := r.prepare(p, c); n < 0 {
		t.Fatal("chain still off at weight 1")
	}
	anim := r.animated(p)
	for i := range p.Pos {
		if p.Pos[i] != anim[i] || p.Prev[i] != anim[i] {
			t.Errorf("particle %d not reset on re-enabling: %v", i, p.Pos[i])
		}
	}
}

func TestDistanceDisabling(t *testing.T) {
	r := line(3, 0.3)
	s := still()
	s.Force = db60(mgl32.Vec3{0.01, 0, 0})
	s.DisableDistance = 10
	pool, c := r.build(t, Desc{Settings: s})
	p := c.Particles(pool)
	r.run(t, p, c, nil, 10, nil, nil)
	r.obj.Reference = mgl32.Vec3{20, 0, 0}
	if n := r.prepare(p, c); n != -1 {
		t.Errorf("20 m away: Prepare = %d, want -1", n)
	}
	r.obj.Reference = mgl32.Vec3{5, 0, 0}
	r.prepare(p, c)
	anim := r.animated(p)
	for i := range p.Pos {
		if p.Pos[i] != anim[i] {
			t.Errorf("particle %d not reset when back in range", i)
		}
	}
}

func TestTeleport(t *testing.T) {
	setup := func(mode TeleportMode) (*testRig, Particles, *Chain) {
		r := line(3, 0.3)
		s := still()
		s.Damping = 0.05
		s.Force = db60(mgl32.Vec3{0.02, 0, 0.01})
		s.Teleport = mode
		pool, c := r.build(t, Desc{Settings: s})
		p := c.Particles(pool)
		r.run(t, p, c, nil, 20, nil, nil)
		return r, p, c
	}
	t.Run("jump resets", func(t *testing.T) {
		r, p, c := setup(TeleportReset)
		r.obj.ObjectPos = mgl32.Vec3{5, 0, 0}
		r.prepare(p, c)
		anim := r.animated(p)
		for i := range p.Pos {
			if p.Pos[i] != anim[i] || c.move != (mgl32.Vec3{}) {
				t.Errorf("particle %d at %v after a 5 m jump, want the animated %v", i, p.Pos[i], anim[i])
			}
		}
	})
	t.Run("turn resets", func(t *testing.T) {
		r, p, c := setup(TeleportReset)
		r.obj.ObjectRot = mgl32.QuatRotate(math.Pi/2, mgl32.Vec3{0, 1, 0})
		r.prepare(p, c)
		anim := r.animated(p)
		for i := range p.Pos {
			if p.Pos[i] != anim[i] {
				t.Errorf("particle %d not reset after a 90° turn", i)
			}
		}
	})
	t.Run("the angle is in degrees", func(t *testing.T) {
		for _, tc := range []struct {
			turn  float64 // degrees
			reset bool
		}{{25, false}, {35, true}} {
			r, p, c := setup(TeleportReset)
			c.Settings.TeleportAngleDegrees = 30
			r.obj.ObjectRot = mgl32.QuatRotate(float32(tc.turn*math.Pi/180), mgl32.Vec3{0, 1, 0})
			r.prepare(p, c)
			if reset := p.Pos[3] == r.animated(p)[3]; reset != tc.reset {
				t.Errorf("a %v° turn against a 30° limit: reset %v, want %v", tc.turn, reset, tc.reset)
			}
		}
	})
	t.Run("small move does not reset", func(t *testing.T) {
		r, p, c := setup(TeleportReset)
		r.obj.ObjectPos = mgl32.Vec3{0.5, 0, 0}
		r.prepare(p, c)
		if p.Pos[3] == r.animated(p)[3] {
			t.Error("a 0.5 m move reset the chain")
		}
		assertVec(t, "object move", c.move, mgl32.Vec3{0.5, 0, 0}, 0)
	})
	t.Run("keep shape", func(t *testing.T) {
		r, p, c := setup(TeleportKeep)
		before := append([]mgl32.Vec3(nil), p.Pos...)
		rot := mgl32.QuatRotate(math.Pi/2, mgl32.Vec3{0, 1, 0})
		r.obj.ObjectPos, r.obj.ObjectRot = mgl32.Vec3{5, 1, 0}, rot
		r.prepare(p, c)
		for i := range p.Pos {
			want := mgl32.Vec3{5, 1, 0}.Add(mathx.Rotate(rot, before[i]))
			assertVec(t, "carried particle", p.Pos[i], want, 1e-5)
		}
	})
}

func TestFreezeAxisKeepsParticlesInPlane(t *testing.T) {
	r := line(5, 0.2)
	s := still()
	s.Damping = 0.1
	s.Force = db60(mgl32.Vec3{0.01, 0, 0.02}) // pushes out of the XY plane too
	s.Freeze = FreezeZ
	pool, c := r.build(t, Desc{EndLength: 1, Settings: s})
	p := c.Particles(pool)
	r.run(t, p, c, nil, 120, func(f int) {
		r.obj.ObjectPos = mgl32.Vec3{0, 0, float32(0.3 * math.Sin(float64(f)/10))}
	}, func(f int) {
		z := p.Pos[0][2]
		for i := range p.Pos {
			if d := p.Pos[i][2] - z; d > 1e-5 || d < -1e-5 {
				t.Fatalf("frame %d: particle %d left the plane z=%v by %v", f, i, z, d)
			}
		}
	})
	if p.Pos[6][0] < 0.1 {
		t.Errorf("tip %v did not swing in the plane; the test proves nothing", p.Pos[6])
	}
}

// The freeze plane is the parent bone's animated axis of this frame: with
// the character turning, the plane turns with it (an axis read once, at
// the reset, would keep the first frame's).
func TestFreezePlaneTurnsWithTheParentBone(t *testing.T) {
	r := line(5, 0.2)
	s := still()
	s.Damping = 0.1
	s.Force = db60(mgl32.Vec3{0.01, 0, 0.02})
	s.Freeze = FreezeZ
	pool, c := r.build(t, Desc{EndLength: 1, Settings: s})
	p := c.Particles(pool)
	var normal mgl32.Vec3
	r.run(t, p, c, nil, 90, func(f int) {
		r.obj.ObjectRot = mgl32.QuatRotate(0.02*float32(f), mgl32.Vec3{0, 1, 0}) // 1.8 rad in all, under the teleport angle per frame
		normal = mathx.Rotate(r.obj.ObjectRot, mgl32.Vec3{0, 0, 1})
	}, func(f int) {
		for i := range p.Pos {
			if d := mathx.Dot(p.Pos[i].Sub(p.Pos[0]), normal); d > 1e-5 || d < -1e-5 {
				t.Fatalf("frame %d: particle %d is %v off the turned plane", f, i, d)
			}
		}
	})
	if d := p.Pos[6].Sub(p.Pos[0]).Sub(mgl32.Vec3{0, -1.2, 0}).Len(); d < 0.05 {
		t.Errorf("tip %v did not swing in the plane; the test proves nothing", p.Pos[6])
	}
}

func TestTreeOneChildRule(t *testing.T) {
	// root ─ A1 ─ A2
	//      └ B1 ─ B2
	r := newRig([]int32{-1, 0, 1, 0, 3}, []mgl32.Vec3{
		{}, {-0.2, -0.3, 0}, {0, -0.3, 0}, {0.2, -0.3, 0}, {0, -0.3, 0},
	})
	s := still()
	s.Damping = 0.1
	s.Force = db60(mgl32.Vec3{0.01, 0, 0.005})
	pool, c := r.build(t, Desc{Settings: s})
	p := c.Particles(pool)
	var lowest int
	r.run(t, p, c, nil, 30, nil, nil)
	r.animate()
	lowest = Update(p, c, r.pose, nil, &r.obj)
	if r.pose.LocalRot[0] != r.animRot[0] {
		t.Errorf("root with two children was turned: %v", r.pose.LocalRot[0])
	}
	for _, b := range []int{1, 3} {
		if a := mathx.AngleBetween(r.pose.LocalRot[b], r.animRot[b]); a < 0.01 {
			t.Errorf("one-child bone %d not turned (%v rad)", b, a)
		}
		if r.pose.LocalPos[b] == r.animPos[b] {
			t.Errorf("child %d of the two-child root was not moved", b)
		}
	}
	if lowest != 1 {
		t.Errorf("lowest written bone = %d, want 1 (the root is untouched)", lowest)
	}
	// Forward kinematics of the written pose puts every bone on its particle.
	r.fk()
	for i := 1; i < p.Len(); i++ {
		assertVec(t, "bone on particle", r.pose.WorldPos[p.Bone[i]], p.Pos[i], 1e-5)
	}
}

func TestApplyReproducedByFK(t *testing.T) {
	r := line(6, 0.15)
	r.obj.ObjectRot = rotX(30)
	r.obj.ObjectScale = mgl32.Vec3{2, 2, 2}
	r.animRot[2] = rotZ(20)
	s := still()
	s.Damping = 0.1
	s.Elasticity = 0.05
	s.Force = db60(mgl32.Vec3{0.01, 0.004, 0.006})
	pool, c := r.build(t, Desc{EndLength: 0.5, Settings: s})
	p := c.Particles(pool)
	r.run(t, p, c, nil, 20, func(f int) {
		r.obj.ObjectPos = mgl32.Vec3{float32(f) * 0.02, 0, 0}
	}, nil)
	r.animate()
	if lowest := Update(p, c, r.pose, nil, &r.obj); lowest != 0 {
		t.Errorf("lowest written bone = %d, want 0 (the root has one child)", lowest)
	}
	r.fk()
	for i := 1; i < p.Len(); i++ {
		if b := p.Bone[i]; b >= 0 {
			assertVec(t, "bone on particle", r.pose.WorldPos[b], p.Pos[i], 1e-5)
			continue
		}
		// The end particle lies along the last bone at its rest offset.
		pb := p.Bone[p.Parent[i]]
		end := r.pose.WorldPos[pb].Add(mathx.Rotate(r.pose.WorldRot[pb], mul3(r.pose.WorldScale[pb], p.Local[i])))
		assertVec(t, "end on particle", end, p.Pos[i], 1e-5)
	}
}

// penetration returns how deep a particle of radius rad at x is inside s.
func penetration(x mgl32.Vec3, rad float32, s *collide.Shape) float32 {
	switch s.Kind {
	case collide.Sphere:
		return s.RA + rad - x.Sub(s.A).Len()
	case collide.Capsule:
		ab := s.B.Sub(s.A)
		k := mathx.Clamp01(mathx.Dot(x.Sub(s.A), ab) / mathx.Dot(ab, ab))
		return s.RA + rad - x.Sub(s.A.Add(ab.Mul(k))).Len()
	default:
		return rad - mathx.Dot(x.Sub(s.A), s.N)
	}
}

func TestCollidersNeverPenetrated(t *testing.T) {
	descs := []collide.Desc{
		collide.NewSphere(mgl32.Vec3{0.05, -0.45, 0.12}, 0.12),
		collide.NewCapsule(mgl32.Vec3{-0.3, -0.65, -0.1}, mgl32.Vec3{0.3, -0.65, -0.1}, 0.08, 0.08),
		collide.NewPlane(mgl32.Vec3{0, -0.8, 0}, mgl32.Vec3{0, 1, 0}),
	}
	for _, tc := range []struct {
		name string
		use  []int32
	}{{"sphere", []int32{0}}, {"capsule", []int32{1}}, {"plane", []int32{2}}, {"all", []int32{0, 1, 2}}} {
		t.Run(tc.name, func(t *testing.T) {
			r := line(6, 0.15)
			s := still()
			s.Damping, s.Stiffness, s.Radius = 0.05, 0.05, 0.03
			s.Force = db60(mgl32.Vec3{0, -0.003, 0})
			pool, c := r.build(t, Desc{EndLength: 0.5, Colliders: tc.use, Settings: s})
			p := c.Particles(pool)
			shapes := make([]collide.Shape, len(descs))
			bones := []int32{0, 0, 0} // all on the root bone
			rng := rand.New(rand.NewSource(2))
			ax, az, w := rng.Float64()+0.5, rng.Float64()+0.5, rng.Float64()*3+1
			hits := 0
			for f := 0; f < 400; f++ {
				ft := float64(f) / 60
				r.obj.ObjectPos = mgl32.Vec3{float32(0.4 * ax * math.Sin(w*ft)), 0, float32(0.4 * az * math.Cos(1.3*w*ft))}
				r.animRot[0] = rotX(25 * math.Sin(2*ft))
				r.animate()
				PlaceColliders(shapes, descs, bones, r.pose)
				Update(p, c, r.pose, shapes, &r.obj)
				for i := 1; i < p.Len(); i++ {
					for _, k := range tc.use {
						if d := penetration(p.Pos[i], c.Params(i).Radius, &shapes[k]); d > 1e-5 {
							t.Fatalf("frame %d: particle %d is %v inside collider %d", f, i, d, k)
						}
					}
					if p.Collided[i] {
						hits++
					}
				}
			}
			if hits == 0 {
				t.Error("no particle ever touched the collider; the test proves nothing")
			}
		})
	}
}
