package systems

import (
	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/components"
	"github.com/sway-anim/sway/systems/collide"
	"github.com/sway-anim/sway/systems/spring"
)

// SpringStore is the world resource that holds every spring bone of every
// character contiguously: the VRM springs with their joints and colliders,
// and the simple (tip) springs. A character's components.VRMSprings and
// components.SimpleSprings hold its ranges.
//
// Removed characters are noticed by the spring systems themselves (the
// live characters' ranges no longer add up to the store's length) and
// compacted away on the calling goroutine before any worker sees the
// store; after an addition or a compaction the kernels' views (slices into
// the flat arrays, pointers to states) are rebuilt there too.
type SpringStore struct {
	VRM    VRMPart
	Simple SimplePart
}

// VRMSpringInfo is what the system keeps per VRM spring besides the
// kernel's view (pointer-free).
type VRMSpringInfo struct {
	Joint0, N int32 // the spring's joints in the per-joint arrays
	Parent    int32 // the bone joint 0 hangs from
	Center    int32 // the centre bone, -1 for none (world space)
	// Colliders: [ColFirst, ColFirst+ColCount) of the character's placed
	// colliders, or of its collider subsets when InSet.
	ColFirst, ColCount int32
	InSet              bool
	Depth              uint8 // springs this spring hangs from (its parent is their joint)
	Reset              bool  // restart from the animated pose at the next step
	Spec               int32 // the spring's index as the character's springs were given
	// The chain's shape, kept to rebuild it on a settings edit.
	HasTail     bool
	Tail        mgl32.Vec3
	VirtualTail float32
	FixedStep   float32
	Strict      bool
	Acc         float32 // FixedStep: time not yet stepped
	// Contiguous: the joints are bones JointBone[Joint0] and on, one
	// after the other (set by AddVRM), so the rotations go to the pose in
	// one copy.
	Contiguous bool
}

// VRMPart holds the VRM springs.
type VRMPart struct {
	// Geometry builds the chains: the same spring of characters of one
	// rig shares its geometry (see spring.VRMShapes), so that per
	// character the step reads only settings and state.
	Geometry spring.VRMShapes

	Springs []spring.VRMSpring // the kernel's view, one per spring
	Info    []VRMSpringInfo
	States  []spring.VRMState

	// Per joint.
	JointBone []int32
	JointDesc []spring.VRMJointDesc // the joint as built, for edits
	Rot       []mgl32.Quat          // the kernel's output, unless it writes into the pose (see VRMSprings.parents)
	Prev, Cur []mgl32.Vec3          // the state's storage

	// Per character collider, and per collider-subset element.
	ColliderDescs []collide.Desc
	ColliderBones []int32
	Shapes        []collide.Shape // placed in world space each frame
	SetIndex      []int32         // index into the character's colliders
	SetShapes     []collide.Shape // copied from Shapes each frame

	bound bool // the kernel's view matches the arrays
}

// AddVRM appends one character's springs (built chains, their infos with
// joint ranges relative to joints, the joints) and colliders, and returns
// its handle. Set-up code.
func (p *VRMPart) AddVRM(chains []*spring.VRMChain, infos []VRMSpringInfo, bones []int32, joints []spring.VRMJointDesc,
	descs []collide.Desc, colliderBones []int32, setIndex []int32) components.VRMSprings {
	h := components.VRMSprings{
		First: int32(len(p.Springs)), Count: int32(len(chains)),
		ColliderFirst: int32(len(p.ColliderDescs)), ColliderCount: int32(len(descs)),
		SetFirst: int32(len(p.SetIndex)), SetCount: int32(len(setIndex)),
	}
	base := int32(len(p.JointBone))
	for k, c := range chains {
		info := infos[k]
		info.Contiguous = true
		for j := range info.N {
			info.Contiguous = info.Contiguous && bones[info.Joint0+j] == bones[info.Joint0]+j
		}
		info.Joint0 += base
		info.Reset = true
		p.Springs = append(p.Springs, spring.VRMSpring{Chain: c})
		p.Info = append(p.Info, info)
		p.States = append(p.States, spring.VRMState{})
	}
	n := len(bones)
	p.JointBone = append(p.JointBone, bones...)
	p.JointDesc = append(p.JointDesc, joints...)
	p.Rot = append(p.Rot, make([]mgl32.Quat, n)...)
	p.Prev = append(p.Prev, make([]mgl32.Vec3, n)...)
	p.Cur = append(p.Cur, make([]mgl32.Vec3, n)...)
	p.ColliderDescs = append(p.ColliderDescs, descs...)
	p.ColliderBones = append(p.ColliderBones, colliderBones...)
	p.Shapes = append(p.Shapes, make([]collide.Shape, len(descs))...)
	p.SetIndex = append(p.SetIndex, setIndex...)
	p.SetShapes = append(p.SetShapes, make([]collide.Shape, len(setIndex))...)
	p.bound = false
	return h
}

