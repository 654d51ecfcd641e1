package systems

import (
	"github.com/go-gl/mathgl/mgl32"

	"unsafe"

	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"

	"github.com/sway-anim/sway/components"
	"github.com/sway-anim/sway/internal/prefetch"
	"github.com/sway-anim/sway/internal/rig"
	"github.com/sway-anim/sway/internal/store"
	"github.com/sway-anim/sway/jobs"
	"github.com/sway-anim/sway/systems/chain"
	"github.com/sway-anim/sway/systems/collide"
	"github.com/sway-anim/sway/systems/fk"
)

// The dynamic chains run as three systems: ChainPrepare (phase prepare:
// colliders placed on the animated bones, object move, teleports, the
// sub-step count), ChainStep (phase integrate: per sub-step the Verlet
// integration, then constraints and colliders — one system because sub-steps
// alternate the two) and ChainApply (phase apply: particles back into bone
// rotations, the pose marked dirty for the final forward kinematics).
func init() {
	registerDefault(PhasePrepare, 10, "chain.prepare", func() System { return NewChainPrepare() })
	registerDefault(PhaseIntegrate, 10, "chain.step", func() System { return NewChainStep() })
	registerDefault(PhaseApply, 10, "chain.apply", func() System { return NewChainApply() })
}

// chainSystem is what the three chain systems share.
type chainSystem struct {
	noCrossReads
	frame frame
	chars featureCharacters[components.Chains]
	store generic.Resource[store.ChainStore]
	job   *jobs.Job
	body  func(lo, hi int)
	// Set for the duration of one Update.
	pool *rig.Pool
	view *components.View // the point distance culling measures from
	reg  *rig.Registry
	st   *store.ChainStore
	dt   float32
	// The step's and the apply's side-by-side scratch, one per chunk
	// running at a time (sideBySide: the system uses it).
	lanes      scratchPool[chain.Lanes]
	sideBySide bool
}

func newChainSystem(name string, run func(*chainSystem, int, int), sideBySide bool) *chainSystem {
	s := &chainSystem{chars: newFeatureCharacters[components.Chains](), job: jobs.NewJob(name), sideBySide: sideBySide}
	s.body = func(lo, hi int) { run(s, lo, hi) } // made once: no allocation per frame
	return s
}

func (s *chainSystem) Initialize(w *ecs.World) {
	s.frame = newFrame(w)
	s.store = generic.NewResource[store.ChainStore](w)
}

func (s *chainSystem) Update(w *ecs.World) { runAlone(s, &s.frame, w) }

func (s *chainSystem) GatherFrame(w *ecs.World) (*jobs.Job, func(lo, hi int), int) {
	items := s.chars.gather(w)
	s.pool, s.reg, s.st, s.dt = s.frame.pool.Get(), s.frame.reg.Get(), s.store.Get(), s.frame.time.Get().Dt
	s.view = s.frame.view.Get()
	if s.sideBySide {
		s.lanes.reserve(s.frame.jobs.Get().Workers())
	}
	return s.job, s.body, len(items)
}

func (s *chainSystem) FramePoses(dst []*components.Pose) []*components.Pose {
	return s.chars.framePoses(dst)
}

func (s *chainSystem) ReleaseFrame() {
	s.chars.release()
	s.pool, s.reg, s.st = nil, nil, nil
}

func (s *chainSystem) Finalize(w *ecs.World) {}

// posePart returns the chain kernels' view of one character's pose.
func posePart(pool *rig.Pool, p *components.Pose) chain.Pose {
	a, b := p.First, p.First+p.Count
	return chain.Pose{
		LocalPos: pool.LocalPos[a:b], LocalRot: pool.LocalRot[a:b],
		WorldPos: pool.WorldPos[a:b], WorldRot: pool.WorldRot[a:b], WorldScale: pool.WorldScale[a:b],
	}
}

