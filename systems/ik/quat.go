package ik

import (
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
