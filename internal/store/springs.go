package store

import (
	"math"

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
// Each part's allocators follow the package's removal rule. The spring
// systems notice removed characters (Owners against the characters that
// hold a handle) and compact the part on the calling goroutine before any
// worker sees the store; after an addition or a compaction they have the
// kernels' views (slices into the flat arrays, pointers to states)
// rebuilt there too (Bind).
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

	// One range of each per character: its springs, its joints (those of
	// its springs, one block), its colliders and its collider subsets.
	springs, joints, colliders, sets Ranges
	bound                            bool // the kernel's view matches the arrays
}

// AddVRM stores one character's springs (built chains, their infos with
// joint ranges relative to joints, the joints) and colliders, and returns
// its handle. Set-up code.
func (p *VRMPart) AddVRM(chains []*spring.VRMChain, infos []VRMSpringInfo, bones []int32, joints []spring.VRMJointDesc,
	descs []collide.Desc, colliderBones []int32, setIndex []int32) components.VRMSprings {
	h := components.VRMSprings{
		First: p.springs.Alloc(int32(len(chains))), Count: int32(len(chains)),
		ColliderFirst: p.colliders.Alloc(int32(len(descs))), ColliderCount: int32(len(descs)),
		SetFirst: p.sets.Alloc(int32(len(setIndex))), SetCount: int32(len(setIndex)),
		Control: components.Control{Weight: 1}, Teleport: components.DefaultTeleport(),
	}
	base := p.joints.Alloc(int32(len(bones)))
	p.resize()
	for k, c := range chains {
		info := infos[k]
		info.Contiguous = true
		for j := range info.N {
			info.Contiguous = info.Contiguous && bones[info.Joint0+j] == bones[info.Joint0]+j
		}
		info.Joint0 += base
		info.Reset = true
		i := int(h.First) + k
		p.Springs[i], p.Info[i], p.States[i] = spring.VRMSpring{Chain: c}, info, spring.VRMState{}
	}
	j0, j1 := base, base+int32(len(bones))
	copy(p.JointBone[j0:j1], bones)
	copy(p.JointDesc[j0:j1], joints)
	clear(p.Rot[j0:j1])
	clear(p.Prev[j0:j1])
	clear(p.Cur[j0:j1])
	cf, ce := h.ColliderFirst, h.ColliderFirst+h.ColliderCount
	copy(p.ColliderDescs[cf:ce], descs)
	copy(p.ColliderBones[cf:ce], colliderBones)
	clear(p.Shapes[cf:ce])
	sf, se := h.SetFirst, h.SetFirst+h.SetCount
	copy(p.SetIndex[sf:se], setIndex)
	clear(p.SetShapes[sf:se])
	p.bound = false
	return h
}

// jointRange returns the block of joints a character's springs use.
func (p *VRMPart) jointRange(h *components.VRMSprings) Range {
	return jointBlock(p.Info[h.First:h.First+h.Count], func(i *VRMSpringInfo) (int32, int32) { return i.Joint0, i.N })
}

// jointBlock returns the smallest range that holds the joints of infos.
func jointBlock[I any](infos []I, joints func(*I) (first, n int32)) Range {
	lo, hi := int32(math.MaxInt32), int32(0)
	for i := range infos {
		f, n := joints(&infos[i])
		lo, hi = min(lo, f), max(hi, f+n)
	}
	if hi <= lo {
		return Range{}
	}
	return Range{lo, hi - lo}
}

// Release frees a character's ranges (the spring systems also notice a
// character that went without it, see Owners); the systems compact the
// part before the next frame.
func (p *VRMPart) Release(h components.VRMSprings) {
	p.joints.Release(p.jointRange(&h))
	p.springs.Release(Range{h.First, h.Count})
	p.colliders.Release(Range{h.ColliderFirst, h.ColliderCount})
	p.sets.Release(Range{h.SetFirst, h.SetCount})
	p.resize()
}

// Owners returns the number of handles AddVRM returned and Release did
// not take back (or, after Compact, the number of live handles).
func (p *VRMPart) Owners() int { return p.springs.Owners() }

// Fragmented reports whether a range was freed since the last Compact.
func (p *VRMPart) Fragmented() bool {
	return p.springs.FreeSlots() > 0 || p.joints.FreeSlots() > 0 || p.colliders.FreeSlots() > 0 || p.sets.FreeSlots() > 0
}

// Bound reports whether the kernels' views match the arrays (Bind).
func (p *VRMPart) Bound() bool { return p.bound }