// prepareVRM compacts away removed characters when the live ranges do
// not cover the store, and rebuilds the kernel's view when needed. items
// are every character with VRM springs. Calling goroutine only.
func (p *VRMPart) prepareVRM(items []featureRef[components.VRMSprings]) {
	var springs, colliders, sets int
	for _, it := range items {
		springs += int(it.feat.Count)
		colliders += int(it.feat.ColliderCount)
		sets += int(it.feat.SetCount)
	}
	if springs != len(p.Springs) || colliders != len(p.ColliderDescs) || sets != len(p.SetIndex) {
		p.compact(items)
	}
	if !p.bound {
		p.bind(items)
	}
}

// compact keeps the ranges of the live characters, in store order, and
// rewrites their handles.
func (p *VRMPart) compact(items []featureRef[components.VRMSprings]) {
	liveS := make([]bool, len(p.Springs))
	liveJ := make([]bool, len(p.JointBone))
	liveC := make([]bool, len(p.ColliderDescs))
	liveX := make([]bool, len(p.SetIndex))
	for _, it := range items {
		h := it.feat
		markLive(liveS, h.First, h.Count)
		markLive(liveC, h.ColliderFirst, h.ColliderCount)
		markLive(liveX, h.SetFirst, h.SetCount)
		for k := h.First; k < h.First+h.Count; k++ {
			markLive(liveJ, p.Info[k].Joint0, p.Info[k].N)
		}
	}
	toS, toJ, toC, toX := newIndex(liveS), newIndex(liveJ), newIndex(liveC), newIndex(liveX)
	for k := range p.Info {
		if liveS[k] {
			p.Info[k].Joint0 = toJ[p.Info[k].Joint0]
		}
	}
	for _, it := range items {
		h := it.feat
		h.First = remap(toS, h.First, h.Count)
		h.ColliderFirst = remap(toC, h.ColliderFirst, h.ColliderCount)
		h.SetFirst = remap(toX, h.SetFirst, h.SetCount)
	}
	p.Springs, p.Info, p.States = keep(p.Springs, liveS), keep(p.Info, liveS), keep(p.States, liveS)
	p.JointBone, p.JointDesc, p.Rot = keep(p.JointBone, liveJ), keep(p.JointDesc, liveJ), keep(p.Rot, liveJ)
	p.Prev, p.Cur = keep(p.Prev, liveJ), keep(p.Cur, liveJ)
	p.ColliderDescs, p.ColliderBones, p.Shapes = keep(p.ColliderDescs, liveC), keep(p.ColliderBones, liveC), keep(p.Shapes, liveC)
	p.SetIndex, p.SetShapes = keep(p.SetIndex, liveX), keep(p.SetShapes, liveX)
	p.bound = false
}

// bind points every spring's kernel view at the flat arrays.
func (p *VRMPart) bind(items []featureRef[components.VRMSprings]) {
	for _, it := range items {
		h := it.feat
		for k := h.First; k < h.First+h.Count; k++ {
			info, sp := &p.Info[k], &p.Springs[k]
			a, b := info.Joint0, info.Joint0+info.N
			p.States[k] = spring.VRMState{PrevTail: p.Prev[a:b:b], CurTail: p.Cur[a:b:b]}
			sp.State, sp.DstLocalRot = &p.States[k], p.Rot[a:b:b]
			sp.Colliders = nil
			if info.ColCount > 0 {
				base, shapes := h.ColliderFirst, p.Shapes
				if info.InSet {
					base, shapes = h.SetFirst, p.SetShapes
				}
				lo := base + info.ColFirst
				sp.Colliders = shapes[lo : lo+info.ColCount : lo+info.ColCount]
			}
		}
	}
	p.bound = true
}

// SimpleSpringInfo is what the system keeps per simple spring chain.
type SimpleSpringInfo struct {
	Joint0, N int32
	Parent    int32
	Center    int32 // -1 for none
	Reset     bool
}

