package chain

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/mathx"
)

// Builder builds chains on one skeleton. It works out the skeleton's
// model-space rest pose and child lists once, so that building the chains
// of thousands of characters does not repeat it per chain.
type Builder struct {
	skel       Skeleton
	mpos, mscl []mgl32.Vec3
	mrot       []mgl32.Quat
	children   [][]int32
}

// NewBuilder prepares a Builder for skel (set-up code; it allocates).
func NewBuilder(skel *Skeleton) *Builder {
	nb := len(skel.Parent)
	b := &Builder{
		skel: *skel,
		mpos: make([]mgl32.Vec3, nb), mrot: make([]mgl32.Quat, nb), mscl: make([]mgl32.Vec3, nb),
		children: make([][]int32, nb),
	}
	if len(skel.RestPos) != nb || len(skel.RestRot) != nb || len(skel.RestScale) != nb {
		return b // Build reports the mismatch through Desc.Validate
	}
	// Model-space rest pose (character at the origin).
	for i := 0; i < nb; i++ {
		lp, lr, ls := skel.RestPos[i], skel.RestRot[i], skel.RestScale[i]
		lr, _ = mathx.NormalizeQuat(lr)
		p := skel.Parent[i]
		if p < 0 || int(p) >= i {
			b.mpos[i], b.mrot[i], b.mscl[i] = lp, lr, ls
			continue
		}
		b.children[p] = append(b.children[p], int32(i))
		b.mpos[i] = b.mpos[p].Add(mathx.Rotate(b.mrot[p], mul3(b.mscl[p], lp)))
		b.mrot[i] = mathx.Mul(b.mrot[p], lr)
		b.mscl[i] = mul3(b.mscl[p], ls)
	}
	return b
}

// Build validates d, appends the chain's particles to pool and sets c up.
// Particles are the root bone and its descendants minus the excluded
// subtrees, depth first as DynamicBone lists them, plus the virtual end
// particles (see Desc). Build allocates; it is set-up code. To build many
// chains on one skeleton, use a Builder.
func Build(pool *Particles, c *Chain, skel *Skeleton, d *Desc) error {
	return NewBuilder(skel).Build(pool, c, d)
}

// Build is the package's Build on the Builder's skeleton.
func (bl *Builder) Build(pool *Particles, c *Chain, d *Desc) error {
	skel := &bl.skel
	if err := d.Validate(skel); err != nil {
		return err
	}
	nb := len(skel.Parent)
	mpos, mrot, mscl, children := bl.mpos, bl.mrot, bl.mscl, bl.children
	excluded := make([]bool, nb)
	for _, b := range d.Exclusions {
		excluded[b] = true
	}
	hasEnd := d.EndLength > 0 || d.EndOffset != (mgl32.Vec3{})

	type part struct {
		bone, parent int32
		local        mgl32.Vec3
		rot          mgl32.Quat
		dist         float32
		world        mgl32.Vec3
	}
	var parts []part
	add := func(pt part) int32 {
		if pt.parent >= 0 {
			pp := parts[pt.parent]
			pt.dist = pp.dist + mathx.Len(pt.world.Sub(pp.world))
		}
		parts = append(parts, pt)
		return int32(len(parts) - 1)
	}
	addEnd := func(parent int32) {
		pb := parts[parent].bone
		var off mgl32.Vec3
		if d.EndLength > 0 {
			if ppb := skel.Parent[pb]; ppb >= 0 {
				// The last bone's direction, extended by EndLength of its length.
				off = div3(mathx.InvRotate(mrot[pb], mpos[pb].Sub(mpos[ppb])), mscl[pb]).Mul(d.EndLength)
			} else {
				off = mgl32.Vec3{d.EndLength, 0, 0}
			}
		} else {
			off = div3(mathx.InvRotate(mrot[pb], d.EndOffset), mscl[pb])
		}
		w := mpos[pb].Add(mathx.Rotate(mrot[pb], mul3(mscl[pb], off)))
		add(part{bone: -1, parent: parent, local: off, rot: mgl32.QuatIdent(), world: w})
	}
	covers := true // no exclusion left a bone under the root out
	var visit func(b, parent int32)
	visit = func(b, parent int32) {
		rot, _ := mathx.NormalizeQuat(skel.RestRot[b])
		idx := add(part{bone: b, parent: parent, local: skel.RestPos[b], rot: rot, world: mpos[b]})
		for _, ch := range children[b] {
			if !excluded[ch] {
				visit(ch, idx)
				continue
			}
			covers = false
			if hasEnd {
				addEnd(idx)
			}
		}
		if len(children[b]) == 0 && hasEnd {
			addEnd(idx)
		}
	}
	visit(d.Root, -1)

	n := len(parts)
	lo := pool.Grow(n)
	p := pool.Slice(lo, lo+n)
	*c = Chain{
		Settings:  d.Settings,
		Colliders: append([]int32(nil), d.Colliders...),
		First:     lo, N: n, RestFirst: lo,
		restRot: mrot[d.Root],
		covers:  covers,
		objRot:  mgl32.QuatIdent(),
		reset:   true,
	}
	for i, pt := range parts {
		p.Bone[i], p.Parent[i] = pt.bone, pt.parent
		p.Local[i], p.LocalRot[i], p.Dist[i] = pt.local, pt.rot, pt.dist
		p.Pos[i], p.Prev[i] = pt.world, pt.world
		if pt.parent >= 0 {
			p.Children[pt.parent]++
		}
		c.total = max(c.total, pt.dist)
		c.maxBone = max(c.maxBone, pt.bone)
	}
	Refresh(p, c)
	return nil
}

