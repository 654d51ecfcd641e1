package breath

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/mathx"
)

// AxisRotation returns the rotation by deg degrees about the local axis a,
// the rotation the source's Transform.Rotate(euler, Space.Self) makes when
// only one Euler angle is non-zero. An unknown axis gives the rotation's
// cosine part alone (a scaled identity), never a panic.
func AxisRotation(a Axis, deg float32) mgl32.Quat {
	s, c := halfSinCos(deg)
	q := mgl32.Quat{W: c}
	if a <= AxisZ {
		q.V[a] = s
	}
	return q
}

// halfSinCos returns the sine and cosine of half of deg degrees. Breath
// angles are a few degrees, so the common case is a short Taylor series
// (sinCosSeries); larger angles and NaN take math.
func halfSinCos(deg float32) (s, c float32) {
	x := deg * (math.Pi / 360)
	if !(x <= math.Pi/4 && x >= -math.Pi/4) {
		return halfSinCosMath(deg)
	}
	return sinCosSeries(x)
}

// sinCosSeries returns sin x and cos x for |x| <= pi/4 from their Taylor
// series in Horner form: error below 3e-8, multiplications only (no
// division stalls the chain), and cheap enough for the compiler to
// inline.
func sinCosSeries(x float32) (s, c float32) {
	x2 := x * x
	s = x + x*x2*(-1.0/6+x2*(1.0/120+x2*(-1.0/5040+x2*(1.0/362880))))
	c = 1 + x2*(-1.0/2+x2*(1.0/24+x2*(-1.0/720+x2*(1.0/40320))))
	return s, c
}

// halfSinCosMath is the rare path, kept out of line so that halfSinCos
// inlines.
//
//go:noinline
func halfSinCosMath(deg float32) (s, c float32) {
	s64, c64 := math.Sincos(float64(deg) * (math.Pi / 360))
	return float32(s64), float32(c64)
}

// ShoulderLocal returns the local rotation that keeps a bone at its old
// world rotation once its parent has turned to parentNewWorld:
// parentNewWorld * local = oldWorld. The result is normalised: in Additive
// mode the old world rotation is last frame's result, so rounding would
// otherwise compound frame after frame.
func ShoulderLocal(oldWorld, parentNewWorld mgl32.Quat) mgl32.Quat {
	q, _ := mathx.NormalizeQuat(mathx.Mul(mathx.Conjugate(parentNewWorld), oldWorld))
	return q
}

// mulAxis returns q * (c + s*axis), the product with an AxisRotation
// written out: half the multiplications of a full product.
func mulAxis(q mgl32.Quat, a Axis, s, c float32) mgl32.Quat {
	w, x, y, z := q.W, q.V[0], q.V[1], q.V[2]
	switch a {
	case AxisX:
		return mgl32.Quat{W: w*c - x*s, V: mgl32.Vec3{x*c + w*s, y*c + z*s, z*c - y*s}}
	case AxisY:
		return mgl32.Quat{W: w*c - y*s, V: mgl32.Vec3{x*c - z*s, y*c + w*s, z*c + x*s}}
	case AxisZ:
		return mgl32.Quat{W: w*c - z*s, V: mgl32.Vec3{x*c + y*s, y*c - x*s, z*c + w*s}}
	}
	return mgl32.Quat{W: w * c, V: mgl32.Vec3{x * c, y * c, z * c}}
}

// renormalize pulls a nearly unit q back to unit length with one Newton
// step for 1/|q| (no square root); rounding drift of 1e-7 becomes 1e-14.
func renormalize(q mgl32.Quat) mgl32.Quat {
	k := 1.5 - 0.5*(q.W*q.W+q.V[0]*q.V[0]+q.V[1]*q.V[1]+q.V[2]*q.V[2])
	return mgl32.Quat{W: q.W * k, V: mgl32.Vec3{q.V[0] * k, q.V[1] * k, q.V[2] * k}}
}

// Apply bends the segment bones by this frame's angles and keeps the
// shoulders at their world rotations. It writes localRot only.
//
// localRot and worldRot are the character's pose before the breath and must
// agree (worldRot from FK of localRot; rotations compose without scale in
// the project's transform convention). parents is the skeleton's parent
// array (parent before child, root -1). In Absolute mode localRot must be
// freshly animated, since the whole angle is applied on top; in Additive
// mode localRot carries the previous breath and only the change since the
// previous Step is applied. Either way the caller runs FK afterwards.
//
// Each segment's local rotation becomes localRot * AxisRotation(angle).
// A shoulder's parent p then has the world rotation
// worldRot[top] * D * localRot'[...] * localRot'[p], the rotation-only FK
// from the topmost segment above the shoulder (D being that segment's
// rotation this frame, localRot' the updated locals), and the shoulder's
// local rotation is set so that its world rotation stays worldRot[shoulder]
// (ShoulderLocal). Bones outside the slices, and shoulders with no segment
// above them, are left alone.
func Apply(localRot, worldRot []mgl32.Quat, parents []int32, st *State, s *Settings) {
	n := min(len(localRot), len(worldRot))
	var sin, cos [MaxSegments]float32
	for i := range s.Segments {
		sg := &s.Segments[i]
		b := int(sg.Bone)
		if b < 0 || b >= n {
			continue
		}
		a := st.Angle[i]
		if s.Mode == Additive {
			a -= st.Prev[i]
		}
		sin[i], cos[i] = halfSinCos(a)
		q := mulAxis(localRot[b], sg.Axis, sin[i], cos[i])
		if s.Mode == Additive {
			// The local rotation is built up over thousands of frames:
			// keep it unit.
			q = renormalize(q)
		}
		localRot[b] = q
	}
	// Both shoulders usually hang from the same bone: turn it once.
	lastParent, lastWorld := -1, mgl32.Quat{}
	for _, sh32 := range s.Shoulders {
		sh := int(sh32)
		if sh < 0 || sh >= n || sh >= len(parents) {
			continue
		}
		p := int(parents[sh])
		if p < 0 || p >= sh {
			continue
		}
		if p != lastParent {
			w, moved := newWorldRot(localRot, worldRot, parents, s, &sin, &cos, p)
			if !moved {
				continue
			}
			lastParent, lastWorld = p, w
		}
		// ShoulderLocal, with the cheap renormalisation: both rotations
		// come from FK of unit locals.
		localRot[sh] = renormalize(mathx.Mul(mathx.Conjugate(lastWorld), worldRot[sh]))
	}
}

// newWorldRot returns bone p's world rotation after the segments turned,
// and false when no segment is p or above it. localRot holds the turned
// segments; worldRot and parents are as in Apply; 0 <= p < len of all.
func newWorldRot(localRot, worldRot []mgl32.Quat, parents []int32, s *Settings, sin, cos *[MaxSegments]float32, p int) (mgl32.Quat, bool) {
	top, topSeg := -1, -1
	for a := p; ; {
		if i := segmentOf(s, int32(a)); i >= 0 {
			top, topSeg = a, i
		}
		up := int(parents[a])
		if up < 0 || up >= a { // the root, or a broken parent array
			break
		}
		a = up
	}
	if top < 0 {
		return mgl32.Quat{}, false
	}
	// Below top the world rotation is the product of the locals, built
	// here from p upwards; top itself turns by its delta in its own frame.
	w := mulAxis(worldRot[top], s.Segments[topSeg].Axis, sin[topSeg], cos[topSeg])
	if p == top {
		return w, true
	}
	r := localRot[p]
	for a := int(parents[p]); a != top; a = int(parents[a]) {
		r = mathx.Mul(localRot[a], r)
	}
	return mathx.Mul(w, r), true
}