// ChainPrepare places the characters' colliders on their animated bones and
// prepares every chain for this frame's sub-steps.
type ChainPrepare struct {
	*chainSystem
	live liveHandles[components.Chains]
}

// NewChainPrepare returns the chain prepare system.
func NewChainPrepare() *ChainPrepare {
	return &ChainPrepare{chainSystem: newChainSystem("chain.prepare", prepareChains, false), live: newLiveHandles[components.Chains]()}
}

// Update implements System: it first compacts away removed characters'
// chains, however they went (see compactChains), on this goroutine,
// before any worker sees the store.
func (s *ChainPrepare) Update(w *ecs.World) { runAlone(s, &s.frame, w) }

func (s *ChainPrepare) GatherFrame(w *ecs.World) (*jobs.Job, func(lo, hi int), int) {
	compactChains(w, s.store.Get(), &s.live)
	return s.chainSystem.GatherFrame(w)
}

func prepareChains(s *chainSystem, lo, hi int) {
	st := s.st
	for _, it := range s.chars.items[lo:hi] {
		h := it.feat
		steps := st.Steps[h.First : h.First+h.Count]
		// The animated pose must be current: a game system may have
		// written locals after the last FK pass. Sync is one comparison
		// when nothing changed, and false for a non-finite root.
		if h.Off(it.root.Pos, s.view) || !Sync(s.pool, s.reg.Skeletons[it.pose.Skeleton], it.pose, it.root) {
			for k := range steps {
				steps[k] = -1
			}
			continue
		}
		if syncs := st.SyncsOf(h); len(syncs) > 0 {
			syncRoots(s.pool, s.reg.Skeletons[it.pose.Skeleton], it.pose, it.root, syncs)
		}
		pose := posePart(s.pool, it.pose)
		cf, ce := h.ColliderFirst, h.ColliderFirst+h.ColliderCount
		chain.PlaceColliders(st.Shapes[cf:ce], st.ColliderDescs[cf:ce], st.ColliderBones[cf:ce], pose)
		f := chain.Frame{Dt: s.dt, ObjectPos: it.root.Pos, ObjectRot: it.root.Rot, ObjectScale: it.root.Scale, Reference: s.view.Point, Weight: h.Weight}
		chain.PrepareChains(steps, &st.Rest, &st.Particles, st.Chains[h.First:h.First+h.Count], &pose, &f)
	}
}

// StartChains starts a character's chains (handle h) from its current
// pose, as DynamicBone sets its particles up when it starts: every
// particle on its animated position, at rest, and the root as it is now
// taken as the last frame's. The next Step carries whatever moved since.
// It is Prepare with no time passing. A non-finite root leaves them to
// start at the first Step. Set-up code, on the calling goroutine.
func StartChains(s *store.ChainStore, view *components.View, pool *rig.Pool, skel *rig.Skeleton, pose *components.Pose, root *components.Root, h *components.Chains) {
	if h.Count == 0 || !Sync(pool, skel, pose, root) {
		return
	}
	pp := posePart(pool, pose)
	f := chain.Frame{ObjectPos: root.Pos, ObjectRot: root.Rot, ObjectScale: root.Scale, Reference: view.Point, Weight: h.Weight}
	chain.PrepareChains(s.Steps[h.First:h.First+h.Count], &s.Rest, &s.Particles, s.Chains[h.First:h.First+h.Count], &pp, &f)
}

// ChainStep runs every chain's sub-steps: Verlet integration, then
// constraints and colliders, per sub-step; or DynamicBone's skip update when
// the clock gave no sub-step this frame.
type ChainStep struct{ *chainSystem }

// NewChainStep returns the chain step system.
func NewChainStep() *ChainStep { return &ChainStep{newChainSystem("chain.step", stepChains, true)} }