// Refresh re-derives the particles' parameters from c.Settings and its
// curves (clamped, see Settings), and the root-space gravity. Call it after
// editing c.Settings. It allocates only when the chain's arrays change
// size: its particles' parameters come to differ from one another (curves
// added to a chain built without) or become equal again, or a freeze axis
// is set for the first time. Edits of values do not allocate.
func Refresh(p Particles, c *Chain) {
	s := &c.Settings
	var cv Curves // nil curves: factor 1
	if s.Curves != nil {
		cv = *s.Curves
	}
	n := min(len(p.Dist), len(p.Parent))
	var first Params
	if n > 0 {
		first = paramsAt(s, &cv, p.Dist[0], c.total)
	}
	uniform := true
	var params []Params
	for i := 1; i < n && s.Curves != nil; i++ {
		v := paramsAt(s, &cv, p.Dist[i], c.total)
		if uniform && sameParams(&v, &first) {
			continue
		}
		if uniform {
			uniform = false
			params = c.sizeRecords(n, true)
			for k := range i {
				params[k] = first
			}
		}
		params[i] = v
	}
	if uniform {
		params = c.sizeRecords(n, false)
		if n > 0 {
			params[0] = first
		}
	}
	// The largest radius of a particle the step constrains (it bounds the
	// colliders' reach).
	c.rmax = 0
	ps := paramStride(len(params))
	for i, j := range p.Parent[:n] {
		if r := params[i*ps].Radius; uint(j) < uint(i) && r > c.rmax {
			c.rmax = r
		}
	}
	c.packOK = false
	if c.started {
		pack(c) // the step reads its copies: they follow at once, not at the next Prepare
	}
}

// paramsAt returns the parameters of a particle at rest distance dist from
// the root of a chain of length total.
func paramsAt(s *Settings, cv *Curves, dist, total float32) Params {
	a := float32(0)
	if total > 0 {
		a = dist / total
	}
	r := s.Radius * cv.Radius.Eval(a)
	if !(r > 0) || !mathx.IsFinite(r) {
		r = 0
	}
	return Params{
		Damping:    mathx.Clamp01(s.Damping * cv.Damping.Eval(a)),
		Elasticity: mathx.Clamp01(s.Elasticity * cv.Elasticity.Eval(a)),
		Stiffness:  mathx.Clamp01(s.Stiffness * cv.Stiffness.Eval(a)),
		Inert:      mathx.Clamp01(s.Inert * cv.Inert.Eval(a)),
		Friction:   mathx.Clamp01(s.Friction * cv.Friction.Eval(a)),
		Radius:     r,
	}
}

// sameParams reports whether a and b are the same bits: particles may
// share a record only if every result they lead to is the same.
func sameParams(a, b *Params) bool {
	return math.Float32bits(a.Damping) == math.Float32bits(b.Damping) &&
		math.Float32bits(a.Elasticity) == math.Float32bits(b.Elasticity) &&
		math.Float32bits(a.Stiffness) == math.Float32bits(b.Stiffness) &&
		math.Float32bits(a.Inert) == math.Float32bits(b.Inert) &&
		math.Float32bits(a.Friction) == math.Float32bits(b.Friction) &&
		math.Float32bits(a.Radius) == math.Float32bits(b.Radius)
}

// sizeRecords sizes the chain's arrays for n particles, with params and
// pk per particle or one shared, and returns params. Arrays already of
// that size are kept (edits of values do not allocate); others are
// allocated afresh, never grown into a neighbour's room (Gather packs the
// arrays of many chains together).
func (c *Chain) sizeRecords(n int, perParticle bool) []Params {
	have := int(c.recs())
	sized := int(c.sized)
	recs := min(n, 1)
	if perParticle {
		recs = n
	}
	if recs != have || c.params == nil || c.pk == nil {
		c.params, c.pk = addr(make([]Params, recs)), addr(make([]packed, recs))
	}
	if n != sized {
		c.axis = nil
	}
	if c.Settings.Freeze != FreezeNone && c.axis == nil {
		c.axis = addr(make([]mgl32.Vec3, n))
	}
	c.sized, c.perParticle = int32(n), perParticle
	return c.paramsOf()
}

// addr returns the address of s's first element, nil for an empty s.
func addr[T any](s []T) *T {
	if len(s) == 0 {
		return nil
	}
	return &s[0]
}

func mul3(a, b mgl32.Vec3) mgl32.Vec3 { return mgl32.Vec3{a[0] * b[0], a[1] * b[1], a[2] * b[2]} }

// div3 divides component-wise; a zero scale component gives 0 rather than Inf.
func div3(a, s mgl32.Vec3) mgl32.Vec3 {
	var r mgl32.Vec3
	for k := 0; k < 3; k++ {
		if s[k] > 1e-12 || s[k] < -1e-12 {
			r[k] = a[k] / s[k]
		}
	}
	return r
}
