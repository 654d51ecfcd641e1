package chain

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/mathx"
)

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
