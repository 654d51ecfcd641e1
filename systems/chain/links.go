package chain

import (
	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/internal/mathx"
	"github.com/sway-anim/sway/systems/collide"
)

// Links between chains: distance constraints between particles of
// different chains of one character, so that a skirt's strands around the
// hips, or a cape's side by side, keep their spacing instead of spreading
// apart or crossing.
//
// A link's target is the distance between its two particles in the
// animated pose of the frame (as a chain's own bones keep their animated
// lengths), so that an animation that opens a skirt opens the links with
// it. Each sub-step, after every linked chain has been stepped (integrated,
// constrained and pushed out of its colliders), the links are solved in
// Gauss-Seidel order for LinkSettings.Iterations, XPBD-style: particles
// weigh 1 kg each (a root, which follows the animation, is immovable), and
// a link of compliance α (m/N) acts as a spring of stiffness 1/α N/m, its
// correction per iteration
//
//	Δλ = (-C - α̃λ) / (w_a + w_b + α̃),   α̃ = α/h²,   C = |x_a - x_b| - d,
//
// with λ starting at 0 each sub-step and h the sub-step in seconds. With
// α = 0 the links are rigid: one iteration meets a lone link's target
// exactly, links that share particles converge toward theirs with more
// iterations. Then the stretch and
// compression limits are enforced exactly (as a rigid link would), and
// each linked chain is walked from its root again: every particle put back
// at its animated bone length from its parent and pushed out of its
// colliders (so the chain's lengths and colliders win over the links).
//
// How much the result depends on the sub-step count: with α > 0, the
// links' stiffness in N/m does not depend on h (that is the point of
// XPBD's α/h²), but a Gauss-Seidel solve with a few iterations leaves a
// residual error that shrinks as sub-steps are added, so 1 sub-step and 4
// give close but not equal motion; with α = 0 every sub-step meets the
// targets as far as the iterations go, so more sub-steps make the links
// stiffer in effect. Links act only in a sub-step that both their chains
// run: give linked chains the same UpdateRate, MaxSubSteps and Mode.
//
// A linked character's chains cannot go side by side with other
// characters' in the SIMD lanes (their sub-steps interleave with the
// links'): they take the scalar path, StepLinked.

// LinkSettings are the parameters of a character's links.
type LinkSettings struct {
	// Compliance is the inverse of a link's stiffness, in metres per
	// newton (XPBD's α; particles weigh 1 kg): >= 0, 0 (the default) for
	// rigid links. 1e-4 is a stiff link (10 kN/m), 1e-2 a soft one.
	Compliance float32
	// Iterations is how many times per sub-step every link is solved:
	// 0..MaxLinkIterations, 0 meaning 1.
	Iterations int
	// MaxStretch and MaxCompression limit a link's length to
	// [d(1-MaxCompression), d(1+MaxStretch)] after the iterations, d its
	// target: fractions, >= 0 (MaxCompression < 1); 0 means no limit.
	MaxStretch, MaxCompression float32
}

// MaxLinkIterations is the most LinkSettings.Iterations accepts.
const MaxLinkIterations = 16

// Validate reports a non-finite or out-of-range field as a
// *check.FieldError.
func (s *LinkSettings) Validate() error {
	const ty = "chain.LinkSettings"
	if err := check.Finite(ty, "Compliance", s.Compliance); err != nil {
		return err
	}
	if err := check.NonNegative(ty, "Compliance", s.Compliance); err != nil {
		return err
	}
	if s.Iterations < 0 || s.Iterations > MaxLinkIterations {
		return check.Errorf(ty, "Iterations", s.Iterations, "must be in 0..%d (0: 1)", MaxLinkIterations)
	}
	if err := check.Finite(ty, "MaxStretch", s.MaxStretch); err != nil {
		return err
	}
	if err := check.NonNegative(ty, "MaxStretch", s.MaxStretch); err != nil {
		return err
	}
	if err := check.Finite(ty, "MaxCompression", s.MaxCompression); err != nil {
		return err
	}
	if !(s.MaxCompression >= 0 && s.MaxCompression < 1) {
		return check.Errorf(ty, "MaxCompression", s.MaxCompression, "must be in [0, 1) (a fraction of the target length; 0: no limit)")
	}
	return nil
}

// Link joins particle PA of chain CA with particle PB of chain CB: chains
// by their index among one character's chains, particles by their index
// in the chain (0 is the root).
type Link struct{ CA, PA, CB, PB int32 }

