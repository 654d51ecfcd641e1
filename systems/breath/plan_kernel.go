package breath

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// The kernel of Plan.Apply. applyGo defines it; on amd64 applySimple
// (plan_amd64.s) computes the common shape with SSE2, performing the same
// operations in the same order. Every product here is rounded explicitly
// (float32(x*y)): the Go spec lets the compiler fuse x*y + z into one
// rounding (it does with GOAMD64=v3, and on arm64), which the SSE2 kernel
// does not, and both must give the same bits.

// applyGo is Apply in Go, for every plan and angle; p.hi is within
// localRot and parents.
func (p *Plan) applyGo(localRot []mgl32.Quat, parents []int32, st *State) {
	var sin, cos [MaxSegments]float32
	var old, turned [MaxSegments]q4 // the segments' local rotations before and after
	additive := p.mode == Additive
	nsegs := min(int(p.nsegs), MaxSegments)
	for k := range p.segs[:nsegs] {
		sg := &p.segs[k]
		slot := sg.slot & (MaxSegments - 1)
		a := st.Angle[slot]
		if additive {
			a -= st.Prev[slot]
		}
		var s, c float32
		h := float32(a * (math.Pi / 360)) // the half angle, rounded: the sine adds it
		if h2 := h * h; h2 <= 0.01 {
			s, c = sinCosSmall(h, h2)
		} else if h2 <= (math.Pi/4)*(math.Pi/4) {
			s, c = sinCosSeries(h)
		} else {
			s, c = halfSinCosMath(a)
		}
		sin[k], cos[k] = s, c
		// The turn q * (c + s*axis) written out: a call here would spill
		// the loop's state.
		l := &localRot[p.bones[k]]
		w, x, y, z := l.W, l.V[0], l.V[1], l.V[2]
		old[k] = q4{w, x, y, z}
		var q q4
		switch sg.axis {
		case AxisX:
			q = q4{
				float32(w*c) - float32(x*s), float32(x*c) + float32(w*s),
				float32(y*c) + float32(z*s), float32(z*c) - float32(y*s),
			}
		case AxisY:
			q = q4{
				float32(w*c) - float32(y*s), float32(x*c) - float32(z*s),
				float32(y*c) + float32(w*s), float32(z*c) + float32(x*s),
			}
		default: // AxisZ (NewPlan admits no other)
			q = q4{
				float32(w*c) - float32(z*s), float32(x*c) + float32(y*s),
				float32(y*c) - float32(x*s), float32(z*c) + float32(w*s),
			}
		}
		if additive {
			// The local rotation is built up over thousands of frames:
			// keep it unit.
			q = q.renormalize()
		}
		turned[k] = q
		store(l, q)
	}
	var m q4 // conj(R')*conj(D)*R of the current shoulder's parent
	for k := range p.shoulders[:min(int(p.nbones)-nsegs, 2)] {
		sh := &p.shoulders[k]
		if !sh.reuse {
			t := sh.topSeg & (MaxSegments - 1)
			var r, rn q4 // R and R'
			switch j := sh.parentSeg; {
			case j == int8(t): // the parent is the top segment
				r, rn = q4{w: 1}, q4{w: 1}
			case j >= 0:
				r, rn = old[j&(MaxSegments-1)], turned[j&(MaxSegments-1)]
			default:
				r = load(&localRot[sh.parent])
				rn = r
			}
			if top := p.bones[t]; !sh.direct && sh.parent != top {
				// Bones between the parent and the top segment: walk up.
				for a := sh.parent; ; {
					up := parents[a]
					if up <= top || up >= a {
						break
					}
					o, n := load(&localRot[up]), load(&localRot[up])
					if i := p.segmentAt(up); i >= 0 {
						o = old[i]
					}
					r, rn = o.mul(r), n.mul(rn)
					a = up
				}
			}
			m = rn.conjMul(r.turnLeft(p.segs[t].axis, -sin[t], cos[t]))
		}
		// m * L, q4.mul written out (a call would spill m), renormalised:
		// every factor is a unit rotation, and in Additive mode the result
		// is built on.
		l := &localRot[p.bones[nsegs+k]]
		w, x, y, z := l.W, l.V[0], l.V[1], l.V[2]
		q := q4{
			float32(m.w*w) - float32(m.x*x) - float32(m.y*y) - float32(m.z*z),
			float32(m.w*x) + float32(m.x*w) + float32(m.y*z) - float32(m.z*y),
			float32(m.w*y) - float32(m.x*z) + float32(m.y*w) + float32(m.z*x),
			float32(m.w*z) + float32(m.x*y) - float32(m.y*x) + float32(m.z*w),
		}
		store(l, q.renormalize())
	}
}

