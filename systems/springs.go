package systems

import (
	"math"
	"unsafe"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"

	"github.com/sway-anim/sway/components"
	"github.com/sway-anim/sway/internal/mathx"
	"github.com/sway-anim/sway/internal/prefetch"
	"github.com/sway-anim/sway/internal/rig"
	"github.com/sway-anim/sway/internal/store"
	"github.com/sway-anim/sway/jobs"
	"github.com/sway-anim/sway/systems/collide"
	"github.com/sway-anim/sway/systems/spring"
)

// The spring bones run in the springs phase, after the dynamic chains'
// step and before their apply: VRM springs (order 20), then simple tip
// springs (order 30). Each writes its joints' local rotations into the
// pose and marks the spring's subtree dirty for the final forward
// kinematics.
func init() {
	registerDefault(PhaseSprings, 20, "spring.vrm", func() System { return NewVRMSprings() })
	registerDefault(PhaseSprings, 30, "spring.simple", func() System { return NewSimpleSprings() })
}

// A character's springs restart from the animated pose when it moves
// farther than its teleport distance or turns by more than its teleport
// angle in one frame (components.Teleport, set per character by the
// facade; components.DefaultTeleport, 1 m and 45 degrees, to start).
const (
	// MaxFixedSteps bounds the steps a FixedStep spring takes in one
	// frame; time beyond them is dropped (a hitch does not snowball).
	MaxFixedSteps = 8
)

// isTeleport reports a root jump larger than the limits of t (the
// distance test off at Distance 0, the turn test off at HalfCos below -1).
func isTeleport(t *components.Teleport, prev, cur *components.Transform) bool {
	d := cur.Pos.Sub(prev.Pos)
	if t.Distance > 0 && d.Dot(d) > t.Distance*t.Distance {
		return true
	}
	// The angle between two rotations is 2 acos(|a·b|).
	a, b := prev.Rot, cur.Rot
	dot := a.W*b.W + a.V.Dot(b.V)
	return float32(math.Abs(float64(dot))) < t.HalfCos
}

// springSystem is what the two spring systems share.
type springSystem[T any] struct {
	noCrossReads
	frame frame
	chars featureCharacters[T]
	live  []*T // the handles, when the store is compacted or bound
	store generic.Resource[store.SpringStore]
	job   *jobs.Job
	body  func(lo, hi int)
	// Set for the duration of one Update.
	pool *rig.Pool
	view *components.View // the point distance culling measures from
	reg  *rig.Registry
	st   *store.SpringStore
	dt   float32
}

func (s *springSystem[T]) Initialize(w *ecs.World) {
	s.frame = newFrame(w)
	s.store = generic.NewResource[store.SpringStore](w)
}

func (s *springSystem[T]) Finalize(w *ecs.World) {}

// gather gathers the characters and lets prepare compact and bind the
// store, on the calling goroutine.
func (s *springSystem[T]) gather(w *ecs.World, part func(*store.SpringStore) springPart[T]) (*jobs.Job, func(lo, hi int), int) {
	items := s.chars.gather(w)
	s.pool, s.reg, s.st, s.dt = s.frame.pool.Get(), s.frame.reg.Get(), s.store.Get(), s.frame.time.Get().Dt
	s.view = s.frame.view.Get()
	s.live = prepareSprings(part(s.st), items, s.live)
	return s.job, s.body, len(items)
}

func (s *springSystem[T]) FramePoses(dst []*components.Pose) []*components.Pose {
	return s.chars.framePoses(dst)
}

func (s *springSystem[T]) ReleaseFrame() {
	s.chars.release()
	s.pool, s.reg, s.st = nil, nil, nil
}

// VRMSprings steps every character's VRM spring bones.
type VRMSprings struct {
	springSystem[components.VRMSprings]
}

// NewVRMSprings returns the VRM spring system.
func NewVRMSprings() *VRMSprings {
	s := &VRMSprings{springSystem[components.VRMSprings]{chars: newFeatureCharacters[components.VRMSprings](), job: jobs.NewJob("spring.vrm")}}
	s.body = s.stepChars // made once: no allocation per frame
	return s
}

