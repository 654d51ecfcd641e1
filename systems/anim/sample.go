package anim

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// Pose is a view of a local pose: one element per bone in each slice, as
// the pose storage keeps LocalPos, LocalRot and LocalScale.
type Pose struct {
	Pos   []mgl32.Vec3
	Rot   []mgl32.Quat
	Scale []mgl32.Vec3
}

// Len returns the number of bones all three slices can hold.
func (p Pose) Len() int {
	return min(len(p.Pos), len(p.Rot), len(p.Scale))
}

// MakePose allocates a pose of n bones (set-up only), rotations identity
// and scales one.
func MakePose(n int) Pose {
	p := Pose{Pos: make([]mgl32.Vec3, n), Rot: make([]mgl32.Quat, n), Scale: make([]mgl32.Vec3, n)}
	for i := range n {
		p.Rot[i] = mgl32.QuatIdent()
		p.Scale[i] = mgl32.Vec3{1, 1, 1}
	}
	return p
}

// keySnap is how close (in frames) a time must be to a key to return that
// key exactly: float32 times such as k/30 rarely land on k*30 exactly.
const keySnap = 1e-4

// frame returns the key k at or before local time t and the fraction alpha
// toward key k+1; alpha is 0 on (or within keySnap of) a key.
func (c *Clip) frame(t float32) (int, float32) {
	if c.keys == 1 {
		return 0, 0
	}
	f := float64(c.LocalTime(t)) * float64(c.rate)
	k := math.Floor(f)
	a := f - k
	switch {
	case a < keySnap:
		a = 0
	case a > 1-keySnap:
		k, a = k+1, 0
	}
	if k >= float64(c.keys-1) {
		return c.keys - 1, 0
	}
	if k < 0 {
		return 0, 0
	}
	return int(k), float32(a)
}

// Sample writes the clip's pose at play time t (seconds; wrapped or clamped
// as in LocalTime) into dst. Bones the clip does not animate, and channels a
// track leaves out, take their value from rest. dst and rest must hold
// BoneCount bones; Sample writes nothing and returns false otherwise.
// dst and rest may be the same pose.
func (c *Clip) Sample(dst, rest Pose, t float32) bool {
	if dst.Len() < c.bones || rest.Len() < c.bones {
		return false
	}
	k, a := c.frame(t)
	for _, b := range c.rotRest {
		dst.Rot[b] = rest.Rot[b]
	}
	for _, b := range c.posRest {
		dst.Pos[b] = rest.Pos[b]
	}
	for _, b := range c.sclRest {
		dst.Scale[b] = rest.Scale[b]
	}
	if nr := len(c.rotBones); nr > 0 {
		k0 := c.rot[k*nr : (k+1)*nr]
		if a == 0 {
			for i, b := range c.rotBones {
				dst.Rot[b] = k0[i]
			}
		} else {
			k1 := c.rot[(k+1)*nr : (k+2)*nr]
			k1 = k1[:len(k0)]
			for i, b := range c.rotBones {
				nlerpKeys(&dst.Rot[b], &k0[i], &k1[i], a)
			}
		}
	}
	sampleVec(dst.Pos, c.posBones, c.pos, k, a)
	sampleVec(dst.Scale, c.sclBones, c.scl, k, a)
	return true
}

// nlerpKeys writes into dst the nlerp of two unit keys along the shorter
// arc. Two unit keys at most 180 degrees apart never sum to zero with these
// weights (|sum|² >= (1-a)² + a² >= 0.5), so no fallback is needed.
func nlerpKeys(dst, q0, q1 *mgl32.Quat, a float32) {
	w, x, y, z := lerpKeys(q0, q1, a)
	inv := 1 / float32(math.Sqrt(float64(w*w+x*x+y*y+z*z)))
	dst.W = w * inv
	dst.V[0] = x * inv
	dst.V[1] = y * inv
	dst.V[2] = z * inv
}

func sampleVec(dst []mgl32.Vec3, bones []int32, keys []mgl32.Vec3, k int, a float32) {
	n := len(bones)
	if n == 0 {
		return
	}
	k0 := keys[k*n : (k+1)*n]
	if a == 0 {
		for i, b := range bones {
			dst[b] = k0[i]
		}
		return
	}
	k1 := keys[(k+1)*n : (k+2)*n]
	k1 = k1[:len(k0)]
	for i, b := range bones {
		p, q, d := &k0[i], &k1[i], &dst[b]
		d[0] = p[0] + (q[0]-p[0])*a
		d[1] = p[1] + (q[1]-p[1])*a
		d[2] = p[2] + (q[2]-p[2])*a
	}
}

// accumulate adds w times the clip's pose at time t into the blend
// accumulator acc, reading rest for the bones and channels without a track
// listed in rs: the same result as Sample into a scratch pose and blendAdd
// on those bones, in one pass. acc and rest must hold BoneCount bones.
//
// The loops read and write components through pointers: Go keeps [3]float32
// values (mgl32.Vec3, Quat.V) in memory rather than registers, so whole-value
// temporaries cost a store and a load each.
func (c *Clip) accumulate(acc, rest Pose, t, w float32, rs *boneSets) {
	k, a := c.frame(t)
	for _, b := range rs.rot {
		addQuatTo(&acc.Rot[b], &rest.Rot[b], w)
	}
	for _, b := range rs.pos {
		addVecTo(&acc.Pos[b], &rest.Pos[b], w)
	}
	for _, b := range rs.scl {
		addVecTo(&acc.Scale[b], &rest.Scale[b], w)
	}
	if nr := len(c.rotBones); nr > 0 {
		k0 := c.rot[k*nr : (k+1)*nr]
		var k1 []mgl32.Quat
		if a != 0 {
			k1 = c.rot[(k+1)*nr : (k+2)*nr]
		}
		// Every tracked bone is below BoneCount (NewClip): with acc that
		// long, the SIMD kernels' unchecked writes stay inside it.
		accumulateRot(acc.Rot, c.rotBones, k0, k1, a, w, len(acc.Rot) >= c.bones)
	}
	accumulateVec(acc.Pos, c.posBones, c.pos, k, a, w)
	accumulateVec(acc.Scale, c.sclBones, c.scl, k, a, w)
}

func accumulateVec(acc []mgl32.Vec3, bones []int32, keys []mgl32.Vec3, k int, a, w float32) {
	n := len(bones)
	if n == 0 {
		return
	}
	k0 := keys[k*n : (k+1)*n]
	if a == 0 {
		for i, b := range bones {
			addVecTo(&acc[b], &k0[i], w)
		}
		return
	}
	k1 := keys[(k+1)*n : (k+2)*n]
	k1 = k1[:len(k0)]
	for i, b := range bones {
		p, q, d := &k0[i], &k1[i], &acc[b]
		d[0] += w * (p[0] + (q[0]-p[0])*a)
		d[1] += w * (p[1] + (q[1]-p[1])*a)
		d[2] += w * (p[2] + (q[2]-p[2])*a)
	}
}
