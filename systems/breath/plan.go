package breath

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/internal/mathx"
)

// Plan is Settings resolved once against a skeleton's parent array: the
// segments in use with their axes, and for each shoulder its parent and the
// topmost segment above that parent. Plan.Apply then searches no slots and
// walks only the bones between a shoulder's parent and that segment,
// which is what makes it several times cheaper than Apply.
//
// A Plan holds plain values only (60 bytes), so an ECS component can embed
// it. It copies the bones, axes and mode of the settings: make a new Plan
// after changing those. Angles are read every frame from State (Step
// writes them from Settings).
type Plan struct {
	// bones are the bones Apply reads and writes: the segments in slot
	// order, then the shoulders kept (nbones in all).
	bones     [maxBones]int32
	segs      [MaxSegments]planSegment
	shoulders [2]planShoulder // the shoulders kept, in order
	nsegs     uint8
	nbones    uint8
	mode      Mode
	simple    bool  // the shape applySimple serves
	lo, hi    int32 // the lowest bone written and the highest bone read or written; -1 when none
}

// maxBones is the number of bones a Plan reads and writes at most
// (prefetchBones is written out for six).
const maxBones = MaxSegments + 2

var _ [maxBones - 6]struct{} = [0]struct{}{}

// planSegment is a segment in use; its bone is Plan.bones at the same index.
type planSegment struct {
	slot uint8
	axis Axis
}

// planShoulder is a shoulder kept at its world rotation; its bone is
// Plan.bones[nsegs+k] for shoulders[k].
type planShoulder struct {
	parent    int32
	topSeg    uint8 // index into Plan.segs of the topmost segment at or above parent
	parentSeg int8  // index into Plan.segs of parent, -1 when parent is no segment
	direct    bool  // parent's parent is the top segment: no bones lie between them
	reuse     bool  // same parent as the shoulder before: reuse its turn
}

// NewPlan validates s (Validate, and CheckBones against len(parents)) and
// resolves it against parents, the skeleton's parent array (parents before
// children, -1 for a root). A shoulder with no segment above it is left
// alone, as Apply leaves it; so is a shoulder that is a root.
func NewPlan(s *Settings, parents []int32) (Plan, error) {
	if err := s.Validate(); err != nil {
		return Plan{}, err
	}
	if err := s.CheckBones(len(parents)); err != nil {
		return Plan{}, err
	}
	for i, p := range parents {
		if p < -1 || int(p) >= i {
			return Plan{}, check.Errorf("Plan", fmt.Sprintf("parents[%d]", i), p, "parents must come before their children (-1 for a root)")
		}
	}
	p := Plan{mode: s.Mode, lo: -1, hi: -1}
	for slot := range s.Segments {
		sg := &s.Segments[slot]
		if sg.Bone < 0 {
			continue
		}
		p.bones[p.nsegs] = sg.Bone
		p.segs[p.nsegs] = planSegment{slot: uint8(slot), axis: sg.Axis}
		p.nsegs++
		p.touch(sg.Bone)
	}
	p.nbones = p.nsegs
	for _, b := range s.Shoulders {
		if b < 0 || parents[b] < 0 {
			continue
		}
		par := parents[b]
		top, topSeg := int32(-1), -1
		for a := par; a >= 0; a = parents[a] {
			if i := p.segmentAt(a); i >= 0 {
				top, topSeg = a, i
			}
		}
		if top < 0 {
			continue
		}
		k := p.nbones - p.nsegs
		p.shoulders[k] = planShoulder{
			parent: par, topSeg: uint8(topSeg),
			parentSeg: int8(p.segmentAt(par)), direct: par != top && parents[par] == top,
			reuse: k > 0 && p.shoulders[0].parent == par,
		}
		p.bones[p.nbones] = b
		p.nbones++
		p.touch(b)
	}
	for i := p.nbones; i < maxBones; i++ {
		p.bones[i] = p.bones[0] // Prefetch takes all six
	}
	p.simple = p.isSimple()
	return p, nil
}

// isSimple reports whether p has the shape applySimple serves: the
// segments in slot order from slot 0, and every shoulder reusing the one
// before it or hanging from the top segment or from a segment right below
// it.
func (p *Plan) isSimple() bool {
	for k := range p.segs[:p.nsegs] {
		if int(p.segs[k].slot) != k {
			return false
		}
	}
	for k := range p.shoulders[:p.nbones-p.nsegs] {
		sh := &p.shoulders[k]
		if !sh.reuse && sh.parentSeg != int8(sh.topSeg) && !(sh.parentSeg >= 0 && sh.direct) {
			return false
		}
	}
	return true
}

