package chain

import (
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
	var visit func(b, parent int32)
	visit = func(b, parent int32) {
		rot, _ := mathx.NormalizeQuat(skel.RestRot[b])
		idx := add(part{bone: b, parent: parent, local: skel.RestPos[b], rot: rot, world: mpos[b]})
		for _, ch := range children[b] {
			if !excluded[ch] {
				visit(ch, idx)
			} else if hasEnd {
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
		pk:      make([]packed, n),
		restRot: mrot[d.Root],
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

// Refresh re-derives the per-particle parameters from c.Settings and its
// curves (clamped, see Settings), and the root-space gravity. Call it after
// editing c.Settings; it is cheap and does not allocate.
func Refresh(p Particles, c *Chain) {
	s := &c.Settings
	var cv Curves // nil curves: factor 1
	if s.Curves != nil {
		cv = *s.Curves
	}
	for i := range p.Bone {
		a := float32(0)
		if c.total > 0 {
			a = p.Dist[i] / c.total
		}
		p.Damping[i] = mathx.Clamp01(s.Damping * cv.Damping.Eval(a))
		p.Elasticity[i] = mathx.Clamp01(s.Elasticity * cv.Elasticity.Eval(a))
		p.Stiffness[i] = mathx.Clamp01(s.Stiffness * cv.Stiffness.Eval(a))
		p.Inert[i] = mathx.Clamp01(s.Inert * cv.Inert.Eval(a))
		p.Friction[i] = mathx.Clamp01(s.Friction * cv.Friction.Eval(a))
		r := s.Radius * cv.Radius.Eval(a)
		if !(r > 0) || !mathx.IsFinite(r) {
			r = 0
		}
		p.Radius[i] = r
	}
	c.gravity = mathx.InvRotate(c.restRot, s.Gravity)
	c.packOK = false
	if c.started {
		pack(&p, c) // the step reads its copies: they follow at once, not at the next Prepare
	}
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