// Update implements System.
func (s *VRMSprings) Update(w *ecs.World) { runAlone(s, &s.frame, w) }

func (s *VRMSprings) GatherFrame(w *ecs.World) (*jobs.Job, func(lo, hi int), int) {
	return s.gather(w, vrmPartOf)
}

// stepChars steps characters lo..hi-1. Those whose springs all hang from
// animated bones and step with the frame (the usual case) are stepped
// spring.SetLanes at a time with spring.StepVRMSpringSets; the others on
// their own.
// Either way a character's results do not depend on its neighbours.
func (s *VRMSprings) stepChars(lo, hi int) {
	var batch [spring.SetLanes]*featureRef[components.VRMSprings]
	var sets [spring.SetLanes][]spring.VRMSpring
	n := 0
	for i := lo; i < hi; i++ {
		it := &s.chars.items[i]
		// A character at a weight below 1 blends in finish, which the
		// direct path of a flat character skips.
		if !s.flat(it.feat) || it.feat.Weight < 1 {
			s.stepChar(it)
			continue
		}
		if !s.begin(it) {
			continue
		}
		h := it.feat
		batch[n], sets[n] = it, s.st.VRM.Springs[h.First:h.First+h.Count]
		if n++; n == len(batch) {
			s.stepSets(batch[:n], sets[:n])
			n = 0
		}
	}
	if n > 0 {
		s.stepSets(batch[:n], sets[:n])
	}
}

// flat reports whether every spring of h hangs from an animated bone and
// steps with the frame: the springs are ordered by depth, then fixed-step
// ones last.
func (s *VRMSprings) flat(h *components.VRMSprings) bool {
	if h.Count == 0 {
		return false
	}
	last := &s.st.VRM.Info[h.First+h.Count-1]
	return last.Depth == 0 && last.FixedStep == 0
}

// stepSets steps the springs of flat characters prepared by begin.
func (s *VRMSprings) stepSets(batch []*featureRef[components.VRMSprings], sets [][]spring.VRMSpring) {
	spring.StepVRMSpringSets(sets, s.dt)
	for _, it := range batch {
		h := it.feat
		s.finish(it, s.reg.Skeletons[it.pose.Skeleton], h.First, h.First+h.Count, true)
	}
}

// begin prepares a flat character's step: it places the colliders and
// sets every spring's parent and centre, resetting springs as needed. It
// reports false for a character that does not step this frame.
func (s *VRMSprings) begin(it *featureRef[components.VRMSprings]) bool {
	skel, reset, ok := s.place(it)
	if !ok {
		return false
	}
	h := it.feat
	s.parents(it, skel, h.First, h.First+h.Count, reset, true)
	s.prefetch(it)
	return true
}

// prefetch starts loading what stepping a flat character's springs reads
// and writes beyond what begin touched: the chains' settings, the states
// and tails, and the pose's local rotations the step writes (a spring
// waits for the lines it writes as for those it reads). The step comes
// after the other characters of the batch are prepared, by when they have
// arrived. Without it the step takes a third longer at 10,000 characters.
func (s *VRMSprings) prefetch(it *featureRef[components.VRMSprings]) {
	h, st, pool, a := it.feat, &s.st.VRM, s.pool, it.pose.First
	for k := h.First; k < h.First+h.Count; k++ {
		if c := st.Springs[k].Chain; c != nil {
			prefetch.Range(unsafe.Pointer(c), unsafe.Sizeof(*c))
		}
	}
	first, last := &st.Info[h.First], &st.Info[h.First+h.Count-1]
	j0, j1 := first.Joint0, last.Joint0+last.N
	if j0 >= j1 || int(j1) > len(st.Cur) {
		return
	}
	n := uintptr(j1 - j0)
	prefetch.Range(unsafe.Pointer(&st.States[h.First]), uintptr(h.Count)*unsafe.Sizeof(st.States[0]))
	prefetch.Range(unsafe.Pointer(&st.Cur[j0]), n*unsafe.Sizeof(st.Cur[0]))
	prefetch.Range(unsafe.Pointer(&st.Prev[j0]), n*unsafe.Sizeof(st.Prev[0]))
	// The springs' bones, in the usual rig one run of the pose: from the
	// first joint's to the last one's, when that is a short run.
	b0, b1 := a+st.JointBone[j0], a+st.JointBone[j1-1]
	if b0 <= b1 && b1-b0 < maxPrefetchBones && int(b1) < len(pool.LocalRot) {
		prefetch.Range(unsafe.Pointer(&pool.LocalRot[b0]), uintptr(b1-b0+1)*unsafe.Sizeof(pool.LocalRot[0]))
	}
}