func stepChains(s *chainSystem, lo, hi int) {
	// chain.LaneCount characters at a time: their chains of one shape (the
	// k-th chain of characters built alike) step side by side, one per
	// SIMD lane. The result is the same bits as stepping each alone, so how
	// the characters fall into chunks and groups changes nothing.
	s.byGroups(lo, hi, false)
}

// byGroups steps (or, with apply, applies) the chunk [lo, hi)
// chain.LaneCount characters at a time, after prefetching the group that
// follows each.
func (s *chainSystem) byGroups(lo, hi int, apply bool) {
	q := s.lanes.get()
	defer func() {
		q.Release()
		s.lanes.put(q)
	}()
	items := s.chars.items[lo:hi]
	const n = chain.LaneCount
	// The chunk's first group has had no prefetch: asking for all of it at
	// once lets its loads overlap.
	s.prefetchGroup(items[:min(n, len(items))], apply)
	for a := 0; a < len(items); a += n {
		g, next := items[a:min(a+n, len(items))], items[min(a+n, len(items)):min(a+2*n, len(items))]
		s.prefetchGroup(next, apply)
		// Side by side when there are two or more with as many chains.
		k, ok := alike(g)
		switch {
		case ok && len(g) > 1 && chainsSideBySide && apply:
			applyGroup(s, q, g, k)
		case ok && len(g) > 1 && chainsSideBySide:
			stepGroupLinked(s, q, g, k)
		default:
			for _, it := range g {
				if apply {
					applyChar(s, it)
				} else {
					stepChar(s, q, it)
				}
			}
		}
	}
}

// prefetchGroup starts loading what stepping (or, with apply, applying)
// the characters g reads.
func (s *chainSystem) prefetchGroup(g []featureRef[components.Chains], apply bool) {
	for _, it := range g {
		if apply {
			prefetchApply(s, it)
		} else {
			prefetchStep(s, it)
		}
	}
}

// alike returns how many chains each of the characters g has, and whether
// they have as many: only then can their k-th chains go side by side.
func alike(g []featureRef[components.Chains]) (int32, bool) {
	n := g[0].feat.Count
	for _, it := range g[1:] {
		if it.feat.Count != n {
			return n, false
		}
	}
	return n, true
}

// stepGroup steps the n chains of each of the characters g (at most
// chain.LaneCount) side by side. The lanes past g's characters repeat the
// first; the Lanes value steps a chain once.
func stepGroup(s *chainSystem, q *chain.Lanes, g []featureRef[components.Chains], n int32) {
	st := s.st
	var cs [chain.LaneCount]*chain.Chain
	var steps [chain.LaneCount]int
	var shapes [chain.LaneCount][]collide.Shape
	var poses [chain.LaneCount]chain.Pose
	var pp [chain.LaneCount]*chain.Pose
	var first [chain.LaneCount]int32 // each lane's character's first chain
	for l := range cs {
		h := g[0].feat
		if l < len(g) {
			h = g[l].feat
			poses[l] = posePart(s.pool, g[l].pose)
		} else {
			poses[l] = poses[0]
		}
		shapes[l], pp[l], first[l] = st.Shapes[h.ColliderFirst:h.ColliderFirst+h.ColliderCount], &poses[l], h.First
	}
	q.Shapes(&shapes) // once for the characters' chains
	for k := range n {
		for l := range cs {
			c := first[l] + k
			cs[l], steps[l] = &st.Chains[c], int(st.Steps[c])
		}
		finite := q.StepsIn(&st.Rest, &st.Particles, &cs, &pp, &steps)
		for l, it := range g {
			if !finite[l] {
				st.Steps[it.feat.First+k] = stepsFaulted
			}
		}
	}
}