// segmentAt returns the index in p.segs of the segment on bone b, or -1.
func (p *Plan) segmentAt(b int32) int {
	for i := 0; i < int(p.nsegs) && i < MaxSegments; i++ {
		if p.bones[i] == b {
			return i
		}
	}
	return -1
}

func (p *Plan) touch(b int32) {
	if p.lo < 0 || b < p.lo {
		p.lo = b
	}
	p.hi = max(p.hi, b)
}

// Bones returns the lowest bone index Apply writes and the highest it reads
// or writes, or -1, -1 when it touches none. The subtrees of the written
// bones lie in [lo, SubtreeEnd of any of them).
func (p *Plan) Bones() (lo, hi int32) { return p.lo, p.hi }

// Mode returns the mode the plan was made with.
func (p *Plan) Mode() Mode { return p.mode }

// Apply does what the package-level Apply does with the settings the plan
// was made from, with the same results to rounding, from the local
// rotations alone: localRot is the character's local pose (indexed by
// bone) and parents the array the plan was made with. No world rotation is
// read, so the world pose need not be current. A pose or parent array
// shorter than the plan's bones is left alone, and a parent array that does
// not match the plan is not followed beyond the plan's bones.
//
// A shoulder's parent p has the world rotation W*R before the breath and
// W*D*R' after it, where W is the world rotation of the topmost segment
// above p, D that segment's turn, and R and R' the products of the old and
// new local rotations from below the top segment down to p (FK composes
// rotations without scale). Keeping the shoulder's world rotation then
// asks for the local rotation conj(R')*conj(D)*R*L: W cancels.
//
// On amd64 an SSE2 kernel (applySimple) serves plans of the common shape
// (the segments in slot order; each shoulder's parent the top segment or a
// segment right below it) at breath angles (half angles up to 0.1 rad); it
// performs the operations of applyGo in the same order, so the results are
// the same bits. Everything else runs applyGo.
func (p *Plan) Apply(localRot []mgl32.Quat, parents []int32, st *State) {
	if p.lo < 0 || int(p.hi) >= len(localRot) || int(p.hi) >= len(parents) {
		return // no bones, or a plan made for a larger skeleton
	}
	if simdApply && p.simple {
		a := st.Angle
		if p.mode == Additive {
			a[0] -= st.Prev[0]
			a[1] -= st.Prev[1]
			a[2] -= st.Prev[2]
			a[3] -= st.Prev[3]
		}
		if applySimple(p, &a, &localRot[0]) {
			return
		}
	}
	p.applyGo(localRot, parents, st)
}

// ApplyWeighted is Apply at weight w in (0, 1): every local rotation the
// breath writes (segments and kept shoulders) ends at the normalised lerp
// from its rotation before the breath towards the breathed one by w. At w
// 1 or more it is Apply; at w 0 or less it writes nothing.
func (p *Plan) ApplyWeighted(localRot []mgl32.Quat, parents []int32, st *State, w float32) {
	if !(w > 0) {
		return
	}
	if w >= 1 {
		p.Apply(localRot, parents, st)
		return
	}
	if p.lo < 0 || int(p.hi) >= len(localRot) || int(p.hi) >= len(parents) {
		return
	}
	var old [maxBones]mgl32.Quat
	bones := p.bones[:min(int(p.nbones), maxBones)]
	for i, b := range bones {
		old[i] = localRot[b]
	}
	p.Apply(localRot, parents, st)
	for i, b := range bones {
		localRot[b] = mathx.Nlerp(old[i], localRot[b], w)
	}
}

// Prefetch asks the processor to start loading the cache lines of
// localRot that Apply will read, without waiting for them: a system
// prefetches a few characters ahead, so that their cache misses overlap
// with the work on the characters before them. It changes nothing, and
// does nothing where the package has no kernel for the processor.
func (p *Plan) Prefetch(localRot []mgl32.Quat) {
	if simdApply && p.lo >= 0 && int(p.hi) < len(localRot) {
		prefetchBones(&localRot[0], &p.bones)
	}
}
