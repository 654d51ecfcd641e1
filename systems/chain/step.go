package chain

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/systems/collide"

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
	prev, pos := p.Prev[:n], p.Pos[:n]
	damping, friction, inert, hit := p.Damping[:n], p.Friction[:n], p.Inert[:n], p.Collided[:n]
	var move mgl32.Vec3
	t := c.t
	force := c.force
	vs := float32(1)
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
			vs = c.h / c.prevH
		}
		c.prevH = c.h
	} else {
		prev[0] = pos[0]
		pos[0] = p.AnimPos[0]
		if sub == 0 {
			move = c.move
		}
	}
	// Scalar components: Go keeps them in registers, [3]float32 values it
	// does not.
	f0, f1, f2 := force[0], force[1], force[2]
	m0, m1, m2 := move[0], move[1], move[2]
	memoK1, memoKt, memoFs := float32(-1), float32(0), float32(0)
	for i := 1; i < n; i++ {
		x := &pos[i]
		q := &prev[i]
		x0, x1, x2 := x[0], x[1], x[2]
		v0, v1, v2 := (x0-q[0])*vs, (x1-q[1])*vs, (x2-q[2])*vs
		in := inert[i]
		r0, r1, r2 := m0*in, m1*in, m2*in
		q[0], q[1], q[2] = x0+r0, x1+r1, x2+r2
		d := damping[i]
		if hit[i] {
			d = min(d+friction[i], 1)
			hit[i] = false
		}
		keep := 1 - d
		g0, g1, g2 := f0, f1, f2
		if t != 1 {
			// Neighbours usually share their damping: reuse the powers.
			if keep != memoK1 {
				memoK1 = keep
				memoKt = pow(keep, t)
				memoFs = forceScale(keep, memoKt, t)
			}
			keep = memoKt
			g0, g1, g2 = f0*memoFs, f1*memoFs, f2*memoFs
		}
		x[0] = x0 + v0*keep + g0 + r0
		x[1] = x1 + v1*keep + g1 + r1
		x[2] = x2 + v2*keep + g2 + r2
	}
}

// Constrain applies DynamicBone's UpdateParticles2 to every particle but the
// root, parents first: the elasticity pull toward the animated position
// relative to the simulated parent, the stiffness limit (the particle stays
// within restLen*(1-s)*2 of that position, s = lerp(1, stiffness, weight)),
// the colliders listed in c.Colliders, the freeze plane, and the parent
// distance put back to the animated bone length. The colliders are applied
// once more after the length step, so that no particle ends a step inside a
// collider (where the two disagree the collider wins and the bone stretches
// a little until the next step).
func Constrain(p Particles, c *Chain, shapes []collide.Shape) {
	n := len(p.Pos)
	if n == 0 {
		return
	}
	pos, parent := p.Pos[:n], p.Parent[:n]
	restOff, restLen := p.RestOff[:n], p.RestLen[:n]
	elast, stiffs, radius, hit := p.Elasticity[:n], p.Stiffness[:n], p.Radius[:n], p.Collided[:n]
	w := c.weight
	t := c.t
	freeze := c.Settings.Freeze != FreezeNone
	var cullBuf [maxCull]cullSphere
	cull := cullBuf[:0]
	if len(c.Colliders) > 0 {
		cull = cullBuf[:cullList(&cullBuf, c.Colliders, shapes, pos[0], c.reach)]
	}
	collides := len(cull) > 0 || len(c.Colliders) > maxCull
	memoE, memoEt := float32(-1), float32(0)
	for i := 1; i < n; i++ {
		j := parent[i]
		if uint(j) >= uint(i) {
			continue // not a valid tree: parents come first
		}
		pj := pos[j]
		x0, x1, x2 := pos[i][0], pos[i][1], pos[i][2]
		rl := restLen[i]
		stiff := 1 + (stiffs[i]-1)*w
		if e := elast[i]; stiff > 0 || e > 0 {
			ro := &restOff[i]
			rest0, rest1, rest2 := pj[0]+ro[0], pj[1]+ro[1], pj[2]+ro[2]
			if t != 1 && e > 0 && e < 1 {
				// A spring of fixed strength: the pull grows with t².
				if e != memoE {
					memoE, memoEt = e, 1-pow(1-e, t*t)
				}
				e = memoEt
			}
			x0 += (rest0 - x0) * e
			x1 += (rest1 - x1) * e
			x2 += (rest2 - x2) * e
			if stiff > 0 {
				d0, d1, d2 := rest0-x0, rest1-x1, rest2-x2
				l := float32(math.Sqrt(float64(d0*d0 + d1*d1 + d2*d2)))
				if maxLen := rl * (1 - stiff) * 2; l > maxLen {
					k := (l - maxLen) / l
					x0, x1, x2 = x0+d0*k, x1+d1*k, x2+d2*k
				}
			}
		}
		x := mgl32.Vec3{x0, x1, x2}
		var touched bool
		if collides {
			x, touched = collideCulled(x, radius[i]*c.scale, cull, c.Colliders, shapes)
		}
		if freeze {
			a := p.Axis[i]
			x = x.Sub(a.Mul(mathx.Dot(x.Sub(pj), a)))
		}
		// Keep length, written out: as a call it costs a fifth of the step.
		if d0, d1, d2 := pj[0]-x[0], pj[1]-x[1], pj[2]-x[2]; d0*d0+d1*d1+d2*d2 > mathx.Epsilon {
			l := float32(math.Sqrt(float64(d0*d0 + d1*d1 + d2*d2)))
			k := (l - rl) / l
			x = mgl32.Vec3{x[0] + d0*k, x[1] + d1*k, x[2] + d2*k}
		} else {
			x = keepLength(x, pj, restOff[i], rl)
		}
		if collides {
			// Keeping the length can pull the particle (back) into a
			// collider; the collider wins. DynamicBone stops at keep-length
			// and lets the chain dip in.
			var again bool
			x, again = collideCulled(x, radius[i]*c.scale, cull, c.Colliders, shapes)
			touched = touched || again
		}
		if touched {
			hit[i] = true
		}
		if !mathx.Vec3Finite(x) {
			// Only reachable from non-finite input; fall back to the
			// animated shape rather than spread NaN down the chain.
			x = pj.Add(restOff[i])
			p.Prev[i] = x
		}
		pos[i] = x
	}
}