// LinkChains returns the links between neighbouring chains: for each ring
// (chain indices in order, the last one neighbouring the first) and each
// strip (in order, open), the particles of neighbouring chains at the same
// depth (counted in bones from the root; the first particle at that depth
// in the chain's order when it branches), and with diagonal also each
// particle with its neighbour's at the next depth. Roots are not linked to
// each other (they follow the animation). cs are the character's chains
// and parents each chain's parent indices (rest data). Set-up code.
func LinkChains(cs []Chain, parents [][]int32, rings, strips [][]int, diagonal bool) ([]Link, error) {
	depths := make([][]int32, len(cs)) // chain k: first particle at each depth
	for k := range cs {
		if k >= len(parents) {
			break
		}
		par := parents[k]
		d := make([]int32, len(par))
		var first []int32
		for i, j := range par {
			if i > 0 && uint(j) < uint(i) {
				d[i] = d[j] + 1
			}
			if int(d[i]) == len(first) {
				first = append(first, int32(i))
			}
		}
		depths[k] = first
	}
	var out []Link
	pair := func(a, b int) {
		da, db := depths[a], depths[b]
		for d := 0; d < max(len(da), len(db)); d++ {
			if d > 0 && d < len(da) && d < len(db) {
				out = append(out, Link{int32(a), da[d], int32(b), db[d]})
			}
			if diagonal && d+1 < len(da) && d+1 < len(db) {
				if d < len(da) {
					out = append(out, Link{int32(a), da[d], int32(b), db[d+1]})
				}
				if d < len(db) {
					out = append(out, Link{int32(a), da[d+1], int32(b), db[d]})
				}
			}
		}
	}
	for ri, group := range [][][]int{rings, strips} {
		field := "Rings"
		if ri == 1 {
			field = "Strips"
		}
		for gi, g := range group {
			for _, k := range g {
				if k < 0 || k >= len(cs) {
					return nil, check.Errorf("ChainLinks", field, k, "[%d]: no chain has this index (%d chains)", gi, len(cs))
				}
			}
			seen := map[int]bool{}
			for _, k := range g {
				if seen[k] {
					return nil, check.Errorf("ChainLinks", field, k, "[%d]: chain listed twice", gi)
				}
				seen[k] = true
			}
			if ri == 0 && len(g) < 3 {
				return nil, check.Errorf("ChainLinks", field, len(g), "[%d]: a ring needs at least 3 chains", gi)
			}
			if ri == 1 && len(g) < 2 {
				return nil, check.Errorf("ChainLinks", field, len(g), "[%d]: a strip needs at least 2 chains", gi)
			}
			for i := 0; i+1 < len(g); i++ {
				pair(g[i], g[i+1])
			}
			if ri == 0 {
				pair(g[len(g)-1], g[0])
			}
		}
	}
	return out, nil
}

// Linked is one character's links and the scratch StepLinked keeps for
// them (it allocates on its first frame and when the chains grow; not
// after).
type Linked struct {
	Settings LinkSettings
	Links    []Link

	an     []animated   // every chain's animated records, chain k's from off[k]
	off    []int32      // len(cs)+1
	target []float32    // per link: its length this frame
	lambda []float32    // per link: XPBD's multiplier this sub-step
	anim   []mgl32.Vec3 // animated positions (scratch for the targets)
	views  []Particles
	run    []int8 // per chain: sub-steps this frame, -1 when not stepped
	has    []bool // per chain: it has a link
	fin    []bool // per chain: finite after StepLinked
}

// Finite reports whether chain k's particles were all finite after the
// last StepLinked (true for a chain it did not step).
func (l *Linked) Finite(k int) bool { return k >= len(l.fin) || l.fin[k] }

