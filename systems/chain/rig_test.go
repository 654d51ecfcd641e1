package chain

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/systems/collide"
)

// stress is the stress rig: 8 hair chains of 6 moving particles on the
// head, 2 ear chains of 3, a tail of 8 (62 moving particles, 73 with the
// chain roots), and 3 colliders: a head sphere and two upper-arm capsules.
type stress struct {
	rig    *testRig
	pool   *Particles
	chains []Chain
	descs  []collide.Desc
	bones  []int32
	shapes []collide.Shape
}

const stressMoving = 62

func newStress(t testing.TB, mode StepMode) *stress {
	parents := []int32{-1, 0, 1, 1, 3, 1, 5}
	pos := []mgl32.Vec3{{0, 1, 0}, {0, 0.3, 0}, {0, 0.4, 0}, {-0.2, 0.3, 0}, {-0.3, 0, 0}, {0.2, 0.3, 0}, {0.3, 0, 0}}
	var roots []int32
	addChain := func(parent int32, base, seg mgl32.Vec3, n int) {
		roots = append(roots, int32(len(parents)))
		parents = append(parents, parent)
		pos = append(pos, base)
		for k := 0; k < n; k++ {
			parents = append(parents, int32(len(parents)-1))
			pos = append(pos, seg)
		}
	}
	for h := 0; h < 8; h++ {
		a := float64(h) * math.Pi / 4
		addChain(2, mgl32.Vec3{float32(0.1 * math.Cos(a)), 0.12, float32(0.1 * math.Sin(a))}, mgl32.Vec3{0, -0.06, 0}, 6)
	}
	addChain(2, mgl32.Vec3{-0.08, 0.18, 0}, mgl32.Vec3{0, 0.04, 0}, 3)
	addChain(2, mgl32.Vec3{0.08, 0.18, 0}, mgl32.Vec3{0, 0.04, 0}, 3)
	addChain(0, mgl32.Vec3{0, 0, -0.1}, mgl32.Vec3{0, -0.02, -0.08}, 8)

	s := &stress{rig: newRig(parents, pos), pool: &Particles{}}
	s.descs = []collide.Desc{
		collide.NewSphere(mgl32.Vec3{0, 0.1, 0}, 0.1),
		collide.NewCapsule(mgl32.Vec3{}, mgl32.Vec3{-0.3, 0, 0}, 0.05, 0.05),
		collide.NewCapsule(mgl32.Vec3{}, mgl32.Vec3{0.3, 0, 0}, 0.05, 0.05),
	}
	s.bones = []int32{2, 3, 5}
	s.shapes = make([]collide.Shape, len(s.descs))
	set := DefaultSettings()
	set.Mode = mode
	set.Gravity = db60(mgl32.Vec3{0, -0.005, 0})
	set.Force = db60(mgl32.Vec3{0, 0, 0.002})
	set.Radius, set.Friction, set.Inert = 0.02, 0.2, 0.1
	s.chains = make([]Chain, len(roots))
	for i, r := range roots {
		d := Desc{Root: r, Colliders: []int32{0, 1, 2}, Settings: set}
		if err := Build(s.pool, &s.chains[i], &s.rig.skel, &d); err != nil {
			t.Fatal(err)
		}
	}
	moving := s.pool.Len() - len(roots)
	if moving != stressMoving {
		t.Fatalf("stress rig has %d moving particles, want %d", moving, stressMoving)
	}
	s.frame(0)
	return s
}

// frame animates frame f (the character sways and turns), places the
// colliders and updates every chain.
func (s *stress) frame(f int) {
	r := s.rig
	ft := float64(f) / 60
	r.obj.ObjectPos = mgl32.Vec3{3.1 + float32(0.2*math.Sin(2*ft)), 0.7, 2.3 + float32(0.1*ft)}
	r.obj.ObjectRot = mgl32.QuatRotate(float32(0.3*math.Sin(ft)), mgl32.Vec3{0, 1, 0})
	r.animate()
	PlaceColliders(s.shapes, s.descs, s.bones, r.pose)
	for i := range s.chains {
		c := &s.chains[i]
		Update(c.Particles(s.pool), c, r.pose, s.shapes, &r.obj)
	}
}
