package chain

import (
	"github.com/go-gl/mathgl/mgl32"
	"math"

	"github.com/sway-anim/sway/internal/mathx"
	"github.com/sway-anim/sway/systems/collide"
)

// Constrain applies DynamicBone's UpdateParticles2 to every particle but the
// root, parents first: the elasticity pull toward the animated position
// relative to the simulated parent, the stiffness limit (the particle stays
// within restLen*(1-s)*2 of that position, s = lerp(1, stiffness, weight)),
// the colliders listed in c.Colliders, the freeze plane, and the parent
// distance put back to the animated bone length. The colliders are applied
// once more after the length step, so that no particle ends a step inside a
// collider (where the two disagree the collider wins and the bone stretches
// a little until the next step).
//
// A collider is tested only on particles that can touch it at their bone
// length from their (already constrained) parent; DynamicBone also pushes
// an overstretched intermediate position out of colliders the kept length
// then pulls it away from.
//
// The animated pose is read from pose, the one Prepare was given this
// frame (its world positions; a pose that does not hold the chain's bones
// leaves the particles alone). StepsIn reads it once for all of a frame's
// sub-steps.
func Constrain(p Particles, c *Chain, pose Pose, shapes []collide.Shape) {
	var buf [stackRecords]animated
	an, lent := borrow(buf[:], len(p.Pos))
	if c.animateIn(an, &p, &pose) {
		constrain(&p, c, shapes, nil, an)
	}
	giveBack(lent)
}

// Step is Integrate then Constrain for sub-step sub, in one pass over the
// particles: a particle's constraints read only itself and its parent, which
// the pass has finished, so the result is the same and the particles are
// loaded once.
func Step(p Particles, c *Chain, pose Pose, sub int, shapes []collide.Shape) {
	var buf [stackRecords]animated
	an, lent := borrow(buf[:], len(p.Pos))
	if c.animateIn(an, &p, &pose) {
		step(&p, c, sub, shapes, an)
	}
	giveBack(lent)
}

// step steps p with the animated records an (animateIn's).
func step(p *Particles, c *Chain, sub int, shapes []collide.Shape, an []animated) {
	if !c.fits(len(p.Pos)) {
		return // not the chain's particles
	}
	var in integrator
	in.start(&p.Pos[0], &p.Prev[0], c, sub)
	constrain(p, c, shapes, &in, an)
}

// constrainer is one Constrain call's state. The common particle (no
// collider touched, no freeze plane) is done inline in constrain; the
// others go through finish and again, so that the hot loop holds little
// and Go keeps its values in registers.
type constrainer struct {
	p         *Particles
	anim      []animated
	pk        []packed
	ps        int          // pk's stride (see paramStride)
	axis      []mgl32.Vec3 // the freeze-plane normals, if freeze
	cl        culled       // a step's own: culling is redone every step, so nothing carries over
	colliders []int32      // the chain's, into shapes
	shapes    []collide.Shape
	freeze    bool // project on the freeze plane
	seg       bool // Settings.SegmentCollision: push the segments to the parents out too
	// limit: Settings.LimitAngleDegrees in (0, 180), the cone's cosine
	// and sine.
	limit          bool
	limCos, limSin float32
	// slack is how far colliders have pushed particles beyond their kept
	// length this step, added to the paths and the reach that bound where
	// the later particles can be.
	slack, reach float32
}