// maxPrefetchBones bounds the run of bones prefetch fetches.
const maxPrefetchBones = 256

// place brings a character's pose up to date as far as its springs read
// it and places its colliders; it reports whether the springs restart
// this frame, and false for a character that does not step.
func (s *VRMSprings) place(it *featureRef[components.VRMSprings]) (skel *rig.Skeleton, reset, ok bool) {
	h, pose, root := it.feat, it.pose, it.root
	if h.Off(root.Pos, s.view) {
		return nil, false, false
	}
	skel = s.reg.Skeletons[pose.Skeleton]
	if !EnsureCurrent(s.pool, skel, pose, root, h.LastBone) {
		return nil, false, false // a non-finite root: keep the last good pose
	}
	st, pool, a := &s.st.VRM, s.pool, pose.First
	for k := h.ColliderFirst; k < h.ColliderFirst+h.ColliderCount; k++ {
		b := a + st.ColliderBones[k]
		collide.ToWorld(&st.Shapes[k], &st.ColliderDescs[k], pool.WorldPos[b], pool.WorldRot[b], pool.WorldScale[b])
	}
	for k := h.SetFirst; k < h.SetFirst+h.SetCount; k++ {
		st.SetShapes[k] = st.Shapes[h.ColliderFirst+st.SetIndex[k]]
	}
	reset = !h.Started || isTeleport(&h.Teleport, &h.LastRoot, &root.Transform)
	h.Started, h.LastRoot = true, root.Transform
	return skel, reset, true
}

func (s *VRMSprings) stepChar(it *featureRef[components.VRMSprings]) {
	skel, reset, ok := s.place(it)
	if !ok {
		return
	}
	h := it.feat
	infos := s.st.VRM.Info
	// Runs of equal depth: a spring hanging from another's joint waits
	// for that joint's new rotation.
	for lo := h.First; lo < h.First+h.Count; {
		hi := lo + 1
		for hi < h.First+h.Count && infos[hi].Depth == infos[lo].Depth {
			hi++
		}
		s.stepRun(it, skel, lo, hi, reset)
		lo = hi
	}
}

// parents sets the parent and centre of springs lo..hi-1 from the pose
// and resets those that restart. It points each spring's output at its
// rotations in the store, or, with direct, at the pose's local rotations
// of its bones when they are one run: the pose's arrays may have moved
// since the last frame. A flat character's springs step with the frame,
// so nothing reads their rotations in the store.
func (s *VRMSprings) parents(it *featureRef[components.VRMSprings], skel *rig.Skeleton, lo, hi int32, reset, direct bool) {
	st, pool, pose, a := &s.st.VRM, s.pool, it.pose, it.pose.First
	for k := lo; k < hi; k++ {
		info, sp := &st.Info[k], &st.Springs[k]
		if j0 := info.Joint0; direct && info.Contiguous {
			b0 := a + st.JointBone[j0]
			sp.DstLocalRot = pool.LocalRot[b0 : b0+info.N : b0+info.N]
		} else {
			sp.DstLocalRot = st.Rot[j0 : j0+info.N : j0+info.N]
		}
		if info.Depth > 0 {
			EnsureCurrent(pool, skel, pose, it.root, max(info.Parent, info.Center))
		}
		b := a + info.Parent
		sp.ParentPos, sp.ParentRot, sp.ParentScale = pool.WorldPos[b], pool.WorldRot[b], pool.WorldScale[b]
		// A spring without a centre keeps the zero values AddVRM gave it.
		if info.Center >= 0 {
			c := a + info.Center
			sp.CenterPos, sp.CenterRot = pool.WorldPos[c], pool.WorldRot[c]
		}
		if reset || info.Reset {
			resetSpring(st, sp, info)
		}
	}
}