// stepGroupLinked steps the characters g as stepGroup does, but those
// with links between their chains alone (StepLinked: their sub-steps
// interleave with the links', so their chains cannot go in the lanes);
// the others still go side by side when two or more are left.
func stepGroupLinked(s *chainSystem, q *chain.Lanes, g []featureRef[components.Chains], n int32) {
	var rest [chain.LaneCount]featureRef[components.Chains]
	k := 0
	for _, it := range g {
		if s.st.LinksOf(it.feat) != nil {
			stepChar(s, q, it)
		} else {
			rest[k] = it
			k++
		}
	}
	switch {
	case k == len(g):
		stepGroup(s, q, g, n)
	case k > 1:
		stepGroup(s, q, rest[:k], n)
	case k == 1:
		stepChar(s, q, rest[0])
	}
}

// chainsSideBySide is true but in a test that steps and applies each
// character alone to compare.
var chainsSideBySide = true

// stepChar steps one character's chains alone: Integrate then Constrain
// per sub-step, fused; SkipUpdate when the clock gave none.
func stepChar(s *chainSystem, q *chain.Lanes, it featureRef[components.Chains]) {
	st, h := s.st, it.feat
	shapes := st.Shapes[h.ColliderFirst : h.ColliderFirst+h.ColliderCount]
	pose := posePart(s.pool, it.pose)
	if l := st.LinksOf(h); l != nil {
		steps := st.Steps[h.First : h.First+h.Count]
		sc := q.Links()
		chain.StepLinked(&st.Rest, &st.Particles, st.Chains[h.First:h.First+h.Count], steps, &pose, shapes, l, sc, s.dt)
		for k := range steps {
			if !sc.Finite(k) {
				steps[k] = stepsFaulted
			}
		}
		return
	}
	for k := h.First; k < h.First+h.Count; k++ {
		if !chain.StepsIn(&st.Rest, &st.Particles, &st.Chains[k], &pose, int(st.Steps[k]), shapes) {
			st.Steps[k] = stepsFaulted
		}
	}
}

// stepsFaulted in ChainStore.Steps marks a chain whose particles are not
// all finite after the step: apply resets it instead.
const stepsFaulted = -2

// ChainApply writes the simulated chains into the characters' local
// poses and brings each chain's subtree's world transforms up to date.
type ChainApply struct{ *chainSystem }

// NewChainApply returns the chain apply system.
func NewChainApply() *ChainApply {
	return &ChainApply{newChainSystem("chain.apply", applyChains, true)}
}

func applyChains(s *chainSystem, lo, hi int) {
	// chain.LaneCount characters at a time, as the step: the k-th chains
	// are applied side by side, with the same bits as each alone.
	s.byGroups(lo, hi, true)
}

// prefetchStep starts loading what stepping its chains reads: its
// chains' particles and the world pose of its chain bones, from the first
// chain's root bone on, one group of characters ahead of the step.
func prefetchStep(s *chainSystem, it featureRef[components.Chains]) {
	lo, hi, a, n := chainSpans(s, it)
	st, pool := s.st, s.pool
	if lo < hi {
		prefetch.Range(unsafe.Pointer(&st.Particles.Pos[lo]), uintptr(hi-lo)*12)
		prefetch.Range(unsafe.Pointer(&st.Particles.Prev[lo]), uintptr(hi-lo)*12)
	}
	if n > 0 {
		prefetch.Range(unsafe.Pointer(&pool.WorldPos[a]), n*12)
		prefetch.Range(unsafe.Pointer(&pool.WorldRot[a]), n*16)
		prefetch.Range(unsafe.Pointer(&pool.WorldScale[a]), n*12)
	}
}