// sinCosSmall returns sin x and cos x for x² = x2 <= 0.01 (breath angles:
// half angles below 0.1 rad, 11.4° of bend) from the series' first terms,
// with errors below 2e-11 (sine) and 1.4e-9 (cosine).
func sinCosSmall(x, x2 float32) (s, c float32) {
	s = x + float32(float32(x*x2)*(-1.0/6+float32(x2*(1.0/120))))
	c = 1 + float32(x2*(-1.0/2+float32(x2*(1.0/24))))
	return s, c
}

// q4 is a quaternion as four scalars: the compiler keeps those in
// registers, while mgl32.Quat's array goes through memory.
type q4 struct{ w, x, y, z float32 }

func load(q *mgl32.Quat) q4 { return q4{q.W, q.V[0], q.V[1], q.V[2]} }

func store(dst *mgl32.Quat, q q4) {
	dst.W, dst.V[0], dst.V[1], dst.V[2] = q.w, q.x, q.y, q.z
}

// turnLeft returns (c + s*axis) * q: a bone's turn about its local axis
// (segments turn by q * (c + s*axis), written out in applyGo) applied on
// the other side. An unknown axis counts as AxisZ; NewPlan admits none.
func (q q4) turnLeft(a Axis, s, c float32) q4 {
	switch a {
	case AxisX:
		return q4{
			float32(q.w*c) - float32(q.x*s), float32(q.x*c) + float32(q.w*s),
			float32(q.y*c) - float32(q.z*s), float32(q.z*c) + float32(q.y*s),
		}
	case AxisY:
		return q4{
			float32(q.w*c) - float32(q.y*s), float32(q.x*c) + float32(q.z*s),
			float32(q.y*c) + float32(q.w*s), float32(q.z*c) - float32(q.x*s),
		}
	}
	return q4{
		float32(q.w*c) - float32(q.z*s), float32(q.x*c) - float32(q.y*s),
		float32(q.y*c) + float32(q.x*s), float32(q.z*c) + float32(q.w*s),
	}
}

// mul is the Hamilton product a*b, summed in the order of a's components.
func (a q4) mul(b q4) q4 {
	return q4{
		float32(a.w*b.w) - float32(a.x*b.x) - float32(a.y*b.y) - float32(a.z*b.z),
		float32(a.w*b.x) + float32(a.x*b.w) + float32(a.y*b.z) - float32(a.z*b.y),
		float32(a.w*b.y) - float32(a.x*b.z) + float32(a.y*b.w) + float32(a.z*b.x),
		float32(a.w*b.z) + float32(a.x*b.y) - float32(a.y*b.x) + float32(a.z*b.w),
	}
}

// conjMul is the Hamilton product conj(a)*b, summed in the order of a's
// components.
func (a q4) conjMul(b q4) q4 {
	return q4{
		float32(a.w*b.w) + float32(a.x*b.x) + float32(a.y*b.y) + float32(a.z*b.z),
		float32(a.w*b.x) - float32(a.x*b.w) - float32(a.y*b.z) + float32(a.z*b.y),
		float32(a.w*b.y) + float32(a.x*b.z) - float32(a.y*b.w) - float32(a.z*b.x),
		float32(a.w*b.z) - float32(a.x*b.y) + float32(a.y*b.x) - float32(a.z*b.w),
	}
}

// renormalize pulls a nearly unit q back to unit length with one Newton
// step for 1/|q| (no square root); rounding drift of 1e-7 becomes 1e-14.
func (q q4) renormalize() q4 {
	k := 1.5 - float32(0.5*(float32(q.w*q.w)+float32(q.x*q.x)+float32(q.y*q.y)+float32(q.z*q.z)))
	return q4{float32(q.w * k), float32(q.x * k), float32(q.y * k), float32(q.z * k)}
}