// collideAll pushes the particle out of every listed shape in turn.
func collideAll(x mgl32.Vec3, r float32, idx []int32, shapes []collide.Shape) (mgl32.Vec3, bool) {
	touched := false
	for _, k := range idx {
		if uint(k) < uint(len(shapes)) {
			var moved bool
			x, moved = collide.Collide(x, r, &shapes[k])
			touched = touched || moved
		}
	}
	return x, touched
}

// keepLength moves x along the line to its parent at pj so that it sits at
// distance rl. A particle on top of its parent has no direction: it goes to
// the animated offset instead (DynamicBone leaves it there, stuck at zero
// length).
func keepLength(x, pj, restOff mgl32.Vec3, rl float32) mgl32.Vec3 {
	d0, d1, d2 := pj[0]-x[0], pj[1]-x[1], pj[2]-x[2]
	l2 := d0*d0 + d1*d1 + d2*d2
	if l2 > mathx.Epsilon {
		l := float32(math.Sqrt(float64(l2)))
		k := (l - rl) / l
		return mgl32.Vec3{x[0] + d0*k, x[1] + d1*k, x[2] + d2*k}
	}
	return mgl32.Vec3{pj[0] + restOff[0], pj[1] + restOff[1], pj[2] + restOff[2]}
}

// SkipUpdate is DynamicBone's update for a frame in which no step runs:
// particles are carried by the character's movement, then only the
// stiffness limit and the bone lengths are enforced, so that the chain
// follows the animation without advancing the simulation.
func SkipUpdate(p Particles, c *Chain) {
	n := len(p.Pos)
	if n == 0 {
		return
	}
	pos, prev, parent := p.Pos[:n], p.Prev[:n], p.Parent[:n]
	restOff, restLen, stiffs := p.RestOff[:n], p.RestLen[:n], p.Stiffness[:n]
	prev[0] = pos[0]
	pos[0] = p.AnimPos[0]
	m := c.move
	w := c.weight
	for i := 1; i < n; i++ {
		j := parent[i]
		if uint(j) >= uint(i) {
			continue
		}
		prev[i] = prev[i].Add(m)
		x := pos[i].Add(m)
		pj := pos[j]
		rl := restLen[i]
		if stiff := 1 + (stiffs[i]-1)*w; stiff > 0 {
			d := pj.Add(restOff[i]).Sub(x)
			l := mathx.Len(d)
			if maxLen := rl * (1 - stiff) * 2; l > maxLen {
				x = x.Add(d.Mul((l - maxLen) / l))
			}
		}
		x = keepLength(x, pj, restOff[i], rl)
		if !mathx.Vec3Finite(x) {
			x = pj.Add(restOff[i])
			prev[i] = x
		}
		pos[i] = x
	}
	// The movement has been applied; a step later in the frame must not
	// apply it again.
	c.move = mgl32.Vec3{}
}

// forceScale is how much of the per-step force a step of t (in units of
// 1/UpdateRate) adds, given the velocity kept per unit step k1 and per this
// step kt = k1^t. With damping the velocity a constant force builds up
// saturates; adding F*t*(1-kt)/(1-k1) per step gives the same terminal
// velocity and the same approach to it at every step length, and F at
// t = 1. Without damping it is F*t², plain Verlet.
func forceScale(k1, kt, t float32) float32 {
	if 1-k1 < 1e-4 {
		return t * t
	}
	return t * (1 - kt) / (1 - k1)
}

// pow is x^y for the Variable mode's exact damping and elasticity.
func pow(x, y float32) float32 {
	if !(x > 0) {
		return 0
	}
	return float32(math.Exp(float64(y) * math.Log(float64(x))))
}
