package ik

import (
	"math"
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/mathx"
)

func randUnitQuat(r *rand.Rand) mgl32.Quat {
	q, _ := mathx.NormalizeQuat(mgl32.Quat{W: float32(r.NormFloat64()), V: mgl32.Vec3{float32(r.NormFloat64()), float32(r.NormFloat64()), float32(r.NormFloat64())}})
	return q
}

func randDir(r *rand.Rand) mgl32.Vec3 {
	return mathx.NormalizeOr(mgl32.Vec3{float32(r.NormFloat64()), float32(r.NormFloat64()), float32(r.NormFloat64())}, mgl32.Vec3{1, 0, 0})
}

func vecNear(a, b mgl32.Vec3, tol float64) bool {
	for i := range a {
		if math.Abs(float64(a[i]-b[i])) > tol {
			return false
		}
	}
	return true
}

// angleDiff is the angle in radians of the rotation between two unit
// quaternions, accurate for tiny angles.
func angleDiff(a, b mgl32.Quat) float64 {
	d := mathx.Mul(mathx.Conjugate(a), b)
	return 2 * math.Atan2(float64(mathx.Len(d.V)), math.Abs(float64(d.W)))
}

// fk recomputes the middle and end positions from the solved rotations, as
// the pose's forward kinematics will: each bone offset turns by its joint's
// world rotation change.
func fk(in *TwoBoneInput, out *TwoBoneResult) (mid, end mgl32.Vec3) {
	du := mathx.Mul(out.UpperRot, mathx.Conjugate(in.UpperRot))
	dm := mathx.Mul(out.MiddleRot, mathx.Conjugate(in.MiddleRot))
	mid = in.UpperPos.Add(mathx.Rotate(du, in.MiddlePos.Sub(in.UpperPos)))
	end = mid.Add(mathx.Rotate(dm, in.EndPos.Sub(in.MiddlePos)))
	return mid, end
}

// checkResult fails on any non-finite or non-unit output.
func checkResult(t *testing.T, out *TwoBoneResult) {
	t.Helper()
	for name, q := range map[string]mgl32.Quat{"UpperRot": out.UpperRot, "MiddleRot": out.MiddleRot, "EndRot": out.EndRot} {
		if !mathx.QuatFinite(q) {
			t.Fatalf("%s not finite: %v", name, q)
		}
		if l := q.W*q.W + mathx.Dot(q.V, q.V); math.Abs(float64(l)-1) > 1e-4 {
			t.Fatalf("%s not unit: %v", name, q)
		}
	}
	if !mathx.Vec3Finite(out.MiddlePos) || !mathx.Vec3Finite(out.EndPos) {
		t.Fatalf("positions not finite: %v %v", out.MiddlePos, out.EndPos)
	}
}

// randLimb builds a limb at a random place with a random bend and
// rotations.
func randLimb(r *rand.Rand) TwoBoneInput {
	a := mgl32.Vec3{r.Float32()*4 - 2, r.Float32()*4 - 2, r.Float32()*4 - 2}
	l1, l2 := 0.3+r.Float32(), 0.3+r.Float32()
	d1 := randDir(r)
	d2 := mathx.NormalizeOr(d1.Add(randDir(r).Mul(0.8)), randDir(r))
	b := a.Add(d1.Mul(l1))
	return TwoBoneInput{
		UpperPos: a, MiddlePos: b, EndPos: b.Add(d2.Mul(l2)),
		UpperRot: randUnitQuat(r), MiddleRot: randUnitQuat(r), EndRot: randUnitQuat(r),
	}
}