// prefetchApply starts loading what applying its chains reads: its pose
// from the first chain's root bone on, and its chains' positions. It runs
// one group of characters ahead of the apply, which at 10,000 characters would
// otherwise wait on these arrays (the step has evicted them since it read
// them).
func prefetchApply(s *chainSystem, it featureRef[components.Chains]) {
	lo, hi, a, n := chainSpans(s, it)
	st, pool := s.st, s.pool
	if lo < hi {
		prefetch.Range(unsafe.Pointer(&st.Particles.Pos[lo]), uintptr(hi-lo)*12)
	}
	if n > 0 {
		prefetch.Range(unsafe.Pointer(&pool.LocalPos[a]), n*12)
		prefetch.Range(unsafe.Pointer(&pool.LocalRot[a]), n*16)
		prefetch.Range(unsafe.Pointer(&pool.WorldRot[a]), n*16)
		prefetch.Range(unsafe.Pointer(&pool.WorldScale[a]), n*12)
		prefetch.Range(unsafe.Pointer(&pool.WorldPos[a]), n*12)
	}
}

// chainSpans returns what the prefetches load of a character: its chains'
// particles [lo, hi) in the store (lo >= hi: none) and the n bones of its
// pose from the first chain's root bone on, from a in the pool (n = 0:
// none).
func chainSpans(s *chainSystem, it featureRef[components.Chains]) (lo, hi, a int, n uintptr) {
	st, h := s.st, it.feat
	if h.Count == 0 {
		return 0, 0, 0, 0
	}
	first, last := &st.Chains[h.First], &st.Chains[h.First+h.Count-1]
	lo, hi = first.First, last.First+last.N
	if lo < 0 || hi > len(st.Particles.Pos) || lo >= hi {
		return 0, 0, 0, 0
	}
	if r := first.RestFirst; r < 0 || r >= len(st.Rest.Bone) {
		return lo, hi, 0, 0
	}
	b := int(st.Rest.Bone[first.RestFirst])
	if b < 0 || b >= int(it.pose.Count) {
		return lo, hi, 0, 0
	}
	return lo, hi, int(it.pose.First) + b, uintptr(int(it.pose.Count) - b)
}

// applyGroup applies the n chains of each of the characters g (at most
// chain.LaneCount) side by side, as stepGroup steps them.
func applyGroup(s *chainSystem, q *chain.Lanes, g []featureRef[components.Chains], n int32) {
	st := s.st
	var poses [chain.LaneCount]chain.Pose
	var pp [chain.LaneCount]*chain.Pose
	var synced [chain.LaneCount]bool
	for l, it := range g {
		// Apply reads the parents' world rotations: springs may have
		// turned bones since the prepare phase.
		synced[l] = Sync(s.pool, s.reg.Skeletons[it.pose.Skeleton], it.pose, it.root)
		poses[l], pp[l] = posePart(s.pool, it.pose), &poses[l]
	}
	for l := len(g); l < chain.LaneCount; l++ {
		pp[l] = pp[0]
	}
	for k := range n {
		var cs [chain.LaneCount]*chain.Chain
		for l, it := range g {
			if synced[l] {
				cs[l] = applicable(st, it.feat, it.feat.First+k)
			}
		}
		for l := len(g); l < chain.LaneCount; l++ {
			cs[l] = cs[0]
		}
		lowest := q.ApplyIn(&st.Rest, &st.Particles, &cs, &pp)
		for l, it := range g {
			if cs[l] != nil && lowest[l] >= 0 && !cs[l].CoversSubtree() {
				subtreeFK(s, it, cs[l], &poses[l], lowest[l])
			}
		}
	}
}

// applyChar applies one character's chains alone.
func applyChar(s *chainSystem, it featureRef[components.Chains]) {
	st, h := s.st, it.feat
	if !Sync(s.pool, s.reg.Skeletons[it.pose.Skeleton], it.pose, it.root) {
		return
	}
	pose := posePart(s.pool, it.pose)
	for k := h.First; k < h.First+h.Count; k++ {
		if c := applicable(st, h, k); c != nil {
			if lowest := chain.ApplyIn(&st.Rest, &st.Particles, c, &pose); lowest >= 0 && !c.CoversSubtree() {
				subtreeFK(s, it, c, &pose, lowest)
			}
		}
	}
}

