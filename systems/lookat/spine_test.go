package lookat

import (
	"math"
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/mathx"
)

// Hand-worked: half of a 90 degree yaw is a 45 degree yaw,
// (cos 22.5°, 0, sin 22.5°, 0) = (0.9238795, 0, 0.38268343, 0), and the head
// keeps the other half.
func TestSplitTurnHandWorked(t *testing.T) {
	dst := make([]mgl32.Quat, 1)
	rest := SplitTurn(dst, yawQuat(90), []float32{0.5})
	want := mgl32.Quat{W: 0.9238795, V: mgl32.Vec3{0, 0.38268343, 0}}
	if !quatNear(dst[0], want, 1e-6) || !quatNear(rest, want, 1e-6) {
		t.Fatalf("share %v, rest %v, want %v", dst[0], rest, want)
	}
}

func TestSplitTurnComposes(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	dst := make([]mgl32.Quat, 3)
	for i := 0; i < 100; i++ {
		turn := randUnitQuat(r)
		shares := []float32{r.Float32() * 0.3, r.Float32() * 0.3, r.Float32() * 0.3}
		rest := SplitTurn(dst, turn, shares)
		p := mathx.Mul(mathx.Mul(mathx.Mul(dst[0], dst[1]), dst[2]), rest)
		if d := angleDiff(p, turn); d > 1e-5 {
			t.Fatalf("case %d: product off by %v rad", i, d)
		}
	}
}

// Shares summing above 1 are cut so the total is the whole turn and the
// head keeps nothing.
func TestSplitTurnOverfull(t *testing.T) {
	dst := make([]mgl32.Quat, 3)
	rest := SplitTurn(dst, yawQuat(100), []float32{0.8, 0.8, float32(math.NaN())})
	if d := angleDiff(dst[0], yawQuat(80)); d > 1e-6 {
		t.Fatalf("first share off by %v", d)
	}
	if d := angleDiff(dst[1], yawQuat(20)); d > 1e-6 {
		t.Fatalf("second share off by %v", d)
	}
	if d := angleDiff(dst[2], mgl32.QuatIdent()); d > 1e-6 {
		t.Fatalf("NaN share gave %v", dst[2])
	}
	if d := angleDiff(rest, mgl32.QuatIdent()); d > 1e-6 {
		t.Fatalf("head keeps %v", rest)
	}
}

func TestSplitTurnDegenerate(t *testing.T) {
	dst := make([]mgl32.Quat, 2)
	for _, turn := range []mgl32.Quat{{}, mgl32.QuatIdent(), {W: float32(math.NaN())}, {W: -1}} {
		rest := SplitTurn(dst, turn, []float32{0.5, 0.5, 0.5}) // longer than dst
		for i, q := range dst {
			quatOK(t, "share", q)
			if d := angleDiff(q, mgl32.QuatIdent()); d > 1e-6 {
				t.Fatalf("turn %v share %d: %v", turn, i, q)
			}
		}
		quatOK(t, "rest", rest)
	}
}

// The bone's world rotation becomes turn * (parent * local).
func TestApplyWorldTurn(t *testing.T) {
	r := rand.New(rand.NewSource(6))
	for i := 0; i < 100; i++ {
		p, l, turn := randUnitQuat(r), randUnitQuat(r), randUnitQuat(r)
		nl := ApplyWorldTurn(p, l, turn)
		want := mathx.Mul(turn, mathx.Mul(p, l))
		if d := angleDiff(mathx.Mul(p, nl), want); d > 1e-5 {
			t.Fatalf("case %d: world off by %v rad", i, d)
		}
	}
	quatOK(t, "zero inputs", ApplyWorldTurn(mgl32.Quat{}, mgl32.Quat{}, mgl32.Quat{}))
}
