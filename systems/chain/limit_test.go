package chain

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// A segment past the cone turns back onto it about its parent, its length
// kept; one inside is left alone; one straight against the axis goes onto
// the axis. Hand numbers: the axis is -Y, the limit 30 degrees.
func TestLimitConeByHand(t *testing.T) {
	cos, sin := float32(math.Cos(math.Pi/6)), float32(math.Sin(math.Pi/6))
	for _, c := range []struct {
		what    string
		x, want mgl32.Vec3
	}{
		{"90 degrees out, along +X", mgl32.Vec3{1, 0, 0}, mgl32.Vec3{0.5, -0.8660254, 0}},
		{"length 2 kept", mgl32.Vec3{2, 0, 0}, mgl32.Vec3{1, -1.7320508, 0}},
		{"inside the cone (20 degrees)", mgl32.Vec3{0.34202015, -0.9396926, 0}, mgl32.Vec3{0.34202015, -0.9396926, 0}},
		{"straight against the axis", mgl32.Vec3{0, 1, 0}, mgl32.Vec3{0, -1, 0}},
		{"on the parent", mgl32.Vec3{0, 0, 0}, mgl32.Vec3{0, 0, 0}},
	} {
		x0, x1, x2 := limitCone(c.x[0], c.x[1], c.x[2], 0, 0, 0, 0, -0.3, 0, cos, sin)
		if got := (mgl32.Vec3{x0, x1, x2}); !nearVec(got, c.want, 1e-6) {
			t.Errorf("%s: %v, want %v", c.what, got, c.want)
		}
	}
	// About another parent, along another axis: (1, 1, 0) from (1, 0, 0)
	// about +X is 90 degrees out; at 45 degrees it lands on (1, 0, 0) +
	// (cos 45, sin 45, 0).
	c45, s45 := float32(math.Cos(math.Pi/4)), float32(math.Sin(math.Pi/4))
	x0, x1, x2 := limitCone(1, 1, 0, 1, 0, 0, 2, 0, 0, c45, s45)
	if got, want := (mgl32.Vec3{x0, x1, x2}), (mgl32.Vec3{1 + 0.70710677, 0.70710677, 0}); !nearVec(got, want, 1e-6) {
		t.Errorf("about (1, 0, 0) along +X: %v, want %v", got, want)
	}
}

// A chain hanging down under a strong sideways force would swing far out;
// with LimitAngleDegrees 30 no segment leaves its animated direction by
// more than 30 degrees (the colliders aside), and without one the chain
// goes past it: the limit is what holds it.
func TestLimitAngleHoldsAChain(t *testing.T) {
	worst := func(limit float32) float64 {
		r := line(3, 0.2)
		s := still()
		s.Damping = 0.1
		s.Force = mgl32.Vec3{20, 0, 0} // m/s², sideways
		s.LimitAngleDegrees = limit
		pool, c := r.build(t, Desc{Settings: s})
		p := c.Particles(pool)
		var most float64
		r.run(t, p, c, nil, 240, nil, func(int) {
			for i := 1; i < p.Len(); i++ {
				d := p.Pos[i].Sub(p.Pos[p.Parent[i]])
				// The animated direction is straight down.
				a := math.Acos(math.Max(-1, math.Min(1, float64(-d[1])/float64(d.Len()))))
				most = math.Max(most, a*180/math.Pi)
			}
		})
		return most
	}
	if free := worst(0); free < 40 {
		t.Fatalf("without a limit the chain swings out %.1f degrees at most: the force shows nothing", free)
	}
	if held := worst(30); held > 30.01 {
		t.Fatalf("with a 30 degree limit a segment turned %.3f degrees from its animated direction", held)
	}
	var s Settings = DefaultSettings()
	for _, bad := range []float32{-1, 181, float32(math.NaN())} {
		s.LimitAngleDegrees = bad
		if s.Validate() == nil {
			t.Errorf("LimitAngleDegrees %v accepted", bad)
		}
	}
}
