package breath

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/check"
)

// Plan is Settings resolved once against a skeleton's parent array: the
// segments in use with their axes, and for each shoulder its parent and the
// topmost segment above that parent. Plan.Apply then searches no slots and
// walks only the bones between a shoulder's parent and that segment,
// which is what makes it several times cheaper than Apply.
//
// A Plan holds plain values only, so an ECS component can embed it. It
// copies the bones, axes and mode of the settings: make a new Plan after
// changing those. Angles, durations and rates are read every frame, from
// State (Step writes the angles from Settings).
type Plan struct {
	segs      [MaxSegments]planSegment
	nsegs     uint8
	mode      Mode
	shoulders [2]planShoulder
	lo, hi    int32 // the lowest bone written and the highest bone read or written; -1 when none
}

// planSegment is a segment in use.
type planSegment struct {
	bone int32
	slot uint8
	axis Axis
}

// planShoulder is a shoulder kept at its world rotation.
type planShoulder struct {
	bone    int32 // -1: none
	parent  int32
	top     int32 // the topmost segment bone at or above parent
	topSeg  uint8 // index into Plan.segs of top
	reuse   bool  // same parent as shoulders[0]: reuse its new world rotation
	present bool
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
		p.segs[p.nsegs] = planSegment{bone: sg.Bone, slot: uint8(slot), axis: sg.Axis}
		p.nsegs++
		p.touch(sg.Bone)
	}
	for k, b := range s.Shoulders {
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
		p.shoulders[k] = planShoulder{bone: b, parent: par, top: top, topSeg: uint8(topSeg), present: true}
		p.touch(b)
	}
	if p.shoulders[0].present && p.shoulders[1].present && p.shoulders[0].parent == p.shoulders[1].parent {
		p.shoulders[1].reuse = true
	}
	return p, nil
}

