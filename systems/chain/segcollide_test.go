package chain

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/systems/collide"
)

// A 0.2 m bone hanging from the origin along -Y, and a thin capsule
// (radius 1 cm) along Z crossing it half-way, its axis 4 mm to the -X side
// of the bone: both particles are 10 cm from the axis, so a particle-only
// test misses it. With SegmentCollision one step turns the bone about its
// root until the segment clears the capsule: the first push moves the
// segment's midpoint by the 6 mm penetration (the particle by 12 mm, then
// back to its length: x = 0.2·0.012/√(0.012²+0.2²) = 0.011979), the
// second by the 17 µm left, so the segment ends 1 cm from the axis.
func TestSegmentAgainstThinCapsule(t *testing.T) {
	cap := collide.Shape{Kind: collide.Capsule, A: mgl32.Vec3{-0.004, -0.1, -0.5}, B: mgl32.Vec3{-0.004, -0.1, 0.5}, RA: 0.01, RB: 0.01}
	for _, seg := range []bool{false, true} {
		r := line(1, 0.2)
		s := still()
		s.SegmentCollision = seg
		pool, c := r.build(t, Desc{Root: 0, Colliders: []int32{0}, Settings: s})
		p := c.Particles(pool)
		n := r.prepare(p, c)
		for sub := range n {
			Step(p, c, r.pose, sub, []collide.Shape{cap})
		}
		x := p.Pos[1]
		// The segment's distance from the capsule's axis (a line along Z
		// through (-0.004, -0.1)): in the XY plane, from that point to
		// the line through the origin along x.
		dir := mgl32.Vec2{x[0], x[1]}.Normalize()
		dist := math.Abs(float64(-0.004*dir[1] - (-0.1)*dir[0]))
		if !seg {
			assertVec(t, "particle-only", x, mgl32.Vec3{0, -0.2, 0}, 1e-7)
			if math.Abs(dist-0.004) > 1e-6 {
				t.Errorf("particle-only: segment %v from the axis, want 0.004 (inside)", dist)
			}
			continue
		}
		if dist < 0.01-1e-5 {
			t.Errorf("segment %v from the axis, want at least 0.01", dist)
		}
		if l := x.Len(); math.Abs(float64(l)-0.2) > 1e-6 {
			t.Errorf("bone length %v, want 0.2", l)
		}
		if x[0] < 0.011979-2e-5 || x[0] > 0.0121 {
			t.Errorf("particle at %v, want x ≈ 0.01198..0.0120", x)
		}
		if !p.Collided[1] {
			t.Error("the particle was not marked as touching")
		}
	}
}

// A sphere in the middle of a bone: pushed out along the segment's normal.
func TestSegmentAgainstSphere(t *testing.T) {
	r := line(1, 0.2)
	s := still()
	s.SegmentCollision = true
	pool, c := r.build(t, Desc{Root: 0, Colliders: []int32{0}, Settings: s})
	p := c.Particles(pool)
	sph := collide.Shape{Kind: collide.Sphere, A: mgl32.Vec3{-0.01, -0.1, 0}, B: mgl32.Vec3{-0.01, -0.1, 0}, RA: 0.03, RB: 0.03}
	n := r.prepare(p, c)
	for sub := range n {
		Step(p, c, r.pose, sub, []collide.Shape{sph})
	}
	x := p.Pos[1]
	dir := mgl32.Vec2{x[0], x[1]}.Normalize()
	// Distance from the sphere's centre to the line through the origin.
	dist := math.Abs(float64(-0.01*dir[1] - (-0.1)*dir[0]))
	if dist < 0.03-1e-4 || x[0] <= 0 {
		t.Errorf("segment %v from the centre (want >= 0.03), particle %v", dist, x)
	}
}