// StepLinked steps one character's chains cs (steps[k] from Prepare for
// chain k, as StepsIn takes them) together: per sub-step every chain that
// runs it is stepped, then the links are solved and the linked chains'
// lengths and colliders enforced again (see "Links between chains"). A
// chain with 0 steps runs SkipUpdate and takes no part in the links.
// dt is the frame's time (the sub-step length in Fixed mode at
// UpdateRate 0). Afterwards l.Finite(k) reports chain k's finiteness.
func StepLinked(rest, sim *Particles, cs []Chain, steps []int8, pose *Pose, shapes []collide.Shape, l *Linked, dt float32) {
	n := min(len(cs), len(steps))
	l.size(cs[:n])
	nsub := 0
	for k := range n {
		c := &cs[k]
		l.run[k], l.fin[k] = -1, true
		if steps[k] < 0 {
			continue
		}
		r, lo, hi := c.RestFirst, c.First, c.First+c.N
		if r < 0 || r+c.N > len(rest.Bone) || lo < 0 || hi > len(sim.Pos) {
			continue
		}
		p := &l.views[k]
		*p = Particles{
			Bone: rest.Bone[r : r+c.N], Parent: rest.Parent[r : r+c.N], Local: rest.Local[r : r+c.N],
			Pos: sim.Pos[lo:hi], Prev: sim.Prev[lo:hi], Collided: sim.Collided[lo:hi],
		}
		an := l.an[l.off[k]:l.off[k+1]]
		if !c.animateIn(an, p, pose) {
			continue
		}
		if steps[k] == 0 {
			skipUpdate(p, c, an)
			continue
		}
		l.run[k] = steps[k]
		nsub = max(nsub, int(steps[k]))
	}
	if nsub > 0 {
		l.targets(cs[:n])
	}
	for sub := range nsub {
		for k := range n {
			if int(l.run[k]) > sub {
				step(&l.views[k], &cs[k], sub, shapes, l.an[l.off[k]:l.off[k+1]])
			}
		}
		if l.solve(cs[:n], sub, dt) {
			for k := range n {
				if int(l.run[k]) > sub && l.has[k] {
					l.restore(&cs[k], &l.views[k], l.an[l.off[k]:l.off[k+1]], shapes)
				}
			}
		}
	}
	for k := range n {
		if l.run[k] >= 0 || steps[k] == 0 {
			p := &l.views[k]
			l.fin[k] = mathx.Vec3sFinite(p.Pos) && mathx.Vec3sFinite(p.Prev)
		}
	}
}

// size sizes the scratch for the chains cs.
func (l *Linked) size(cs []Chain) {
	l.off = resize(l.off, len(cs)+1)
	total := 0
	for k := range cs {
		l.off[k] = int32(total)
		total += max(cs[k].N, 0)
	}
	l.off[len(cs)] = int32(total)
	l.an = resize(l.an, total)
	l.anim = resize(l.anim, total)
	l.views = resize(l.views, len(cs))
	l.run = resize(l.run, len(cs))
	l.fin = resize(l.fin, len(cs))
	l.has = resize(l.has, len(cs))
	clear(l.has)
	for _, ln := range l.Links {
		if uint(ln.CA) < uint(len(cs)) && uint(ln.CB) < uint(len(cs)) {
			l.has[ln.CA], l.has[ln.CB] = true, true
		}
	}
	l.target = resize(l.target, len(l.Links))
	l.lambda = resize(l.lambda, len(l.Links))
}

func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// targets works out every link's length in the animated pose: a chain's
// animated particle positions are its animated root plus the animated
// offsets down the chain.
func (l *Linked) targets(cs []Chain) {
	for k := range cs {
		if l.run[k] < 0 {
			continue
		}
		an, a, par := l.an[l.off[k]:l.off[k+1]], l.anim[l.off[k]:l.off[k+1]], l.views[k].Parent
		a[0] = cs[k].animRoot
		for i := 1; i < len(a); i++ {
			j := par[i]
			if uint(j) >= uint(i) {
				a[i] = a[0]
				continue
			}
			a[i] = mgl32.Vec3{a[j][0] + an[i].o0, a[j][1] + an[i].o1, a[j][2] + an[i].o2}
		}
	}
	for i, ln := range l.Links {
		l.target[i] = 0
		if !l.valid(cs, ln) {
			continue
		}
		xa, xb := l.anim[l.off[ln.CA]+ln.PA], l.anim[l.off[ln.CB]+ln.PB]
		d0, d1, d2 := xa[0]-xb[0], xa[1]-xb[1], xa[2]-xb[2]
		l.target[i] = sqrt32(dot3(d0, d1, d2))
	}
}

// valid reports whether link ln joins two particles of chains that step
// this frame.
func (l *Linked) valid(cs []Chain, ln Link) bool {
	return uint(ln.CA) < uint(len(cs)) && uint(ln.CB) < uint(len(cs)) && ln.CA != ln.CB &&
		l.run[ln.CA] >= 0 && l.run[ln.CB] >= 0 &&
		uint(ln.PA) < uint(cs[ln.CA].N) && uint(ln.PB) < uint(cs[ln.CB].N)
}

// subSeconds is the length of chain c's sub-steps in seconds, dt the
// frame's time.
func subSeconds(c *Chain, dt float32) float32 {
	if c.variable {
		return c.h
	}
	if r := c.Settings.UpdateRate; r > 0 {
		return 1 / r
	}
	return dt
}

