package spring

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/mathx"
	"github.com/sway-anim/sway/systems/collide"
)

var one = mgl32.Vec3{1, 1, 1}

// straightVRM builds a chain of n joints of length l along dir, joint 0 on
// its parent, every joint with the settings of tmpl (LocalRot identity).
func straightVRM(tb testing.TB, n int, l float32, dir mgl32.Vec3, tmpl VRMJointDesc) *VRMChain {
	tb.Helper()
	d := VRMChainDesc{HasTail: true, Tail: dir.Mul(l)}
	for i := range n {
		j := tmpl
		j.LocalRot = mgl32.QuatIdent()
		if i > 0 {
			j.LocalPos = dir.Mul(l)
		}
		d.Joints = append(d.Joints, j)
	}
	c, err := NewVRMChain(&d)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// worldHeads runs the chain's forward kinematics with the given local
// rotations and returns each joint's world head position.
func worldHeads(c *VRMChain, rot []mgl32.Quat, pPos mgl32.Vec3, pRot mgl32.Quat, pScale mgl32.Vec3) []mgl32.Vec3 {
	heads := make([]mgl32.Vec3, c.Len())
	for i := range heads {
		pPos = pPos.Add(mathx.Rotate(pRot, mul3(pScale, c.joints[i].localPos.vec())))
		pRot = mathx.Mul(pRot, rot[i])
		pScale = mul3(pScale, c.joints[i].localScale.vec())
		heads[i] = pPos
	}
	return heads
}

func mul3(a, b mgl32.Vec3) mgl32.Vec3 { return mgl32.Vec3{a[0] * b[0], a[1] * b[1], a[2] * b[2]} }

func dist(a, b mgl32.Vec3) float32 { return a.Sub(b).Len() }

func allFinite(tb testing.TB, what string, vs []mgl32.Vec3, qs []mgl32.Quat) {
	tb.Helper()
	for i, v := range vs {
		if !mathx.Vec3Finite(v) {
			tb.Fatalf("%s: position %d is %v", what, i, v)
		}
	}
	for i, q := range qs {
		l := q.Len()
		if !mathx.QuatFinite(q) || math.Abs(float64(l-1)) > 1e-4 {
			tb.Fatalf("%s: rotation %d is %v (length %v)", what, i, q, l)
		}
	}
}

// shapeDistance is the distance of p from the surface of an Outside sphere
// or capsule shape (negative inside), for checks independent of Collide.
func shapeDistance(p mgl32.Vec3, s *collide.Shape) float32 {
	if s.Kind == collide.Plane {
		return mathx.Dot(p.Sub(s.A), s.N)
	}
	ab := s.B.Sub(s.A)
	t := float32(0)
	if l2 := mathx.Dot(ab, ab); l2 > 0 {
		t = mathx.Clamp01(mathx.Dot(p.Sub(s.A), ab) / l2)
	}
	return dist(p, s.A.Add(ab.Mul(t))) - s.RA // equal radii only
}

// vecBits and quatBits return the bits of v and q: equal for the same
// bits only (not for +0 and -0, and for a NaN with itself).
func vecBits(v mgl32.Vec3) [3]uint32 {
	return [3]uint32{math.Float32bits(v[0]), math.Float32bits(v[1]), math.Float32bits(v[2])}
}

func quatBits(q mgl32.Quat) [4]uint32 {
	return [4]uint32{math.Float32bits(q.W), math.Float32bits(q.V[0]), math.Float32bits(q.V[1]), math.Float32bits(q.V[2])}
}