// Compact keeps exactly the ranges of the live handles (every
// components.VRMSprings a character holds): it frees the rest, moves the
// live ranges down in store order and rewrites the handles and the
// springs' joint offsets. The kernels' views must be bound again. Set-up
// code, on the goroutine that owns the world; it reports false, and
// changes nothing, if the handles overlap.
func (p *VRMPart) Compact(live []*components.VRMSprings) bool {
	springs, joints := make([]owned, len(live)), make([]owned, len(live))
	colliders, sets := make([]owned, len(live)), make([]owned, len(live))
	for i, h := range live {
		springs[i] = owned{Range{h.First, h.Count}, i}
		joints[i] = owned{p.jointRange(h), i}
		colliders[i] = owned{Range{h.ColliderFirst, h.ColliderCount}, i}
		sets[i] = owned{Range{h.SetFirst, h.SetCount}, i}
	}
	sr, jr, cr, xr := sortOwned(springs), sortOwned(joints), sortOwned(colliders), sortOwned(sets)
	if !p.springs.valid(sr) || !p.joints.valid(jr) || !p.colliders.valid(cr) || !p.sets.valid(xr) {
		return false
	}
	p.springs.Reclaim(sr)
	p.joints.Reclaim(jr)
	p.colliders.Reclaim(cr)
	p.sets.Reclaim(xr)
	p.joints.Compact(jr, p.moveJoints)
	for i, o := range joints {
		h := live[o.owner]
		if d := jr[i].First - o.First; d != 0 {
			for k := h.First; k < h.First+h.Count; k++ {
				p.Info[k].Joint0 += d
			}
		}
	}
	p.springs.Compact(sr, p.moveSprings)
	p.colliders.Compact(cr, p.moveColliders)
	p.sets.Compact(xr, p.moveSets)
	for i, o := range springs {
		live[o.owner].First = sr[i].First
	}
	for i, o := range colliders {
		live[o.owner].ColliderFirst = cr[i].First
	}
	for i, o := range sets {
		live[o.owner].SetFirst = xr[i].First
	}
	p.resize()
	p.bound = false
	return true
}

func (p *VRMPart) moveSprings(dst, src, n int32) {
	Move(p.Springs, dst, src, n)
	Move(p.Info, dst, src, n)
	Move(p.States, dst, src, n)
}

func (p *VRMPart) moveJoints(dst, src, n int32) {
	Move(p.JointBone, dst, src, n)
	Move(p.JointDesc, dst, src, n)
	Move(p.Rot, dst, src, n)
	Move(p.Prev, dst, src, n)
	Move(p.Cur, dst, src, n)
}

func (p *VRMPart) moveColliders(dst, src, n int32) {
	Move(p.ColliderDescs, dst, src, n)
	Move(p.ColliderBones, dst, src, n)
	Move(p.Shapes, dst, src, n)
}

func (p *VRMPart) moveSets(dst, src, n int32) {
	Move(p.SetIndex, dst, src, n)
	Move(p.SetShapes, dst, src, n)
}

// resize sizes the columns to their allocators.
func (p *VRMPart) resize() {
	n := p.springs.Len()
	p.Springs, p.Info, p.States = Resize(p.Springs, n), Resize(p.Info, n), Resize(p.States, n)
	n = p.joints.Len()
	p.JointBone, p.JointDesc, p.Rot = Resize(p.JointBone, n), Resize(p.JointDesc, n), Resize(p.Rot, n)
	p.Prev, p.Cur = Resize(p.Prev, n), Resize(p.Cur, n)
	n = p.colliders.Len()
	p.ColliderDescs, p.ColliderBones, p.Shapes = Resize(p.ColliderDescs, n), Resize(p.ColliderBones, n), Resize(p.Shapes, n)
	n = p.sets.Len()
	p.SetIndex, p.SetShapes = Resize(p.SetIndex, n), Resize(p.SetShapes, n)
}

