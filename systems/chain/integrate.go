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
	if !c.fits(n) {
		return // not the chain's particles
	}
	var in integrator
	in.start(&p.Pos[0], &p.Prev[0], c, sub)
	pk := c.packs()
	pos, prev, hit, ps := p.Pos[:n], p.Prev[:n], p.Collided[:n], paramStride(len(pk))
	f0, f1, f2, m0, m1, m2, vs := in.f0, in.f1, in.f2, in.m0, in.m1, in.m2, in.vs
	for i := 1; i < n; i++ {
		x, q, k := &pos[i], &prev[i], &pk[i*ps]
		x0, x1, x2 := x[0], x[1], x[2]
		a := k.inert
		r0, r1, r2 := float32(m0*a), float32(m1*a), float32(m2*a)
		keep, fs := k.keep, k.fs
		if hit[i] {
			keep, fs = k.keepHit, k.fsHit
			hit[i] = false
		}
		keep *= vs
		x[0] = x0 + float32((x0-q[0])*keep) + float32(f0*fs) + r0
		x[1] = x1 + float32((x1-q[1])*keep) + float32(f1*fs) + r1
		x[2] = x2 + float32((x2-q[2])*keep) + float32(f2*fs) + r2
		q[0], q[1], q[2] = x0+r0, x1+r1, x2+r2
	}
}

// integrator is one step's Verlet parameters. Scalar components: Go keeps
// them in registers, [3]float32 values it does not.
type integrator struct {
	f0, f1, f2 float32 // force
	m0, m1, m2 float32 // character movement
	vs         float32 // velocity rescale: new step length / last step length
}

// start moves the root particle, at pos0 with its previous position at
// prev0, and sets the step's parameters.
func (in *integrator) start(pos0, prev0 *mgl32.Vec3, c *Chain, sub int) {
	var move mgl32.Vec3
	in.vs = 1
	if c.variable {
		// The root and the character's movement are spread evenly over the
		// frame's sub-steps, so that a low frame rate sees the same path.
		if sub == 0 {
			c.rootFrom = *pos0
		}
		steps := float32(max(c.steps, 1))
		k := min(float32(sub+1)/steps, 1)
		*prev0 = *pos0
		*pos0 = mathx.LerpVec3(c.rootFrom, c.animRoot, k)
		move = c.move.Mul(1 / steps)
		if c.prevH > 0 {
			in.vs = c.h / c.prevH
		}
		c.prevH = c.h
	} else {
		*prev0 = *pos0
		*pos0 = c.animRoot
		if sub == 0 {
			move = c.move
		}
	}
	in.f0, in.f1, in.f2 = c.force[0], c.force[1], c.force[2]
	in.m0, in.m1, in.m2 = move[0], move[1], move[2]
}
