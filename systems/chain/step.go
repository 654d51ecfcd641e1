package chain

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// SkipUpdate is DynamicBone's update for a frame in which no step runs:
// particles are carried by the character's movement, then only the
// stiffness limit and the bone lengths are enforced, so that the chain
// follows the animation without advancing the simulation. It reads the
// animated pose from pose, as Constrain does.
func SkipUpdate(p Particles, c *Chain, pose Pose) {
	var buf [stackRecords]animated
	an, lent := borrow(buf[:], len(p.Pos))
	if c.animateIn(an, &p, &pose) {
		skipUpdate(&p, c, an)
	}
	giveBack(lent)
}

// skipUpdate is SkipUpdate with the animated records an (animateIn's).
func skipUpdate(p *Particles, c *Chain, an []animated) {
	n := len(p.Pos)
	if !c.fits(n) || len(an) < n {
		return // not the chain's particles
	}
	pk := c.packs()
	pos, prev, parent, ps := p.Pos[:n], p.Prev[:n], p.Parent[:n], paramStride(len(pk))
	an = an[:n]
	prev[0] = pos[0]
	pos[0] = c.animRoot
	m0, m1, m2 := c.move[0], c.move[1], c.move[2]
	for i := 1; i < n; i++ {
		j := parent[i]
		if uint(j) >= uint(i) {
			continue
		}
		q, xi, ka, kp := &prev[i], &pos[i], &an[i], &pk[i*ps]
		q[0], q[1], q[2] = q[0]+m0, q[1]+m1, q[2]+m2
		x0, x1, x2 := xi[0]+m0, xi[1]+m1, xi[2]+m2
		pj := &pos[j]
		p0, p1, p2 := pj[0], pj[1], pj[2]
		o0, o1, o2 := ka.o0, ka.o1, ka.o2
		if d0, d1, d2, maxLen := p0+o0-x0, p1+o1-x1, p2+o2-x2, ka.rl*kp.sk; dot3(d0, d1, d2) > maxLen*maxLen {
			l := sqrt32(dot3(d0, d1, d2))
			s := (l - maxLen) / l
			x0, x1, x2 = x0+float32(d0*s), x1+float32(d1*s), x2+float32(d2*s)
		}
		x0, x1, x2 = keepLength3(x0, x1, x2, p0, p1, p2, o0, o1, o2, ka.rl)
		if !finite3(x0, x1, x2) {
			x0, x1, x2 = p0+o0, p1+o1, p2+o2
			*q = mgl32.Vec3{x0, x1, x2}
		}
		*xi = mgl32.Vec3{x0, x1, x2}
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