// Bind points every live spring's kernel view (live: every
// components.VRMSprings a character holds) at the flat arrays. Set-up
// work, on the calling goroutine.
func (p *VRMPart) Bind(live []*components.VRMSprings) {
	for _, h := range live {
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

	// One range of each per character: its chains and its joints.
	chains, joints Ranges
	bound          bool
}

// AddSimple stores one character's simple spring chains and returns its
// handle. Set-up code.
func (p *SimplePart) AddSimple(chains []*spring.SimpleChain, infos []SimpleSpringInfo, bones []int32, joints []spring.SimpleJointDesc) components.SimpleSprings {
	h := components.SimpleSprings{First: p.chains.Alloc(int32(len(chains))), Count: int32(len(chains)),
		Control: components.Control{Weight: 1}, Teleport: components.DefaultTeleport()}
	base := p.joints.Alloc(int32(len(bones)))
	p.resize()
	for k, c := range chains {
		info := infos[k]
		info.Joint0 += base
		info.Reset = true
		i := int(h.First) + k
		p.Chains[i], p.Info[i], p.States[i] = c, info, spring.SimpleState{}
	}
	j0, j1 := base, base+int32(len(bones))
	copy(p.JointBone[j0:j1], bones)
	copy(p.JointDesc[j0:j1], joints)
	clear(p.Anim[j0:j1])
	clear(p.Rot[j0:j1])
	clear(p.LastTip[j0:j1])
	clear(p.Velocity[j0:j1])
	clear(p.LastAnim[j0:j1])
	p.bound = false
	return h
}

// jointRange returns the block of joints a character's chains use.
func (p *SimplePart) jointRange(h *components.SimpleSprings) Range {
	return jointBlock(p.Info[h.First:h.First+h.Count], func(i *SimpleSpringInfo) (int32, int32) { return i.Joint0, i.N })
}

// Release frees a character's ranges, as VRMPart.Release.
func (p *SimplePart) Release(h components.SimpleSprings) {
	p.joints.Release(p.jointRange(&h))
	p.chains.Release(Range{h.First, h.Count})
	p.resize()
}

// Owners returns the number of handles AddSimple returned and Release did
// not take back (or, after Compact, the number of live handles).
func (p *SimplePart) Owners() int { return p.chains.Owners() }

// Fragmented reports whether a range was freed since the last Compact.
func (p *SimplePart) Fragmented() bool { return p.chains.FreeSlots() > 0 || p.joints.FreeSlots() > 0 }

// Bound reports whether the chains' state views match the arrays (Bind).
func (p *SimplePart) Bound() bool { return p.bound }

// Bind points every chain's state at the flat arrays.
func (p *SimplePart) Bind() {
	for k := range p.Info {
		a, b := p.Info[k].Joint0, p.Info[k].Joint0+p.Info[k].N
		p.States[k] = spring.SimpleState{LastTip: p.LastTip[a:b:b], Velocity: p.Velocity[a:b:b], LastAnim: p.LastAnim[a:b:b]}
	}
	p.bound = true
}

// Compact keeps exactly the ranges of the live handles, as VRMPart.Compact.
func (p *SimplePart) Compact(live []*components.SimpleSprings) bool {
	chains, joints := make([]owned, len(live)), make([]owned, len(live))
	for i, h := range live {
		chains[i] = owned{Range{h.First, h.Count}, i}
		joints[i] = owned{p.jointRange(h), i}
	}
	cr, jr := sortOwned(chains), sortOwned(joints)
	if !p.chains.valid(cr) || !p.joints.valid(jr) {
		return false
	}
	p.chains.Reclaim(cr)
	p.joints.Reclaim(jr)
	p.joints.Compact(jr, p.moveJoints)
	for i, o := range joints {
		h := live[o.owner]
		if d := jr[i].First - o.First; d != 0 {
			for k := h.First; k < h.First+h.Count; k++ {
				p.Info[k].Joint0 += d
			}
		}
	}
	p.chains.Compact(cr, p.moveChains)
	for i, o := range chains {
		live[o.owner].First = cr[i].First
	}
	p.resize()
	p.bound = false
	return true
}

func (p *SimplePart) moveChains(dst, src, n int32) {
	Move(p.Chains, dst, src, n)
	Move(p.States, dst, src, n)
	Move(p.Info, dst, src, n)
}

func (p *SimplePart) moveJoints(dst, src, n int32) {
	Move(p.JointBone, dst, src, n)
	Move(p.JointDesc, dst, src, n)
	Move(p.Anim, dst, src, n)
	Move(p.Rot, dst, src, n)
	Move(p.LastTip, dst, src, n)
	Move(p.Velocity, dst, src, n)
	Move(p.LastAnim, dst, src, n)
}

// resize sizes the columns to their allocators.
func (p *SimplePart) resize() {
	n := p.chains.Len()
	p.Chains, p.States, p.Info = Resize(p.Chains, n), Resize(p.States, n), Resize(p.Info, n)
	n = p.joints.Len()
	p.JointBone, p.JointDesc = Resize(p.JointBone, n), Resize(p.JointDesc, n)
	p.Anim, p.Rot = Resize(p.Anim, n), Resize(p.Rot, n)
	p.LastTip, p.Velocity, p.LastAnim = Resize(p.LastTip, n), Resize(p.Velocity, n), Resize(p.LastAnim, n)
}