// stepRun steps springs lo..hi-1, of one depth: those without FixedStep
// together, the fixed-step ones (stored after them) each by its own
// accumulator.
func (s *VRMSprings) stepRun(it *featureRef[components.VRMSprings], skel *rig.Skeleton, lo, hi int32, reset bool) {
	st := &s.st.VRM
	s.parents(it, skel, lo, hi, reset, false)
	free := lo
	for k := lo; k < hi; k++ {
		if st.Info[k].FixedStep == 0 {
			free = k + 1
		}
	}
	spring.StepVRMSprings(st.Springs[lo:free], s.dt)
	for k := free; k < hi; k++ {
		info := &st.Info[k]
		info.Acc += s.dt
		n := min(int(info.Acc/info.FixedStep), MaxFixedSteps)
		info.Acc = min(info.Acc-float32(n)*info.FixedStep, info.FixedStep)
		for ; n > 0; n-- {
			spring.StepVRMSprings(st.Springs[k:k+1], info.FixedStep)
		}
	}
	s.finish(it, skel, lo, hi, false)
}

// finish writes the new rotations of springs lo..hi-1 into the pose
// (those stepped direct, see parents, are there already), or resets a
// spring found with non-finite state, which shows the rest pose it
// restarts from.
func (s *VRMSprings) finish(it *featureRef[components.VRMSprings], skel *rig.Skeleton, lo, hi int32, direct bool) {
	st, pool, pose, a := &s.st.VRM, s.pool, it.pose, it.pose.First
	for k := lo; k < hi; k++ {
		info, sp := &st.Info[k], &st.Springs[k]
		j0, j1 := info.Joint0, info.Joint0+info.N
		bones := st.JointBone[j0:j1]
		b0 := bones[0]
		if sp.Bad {
			resetSpring(st, sp, info)
			it.feat.Faults++
		} else if direct && info.Contiguous {
			pose.MarkDirty(b0, skel.SubtreeEnd(int(b0)))
			continue
		}
		if w := it.feat.Weight; w < 1 {
			// The animated rotations are still in the pose: blend them
			// towards the springs' (never direct, see stepChars).
			for j, bone := range bones {
				pool.LocalRot[a+bone] = mathx.Nlerp(pool.LocalRot[a+bone], st.Rot[int(j0)+j], w)
			}
		} else if info.Contiguous {
			// A loop: copy's call costs more than a spring's few rotations.
			src := st.Rot[j0:j1]
			dst := pool.LocalRot[a+b0 : a+b0+info.N]
			dst = dst[:len(src)]
			for j := range src {
				dst[j] = src[j]
			}
		} else {
			for j, bone := range bones {
				pool.LocalRot[a+bone] = st.Rot[int(j0)+j]
			}
		}
		pose.MarkDirty(b0, skel.SubtreeEnd(int(b0)))
	}
}

// StartVRM starts the springs of handle h from the character's current
// pose, as VRMC_springBone and three-vrm initialise them when they are
// added: every tail at rest under its parent's world transform now, with
// zero velocity. The first Step then carries the motion since (a root set
// before it swings the springs), instead of restarting them under that
// frame's pose. A non-finite root leaves them to start at the first Step.
// Set-up code, on the calling goroutine.
func StartVRM(p *store.VRMPart, pool *rig.Pool, skel *rig.Skeleton, pose *components.Pose, root *components.Root, h *components.VRMSprings) {
	a := pose.First
	for k := h.First; k < h.First+h.Count; k++ {
		info, sp := &p.Info[k], &p.Springs[k]
		if !EnsureCurrent(pool, skel, pose, root, max(info.Parent, info.Center)) {
			return
		}
		b := a + info.Parent
		sp.ParentPos, sp.ParentRot, sp.ParentScale = pool.WorldPos[b], pool.WorldRot[b], pool.WorldScale[b]
		if info.Center >= 0 {
			sp.CenterPos, sp.CenterRot = pool.WorldPos[a+info.Center], pool.WorldRot[a+info.Center]
		}
		// The store is bound to the kernel's view at the first Step.
		j0, j1 := info.Joint0, info.Joint0+info.N
		restart(p, &spring.VRMState{PrevTail: p.Prev[j0:j1:j1], CurTail: p.Cur[j0:j1:j1]}, sp, info)
	}
	h.Started, h.LastRoot = true, root.Transform
}

