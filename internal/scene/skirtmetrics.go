package scene

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/systems/collide"
)

// SkirtProbe measures how well a skirt character's skirt behaves, from
// its pose alone (what a renderer skins the skirt's mesh with): the world
// positions of the skirt's bones, the hem (the point one last-bone length
// past each strand's last bone, along that bone as posed: where the
// chain's virtual end particle is, and where a skinned hem is drawn) and
// the leg capsules placed on the posed leg bones. It allocates nothing
// after NewSkirtProbe; it is not safe for concurrent use.
type SkirtProbe struct {
	bones [SkirtStrands][SkirtBones]int32
	hem   [SkirtStrands]mgl32.Vec3 // the hem in its strand's last bone's space
	legs  [4]int32
	descs [4]collide.Desc
	// rest[k][j]: the rest distance between point j of strand k and of
	// strand k+1 (the last strand's neighbour is the first).
	rest [SkirtStrands][SkirtPoints]float32
	pts  [SkirtStrands][SkirtPoints]mgl32.Vec3
	caps [4]collide.Shape
}

// SkirtSample is one pose's measurement.
type SkirtSample struct {
	// Penetration is the deepest any skirt point (bone or hem) or any
	// segment between consecutive points of a strand (the waistband's to
	// the hem) reaches inside a leg capsule, in metres; 0 when nothing
	// is inside.
	Penetration float32
	// Stretch is the largest relative change |d - d0| / d0 of the
	// distance between same-depth points of neighbouring strands (the
	// ring closed), over the moving depths (the three bones below the
	// waistband and the hem), d0 at rest. It assumes a root of scale 1.
	Stretch float32
}

// NewSkirtProbe finds the skirt's bones and the leg colliders' bones in
// skel (a skirt rig: SkirtSkeletonDesc) and the rest distances.
func NewSkirtProbe(skel *sway.Skeleton) (*SkirtProbe, error) {
	p := &SkirtProbe{}
	model, modelRot := skel.ModelPos(), skel.ModelRot()
	var rest [SkirtStrands][SkirtPoints]mgl32.Vec3
	for k := 0; k < SkirtStrands; k++ {
		for j := 0; j < SkirtBones; j++ {
			b := skel.Index(SkirtBoneName(k, j))
			if b < 0 {
				return nil, fmt.Errorf("scene: the skeleton has no bone %s", SkirtBoneName(k, j))
			}
			p.bones[k][j] = int32(b)
			rest[k][j] = model[b]
		}
		tip, up := p.bones[k][SkirtBones-1], p.bones[k][SkirtBones-2]
		along := model[tip].Sub(model[up]) // EndLength 1: one more last-bone length
		p.hem[k] = modelRot[tip].Conjugate().Rotate(along)
		rest[k][SkirtBones] = model[tip].Add(along)
	}
	for k := 0; k < SkirtStrands; k++ {
		for j := 0; j < SkirtPoints; j++ {
			p.rest[k][j] = rest[k][j].Sub(rest[(k+1)%SkirtStrands][j]).Len()
		}
	}
	for i, c := range LegColliders() {
		b := skel.Index(c.Bone)
		if b < 0 {
			return nil, fmt.Errorf("scene: the skeleton has no bone %s", c.Bone)
		}
		p.legs[i], p.descs[i] = int32(b), c.Shape
	}
	return p, nil
}

// Measure reads one character's pose.
func (p *SkirtProbe) Measure(pose sway.PoseView) SkirtSample {
	for c := range p.caps {
		b := p.legs[c]
		collide.ToWorld(&p.caps[c], &p.descs[c], pose.WorldPos[b], pose.WorldRot[b], pose.WorldScale[b])
	}
	var out SkirtSample
	for k := 0; k < SkirtStrands; k++ {
		pts := &p.pts[k]
		for j := 0; j < SkirtBones; j++ {
			pts[j] = pose.WorldPos[p.bones[k][j]]
		}
		tip := p.bones[k][SkirtBones-1]
		s := pose.WorldScale[tip]
		h := p.hem[k]
		pts[SkirtBones] = pts[SkirtBones-1].Add(pose.WorldRot[tip].Rotate(mgl32.Vec3{s[0] * h[0], s[1] * h[1], s[2] * h[2]}))
		lo, hi := pts[0], pts[0]
		for _, q := range pts[1:] {
			for a := 0; a < 3; a++ {
				lo[a], hi[a] = min(lo[a], q[a]), max(hi[a], q[a])
			}
		}
		for c := range p.caps {
			cp := &p.caps[c]
			if !boxesTouch(lo, hi, cp) {
				continue
			}
			for j := 0; j+1 < SkirtPoints; j++ {
				out.Penetration = max(out.Penetration, segmentDepth(pts[j], pts[j+1], cp, out.Penetration))
			}
		}
	}
	for k := 0; k < SkirtStrands; k++ {
		next := &p.pts[(k+1)%SkirtStrands]
		for j := 1; j < SkirtPoints; j++ {
			d0 := p.rest[k][j]
			d := p.pts[k][j].Sub(next[j]).Len()
			out.Stretch = max(out.Stretch, absf(d-d0)/d0)
		}
	}
	return out
}

// boxesTouch says whether the box [lo, hi] meets the capsule's bounding
// box.
func boxesTouch(lo, hi mgl32.Vec3, s *collide.Shape) bool {
	r := max(s.RA, s.RB)
	for a := 0; a < 3; a++ {
		if min(s.A[a], s.B[a])-r > hi[a] || max(s.A[a], s.B[a])+r < lo[a] {
			return false
		}
	}
	return true
}

