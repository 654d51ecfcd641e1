package chain

import (
	"math"

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
// constrained and pushed out of its colliders), LinkSettings.Iterations
// times: the links are solved in one Gauss-Seidel pass, XPBD-style
// (below), their stretch and compression limits enforced, their segments
// pushed out of the colliders (LinkSettings.SegmentCollision; see
// "Collision along links"), and each linked chain walked from its root
// again (below). Particles
// weigh 1 kg each (a root, which follows the animation, is immovable), and
// a link of compliance α (m/N) acts as a spring of stiffness 1/α N/m, its
// correction per iteration
//
//	Δλ = (-C - α̃λ) / (w_a + w_b + α̃),   α̃ = α/h²,   C = |x_a - x_b| - d,
//
// with λ starting at 0 each sub-step (it accumulates over the iterations)
// and h the sub-step in seconds. With α = 0 the links are rigid: one
// iteration meets a lone link's target exactly, links that share
// particles converge toward theirs with more iterations. The stretch and
// compression limits are enforced exactly (as a rigid link would), and
// the walk from the root puts every particle back at its animated bone
// length from its parent and pushes it out of its colliders (so at the
// end of a sub-step the chain's lengths and colliders win over the
// links). Iterating the whole round, not the links alone, is what lets
// links and colliders agree: a leg pushes a strand out, the links bring
// its neighbours along, the next round pushes those out in turn.
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
	// Iterations is how many rounds per sub-step solve the links, enforce
	// their limits, collide their segments and walk the linked chains
	// again (see "Links between chains"): 0..MaxLinkIterations, 0
	// meaning 1. Each round costs about a scalar chain step.
	Iterations int
	// MaxStretch and MaxCompression limit a link's length to
	// [d(1-MaxCompression), d(1+MaxStretch)] after the iterations, d its
	// target: fractions, >= 0 (MaxCompression < 1); 0 means no limit.
	MaxStretch, MaxCompression float32
	// SegmentCollision keeps the segment between a link's two particles
	// (a capsule of their mean radius, metres) out of the first chain's
	// Outside sphere and capsule colliders, after the links of each
	// sub-step are solved: both particles move (a root does not), so
	// that a leg cannot pass between two neighbouring strands (see
	// "Collision along links"). Default false.
	SegmentCollision bool
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

// Linked is one character's links: set-up, read by StepLinked.
type Linked struct {
	Settings LinkSettings
	Links    []Link
}

// LinkScratch is what StepLinked works in: one per worker (Lanes holds
// one), so that it stays in cache from one character to the next. It
// allocates when a character has more chains, particles or links than
// any before it; not after.
type LinkScratch struct {
	an    []animated   // every chain's animated records, chain k's from off[k]
	off   []int32      // len(cs)+1
	act   []linkAct    // the links of this frame, in the order of Links
	anim  []mgl32.Vec3 // animated positions (scratch for the targets)
	views []Particles
	run   []int8 // per chain: sub-steps this frame, -1 when not stepped
	has   []bool // per chain: it has a link this frame
	ck    []chainLinks
	fin   []bool // per chain: finite after StepLinked
	// bs are the shapes' bounding spheres this frame: restore and
	// collideLinks skip a collider whose sphere a particle or segment
	// cannot reach (the push would leave it where it is).
	bs []sphere
}

// chainLinks is what a chain's links share in a frame: compliance over
// h² and 1/(w+α̃) for a link with one root (w = 1) and with none (w = 2).
type chainLinks struct{ at, inv1, inv2 float32 }

// linkAct is one link as a frame solves it: its particles' indices in the
// pool's Pos, inverse masses, target, compliance over h², 1/(wa+wb+α̃),
// XPBD's multiplier and the sub-steps both chains run.
type linkAct struct {
	ia, ib         int32
	ca             int32 // the first chain, whose colliders the link's segment meets
	wa, wb         float32
	d, at, inv, lm float32
	r              float32 // the segment's radius: the particles' mean, metres
	steps          int8
}

// Finite reports whether chain k's particles were all finite after the
// last StepLinked (true for a chain it did not step).
func (l *LinkScratch) Finite(k int) bool { return k >= len(l.fin) || l.fin[k] }

// StepLinked steps one character's chains cs (steps[k] from Prepare for
// chain k, as StepsIn takes them) together: per sub-step every chain that
// runs it is stepped, then the links are solved and the linked chains'
// lengths and colliders enforced again (see "Links between chains"). A
// chain with 0 steps runs SkipUpdate and takes no part in the links.
// dt is the frame's time (the sub-step length in Fixed mode at
// UpdateRate 0). It works in sc; afterwards sc.Finite(k) reports chain
// k's finiteness.
func StepLinked(rest, sim *Particles, cs []Chain, steps []int8, pose *Pose, shapes []collide.Shape, links *Linked, sc *LinkScratch, dt float32) {
	n := min(len(cs), len(steps))
	l := sc
	l.size(cs[:n], len(links.Links))
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
	act := l.act[:0]
	if nsub > 0 {
		act = l.frame(cs[:n], links, dt)
		l.bs = resize(l.bs, len(shapes))
		inf := float32(math.Inf(1))
		for i := range shapes {
			l.bs[i] = sphereOf(&shapes[i], inf)
		}
	}
	for sub := range nsub {
		for k := range n {
			if int(l.run[k]) > sub {
				step(&l.views[k], &cs[k], sub, shapes, l.an[l.off[k]:l.off[k+1]])
			}
		}
		if !beginLinks(act, sub) {
			continue
		}
		for range max(links.Settings.Iterations, 1) {
			solveLinks(sim.Pos, act, sub)
			limitLinks(sim.Pos, act, &links.Settings, sub)
			if links.Settings.SegmentCollision {
				collideLinks(sim.Pos, act, cs[:n], shapes, l.bs, sub)
			}
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

// size sizes the scratch for the chains cs and nl links.
func (l *LinkScratch) size(cs []Chain, nl int) {
	l.act = grow0(l.act, nl)
	if len(l.off) != len(cs)+1 || int(l.off[len(cs)]) != chainsLen(cs) {
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
		l.ck = resize(l.ck, len(cs))
	}
}

// grow0 returns s emptied, with room for n.
func grow0[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, 0, n)
	}
	return s[:0]
}

// chainsLen is the number of particles of the chains cs.
func chainsLen(cs []Chain) int {
	n := 0
	for k := range cs {
		n += max(cs[k].N, 0)
	}
	return n
}

func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// frame returns the links of this frame: those between particles of
// chains that step, with their targets, the lengths of the linked
// particles in the animated pose (a chain's animated positions are its
// animated root plus the animated offsets down the chain). It marks the
// chains that have one in has.
func (l *LinkScratch) frame(cs []Chain, links *Linked, dt float32) []linkAct {
	clear(l.has)
	for k := range cs {
		if l.run[k] < 0 {
			continue
		}
		an, a, par := l.an[l.off[k]:l.off[k+1]], l.anim[l.off[k]:l.off[k+1]], l.views[k].Parent
		ck := &l.ck[k]
		ck.at = 0
		if h := subSeconds(&cs[k], dt); h > 0 {
			ck.at = links.Settings.Compliance / float32(h*h)
		}
		ck.inv1, ck.inv2 = 1/(1+ck.at), 1/(2+ck.at)
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
	act := l.act[:0]
	for _, ln := range links.Links {
		if uint(ln.CA) >= uint(len(cs)) || uint(ln.CB) >= uint(len(cs)) || ln.CA == ln.CB ||
			l.run[ln.CA] < 0 || l.run[ln.CB] < 0 || uint(ln.PA) >= uint(cs[ln.CA].N) || uint(ln.PB) >= uint(cs[ln.CB].N) {
			continue
		}
		xa, xb := l.anim[l.off[ln.CA]+ln.PA], l.anim[l.off[ln.CB]+ln.PB]
		d0, d1, d2 := xa[0]-xb[0], xa[1]-xb[1], xa[2]-xb[2]
		k := linkAct{
			ia: int32(cs[ln.CA].First) + ln.PA, ib: int32(cs[ln.CB].First) + ln.PB,
			wa: massInv(ln.PA), wb: massInv(ln.PB),
			d: sqrt32(dot3(d0, d1, d2)), steps: min(l.run[ln.CA], l.run[ln.CB]), ca: ln.CA,
			r: 0.5 * (radiusOf(&cs[ln.CA], ln.PA) + radiusOf(&cs[ln.CB], ln.PB)),
		}
		ck := &l.ck[ln.CA]
		k.at = ck.at
		switch k.wa + k.wb {
		case 1:
			k.inv = ck.inv1
		case 2:
			k.inv = ck.inv2
		} // 0: two roots, no correction
		l.has[ln.CA], l.has[ln.CB] = true, true
		act = append(act, k)
	}
	l.act = act
	return act
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

// beginLinks starts sub-step sub: XPBD's multipliers back to 0. It
// reports whether any link's chains both run the sub-step.
func beginLinks(act []linkAct, sub int) bool {
	any := false
	for i := range act {
		act[i].lm = 0
		any = any || int(act[i].steps) > sub
	}
	return any
}

// solveLinks makes one Gauss-Seidel pass over the links act whose chains
// both run sub-step sub, on the positions pos.
func solveLinks(pos []mgl32.Vec3, act []linkAct, sub int) {
	for i := range act {
		k := &act[i]
		if int(k.steps) <= sub {
			continue
		}
		k.lm += linkOnce(&pos[k.ia], &pos[k.ib], k.wa, k.wb, k.d, k.at, k.inv, k.lm)
	}
}

// limitLinks puts every link of act whose chains both run sub-step sub
// back within its stretch and compression limits, exactly.
func limitLinks(pos []mgl32.Vec3, act []linkAct, s *LinkSettings, sub int) {
	if s.MaxStretch <= 0 && s.MaxCompression <= 0 {
		return
	}
	for i := range act {
		k := &act[i]
		if int(k.steps) <= sub {
			continue
		}
		lo, hi := float32(0), float32(-1) // hi < 0: no upper limit
		if s.MaxCompression > 0 {
			lo = k.d - float32(k.d*s.MaxCompression)
		}
		if s.MaxStretch > 0 {
			hi = k.d + float32(k.d*s.MaxStretch)
		}
		xa, xb := &pos[k.ia], &pos[k.ib]
		d0, d1, d2 := xa[0]-xb[0], xa[1]-xb[1], xa[2]-xb[2]
		w := k.wa + k.wb
		if !(w > 0) {
			continue
		}
		switch l2 := dot3(d0, d1, d2); {
		case hi >= 0 && l2 > hi*hi:
			linkOnce(xa, xb, k.wa, k.wb, hi, 0, 1/w, 0)
		case l2 < lo*lo:
			linkOnce(xa, xb, k.wa, k.wb, lo, 0, 1/w, 0)
		}
	}
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
// |xa - xb| = d with inverse masses wa and wb, compliance over h² at,
// inv = 1/(wa+wb+at) (0: no correction) and multiplier lambda, and returns
// the multiplier's change.
func linkOnce(xa, xb *mgl32.Vec3, wa, wb, d, at, inv, lambda float32) float32 {
	d0, d1, d2 := xa[0]-xb[0], xa[1]-xb[1], xa[2]-xb[2]
	l2 := dot3(d0, d1, d2)
	if !(l2 > mathx.Epsilon) {
		return 0
	}
	l := sqrt32(l2)
	dl := float32((-(l - d) - float32(at*lambda)) * inv)
	s := dl / l // along the unit direction (d0, d1, d2)/l
	sa, sb := float32(s*wa), float32(s*wb)
	xa[0], xa[1], xa[2] = xa[0]+float32(d0*sa), xa[1]+float32(d1*sa), xa[2]+float32(d2*sa)
	xb[0], xb[1], xb[2] = xb[0]-float32(d0*sb), xb[1]-float32(d1*sb), xb[2]-float32(d2*sb)
	return dl
}

// restore walks chain c from its root after the links moved its
// particles: each put back at its animated bone length from its parent
// and pushed out of the chain's colliders.
func (l *LinkScratch) restore(c *Chain, p *Particles, an []animated, shapes []collide.Shape) {
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
			if uint(s) < uint(len(shapes)) && !l.bs[s].far(v[0], v[1], v[2], r) && collide.Push(&v, r, &shapes[s]) {
				p.Collided[i] = true
			}
		}
		if c.Settings.SegmentCollision {
			// The segment's bounding sphere: its middle, half its
			// length plus the particle's radius.
			m0, m1, m2, h := midHalf(v, pj)
			for _, s := range c.Colliders {
				if uint(s) < uint(len(shapes)) && !l.bs[s].far(m0, m1, m2, h+r) {
					var hit bool
					v[0], v[1], v[2], hit = segPush(&shapes[s], v[0], v[1], v[2], pj[0], pj[1], pj[2], r, ka)
					if hit {
						p.Collided[i] = true
						m0, m1, m2, h = midHalf(v, pj)
					}
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

// radiusOf is particle p's collision radius in chain c (metres, the
// object scale applied), 0 when p is out of range.
func radiusOf(c *Chain, p int32) float32 {
	pk := c.packs()
	ps := paramStride(len(pk))
	if i := int(p) * ps; i < len(pk) {
		return pk[i].r
	}
	return 0
}