// SimplePart holds the simple spring chains.
type SimplePart struct {
	Chains []*spring.SimpleChain
	States []spring.SimpleState
	Info   []SimpleSpringInfo

	// Per joint.
	JointBone []int32
	JointDesc []spring.SimpleJointDesc
	Anim, Rot []mgl32.Quat // animated local rotations gathered, new ones
	LastTip   []mgl32.Vec3
	Velocity  []mgl32.Vec3
	LastAnim  []mgl32.Vec3

	bound bool
}

// AddSimple appends one character's simple spring chains and returns its
// handle. Set-up code.
func (p *SimplePart) AddSimple(chains []*spring.SimpleChain, infos []SimpleSpringInfo, bones []int32, joints []spring.SimpleJointDesc) components.SimpleSprings {
	h := components.SimpleSprings{First: int32(len(p.Chains)), Count: int32(len(chains))}
	base := int32(len(p.JointBone))
	for k, c := range chains {
		info := infos[k]
		info.Joint0 += base
		info.Reset = true
		p.Chains = append(p.Chains, c)
		p.Info = append(p.Info, info)
		p.States = append(p.States, spring.SimpleState{})
	}
	n := len(bones)
	p.JointBone = append(p.JointBone, bones...)
	p.JointDesc = append(p.JointDesc, joints...)
	p.Anim = append(p.Anim, make([]mgl32.Quat, n)...)
	p.Rot = append(p.Rot, make([]mgl32.Quat, n)...)
	p.LastTip = append(p.LastTip, make([]mgl32.Vec3, n)...)
	p.Velocity = append(p.Velocity, make([]mgl32.Vec3, n)...)
	p.LastAnim = append(p.LastAnim, make([]mgl32.Vec3, n)...)
	p.bound = false
	return h
}

func (p *SimplePart) prepareSimple(items []featureRef[components.SimpleSprings]) {
	n := 0
	for _, it := range items {
		n += int(it.feat.Count)
	}
	if n != len(p.Chains) {
		p.compact(items)
	}
	if !p.bound {
		for k := range p.Info {
			a, b := p.Info[k].Joint0, p.Info[k].Joint0+p.Info[k].N
			p.States[k] = spring.SimpleState{LastTip: p.LastTip[a:b:b], Velocity: p.Velocity[a:b:b], LastAnim: p.LastAnim[a:b:b]}
		}
		p.bound = true
	}
}

func (p *SimplePart) compact(items []featureRef[components.SimpleSprings]) {
	liveS := make([]bool, len(p.Chains))
	liveJ := make([]bool, len(p.JointBone))
	for _, it := range items {
		h := it.feat
		markLive(liveS, h.First, h.Count)
		for k := h.First; k < h.First+h.Count; k++ {
			markLive(liveJ, p.Info[k].Joint0, p.Info[k].N)
		}
	}
	toS, toJ := newIndex(liveS), newIndex(liveJ)
	for k := range p.Info {
		if liveS[k] {
			p.Info[k].Joint0 = toJ[p.Info[k].Joint0]
		}
	}
	for _, it := range items {
		it.feat.First = remap(toS, it.feat.First, it.feat.Count)
	}
	p.Chains, p.States, p.Info = keep(p.Chains, liveS), keep(p.States, liveS), keep(p.Info, liveS)
	p.JointBone, p.JointDesc = keep(p.JointBone, liveJ), keep(p.JointDesc, liveJ)
	p.Anim, p.Rot = keep(p.Anim, liveJ), keep(p.Rot, liveJ)
	p.LastTip, p.Velocity, p.LastAnim = keep(p.LastTip, liveJ), keep(p.Velocity, liveJ), keep(p.LastAnim, liveJ)
	p.bound = false
}

func markLive(live []bool, first, count int32) {
	for i := first; i < first+count; i++ {
		live[i] = true
	}
}

// newIndex returns each element's index after keep (-1 for dropped ones).
func newIndex(live []bool) []int32 {
	to := make([]int32, len(live))
	n := int32(0)
	for i, l := range live {
		to[i] = -1
		if l {
			to[i] = n
			n++
		}
	}
	return to
}

// remap returns the new first index of a live range; an empty range
// starts at 0.
func remap(to []int32, first, count int32) int32 {
	if count == 0 {
		return 0
	}
	return to[first]
}

// keep drops the elements whose live flag is false, in place, and clears
// the freed tail so no pointer in it outlives the compaction.
func keep[T any](s []T, live []bool) []T {
	n := 0
	for i := range s {
		if live[i] {
			s[n] = s[i]
			n++
		}
	}
	clear(s[n:])
	return s[:n]
}