// resetSpring puts a spring's tails at rest under this frame's parent and
// centre, and its output at the rest rotations, which is what a
// fixed-step spring shows until its first step.
func resetSpring(p *store.VRMPart, sp *spring.VRMSpring, info *store.VRMSpringInfo) {
	restart(p, sp.State, sp, info)
}

// restart is resetSpring with the spring's tails in st.
func restart(p *store.VRMPart, st *spring.VRMState, sp *spring.VRMSpring, info *store.VRMSpringInfo) {
	cr := sp.CenterRot
	if cr == (mgl32.Quat{}) {
		cr = mgl32.QuatIdent() // as for the kernel: the zero value is the identity
	}
	spring.ResetVRM(st, sp.Chain, sp.ParentPos, sp.ParentRot, sp.ParentScale, sp.CenterPos, cr)
	for j := info.Joint0; j < info.Joint0+info.N; j++ {
		p.Rot[j] = p.JointDesc[j].LocalRot
	}
	info.Reset, info.Acc, sp.Bad = false, 0, false
}

// StartSimple puts a character's simple springs, just added as h, at rest
// on its current pose (root and local rotations), bringing its world
// transforms up to date: each tip where the pose puts it, still. Its first
// Step then moves them by that frame's motion, as any later Step does. A
// character whose root is not finite is left to start at its first Step.
// Set-up code.
func StartSimple(p *store.SimplePart, pool *rig.Pool, skel *rig.Skeleton, pose *components.Pose, root *components.Root, h *components.SimpleSprings) {
	if !Sync(pool, skel, pose, root) {
		return
	}
	a := pose.First
	for k := h.First; k < h.First+h.Count; k++ {
		info := &p.Info[k]
		j0, j1 := info.Joint0, info.Joint0+info.N
		anim := p.Anim[j0:j1]
		for j, bone := range p.JointBone[j0:j1] {
			anim[j] = pool.LocalRot[a+bone]
		}
		state := spring.SimpleState{LastTip: p.LastTip[j0:j1], Velocity: p.Velocity[j0:j1], LastAnim: p.LastAnim[j0:j1]}
		b := a + info.Parent
		cp, cr := mgl32.Vec3{}, mgl32.Quat{W: 1}
		if info.Center >= 0 {
			cp, cr = pool.WorldPos[a+info.Center], pool.WorldRot[a+info.Center]
		}
		spring.ResetSimple(&state, p.Chains[k], anim, pool.WorldPos[b], pool.WorldRot[b], pool.WorldScale[b], cp, cr)
		info.Reset = false
	}
	h.Started, h.LastRoot = true, root.Transform
}

// SimpleSprings steps every character's simple tip springs.
type SimpleSprings struct {
	springSystem[components.SimpleSprings]
}

// NewSimpleSprings returns the simple spring system.
func NewSimpleSprings() *SimpleSprings {
	s := &SimpleSprings{springSystem[components.SimpleSprings]{chars: newFeatureCharacters[components.SimpleSprings](), job: jobs.NewJob("spring.simple")}}
	s.body = s.stepChars
	return s
}

// Update implements System.
func (s *SimpleSprings) Update(w *ecs.World) { runAlone(s, &s.frame, w) }

func (s *SimpleSprings) GatherFrame(w *ecs.World) (*jobs.Job, func(lo, hi int), int) {
	return s.gather(w, simplePartOf)
}