// constrain constrains every particle, integrating each first if in is not
// nil, with the animated records an (animateIn's).
func constrain(p *Particles, c *Chain, shapes []collide.Shape, in *integrator, an []animated) {
	n := len(p.Pos)
	if !c.fits(n) || len(an) < n {
		return // not the chain's particles
	}
	var k constrainer
	pk := c.packs()
	k.p, k.anim, k.pk, k.ps, k.colliders, k.shapes = p, an[:n], pk, paramStride(len(pk)), c.Colliders, shapes
	k.reach, k.freeze = c.reach, c.freeze() != FreezeNone
	k.axis = c.axes()
	k.seg = c.Settings.SegmentCollision
	if a := c.Settings.LimitAngleDegrees; a > 0 && a < 180 {
		s, cs := math.Sincos(float64(a) * (math.Pi / 180))
		k.limit, k.limCos, k.limSin = true, float32(cs), float32(s)
	}
	cl := &k.cl
	if len(c.Colliders) > 0 {
		cl.set(c.Colliders, shapes, p.Pos[0], c.reach*(1+cullMargin))
	}
	collides := cl.n > 0 || cl.rest
	fuse := in != nil
	var f0, f1, f2, m0, m1, m2, vs float32
	if fuse {
		f0, f1, f2, m0, m1, m2, vs = in.f0, in.f1, in.f2, in.m0, in.m1, in.m2, in.vs
	}
	pos, prev, parent, hit, an, pk, ps := p.Pos[:n], p.Prev[:n], p.Parent[:n], p.Collided[:n], k.anim, k.pk, k.ps
	for i := 1; i < n; i++ {
		// Integrate, pull (elasticity and stiffness) and keep-length
		// written out: Go does not inline them, and as calls they cost a
		// third of the step.
		ka, kp, xi := &an[i], &pk[i*ps], &pos[i]
		x0, x1, x2 := xi[0], xi[1], xi[2]
		if fuse {
			q := &prev[i]
			a := kp.inert
			r0, r1, r2 := float32(m0*a), float32(m1*a), float32(m2*a)
			keep, fs := kp.keep, kp.fs
			if hit[i] {
				keep, fs = kp.keepHit, kp.fsHit
				hit[i] = false
			}
			keep *= vs
			q0, q1, q2 := q[0], q[1], q[2]
			q[0], q[1], q[2] = x0+r0, x1+r1, x2+r2
			x0, x1, x2 = x0+float32((x0-q0)*keep)+float32(f0*fs)+r0, x1+float32((x1-q1)*keep)+float32(f1*fs)+r1, x2+float32((x2-q2)*keep)+float32(f2*fs)+r2
		}
		j := parent[i]
		if uint(j) >= uint(i) {
			*xi = mgl32.Vec3{x0, x1, x2}
			continue // not a valid tree: parents come first
		}
		pj := &pos[j]
		p0, p1, p2 := pj[0], pj[1], pj[2]
		// The colliders in reach of the parent.
		var mask uint32
		if collides {
			mask = cl.reachable(ka.pl+kp.r+k.slack, ka.rl+kp.r, p0, p1, p2)
		}
		o0, o1, o2 := ka.o0, ka.o1, ka.o2
		rest0, rest1, rest2 := p0+o0, p1+o1, p2+o2
		e := kp.e
		x0 += float32((rest0 - x0) * e)
		x1 += float32((rest1 - x1) * e)
		x2 += float32((rest2 - x2) * e)
		// Compared squared: the root is only needed when the stiffness
		// limit acts, which low stiffness rarely makes it do.
		// rl*sk: +Inf or NaN (rl 0, no limit) compare false.
		if d0, d1, d2, maxLen := rest0-x0, rest1-x1, rest2-x2, ka.rl*kp.sk; float32(d0*d0)+float32(d1*d1)+float32(d2*d2) > maxLen*maxLen {
			l := sqrt32(float32(d0*d0) + float32(d1*d1) + float32(d2*d2))
			s := (l - maxLen) / l
			x0, x1, x2 = x0+float32(d0*s), x1+float32(d1*s), x2+float32(d2*s)
		}
		if k.limit {
			x0, x1, x2 = limitCone(x0, x1, x2, p0, p1, p2, o0, o1, o2, k.limCos, k.limSin)
		}
		// Colliders: tested inline, pushed out of line (a call only where
		// a particle touches one).
		if (collides && cl.hits(mask, x0, x1, x2, kp.r)) || k.freeze {
			k.finish(i, x0, x1, x2, p0, p1, p2, mask)
			continue
		}
		rl := ka.rl
		if d0, d1, d2 := p0-x0, p1-x1, p2-x2; dot3(d0, d1, d2) > mathx.Epsilon {
			l := sqrt32(dot3(d0, d1, d2))
			s := (l - rl) / l
			x0, x1, x2 = x0+float32(d0*s), x1+float32(d1*s), x2+float32(d2*s)
		} else {
			x0, x1, x2 = p0+o0, p1+o1, p2+o2
		}
		if mask != 0 && (cl.hits(mask, x0, x1, x2, kp.r) || k.seg) {
			k.again(i, x0, x1, x2, p0, p1, p2, mask, false)
			continue
		}
		if !finite3(x0, x1, x2) {
			// Only reachable from non-finite input; fall back to the
			// animated shape rather than spread NaN down the chain.
			x0, x1, x2 = p0+o0, p1+o1, p2+o2
			prev[i] = mgl32.Vec3{x0, x1, x2}
		}
		*xi = mgl32.Vec3{x0, x1, x2}
	}
}

