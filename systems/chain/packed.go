package chain

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// animated is one particle's animated pose for a step: the step derives it
// from the pose (animate) once per frame into a scratch array it keeps
// only while it steps the chain, so that no chain holds a copy of its
// animated pose between systems.
type animated struct {
	o0, o1, o2 float32 // RestOff
	rl         float32 // RestLen
	pl         float32 // sum of RestLen from the root: the farthest keep-length leaves the particle from it (pl + r for its surface)
}

// animate writes into an (of p's length) the animated pose of every
// particle of p in pose: the offset from the parent, the length to keep
// and the path length from the root (the stiffness limit and path bound
// follow from them). It returns the longest path, and false, with the
// records unfinished, if a bone is outside the pose. The root (and a
// particle whose parent does not come first, not a tree Build makes) gets
// a zero record.
func animate(an []animated, p *Particles, pose *Pose) (pathMax float32, ok bool) {
	n := len(an)
	bone, parent := p.Bone[:n], p.Parent[:n]
	wp := pose.WorldPos
	for i := 0; i < n; i++ {
		b, j := bone[i], parent[i]
		k := &an[i]
		if uint(j) >= uint(i) {
			k.o0, k.o1, k.o2, k.rl, k.pl = 0, 0, 0, 0, 0
			continue
		}
		pb := bone[j]
		if int(b) >= len(wp) || int(pb) >= len(wp) {
			return pathMax, false
		}
		var x mgl32.Vec3
		if b >= 0 {
			x = wp[b]
		} else {
			x = animAt(p, pose, i)
		}
		var o mgl32.Vec3
		if pb >= 0 {
			o = x.Sub(wp[pb])
		} else {
			o = x.Sub(animAt(p, pose, int(j))) // not a tree Build makes
		}
		l := sqrt32(dot3(o[0], o[1], o[2]))
		pl := an[j].pl + l
		k.o0, k.o1, k.o2, k.rl, k.pl = o[0], o[1], o[2], l, pl
		// Compares rather than max, which also orders NaN and -0 (a NaN
		// length only comes with a non-finite pose).
		if pl > pathMax {
			pathMax = pl
		}
	}
	return pathMax, true
}

// packed is one particle's step parameters, derived from its Params for
// the frame's step length, weight and object scale, so that the step's
// loop reads a few arrays instead of a dozen: Go then keeps its values in
// registers rather than reloading them. A chain whose particles share
// their Params has one packed record for all of them.
type packed struct {
	r float32 // particle radius times the object scale
	e float32 // elasticity, for the step length
	// The stiffness limit per unit of rl, (1-stiffness)*2: the particle
	// stays within rl*sk of its animated position (+Inf: no limit; the
	// step computes rl*sk, which a record then need not hold).
	sk float32
	// Velocity kept per step (1 - damping) and the force's scale (see
	// forceScale), for the step length; hit: damping raised by friction
	// after a collider touch.
	keep, keepHit, fs, fsHit float32
	inert                    float32
}

// pack writes the packed step parameters from the particles' parameters,
// the weight, the object scale and the step length.
func pack(c *Chain) {
	pk, params := c.packs(), c.paramsOf()
	if len(pk) == 0 {
		return // not sized by Refresh
	}
	c.packOK = true
	params = params[:len(pk)]
	t, w, scale := c.t, c.weight, c.scale
	inf := float32(math.Inf(1))
	for i := range pk {
		k, v := &pk[i], &params[i]
		d, dh := v.Damping, v.Damping+v.Friction
		if dh > 1 {
			dh = 1
		}
		k.keep, k.keepHit, k.fs, k.fsHit = 1-d, 1-dh, 1, 1
		k.e = v.Elasticity
		k.sk = inf
		if stiff := 1 + float32((v.Stiffness-1)*w); stiff > 0 {
			k.sk = (1 - stiff) * 2
		}
		k.r = v.Radius * scale
		k.inert = v.Inert
	}
	if t != 1 {
		stepLength(pk, t)
	}
}

// stepLength turns the packed damping and elasticity of one step at the
// update rate into those of a step t times as long (Variable mode): the
// velocity kept is k^t, the force scaled by forceScale, and elasticity e
// becomes 1-(1-e)^(t²), a spring of fixed strength whose pull grows with t².
// Neighbours usually share their parameters: the powers of the last ones
// are reused.
func stepLength(pk []packed, t float32) {
	var kd, kdh, ke powMemo
	for i := range pk {
		k := &pk[i]
		k.keep, k.fs = kd.damp(k.keep, t)
		k.keepHit, k.fsHit = kdh.damp(k.keepHit, t)
		if k.e > 0 && k.e < 1 {
			k.e = ke.elast(k.e, t*t)
		}
	}
}

// powMemo remembers the last power computed.
type powMemo struct {
	x, a, b float32
	ok      bool
}

// damp returns the velocity kept over a step of t, k^t, and the force
// scale for it, given the velocity k kept per unit step.
func (m *powMemo) damp(k, t float32) (float32, float32) {
	if !m.ok || k != m.x {
		kt := pow(k, t)
		m.x, m.a, m.b, m.ok = k, kt, forceScale(k, kt, t), true
	}
	return m.a, m.b
}

// elast returns 1-(1-e)^t2.
func (m *powMemo) elast(e, t2 float32) float32 {
	if !m.ok || e != m.x {
		m.x, m.a, m.ok = e, 1-pow(1-e, t2), true
	}
	return m.a
}
