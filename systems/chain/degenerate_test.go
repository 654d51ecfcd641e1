package chain

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/systems/collide"
)

// busy returns settings that exercise every term.
func busy() Settings {
	s := DefaultSettings()
	s.Inert, s.Friction, s.Radius = 0.3, 0.5, 0.05
	s.Gravity = db60(mgl32.Vec3{0, -0.01, 0})
	s.Force = db60(mgl32.Vec3{0.003, 0, 0.002})
	s.Freeze = FreezeX
	return s
}

// checkFinite runs frames and fails on the first non-finite particle or
// pose value.
func checkFinite(t *testing.T, r *testRig, p Particles, c *Chain, shapes []collide.Shape, frames int, move func(int)) {
	t.Helper()
	for f := 0; f < frames; f++ {
		if move != nil {
			move(f)
		}
		r.animate()
		Update(p, c, r.pose, shapes, &r.obj)
		if !allFinite(p.Pos) || !allFinite(p.Prev) || !allFinite(r.pose.LocalPos) || !quatsFinite(r.pose.LocalRot) {
			t.Fatalf("frame %d: non-finite state: pos %v locals %v %v", f, p.Pos, r.pose.LocalPos, r.pose.LocalRot)
		}
	}
}

func TestDegenerateZeroLengthBones(t *testing.T) {
	// Bones 2 and 3 sit exactly on their parents.
	r := newRig([]int32{-1, 0, 1, 2, 3}, []mgl32.Vec3{{}, {0, -0.3, 0}, {}, {}, {0, -0.3, 0}})
	pool, c := r.build(t, Desc{EndLength: 1, Colliders: []int32{0}, Settings: busy()})
	shapes := []collide.Shape{{Kind: collide.Sphere, A: mgl32.Vec3{0, -0.3, 0}, RA: 0.1, RB: 0.1}}
	checkFinite(t, r, c.Particles(pool), c, shapes, 200, func(f int) {
		r.obj.ObjectPos = mgl32.Vec3{float32(math.Sin(float64(f) / 7)), 0, 0}
	})
}

func TestDegenerateAllBonesAtOnePoint(t *testing.T) {
	r := newRig([]int32{-1, 0, 1}, make([]mgl32.Vec3, 3))
	pool, c := r.build(t, Desc{EndLength: 1, Settings: busy()})
	checkFinite(t, r, c.Particles(pool), c, nil, 50, nil)
}

func TestDegenerateCoincidentColliders(t *testing.T) {
	r := line(4, 0.2)
	c0 := mgl32.Vec3{0, -0.4, 0} // exactly on particle 2
	shapes := []collide.Shape{
		{Kind: collide.Sphere, A: c0, RA: 0.1, RB: 0.1},
		{Kind: collide.Sphere, A: c0, RA: 0.1, RB: 0.1},
		{Kind: collide.Capsule, A: c0, B: c0, RA: 0.15, RB: 0.15}, // zero-length capsule
		{Kind: collide.Sphere, A: c0, RA: 0, RB: 0},
	}
	pool, c := r.build(t, Desc{Colliders: []int32{0, 1, 2, 3, 99}, Settings: busy()})
	checkFinite(t, r, c.Particles(pool), c, shapes, 100, nil)
}

func TestDegenerateParticlesStartInsideColliders(t *testing.T) {
	r := line(4, 0.2)
	// A sphere swallowing the whole chain, root included, and a plane above it.
	shapes := []collide.Shape{
		{Kind: collide.Sphere, A: mgl32.Vec3{0, -0.4, 0}, RA: 2, RB: 2},
		{Kind: collide.Plane, A: mgl32.Vec3{0, 1, 0}, N: mgl32.Vec3{0, 1, 0}},
	}
	pool, c := r.build(t, Desc{Colliders: []int32{0, 1}, Settings: busy()})
	checkFinite(t, r, c.Particles(pool), c, shapes, 100, nil)
}

func TestDegenerateFrameTimes(t *testing.T) {
	for _, mode := range []StepMode{Fixed, Variable} {
		for _, dt := range []float32{0, -1, 1e-9, 1e6, float32(math.Inf(1)), float32(math.NaN())} {
			r := line(4, 0.2)
			s := busy()
			s.Mode = mode
			pool, c := r.build(t, Desc{Settings: s})
			p := c.Particles(pool)
			checkFinite(t, r, p, c, nil, 5, nil)
			r.obj.Dt = dt
			checkFinite(t, r, p, c, nil, 5, nil)
		}
	}
}

func TestDegenerateObjectTransform(t *testing.T) {
	r := line(3, 0.2)
	pool, c := r.build(t, Desc{Settings: busy()})
	p := c.Particles(pool)
	r.obj.ObjectRot = mgl32.Quat{}   // zero value: counts as identity
	r.obj.ObjectScale = mgl32.Vec3{} // zero value: counts as 1
	checkFinite(t, r, p, c, nil, 20, nil)
	if c.scale != 1 {
		t.Errorf("object scale %v for a zero ObjectScale, want 1", c.scale)
	}
	if c.move != (mgl32.Vec3{}) {
		t.Error("a zero ObjectRot was taken for a turn")
	}
}

func TestDegenerateNonFiniteRuntimeEdit(t *testing.T) {
	r := line(3, 0.2)
	pool, c := r.build(t, Desc{Settings: busy()})
	p := c.Particles(pool)
	c.Settings.Gravity = db60(mgl32.Vec3{float32(math.NaN()), 0, 0})
	c.Settings.Damping = float32(math.NaN())
	c.Settings.Radius = float32(math.Inf(1))
	Refresh(p, c)
	checkFinite(t, r, p, c, nil, 20, nil)
}

func TestDegenerateShortPose(t *testing.T) {
	r := line(3, 0.2)
	pool, c := r.build(t, Desc{Settings: busy()})
	short := r.pose
	short.WorldPos = short.WorldPos[:2]
	if n := Prepare(c.Particles(pool), c, short, &r.obj); n != -1 {
		t.Errorf("Prepare with a pose shorter than the chain's bones = %d, want -1", n)
	}
	if got := Apply(c.Particles(pool), c, short); got != -1 {
		t.Errorf("Apply with a short pose = %d, want -1", got)
	}
}