// finish does the rest of particle i at x, its parent at p, from the
// collider pass on: colliders in mask (and any beyond maxCull), the freeze
// plane, keep-length, then again.
func (k *constrainer) finish(i int, x0, x1, x2, p0, p1, p2 float32, mask uint32) {
	ka, r := &k.anim[i], k.pk[i*k.ps].r
	var touched bool
	if k.cl.hits(mask, x0, x1, x2, r) {
		x0, x1, x2, touched = k.cl.push(k.colliders, k.shapes, mask, x0, x1, x2, r)
	}
	if k.freeze {
		f := &k.axis[i]
		d := float32((x0-p0)*f[0]) + float32((x1-p1)*f[1]) + float32((x2-p2)*f[2])
		x0, x1, x2 = x0-float32(f[0]*d), x1-float32(f[1]*d), x2-float32(f[2]*d)
	}
	x0, x1, x2 = keepLength3(x0, x1, x2, p0, p1, p2, ka.o0, ka.o1, ka.o2, ka.rl)
	k.again(i, x0, x1, x2, p0, p1, p2, mask, touched)
}

// again pushes particle i, at its kept length, out of the colliders in mask
// (and any beyond maxCull) once more, and stores it. Keeping the length can
// pull a particle (back) into a collider; the collider wins. DynamicBone
// stops at keep-length and lets the chain dip in.
func (k *constrainer) again(i int, x0, x1, x2, p0, p1, p2 float32, mask uint32, touched bool) {
	p, ka, r := k.p, &k.anim[i], k.pk[i*k.ps].r
	if k.cl.hits(mask, x0, x1, x2, r) {
		y0, y1, y2, moved := k.cl.push(k.colliders, k.shapes, mask, x0, x1, x2, r)
		if moved {
			// The collider won over keep-length: the particle's descendants
			// can be that much farther from the root. Past the reach the
			// colliders were culled for, cull again with room to spare.
			d0, d1, d2 := y0-x0, y1-x1, y2-x2
			k.slack += sqrt32(dot3(d0, d1, d2))
			if !(k.reach+k.slack <= k.cl.reach) {
				k.cl.set(k.colliders, k.shapes, p.Pos[0], (k.reach+float32(2*k.slack))*(1+cullMargin))
			}
			x0, x1, x2, touched = y0, y1, y2, true
		}
	}
	if k.seg && mask != 0 {
		if y0, y1, y2, moved := k.segPushMasked(mask, x0, x1, x2, p0, p1, p2, r, ka); moved {
			x0, x1, x2, touched = y0, y1, y2, true
			// The particle push after the segment's can leave it past its
			// kept length: the descendants' bound grows by as much.
			if e := sqrt32(dot3(x0-p0, x1-p1, x2-p2)) - ka.rl; e > 0 {
				k.slack += e
				if !(k.reach+k.slack <= k.cl.reach) {
					k.cl.set(k.colliders, k.shapes, p.Pos[0], (k.reach+float32(2*k.slack))*(1+cullMargin))
				}
			}
		}
	}
	if touched {
		p.Collided[i] = true
	}
	if !finite3(x0, x1, x2) {
		x0, x1, x2 = p0+ka.o0, p1+ka.o1, p2+ka.o2
		p.Prev[i] = mgl32.Vec3{x0, x1, x2}
	}
	p.Pos[i] = mgl32.Vec3{x0, x1, x2}
}

// keepLength3 moves x along the line to its parent at p so that it sits at
// distance rl. A particle on top of its parent has no direction: it goes to
// the animated offset o instead (DynamicBone leaves it there, stuck at zero
// length).
func keepLength3(x0, x1, x2, p0, p1, p2, o0, o1, o2, rl float32) (float32, float32, float32) {
	d0, d1, d2 := p0-x0, p1-x1, p2-x2
	if l2 := dot3(d0, d1, d2); l2 > mathx.Epsilon {
		l := sqrt32(l2)
		s := (l - rl) / l
		return x0 + float32(d0*s), x1 + float32(d1*s), x2 + float32(d2*s)
	}
	return p0 + o0, p1 + o1, p2 + o2
}

// dot3 is d0*d0 + d1*d1 + d2*d2, each product rounded before the sums (see
// the package doc, "Same bits in every build").
func dot3(d0, d1, d2 float32) float32 { return float32(d0*d0) + float32(d1*d1) + float32(d2*d2) }

// finite3 reports whether x0, x1 and x2 are all finite: x-x is 0 for a
// finite x and NaN otherwise.
func finite3(x0, x1, x2 float32) bool { return (x0-x0)+(x1-x1)+(x2-x2) == 0 }