// PointDepth returns how deep p lies inside the placed sphere or
// (tapered) capsule s, in its units: the distance from p to the shape's
// surface when p is inside, 0 outside. A capsule is the round cone of
// the collide package: the hull of its two end spheres.
func PointDepth(p mgl32.Vec3, s *collide.Shape) float32 {
	return float32(math.Max(0, depth(vec64(p), s)))
}

// SegmentDepth returns how deep the segment from a to b reaches inside
// the placed sphere or capsule s: the largest depth of any of its points
// (PointDepth), 0 when it stays outside. A segment through a capsule with
// both ends outside has the depth of its point nearest the axis. The
// depth along a segment is concave (the shape is convex), so it searches
// from the segment's point nearest the axis by golden sections, only for
// a segment that comes within the capsule's larger radius of the axis.
func SegmentDepth(a, b mgl32.Vec3, s *collide.Shape) float32 {
	return segmentDepth(a, b, s, 0)
}

// segmentDepth is SegmentDepth, but only searches when the segment might
// reach deeper than floor (>= 0): the round cone lies within the even
// capsule of its larger radius, so no point of a segment at dist from
// the axis is deeper than that radius - dist.
func segmentDepth(a, b mgl32.Vec3, s *collide.Shape, floor float32) float32 {
	pa, pb := vec64(a), vec64(b)
	best := math.Max(depth(pa, s), depth(pb, s))
	t, dist := nearestToAxis(pa, pb, vec64(s.A), vec64(s.B))
	if float64(max(s.RA, s.RB))-dist <= math.Max(best, float64(floor)) {
		return float32(math.Max(0, best))
	}
	at := func(t float64) float64 { return depth(lerp3(pa, pb, t), s) }
	best = math.Max(best, at(t))
	if s.RA != s.RB {
		// Golden-section search for the maximum of the concave depth.
		const g = 0.6180339887498949
		lo, hi := 0.0, 1.0
		x1, x2 := hi-g*(hi-lo), lo+g*(hi-lo)
		f1, f2 := at(x1), at(x2)
		for i := 0; i < 28; i++ { // the bracket shrinks to 1.4e-6 of the segment
			if f1 < f2 {
				lo, x1, f1 = x1, x2, f2
				x2 = lo + g*(hi-lo)
				f2 = at(x2)
			} else {
				hi, x2, f2 = x2, x1, f1
				x1 = hi - g*(hi-lo)
				f1 = at(x1)
			}
		}
		best = math.Max(best, math.Max(f1, f2))
	}
	return float32(math.Max(0, best))
}

type v3 [3]float64

func vec64(v mgl32.Vec3) v3 { return v3{float64(v[0]), float64(v[1]), float64(v[2])} }
func sub3(a, b v3) v3       { return v3{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }
func dot3(a, b v3) float64  { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }
func len3(a v3) float64     { return math.Sqrt(dot3(a, a)) }
func lerp3(a, b v3, t float64) v3 {
	return v3{a[0] + t*(b[0]-a[0]), a[1] + t*(b[1]-a[1]), a[2] + t*(b[2]-a[2])}
}

// depth is the signed depth of p in s: positive inside (the distance to
// the surface), negative outside (minus the distance, for a capsule's
// side and caps).
func depth(p v3, s *collide.Shape) float64 {
	A, B := vec64(s.A), vec64(s.B)
	ra, rb := float64(s.RA), float64(s.RB)
	if s.Kind == collide.Sphere {
		return ra - len3(sub3(p, A))
	}
	u := sub3(B, A)
	L := len3(u)
	if L <= 1e-9 {
		return math.Max(ra, rb) - len3(sub3(p, A))
	}
	u = v3{u[0] / L, u[1] / L, u[2] / L}
	sn := (ra - rb) / L
	if sn >= 1 {
		return ra - len3(sub3(p, A))
	}
	if sn <= -1 {
		return rb - len3(sub3(p, B))
	}
	cs := math.Sqrt(1 - sn*sn)
	d := sub3(p, A)
	x := dot3(d, u)
	y := len3(sub3(d, v3{u[0] * x, u[1] * x, u[2] * x}))
	switch k := x*cs - y*sn; {
	case k < 0:
		return ra - len3(d)
	case k > L*cs:
		return rb - len3(sub3(p, B))
	}
	return ra - (x*sn + y*cs)
}

// nearestToAxis returns the parameter t in [0, 1] of the point of the
// segment p0-p1 nearest the segment a-b, and their distance (Ericson,
// Real-Time Collision Detection, 5.1.9).
func nearestToAxis(p0, p1, a, b v3) (float64, float64) {
	d1, d2, r := sub3(p1, p0), sub3(b, a), sub3(p0, a)
	aa, e, f := dot3(d1, d1), dot3(d2, d2), dot3(d2, r)
	const eps = 1e-18
	var s, t float64
	switch {
	case aa <= eps && e <= eps:
	case aa <= eps:
		t = clamp01(f / e)
	default:
		c := dot3(d1, r)
		if e <= eps {
			s = clamp01(-c / aa)
		} else {
			bb := dot3(d1, d2)
			den := aa*e - bb*bb
			if den > eps {
				s = clamp01((bb*f - c*e) / den)
			}
			t = (bb*s + f) / e
			if t < 0 {
				t, s = 0, clamp01(-c/aa)
			} else if t > 1 {
				t, s = 1, clamp01((bb-c)/aa)
			}
		}
	}
	q0, q1 := lerp3(p0, p1, s), lerp3(a, b, t)
	return s, len3(sub3(q0, q1))
}

func clamp01(x float64) float64 { return math.Max(0, math.Min(1, x)) }
