package ik

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/mathx"
)

// unitOr normalises q, or returns the identity when q is zero or not
// finite. Pose rotations are unit already, so the square root is skipped
// when the squared length is within rounding of 1.
func unitOr(q mgl32.Quat) mgl32.Quat {
	l2 := q.W*q.W + mathx.Dot(q.V, q.V)
	if l2 > 1-1e-5 && l2 < 1+1e-5 {
		return q
	}
	n, _ := mathx.NormalizeQuat(q)
	return n
}

// axisAngle returns the rotation by angle radians about the unit axis n.
func axisAngle(n mgl32.Vec3, angle float64) mgl32.Quat {
	s, c := math.Sincos(angle / 2)
	fs := float32(s)
	return mgl32.Quat{W: float32(c), V: mgl32.Vec3{n[0] * fs, n[1] * fs, n[2] * fs}}
}

// twistAbout returns the rotation about the unit axis n that turns a onto b,
// where a and b are unit vectors perpendicular to n, from the half angle
// (1 + cos, sin·n); a half turn is (0, n). Unlike FromToRotation it keeps
// the axis n when a and b are opposite.
func twistAbout(n, a, b mgl32.Vec3) mgl32.Quat {
	c := mathx.Dot(a, b)
	s := mathx.Dot(mathx.Cross(a, b), n)
	w := 1 + c
	if w < 1e-6 && s < 1e-3 && s > -1e-3 {
		return mgl32.Quat{W: 0, V: n}
	}
	q, _ := mathx.NormalizeQuat(mgl32.Quat{W: w, V: mgl32.Vec3{s * n[0], s * n[1], s * n[2]}})
	return q
}
