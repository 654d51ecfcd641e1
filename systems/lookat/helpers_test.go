package lookat

import (
	"math"
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/mathx"
)

const deg = math.Pi / 180

func yawQuat(degrees float64) mgl32.Quat {
	return axisAngle(mgl32.Vec3{0, 1, 0}, float32(degrees*deg))
}

// vecAngle returns the angle in radians between two non-zero vectors.
func vecAngle(a, b mgl32.Vec3) float64 {
	return math.Atan2(float64(mathx.Len(mathx.Cross(a, b))), float64(mathx.Dot(a, b)))
}

func randUnitQuat(r *rand.Rand) mgl32.Quat {
	q := mgl32.Quat{W: float32(r.NormFloat64()), V: mgl32.Vec3{float32(r.NormFloat64()), float32(r.NormFloat64()), float32(r.NormFloat64())}}
	n, _ := mathx.NormalizeQuat(q)
	return n
}

func randDir(r *rand.Rand) mgl32.Vec3 {
	return mathx.NormalizeOr(mgl32.Vec3{float32(r.NormFloat64()), float32(r.NormFloat64()), float32(r.NormFloat64())}, mgl32.Vec3{1, 0, 0})
}

func quatOK(t *testing.T, name string, q mgl32.Quat) {
	t.Helper()
	if !mathx.QuatFinite(q) {
		t.Fatalf("%s not finite: %v", name, q)
	}
	if l := q.W*q.W + mathx.Dot(q.V, q.V); math.Abs(float64(l)-1) > 1e-4 {
		t.Fatalf("%s not unit: %v (len² %v)", name, q, l)
	}
}

// angleDiff returns the angle in radians of the rotation between two unit
// quaternions, accurate for tiny angles (AngleBetween's acos is not).
func angleDiff(a, b mgl32.Quat) float64 {
	d := mathx.Mul(mathx.Conjugate(a), b)
	return 2 * math.Atan2(float64(mathx.Len(d.V)), math.Abs(float64(d.W)))
}

// vecNear reports whether a and b agree to tol in every component
// (absolute; mgl32's ApproxEqualThreshold is relative and squares the
// tolerance next to zero).
func vecNear(a, b mgl32.Vec3, tol float64) bool {
	for i := range a {
		if math.Abs(float64(a[i]-b[i])) > tol {
			return false
		}
	}
	return true
}

// quatNear compares rotations up to sign, componentwise to tol.
func quatNear(a, b mgl32.Quat, tol float64) bool {
	if a.W*b.W+mathx.Dot(a.V, b.V) < 0 {
		b = mgl32.Quat{W: -b.W, V: b.V.Mul(-1)}
	}
	return math.Abs(float64(a.W-b.W)) <= tol && vecNear(a.V, b.V, tol)
}

// The shims below build the prepared Head or Eye from settings on each call
// so that tests can edit settings freely; invalid settings give the zero
// value, whose behaviour is documented.

func stepHead(dst *HeadPose, st *HeadState, s *HeadSettings, in *HeadInput, dt float32) {
	h, _ := NewHead(*s)
	h.Step(dst, st, in, dt)
}

func headTarget(s *HeadSettings, in *HeadInput) mgl32.Quat {
	h, _ := NewHead(*s)
	return h.Target(in)
}

func stepEye(dst *mgl32.Quat, st *EyeState, s *EyeSettings, in *EyeInput, dt float32) {
	e, _ := NewEye(*s)
	e.Step(dst, st, in, dt)
}

func eyeYaw(s *EyeSettings, in *EyeInput) float32 {
	e, _ := NewEye(*s)
	return e.TargetYaw(in)
}

func asQuatT(q mgl32.Quat) quat { return asQuat(&q) }

func mathxMul(a, b mgl32.Quat) mgl32.Quat { return mathx.Mul(a, b) }
