package chain

import "math"

// animated is one particle's animated pose for a step, written by Prepare
// every frame.
type animated struct {
	o0, o1, o2 float32 // RestOff
	rl         float32 // RestLen
	pl         float32 // sum of RestLen from the root: the farthest keep-length leaves the particle from it (pl + r for its surface)
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

// packCurrent reports whether the packed step parameters were written for
// this frame's step length, weight and object scale. They seldom change, so
// Prepare repacks only when one does (or Refresh ran).
func (c *Chain) packCurrent() bool {
	return c.packOK && c.t == c.packT && c.weight == c.packW && c.scale == c.packS
}

// pack writes the packed step parameters from the particles' parameters,
// the weight, the object scale and the step length.
func pack(c *Chain) {
	pk, params := c.packs(), c.paramsOf()
	if len(pk) == 0 {
		return // not sized by Refresh
	}
	c.packOK, c.packT, c.packW, c.packS = true, c.t, c.weight, c.scale
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
		if stiff := 1 + (v.Stiffness-1)*w; stiff > 0 {
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