// applicable returns chain k of h when it is to be applied this frame: it
// stepped, and its particles are finite (the step reports them).
func applicable(st *store.ChainStore, h *components.Chains, k int32) *chain.Chain {
	switch steps := st.Steps[k]; {
	case steps == stepsFaulted:
		// A fault upstream (a hostile setting, a numerical blow-up):
		// keep the animated pose this frame and restart the chain from
		// it, rather than let NaN into the pose. Previous positions count
		// too: the step repairs a NaN position from its parent, but a NaN
		// previous position would keep the chain pinned to that repair
		// every frame.
		st.Chains[k].Reset()
		h.Faults++
		return nil
	case steps < 0:
		return nil
	}
	return &st.Chains[k]
}

// subtreeFK brings the world pose of chain c's subtree up to date after
// Apply wrote its bones from lowest on, for a chain that does not cover
// its root's subtree (the bones of excluded subtrees hang from the chain;
// a chain that covers it has its world pose from Apply). Every bone Apply
// writes descends from the chain's root, and the pose was current before
// it: forward kinematics over that subtree now, while it is in cache,
// leaves the pose current, and the final pass has nothing left to do (it
// would recompute the whole span from the first chain to the last, arms
// and legs between included).
func subtreeFK(s *chainSystem, it featureRef[components.Chains], c *chain.Chain, pose *chain.Pose, lowest int) {
	skel := s.reg.Skeletons[it.pose.Skeleton]
	scale := s.pool.LocalScale[it.pose.First : it.pose.First+it.pose.Count]
	fk.Run(pose.WorldPos, pose.WorldRot, pose.WorldScale, skel.Parents(), pose.LocalPos, pose.LocalRot, scale,
		it.root.Pos, it.root.Rot, it.root.Scale, lowest, int(skel.SubtreeEnd(int(s.st.Rest.Bone[c.RestFirst]))))
}

// syncRoots moves each synced chain root bone by its driver's
// displacement from rest, weighted per axis of the model space
// (chain.RootSync), and brings the pose up to date again. It writes the
// roots' local translations, which the pose reset or the animation writes
// afresh every frame, so the offset does not accumulate. The pose must be
// current (Sync) and the root finite.
func syncRoots(pool *rig.Pool, skel *rig.Skeleton, p *components.Pose, root *components.Root, syncs []chain.RootSync) {
	a, parents := p.First, skel.Parents()
	inv := root.Rot.Conjugate()
	for i := range syncs {
		sy := &syncs[i]
		if sy.Root <= 0 || sy.Root >= p.Count || sy.Driver < 0 || sy.Driver >= p.Count {
			continue // validated at set-up: only a component written by hand
		}
		// The driver in model space: the root's transform undone.
		wd := inv.Rotate(pool.WorldPos[a+sy.Driver].Sub(root.Pos))
		md := mgl32.Vec3{safeDiv(wd[0], root.Scale[0]), safeDiv(wd[1], root.Scale[1]), safeDiv(wd[2], root.Scale[2])}
		off := sy.Offset(md)
		// The model-space offset in the root bone's parent space.
		world := root.Rot.Rotate(mgl32.Vec3{off[0] * root.Scale[0], off[1] * root.Scale[1], off[2] * root.Scale[2]})
		pb := a + parents[sy.Root]
		l := pool.WorldRot[pb].Conjugate().Rotate(world)
		ps := pool.WorldScale[pb]
		l = mgl32.Vec3{safeDiv(l[0], ps[0]), safeDiv(l[1], ps[1]), safeDiv(l[2], ps[2])}
		pool.LocalPos[a+sy.Root] = pool.LocalPos[a+sy.Root].Add(l)
		p.MarkDirty(sy.Root, skel.SubtreeEnd(int(sy.Root)))
	}
	Sync(pool, skel, p, root)
}

// safeDiv is a/b, or 0 for a b of 0.
func safeDiv(a, b float32) float32 {
	if b == 0 {
		return 0
	}
	return a / b
}
