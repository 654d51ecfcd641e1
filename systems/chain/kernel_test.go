package chain

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/systems/collide"
)

// onePendulum is a root at the origin with one particle 1 below it.
func onePendulum(t *testing.T, s Settings) (*testRig, Particles, *Chain) {
	r := line(1, 1)
	pool, c := r.build(t, Desc{Root: 0, Settings: s})
	p := c.Particles(pool)
	if n := r.prepare(p, c); n != 1 {
		t.Fatalf("first frame ran %d steps, want 1", n)
	}
	return r, p, c
}

func TestIntegrateVerletByHand(t *testing.T) {
	s := still()
	s.Damping, s.Inert, s.Friction = 0.2, 0.5, 0.3
	s.Gravity = mgl32.Vec3{0, -36, 0} // m/s²: 36/60² = 0.01 m per 60 Hz step
	r, p, c := onePendulum(t, s)
	// Turn the root 90° about X so the rest pose no longer hangs along
	// gravity: none of it is removed.
	r.animRot[0] = rotX(90)
	r.obj.ObjectPos = mgl32.Vec3{0.5, 0, 0} // the character moves 0.5 this frame
	if n := r.prepare(p, c); n != 1 {
		t.Fatalf("ran %d steps, want 1", n)
	}
	assertVec(t, "force", c.force, mgl32.Vec3{0, -0.01, 0}, 1e-7)

	// Moving -X at 0.1 per step.
	p.Pos[1], p.Prev[1] = mgl32.Vec3{0, -1, 0}, mgl32.Vec3{0.1, -1, 0}
	Integrate(p, c, 0)
	// v = (-0.1,0,0); v*(1-0.2) = (-0.08,0,0); gravity (0,-0.01,0);
	// inert move 0.5*(0.5,0,0) = (0.25,0,0) added to both positions.
	assertVec(t, "Pos", p.Pos[1], mgl32.Vec3{0.17, -1.01, 0}, 1e-6)
	assertVec(t, "Prev", p.Prev[1], mgl32.Vec3{0.25, -1, 0}, 1e-6)
	assertVec(t, "root", p.Pos[0], mgl32.Vec3{0.5, 0, 0}, 1e-6)

	// A particle that touched a collider: damping 0.2+0.3; second sub-step,
	// so no character movement.
	p.Pos[1], p.Prev[1], p.Collided[1] = mgl32.Vec3{0, -1, 0}, mgl32.Vec3{0.1, -1, 0}, true
	Integrate(p, c, 1)
	assertVec(t, "Pos with friction", p.Pos[1], mgl32.Vec3{-0.05, -1.01, 0}, 1e-6)
	if p.Collided[1] {
		t.Error("Collided not cleared by the step")
	}
}

func TestIntegrateVariableStepByHand(t *testing.T) {
	s := still()
	s.Damping = 0.2
	s.Gravity = mgl32.Vec3{0, -36, 0} // 0.01 m per 60 Hz step
	s.Mode = Variable
	r, p, c := onePendulum(t, s)
	r.animRot[0] = rotX(90)
	r.obj.Dt = 1.0 / 120 // half a step at 60 Hz
	if n := r.prepare(p, c); n != 1 {
		t.Fatalf("ran %d steps, want 1", n)
	}
	c.prevH = 1.0 / 60 // the previous step was a full one
	p.Pos[1], p.Prev[1] = mgl32.Vec3{0, -1, 0}, mgl32.Vec3{0.1, -1, 0}
	Integrate(p, c, 0)
	// v = (-0.1,0,0) over 1/60 s, rescaled to 1/120 s: (-0.05,0,0);
	// keep = 0.8^0.5 = 0.8944272; force (0,-0.01,0) times
	// 0.5*(1-0.8944272)/(1-0.8) = 0.2639320: (0,-0.0026393,0).
	assertVec(t, "Pos", p.Pos[1], mgl32.Vec3{-0.04472136, -1.0026393, 0}, 1e-6)
}

func TestRestGravityRemoved(t *testing.T) {
	for _, tc := range []struct {
		name  string
		rot   mgl32.Quat
		scale float32
		want  mgl32.Vec3
	}{
		{"rest pose: all removed", mgl32.QuatIdent(), 1, mgl32.Vec3{}},
		{"turned 60°: half removed", rotX(60), 1, mgl32.Vec3{0, -0.005, 0}},
		{"turned 90°: none removed", rotX(90), 1, mgl32.Vec3{0, -0.01, 0}},
		{"upside down: none removed", rotX(180), 1, mgl32.Vec3{0, -0.01, 0}},
		{"object scale 2", rotX(90), 2, mgl32.Vec3{0, -0.02, 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := still()
			s.Gravity = mgl32.Vec3{0, -36, 0} // 0.01 m per 60 Hz step
			s.Force = mgl32.Vec3{}
			r := line(1, 1)
			pool, c := r.build(t, Desc{Settings: s})
			r.animRot[0] = tc.rot
			r.obj.ObjectScale = mgl32.Vec3{tc.scale, tc.scale, tc.scale}
			r.prepare(c.Particles(pool), c)
			assertVec(t, "force", c.force, tc.want, 1e-7)
		})
	}
}

func TestConstrainElasticityByHand(t *testing.T) {
	s := still()
	s.Elasticity = 0.5
	r, p, c := onePendulum(t, s)
	p.Pos[1] = mgl32.Vec3{1, -1, 0}
	Constrain(p, c, r.pose, nil)
	// Halfway to the animated (0,-1,0): (0.5,-1,0); then back to length 1
	// from the root: (0.5,-1,0)/|(0.5,-1,0)|.
	assertVec(t, "Pos", p.Pos[1], mgl32.Vec3{0.4472136, -0.8944272, 0}, 1e-6)
}

func TestConstrainStiffnessByHand(t *testing.T) {
	s := still()
	s.Stiffness, s.Weight = 0.5, 0.5 // s = lerp(1, 0.5, 0.5) = 0.75
	r, p, c := onePendulum(t, s)
	p.Pos[1] = mgl32.Vec3{1, 0, 0}
	Constrain(p, c, r.pose, nil)
	// Allowed distance from the animated (0,-1,0): 1*(1-0.75)*2 = 0.5. The
	// particle is √2 away along (-1,-1,0), so it moves to
	// (0.3535534,-0.6464466,0), then to length 1: (0.4798415,-0.8773552,0).
	assertVec(t, "Pos", p.Pos[1], mgl32.Vec3{0.4798415, -0.8773552, 0}, 1e-6)
}

func TestConstrainSphereByHand(t *testing.T) {
	s := still()
	s.Radius = 0.2
	r := line(1, 1)
	pool, c := r.build(t, Desc{Colliders: []int32{0}, Settings: s})
	p := c.Particles(pool)
	r.prepare(p, c)
	shapes := []collide.Shape{{Kind: collide.Sphere, A: mgl32.Vec3{0.6, -0.8, 0}, RA: 0.3, RB: 0.3}}
	p.Pos[1] = mgl32.Vec3{0.3, -0.9, 0}
	Constrain(p, c, r.pose, shapes)
	// 0.3162 from the centre, pushed to 0.3+0.2 = 0.5 from it:
	// (0.1256584,-0.9581139,0); then to length 1: (0.1300382,-0.9915090,0),
	// 0.5075 from the centre, so the second push does nothing.
	assertVec(t, "Pos", p.Pos[1], mgl32.Vec3{0.1300382, -0.9915090, 0}, 1e-6)
	if !p.Collided[1] {
		t.Error("Collided not set")
	}
}
