package chain

import (
	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/mathx"
)

// Integrate is one Verlet step (DynamicBone's UpdateParticles1). sub is the
// sub-step's number in the frame: the character's movement is applied on
// sub-step 0 only. The root particle follows the animated root bone.
//
// Each other particle moves by its last displacement times (1 - damping),
// damping raised by friction if it touched a collider in the last step,
// plus the force, plus (inert x character movement), which it also adds to
// its previous position so that inert particles are carried without gaining
// speed. In Variable mode the displacement is first rescaled to the new step
// length and (1 - damping) is raised to the power t (the step in units of
// 1/UpdateRate), the force scaled so that it builds the same velocity in
// the same time at any t (see forceScale); the root moves to the animated
// root in equal parts over the frame's sub-steps and the character's
// movement is shared out the same way.
func Integrate(p Particles, c *Chain, sub int) {
	n := len(p.Pos)
	if n == 0 {
		return
	}
	var in integrator
	in.start(&p, c, sub)
	if !in.plain() {
		for i := 1; i < n; i++ {
			in.one(&p, i)
		}
		return
	}
	// Fixed mode (and a Variable step of exactly 1/UpdateRate after one):
	// one's arithmetic with the factors at 1, written out.
	pos, prev := p.Pos[:n], p.Prev[:n]
	damping, friction, inert, hit := p.Damping[:n], p.Friction[:n], p.Inert[:n], p.Collided[:n]
	f0, f1, f2, m0, m1, m2 := in.f0, in.f1, in.f2, in.m0, in.m1, in.m2
	for i := 1; i < n; i++ {
		x, q := &pos[i], &prev[i]
		x0, x1, x2 := x[0], x[1], x[2]
		a := inert[i]
		r0, r1, r2 := m0*a, m1*a, m2*a
		d := damping[i]
		if hit[i] {
			d = min(d+friction[i], 1)
			hit[i] = false
		}
		keep := 1 - d
		x[0] = x0 + (x0-q[0])*keep + f0 + r0
		x[1] = x1 + (x1-q[1])*keep + f1 + r1
		x[2] = x2 + (x2-q[2])*keep + f2 + r2
		q[0], q[1], q[2] = x0+r0, x1+r1, x2+r2
	}
}

// integrator is one step's Verlet parameters. Scalar components: Go keeps
// them in registers, [3]float32 values it does not.
type integrator struct {
	f0, f1, f2 float32 // force
	m0, m1, m2 float32 // character movement
	vs, t      float32 // velocity rescale (new step / last step), step in units of 1/UpdateRate
	// Neighbours usually share their damping: the powers of the last one.
	memoK1, memoKt, memoFs float32
}

// start moves the root particle and sets the step's parameters.
func (in *integrator) start(p *Particles, c *Chain, sub int) {
	pos, prev := p.Pos, p.Prev
	var move mgl32.Vec3
	in.vs, in.t, in.memoK1 = 1, c.t, -1
	if c.Settings.Mode == Variable {
		// The root and the character's movement are spread evenly over the
		// frame's sub-steps, so that a low frame rate sees the same path.
		if sub == 0 {
			c.rootFrom = pos[0]
		}
		steps := float32(max(c.steps, 1))
		k := min(float32(sub+1)/steps, 1)
		prev[0] = pos[0]
		pos[0] = mathx.LerpVec3(c.rootFrom, p.AnimPos[0], k)
		move = c.move.Mul(1 / steps)
		if c.prevH > 0 {
			in.vs = c.h / c.prevH
		}
		c.prevH = c.h
	} else {
		prev[0] = pos[0]
		pos[0] = p.AnimPos[0]
		if sub == 0 {
			move = c.move
		}
	}
	in.f0, in.f1, in.f2 = c.force[0], c.force[1], c.force[2]
	in.m0, in.m1, in.m2 = move[0], move[1], move[2]
}

// plain reports a step whose factors are all 1 (Fixed mode).
func (in *integrator) plain() bool { return in.t == 1 && in.vs == 1 }

// one integrates particle i.
func (in *integrator) one(p *Particles, i int) {
	x, q := &p.Pos[i], &p.Prev[i]
	x0, x1, x2 := x[0], x[1], x[2]
	v0, v1, v2 := (x0-q[0])*in.vs, (x1-q[1])*in.vs, (x2-q[2])*in.vs
	a := p.Inert[i]
	r0, r1, r2 := in.m0*a, in.m1*a, in.m2*a
	q[0], q[1], q[2] = x0+r0, x1+r1, x2+r2
	d := p.Damping[i]
	if p.Collided[i] {
		d = min(d+p.Friction[i], 1)
		p.Collided[i] = false
	}
	keep := 1 - d
	g0, g1, g2 := in.f0, in.f1, in.f2
	if t := in.t; t != 1 {
		if keep != in.memoK1 {
			in.memoK1 = keep
			in.memoKt = pow(keep, t)
			in.memoFs = forceScale(keep, in.memoKt, t)
		}
		keep = in.memoKt
		g0, g1, g2 = g0*in.memoFs, g1*in.memoFs, g2*in.memoFs
	}
	x[0] = x0 + v0*keep + g0 + r0
	x[1] = x1 + v1*keep + g1 + r1
	x[2] = x2 + v2*keep + g2 + r2
}
