package chain

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/systems/collide"
)

func segmentFor(s *collide.Shape) segment {
	inf := float32(math.Inf(1))
	b := sphereOf(s, inf)
	return segmentOf(s, &b, inf)
}

// A capsule from the origin to (0, 1, 0), radii 0.1 and 0.05: its
// bounding sphere (centre (0, 0.5, 0), radius 0.6) holds points far from
// the capsule, which the segment test leaves out.
func TestSegmentNearByHand(t *testing.T) {
	c := collide.Shape{Kind: collide.Capsule, A: mgl32.Vec3{0, 0, 0}, B: mgl32.Vec3{0, 1, 0}, RA: 0.1, RB: 0.05}
	g := segmentFor(&c)
	// rm = (0.1 + 1/512) * (1 + 1/512) = 0.10215; with r = 0.02 the limit
	// is 0.10215 + 0.02*(1 + 1/512) = 0.12219 from the axis.
	if want := float32((0.1 + 1.0/512) * (1 + 1.0/512)); math.Abs(float64(g.rm-want)) > 1e-7 {
		t.Fatalf("rm %v, want %v", g.rm, want)
	}
	cases := []struct {
		x    mgl32.Vec3
		near bool
	}{
		{mgl32.Vec3{0.4, 0.5, 0}, false},   // in the bounding sphere, 0.4 from the axis
		{mgl32.Vec3{0.123, 0.5, 0}, false}, // just past the limit
		{mgl32.Vec3{0.121, 0.5, 0}, true},  // just inside it (push would not move it: margin)
		{mgl32.Vec3{0.05, 0.5, 0}, true},   // in the capsule
		{mgl32.Vec3{0, -0.121, 0}, true},   // below A, within the limit of A
		{mgl32.Vec3{0, -0.13, 0}, false},   // below A, past it
		{mgl32.Vec3{0.08, 1.08, 0}, true},  // beyond B: 0.113 from B
		{mgl32.Vec3{0.09, 1.09, 0}, false}, // 0.127 from B
		{mgl32.Vec3{float32(math.NaN()), 0, 0}, false},
	}
	for _, k := range cases {
		if got := g.near(k.x[0], k.x[1], k.x[2], 0.02); got != k.near {
			t.Errorf("near(%v) = %v, want %v", k.x, got, k.near)
		}
	}

	// A sphere's test is its bounding sphere's, with the margin.
	s := collide.Shape{Kind: collide.Sphere, A: mgl32.Vec3{1, 2, 3}, RA: 0.2}
	gs := segmentFor(&s)
	if !gs.near(1.21, 2, 3, 0.02) || gs.near(1.23, 2, 3, 0.02) {
		t.Error("sphere: want near at 0.21 from the centre and not at 0.23")
	}
	// Shapes without a test: every finite position is near.
	for _, sh := range []collide.Shape{
		{Kind: collide.Plane, A: mgl32.Vec3{0, 0, 0}, N: mgl32.Vec3{0, 1, 0}},
		{Kind: collide.Sphere, A: mgl32.Vec3{0, 0, 0}, RA: 0.5, Bound: collide.Inside},
		{Kind: collide.Capsule, A: mgl32.Vec3{0, 0, 0}, B: mgl32.Vec3{0, 1, 0}, RA: -0.1, RB: 0.05},
	} {
		g := segmentFor(&sh)
		if !g.near(50, -70, 3, 0) {
			t.Errorf("%+v: a position far away is not near; want every position near (no test)", sh)
		}
	}
}

// Wherever collide.Push moves a particle, the segment test says near: the
// SIMD step may then skip the scalar push everywhere else. Shapes of
// every kind the test covers (spheres, capsules tapered either way, one
// end sphere holding the other, nearly zero length), from millimetres to
// tens of metres, far from the origin, with particles on either side of
// their surfaces.
func TestSegmentNearHoldsEveryPush(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 21))
	f := func(lo, hi float64) float32 { return float32(lo + (hi-lo)*rng.Float64()) }
	var pushed, skipped int
	for range 200_000 {
		scale := float32(math.Pow(10, rng.Float64()*4-3))
		o := mgl32.Vec3{f(-1000, 1000), f(-1000, 1000), f(-1000, 1000)}
		a := o.Add(mgl32.Vec3{f(-1, 1), f(-1, 1), f(-1, 1)}.Mul(scale))
		s := collide.Shape{Kind: collide.Sphere, A: a, RA: f(0, 0.5) * scale}
		if rng.IntN(4) > 0 {
			s.Kind = collide.Capsule
			u := mgl32.Vec3{f(-1, 1), f(-1, 1), f(-1, 1)}.Mul(scale)
			switch rng.IntN(4) {
			case 0:
				u = u.Mul(1e-4) // nearly a sphere
			case 1:
				s.RA = 2 * u.Len() // A's sphere holds B's
			}
			s.B, s.RB = a.Add(u), f(0, 0.5)*scale
		}
		r := f(0, 0.1) * scale
		// A point about the surface: along a random direction from a
		// point of the axis, at the shape's radius there, give or take.
		t0 := f(-0.2, 1.2)
		p := s.A.Add(s.B.Sub(s.A).Mul(t0))
		if s.Kind == collide.Sphere {
			p = s.A
		}
		dir := mgl32.Vec3{f(-1, 1), f(-1, 1), f(-1, 1)}
		if l := dir.Len(); l > 1e-3 {
			dir = dir.Mul(1 / l)
		}
		R := max(s.RA, s.RB)
		if s.Kind == collide.Sphere {
			R = s.RA
		}
		x := p.Add(dir.Mul((R + r) * f(0.5, 1.5)))
		g := segmentFor(&s)
		moved := x
		if collide.Push(&moved, r, &s) {
			pushed++
			if !g.near(x[0], x[1], x[2], r) {
				t.Fatalf("push moves %v (radius %v) out of %+v, but the segment test says not near", x, r, s)
			}
			continue
		}
		b := sphereOf(&s, float32(math.Inf(1)))
		d := x.Sub(mgl32.Vec3{b.c0, b.c1, b.c2})
		if lim := b.r + r; d.Dot(d) < lim*lim && !g.near(x[0], x[1], x[2], r) {
			skipped++
		}
	}
	// The test reaches both sides: pushes to check, and positions in a
	// bounding sphere the segment test saves a push for.
	if pushed < 20_000 || skipped < 20_000 {
		t.Fatalf("%d pushes, %d positions skipped; want at least 20,000 of each", pushed, skipped)
	}
}