// segmentAt returns the index in p.segs of the segment on bone b, or -1.
func (p *Plan) segmentAt(b int32) int {
	for i := 0; i < int(p.nsegs); i++ {
		if p.segs[i].bone == b {
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
func (p *Plan) Apply(localRot []mgl32.Quat, parents []int32, st *State) {
	if int(p.hi) >= len(localRot) || int(p.hi) >= len(parents) {
		return // a plan made for a larger skeleton
	}
	// Quaternions are handled as four scalars (q4): the compiler keeps
	// those in registers, while mgl32.Quat's array goes through memory.
	var sin, cos [MaxSegments]float32
	var old [MaxSegments]q4 // the segments' local rotations before the turn
	additive := p.mode == Additive
	for k := 0; k < int(p.nsegs) && k < MaxSegments; k++ {
		sg := &p.segs[k]
		slot := sg.slot & (MaxSegments - 1)
		a := st.Angle[slot]
		if additive {
			a -= st.Prev[slot]
		}
		var s, c float32
		x := a * (math.Pi / 360)
		switch {
		case x <= 0.1 && x >= -0.1:
			// Breath angles (below 11.4°): the series' first terms are
			// enough, with errors below 2e-11 (sine) and 1.4e-9 (cosine).
			x2 := x * x
			s = x + x*x2*(-1.0/6+x2*(1.0/120))
			c = 1 + x2*(-1.0/2+x2*(1.0/24))
		case x <= math.Pi/4 && x >= -math.Pi/4:
			s, c = sinCosSeries(x)
		default:
			s, c = halfSinCosMath(a)
		}
		sin[k], cos[k] = s, c
		// turn, written out: a call here would spill the loop's state.
		l := &localRot[sg.bone]
		w, x, y, z := l.W, l.V[0], l.V[1], l.V[2]
		old[k] = q4{w, x, y, z}
		var q q4
		switch sg.axis {
		case AxisX:
			q = q4{w*c - x*s, x*c + w*s, y*c + z*s, z*c - y*s}
		case AxisY:
			q = q4{w*c - y*s, x*c - z*s, y*c + w*s, z*c + x*s}
		default: // AxisZ (NewPlan validated the axis)
			q = q4{w*c - z*s, x*c + y*s, y*c - x*s, z*c + w*s}
		}
		if additive {
			// The local rotation is built up over thousands of frames:
			// keep it unit.
			q = q.renormalize()
		}
		store(l, q)
	}
	var m q4 // conj(R')*conj(D)*R of the current shoulder's parent
	for k := range p.shoulders {
		sh := &p.shoulders[k]
		if !sh.present {
			continue
		}
		if !sh.reuse {
			t := sh.topSeg & (MaxSegments - 1)
			if sh.parent == sh.top {
				m = turnLeft(q4{w: 1}, p.segs[t].axis, -sin[t], cos[t])
			} else {
				// R and R' from the parent up to below the top segment;
				// localRot already holds the turned segments.
				r := p.oldLocal(localRot, &old, sh.parent)
				rn := load(&localRot[sh.parent])
				for a := sh.parent; ; {
					up := parents[a]
					if up <= sh.top || up >= a {
						break
					}
					r = p.oldLocal(localRot, &old, up).mul(r)
					rn = load(&localRot[up]).mul(rn)
					a = up
				}
				m = rn.conjMul(turnLeft(r, p.segs[t].axis, -sin[t], cos[t]))
			}
		}
		// m*L written out (a call would spill m), normalised with the
		// cheap renormalisation: every factor is a unit rotation, and in
		// Additive mode the result is built on.
		l := &localRot[sh.bone]
		w, x, y, z := l.W, l.V[0], l.V[1], l.V[2]
		q := q4{
			m.w*w - m.x*x - m.y*y - m.z*z,
			m.w*x + m.x*w + m.y*z - m.z*y,
			m.w*y + m.y*w + m.z*x - m.x*z,
			m.w*z + m.z*w + m.x*y - m.y*x,
		}
		store(l, q.renormalize())
	}
}

// oldLocal returns bone b's local rotation before Apply turned it: from old
// for a segment, from localRot otherwise.
func (p *Plan) oldLocal(localRot []mgl32.Quat, old *[MaxSegments]q4, b int32) q4 {
	for i := 0; i < int(p.nsegs) && i < MaxSegments; i++ {
		if p.segs[i].bone == b {
			return old[i]
		}
	}
	return load(&localRot[b])
}

// q4 is a quaternion as four scalars.
type q4 struct{ w, x, y, z float32 }

func load(q *mgl32.Quat) q4 { return q4{q.W, q.V[0], q.V[1], q.V[2]} }

func store(dst *mgl32.Quat, q q4) {
	dst.W, dst.V[0], dst.V[1], dst.V[2] = q.w, q.x, q.y, q.z
}

// turn returns q * (c + s*axis): mulAxis on scalars.
func turn(q q4, a Axis, s, c float32) q4 {
	switch a {
	case AxisX:
		return q4{q.w*c - q.x*s, q.x*c + q.w*s, q.y*c + q.z*s, q.z*c - q.y*s}
	case AxisY:
		return q4{q.w*c - q.y*s, q.x*c - q.z*s, q.y*c + q.w*s, q.z*c + q.x*s}
	case AxisZ:
		return q4{q.w*c - q.z*s, q.x*c + q.y*s, q.y*c - q.x*s, q.z*c + q.w*s}
	}
	return q4{q.w * c, q.x * c, q.y * c, q.z * c}
}

// turnLeft returns (c + s*axis) * q, the turn applied on the other side.
func turnLeft(q q4, a Axis, s, c float32) q4 {
	switch a {
	case AxisX:
		return q4{q.w*c - q.x*s, q.x*c + q.w*s, q.y*c - q.z*s, q.z*c + q.y*s}
	case AxisY:
		return q4{q.w*c - q.y*s, q.x*c + q.z*s, q.y*c + q.w*s, q.z*c - q.x*s}
	case AxisZ:
		return q4{q.w*c - q.z*s, q.x*c - q.y*s, q.y*c + q.x*s, q.z*c + q.w*s}
	}
	return q4{q.w * c, q.x * c, q.y * c, q.z * c}
}

// conjMul is the Hamilton product conj(a)*b.
func (a q4) conjMul(b q4) q4 {
	return q4{
		a.w*b.w + a.x*b.x + a.y*b.y + a.z*b.z,
		a.w*b.x - a.x*b.w - a.y*b.z + a.z*b.y,
		a.w*b.y - a.y*b.w - a.z*b.x + a.x*b.z,
		a.w*b.z - a.z*b.w - a.x*b.y + a.y*b.x,
	}
}

// mul is the Hamilton product a*b.
func (a q4) mul(b q4) q4 {
	return q4{
		a.w*b.w - a.x*b.x - a.y*b.y - a.z*b.z,
		a.w*b.x + a.x*b.w + a.y*b.z - a.z*b.y,
		a.w*b.y + a.y*b.w + a.z*b.x - a.x*b.z,
		a.w*b.z + a.z*b.w + a.x*b.y - a.y*b.x,
	}
}

// renormalize is the package's renormalize on scalars.
func (q q4) renormalize() q4 {
	k := 1.5 - 0.5*(q.w*q.w+q.x*q.x+q.y*q.y+q.z*q.z)
	return q4{q.w * k, q.x * k, q.y * k, q.z * k}
}