// stepChars steps characters lo..hi-1 while the data of those ahead is on
// its way: a character's springs touch a few bones spread over its pose,
// which left the caches phases ago, and waiting for them cost as much as
// the springs' arithmetic. Its components are fetched simpleAhead*2
// characters ahead, the pose bones and chains they point to simpleAhead.
func (s *SimpleSprings) stepChars(lo, hi int) {
	items := s.chars.items[lo:hi]
	for i := range items {
		if k := i + 2*simpleAhead; k < len(items) {
			it := &items[k]
			prefetch.Range(unsafe.Pointer(it.feat), unsafe.Sizeof(*it.feat))
			prefetch.Range(unsafe.Pointer(it.pose), unsafe.Sizeof(*it.pose))
			prefetch.Range(unsafe.Pointer(it.root), unsafe.Sizeof(*it.root))
		}
		if k := i + simpleAhead; k < len(items) {
			s.prefetch(&items[k])
		}
		s.stepChar(&items[i])
	}
}

// simpleAhead is how many characters ahead stepChars prefetches the pose
// bones.
const simpleAhead = 2

// prefetch starts loading what stepChar reads of a character's pose,
// each spring's first bone's local rotation and its parent's world
// transform, and the springs' constants.
func (s *SimpleSprings) prefetch(it *featureRef[components.SimpleSprings]) {
	h, st, pool, a := it.feat, &s.st.Simple, s.pool, it.pose.First
	for k := h.First; k < h.First+h.Count; k++ {
		info := &st.Info[k]
		st.Chains[k].Prefetch()
		prefetch.Range(unsafe.Pointer(&pool.LocalRot[a+st.JointBone[info.Joint0]]), 1)
		b := a + info.Parent
		prefetch.Range(unsafe.Pointer(&pool.WorldPos[b]), 1)
		prefetch.Range(unsafe.Pointer(&pool.WorldRot[b]), 1)
		prefetch.Range(unsafe.Pointer(&pool.WorldScale[b]), 1)
	}
}

func (s *SimpleSprings) stepChar(it *featureRef[components.SimpleSprings]) {
	h, pose, root := it.feat, it.pose, it.root
	if h.Off(root.Pos, s.view) {
		return
	}
	skel := s.reg.Skeletons[pose.Skeleton]
	if !EnsureCurrent(s.pool, skel, pose, root, h.LastBone) {
		return
	}
	reset := !h.Started || isTeleport(&h.Teleport, &h.LastRoot, &root.Transform)
	h.Started, h.LastRoot = true, root.Transform
	st, pool, a := &s.st.Simple, s.pool, pose.First
	for k := h.First; k < h.First+h.Count; k++ {
		info, c, state := &st.Info[k], st.Chains[k], &st.States[k]
		// Earlier chains may have turned this one's parent (the root has
		// not moved since the check above).
		if b := max(info.Parent, info.Center); !pose.Clean() && b >= pose.DirtyLo {
			EnsureCurrent(pool, skel, pose, root, b)
		}
		j0, j1 := info.Joint0, info.Joint0+info.N
		bones, anim, rot := st.JointBone[j0:j1], st.Anim[j0:j1], st.Rot[j0:j1]
		for j, bone := range bones {
			anim[j] = pool.LocalRot[a+bone]
		}
		b := a + info.Parent
		pp, pr, ps := pool.WorldPos[b], pool.WorldRot[b], pool.WorldScale[b]
		cp, cr := mgl32.Vec3{}, mgl32.Quat{W: 1}
		if info.Center >= 0 {
			cp, cr = pool.WorldPos[a+info.Center], pool.WorldRot[a+info.Center]
		}
		if reset || info.Reset {
			spring.ResetSimple(state, c, anim, pp, pr, ps, cp, cr)
			info.Reset = false
		}
		spring.StepSimple(rot, anim, state, c, pp, pr, ps, cp, cr, s.dt)
		if !mathx.Vec3sFinite(state.LastTip) || !mathx.Vec3sFinite(state.Velocity) || !mathx.Vec3sFinite(state.LastAnim) {
			spring.ResetSimple(state, c, anim, pp, pr, ps, cp, cr)
			h.Faults++
			continue
		}
		if w := h.Weight; w < 1 {
			for j, bone := range bones {
				pool.LocalRot[a+bone] = mathx.Nlerp(anim[j], rot[j], w)
			}
		} else {
			for j, bone := range bones {
				pool.LocalRot[a+bone] = rot[j]
			}
		}
		pose.MarkDirty(bones[0], skel.SubtreeEnd(int(bones[0])))
	}
}