// solve solves the links whose chains both run sub-step sub, and reports
// whether any did.
func (l *Linked) solve(cs []Chain, sub int, dt float32) bool {
	s := &l.Settings
	iters := max(s.Iterations, 1)
	any := false
	clear(l.lambda)
	for range iters {
		for i, ln := range l.Links {
			if !l.valid(cs, ln) || int(l.run[ln.CA]) <= sub || int(l.run[ln.CB]) <= sub {
				continue
			}
			any = true
			h := subSeconds(&cs[ln.CA], dt)
			at := float32(0)
			if h > 0 {
				at = s.Compliance / float32(h*h)
			}
			xa, xb := &l.views[ln.CA].Pos[ln.PA], &l.views[ln.CB].Pos[ln.PB]
			l.lambda[i] += linkOnce(xa, xb, massInv(ln.PA), massInv(ln.PB), l.target[i], at, l.lambda[i])
		}
	}
	if !any || (s.MaxStretch <= 0 && s.MaxCompression <= 0) {
		return any
	}
	for i, ln := range l.Links {
		if !l.valid(cs, ln) || int(l.run[ln.CA]) <= sub || int(l.run[ln.CB]) <= sub {
			continue
		}
		d := l.target[i]
		lo, hi := float32(0), float32(-1) // hi < 0: no upper limit
		if s.MaxCompression > 0 {
			lo = d - float32(d*s.MaxCompression)
		}
		if s.MaxStretch > 0 {
			hi = d + float32(d*s.MaxStretch)
		}
		xa, xb := &l.views[ln.CA].Pos[ln.PA], &l.views[ln.CB].Pos[ln.PB]
		d0, d1, d2 := xa[0]-xb[0], xa[1]-xb[1], xa[2]-xb[2]
		switch dist := sqrt32(dot3(d0, d1, d2)); {
		case hi >= 0 && dist > hi:
			linkOnce(xa, xb, massInv(ln.PA), massInv(ln.PB), hi, 0, 0)
		case dist < lo:
			linkOnce(xa, xb, massInv(ln.PA), massInv(ln.PB), lo, 0, 0)
		}
	}
	return true
}

// massInv is a particle's inverse mass: 0 for a root (it follows the
// animation), 1 for the others.
func massInv(p int32) float32 {
	if p == 0 {
		return 0
	}
	return 1
}

// linkOnce applies one XPBD correction of the distance constraint
// |xa - xb| = d with inverse masses wa and wb, compliance over h² at and
// multiplier lambda, and returns the multiplier's change.
func linkOnce(xa, xb *mgl32.Vec3, wa, wb, d, at, lambda float32) float32 {
	w := wa + wb + at
	d0, d1, d2 := xa[0]-xb[0], xa[1]-xb[1], xa[2]-xb[2]
	l2 := dot3(d0, d1, d2)
	if !(w > 0) || !(l2 > mathx.Epsilon) {
		return 0
	}
	l := sqrt32(l2)
	dl := (-(l - d) - float32(at*lambda)) / w
	s := dl / l // along the unit direction (d0, d1, d2)/l
	sa, sb := float32(s*wa), float32(s*wb)
	xa[0], xa[1], xa[2] = xa[0]+float32(d0*sa), xa[1]+float32(d1*sa), xa[2]+float32(d2*sa)
	xb[0], xb[1], xb[2] = xb[0]-float32(d0*sb), xb[1]-float32(d1*sb), xb[2]-float32(d2*sb)
	return dl
}

// restore walks chain c from its root after the links moved its
// particles: each put back at its animated bone length from its parent
// and pushed out of the chain's colliders.
func (l *Linked) restore(c *Chain, p *Particles, an []animated, shapes []collide.Shape) {
	pk := c.packs()
	ps := paramStride(len(pk))
	pos, par := p.Pos, p.Parent
	for i := 1; i < len(pos); i++ {
		j := par[i]
		if uint(j) >= uint(i) {
			continue
		}
		ka, x, pj := &an[i], &pos[i], pos[j]
		x0, x1, x2 := keepLength3(x[0], x[1], x[2], pj[0], pj[1], pj[2], ka.o0, ka.o1, ka.o2, ka.rl)
		v := mgl32.Vec3{x0, x1, x2}
		r := pk[i*ps].r
		for _, s := range c.Colliders {
			if uint(s) < uint(len(shapes)) && collide.Push(&v, r, &shapes[s]) {
				p.Collided[i] = true
			}
		}
		if c.Settings.SegmentCollision {
			for _, s := range c.Colliders {
				if uint(s) < uint(len(shapes)) {
					var hit bool
					v[0], v[1], v[2], hit = segPush(&shapes[s], v[0], v[1], v[2], pj[0], pj[1], pj[2], r, ka)
					p.Collided[i] = p.Collided[i] || hit
				}
			}
		}
		if !finite3(v[0], v[1], v[2]) {
			v = mgl32.Vec3{pj[0] + ka.o0, pj[1] + ka.o1, pj[2] + ka.o2}
			p.Prev[i] = v
		}
		*x = v
	}
}
