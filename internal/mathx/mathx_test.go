package mathx

import (
	"math"
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

func TestIsFinite(t *testing.T) {
	inf := float32(math.Inf(1))
	nan := float32(math.NaN())
	for _, c := range []struct {
		f    float32
		want bool
	}{{0, true}, {-3.5, true}, {math.MaxFloat32, true}, {inf, false}, {-inf, false}, {nan, false}} {
		if got := IsFinite(c.f); got != c.want {
			t.Errorf("IsFinite(%v) = %v, want %v", c.f, got, c.want)
		}
	}
}

func TestSafeNormalizeZeroVector(t *testing.T) {
	if v, ok := SafeNormalize(mgl32.Vec3{}); ok || v != (mgl32.Vec3{}) {
		t.Fatalf("zero vector: got %v %v, want zero and false", v, ok)
	}
	nan := float32(math.NaN())
	if _, ok := SafeNormalize(mgl32.Vec3{nan, 0, 0}); ok {
		t.Fatal("NaN vector normalised")
	}
	v, ok := SafeNormalize(mgl32.Vec3{3, 0, 4})
	if !ok || v != (mgl32.Vec3{0.6, 0, 0.8}) {
		t.Fatalf("(3,0,4): got %v %v", v, ok)
	}
}

func TestRotateMatchesMgl32(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 1000; i++ {
		q := randQuat(rng)
		v := mgl32.Vec3{rng.Float32()*2 - 1, rng.Float32()*2 - 1, rng.Float32()*2 - 1}
		want := q.Rotate(v)
		if got := Rotate(q, v); !vecNear(got, want, 1e-5) {
			t.Fatalf("Rotate(%v, %v) = %v, want %v", q, v, got, want)
		}
		if back := InvRotate(q, Rotate(q, v)); !vecNear(back, v, 1e-5) {
			t.Fatalf("InvRotate does not undo Rotate: %v vs %v", back, v)
		}
		r := randQuat(rng)
		if got, want := Mul(q, r), q.Mul(r); !quatNear(got, want, 1e-6) {
			t.Fatalf("Mul = %v, want %v", got, want)
		}
	}
}

func TestFromToRotation(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	for i := 0; i < 1000; i++ {
		a := mgl32.Vec3{rng.Float32()*2 - 1, rng.Float32()*2 - 1, rng.Float32()*2 - 1}
		b := mgl32.Vec3{rng.Float32()*2 - 1, rng.Float32()*2 - 1, rng.Float32()*2 - 1}
		q := FromToRotation(a, b)
		got := Rotate(q, NormalizeOr(a, mgl32.Vec3{}))
		want := NormalizeOr(b, mgl32.Vec3{})
		if !vecNear(got, want, 1e-4) {
			t.Fatalf("FromTo(%v,%v) maps a to %v, want %v", a, b, got, want)
		}
	}
}

func TestFromToRotationOppositeVectors(t *testing.T) {
	for _, a := range []mgl32.Vec3{{1, 0, 0}, {0, 1, 0}, {0, 0, -1}, {0.6, -0.8, 0}} {
		q := FromToRotation(a, a.Mul(-2))
		if !QuatFinite(q) {
			t.Fatalf("opposite %v: non-finite %v", a, q)
		}
		if got := Rotate(q, a); !vecNear(got, a.Mul(-1), 1e-5) {
			t.Fatalf("opposite %v: maps to %v", a, got)
		}
	}
}

func TestFromToRotationZeroVector(t *testing.T) {
	if q := FromToRotation(mgl32.Vec3{}, mgl32.Vec3{0, 1, 0}); q != mgl32.QuatIdent() {
		t.Fatalf("zero from: %v", q)
	}
	if q := FromToRotation(mgl32.Vec3{1, 0, 0}, mgl32.Vec3{}); q != mgl32.QuatIdent() {
		t.Fatalf("zero to: %v", q)
	}
}

func TestSlerpEndsAndMiddle(t *testing.T) {
	a := mgl32.QuatIdent()
	b := mgl32.QuatRotate(math.Pi/2, mgl32.Vec3{0, 1, 0})
	if got := Slerp(a, b, 0); !quatNear(got, a, 1e-6) {
		t.Fatalf("t=0: %v", got)
	}
	if got := Slerp(a, b, 1); !quatNear(got, b, 1e-6) {
		t.Fatalf("t=1: %v", got)
	}
	half := mgl32.QuatRotate(math.Pi/4, mgl32.Vec3{0, 1, 0})
	if got := Slerp(a, b, 0.5); !quatNear(got, half, 1e-6) {
		t.Fatalf("t=0.5: %v, want %v", got, half)
	}
	// The shorter arc: -b is the same rotation as b.
	negB := b.Scale(-1)
	if got := Slerp(a, negB, 0.5); !got.OrientationEqualThreshold(half, 1e-5) {
		t.Fatalf("hemisphere: %v, want %v", got, half)
	}
	if got := AngleBetween(a, b); math.Abs(float64(got)-math.Pi/2) > 1e-5 {
		t.Fatalf("AngleBetween = %v", got)
	}
}

func TestClampNaN(t *testing.T) {
	if got := Clamp01(float32(math.NaN())); got != 0 {
		t.Fatalf("Clamp01(NaN) = %v", got)
	}
	if got := Clamp(5, 0, 2); got != 2 {
		t.Fatalf("Clamp(5,0,2) = %v", got)
	}
}

func randQuat(rng *rand.Rand) mgl32.Quat {
	q := mgl32.Quat{W: rng.Float32()*2 - 1, V: mgl32.Vec3{rng.Float32()*2 - 1, rng.Float32()*2 - 1, rng.Float32()*2 - 1}}
	n, _ := NormalizeQuat(q)
	return n
}

func quatNear(a, b mgl32.Quat, tol float32) bool {
	d := [4]float32{a.W - b.W, a.V[0] - b.V[0], a.V[1] - b.V[1], a.V[2] - b.V[2]}
	for _, x := range d {
		if x > tol || x < -tol {
			return false
		}
	}
	return true
}

func vecNear(a, b mgl32.Vec3, tol float32) bool {
	for i := range a {
		if d := a[i] - b[i]; d > tol || d < -tol {
			return false
		}
	}
	return true
}
