package chain

import (
	"math"
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/systems/collide"
)

// Step must give exactly what Integrate then Constrain give, in every path
// of the fused loop: Fixed and Variable steps, a freeze plane, colliders.
func TestStepEqualsIntegrateThenConstrain(t *testing.T) {
	for _, tc := range []struct {
		name   string
		mode   StepMode
		freeze FreezeAxis
	}{{"fixed", Fixed, FreezeNone}, {"variable", Variable, FreezeNone}, {"freeze", Fixed, FreezeY}} {
		t.Run(tc.name, func(t *testing.T) {
			a, b := newStress(t, tc.mode), newStress(t, tc.mode)
			for _, s := range []*stress{a, b} {
				for k := range s.chains {
					s.chains[k].Settings.Freeze = tc.freeze
				}
			}
			dts := []float32{1.0 / 60, 1.0 / 144, 1.0 / 30, 1.0 / 90}
			for f := 1; f < 200; f++ {
				for _, s := range []*stress{a, b} {
					r := s.rig
					ft := float64(f) / 60
					r.obj.Dt = dts[f%len(dts)]
					r.obj.ObjectPos = mgl32.Vec3{3.1 + float32(0.3*math.Sin(3*ft)), 0.7, 2.3 + float32(0.2*math.Cos(2*ft))}
					r.obj.ObjectRot = mgl32.QuatRotate(float32(0.5*math.Sin(ft)), mgl32.Vec3{0, 1, 0})
					r.animate()
					PlaceColliders(s.shapes, s.descs, s.bones, r.pose)
				}
				for k := range a.chains {
					ca, cb := &a.chains[k], &b.chains[k]
					pa, pb := ca.Particles(a.pool), cb.Particles(b.pool)
					na := Prepare(pa, ca, a.rig.pose, &a.rig.obj)
					nb := Prepare(pb, cb, b.rig.pose, &b.rig.obj)
					if na != nb {
						t.Fatalf("frame %d chain %d: %d and %d sub-steps", f, k, na, nb)
					}
					for s := 0; s < na; s++ {
						Step(pa, ca, a.rig.pose, s, a.shapes)
						Integrate(pb, cb, s)
						Constrain(pb, cb, b.rig.pose, b.shapes)
					}
					for i := range pa.Pos {
						if pa.Pos[i] != pb.Pos[i] || pa.Prev[i] != pb.Prev[i] || pa.Collided[i] != pb.Collided[i] {
							t.Fatalf("frame %d chain %d particle %d: Step %v %v %v, Integrate+Constrain %v %v %v",
								f, k, i, pa.Pos[i], pa.Prev[i], pa.Collided[i], pb.Pos[i], pb.Prev[i], pb.Collided[i])
						}
					}
				}
			}
		})
	}
}

// Colliders are culled per step (against the chain's reach) and per
// particle (against its path from the root and its parent): a swinging
// chain among more colliders than get a bound, near and far, must still
// end every step outside all of them.
func TestCollidersNeverPenetratedWhenCulled(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	// Apart from each other (by more than a particle) and from the root:
	// where colliders overlap, pushing out of one can push into another.
	var descs []collide.Desc
	var centres []mgl32.Vec3
	var radii []float32
	for len(descs) < 12 {
		c := mgl32.Vec3{(rng.Float32()*2 - 1) * 0.7, -rng.Float32() * 1.3, (rng.Float32()*2 - 1) * 0.7}
		var d collide.Desc
		bound := float32(0)
		if len(descs)%2 == 0 {
			rad := 0.05 + rng.Float32()*0.1
			d, bound = collide.NewSphere(c, rad), rad
		} else {
			half := mgl32.Vec3{rng.Float32()*0.2 - 0.1, rng.Float32()*0.1 - 0.05, rng.Float32()*0.2 - 0.1}
			ra := 0.04 + rng.Float32()*0.06
			rb := ra // penetration measures untapered capsules
			d, bound = collide.NewCapsule(c.Sub(half), c.Add(half), ra, rb), half.Len()+max(ra, rb)
		}
		ok := c.Len() > bound+0.1
		for k := range centres {
			ok = ok && c.Sub(centres[k]).Len() > bound+radii[k]+0.1
		}
		if ok {
			descs, centres, radii = append(descs, d), append(centres, c), append(radii, bound)
		}
	}
	use := make([]int32, len(descs))
	for k := range use {
		use[k] = int32(k)
	}
	r := line(8, 0.12)
	s := still()
	s.Damping, s.Stiffness, s.Radius = 0.03, 0.02, 0.02
	s.Force = db60(mgl32.Vec3{0, -0.004, 0})
	s.UpdateRate = 0 // a step every frame: a skipped one does not collide
	pool, c := r.build(t, Desc{EndLength: 0.5, Colliders: use, Settings: s})
	p := c.Particles(pool)
	shapes := make([]collide.Shape, len(descs))
	bones := make([]int32, len(descs)) // all on the root bone
	hits, nculled := 0, 0
	for f := 0; f < 600; f++ {
		ft := float64(f) / 60
		r.obj.ObjectPos = mgl32.Vec3{float32(0.5 * math.Sin(2.3*ft)), 0, float32(0.5 * math.Cos(1.7*ft))}
		r.animRot[0] = rotX(40 * math.Sin(1.1*ft))
		r.animate()
		PlaceColliders(shapes, descs, bones, r.pose)
		Update(p, c, r.pose, shapes, &r.obj)
		// The colliders the step culled: the same set, from the root it
		// started from (the animated root) and the chain's reach.
		var cl culled
		cl.set(c.Colliders, shapes, p.Pos[0], c.reach*(1+cullMargin))
		nculled += maxCull - cl.n
		for i := 1; i < p.Len(); i++ {
			for k := range shapes {
				if d := penetration(p.Pos[i], c.Params(i).Radius, &shapes[k]); d > 1e-5 {
					t.Fatalf("frame %d: particle %d is %v inside collider %d", f, i, d, k)
				}
			}
			if p.Collided[i] {
				hits++
			}
		}
	}
	if hits == 0 || nculled == 0 {
		t.Errorf("%d collisions, %d colliders culled: the test proves nothing", hits, nculled)
	}
}

// A collider that pushes a particle away from the root (the collider wins
// over keep-length) takes its descendants beyond the path lengths that
// per-particle culling trusts: they must still be tested.
func TestColliderAfterAPushIsNotCulled(t *testing.T) {
	r := line(3, 0.1)
	r.animRot[0] = rotZ(90) // along +X: particles at x = 0.1, 0.2, 0.3
	s := still()
	s.Elasticity, s.Radius = 1, 0.02 // each particle at its animated offset from its parent
	pool, c := r.build(t, Desc{Colliders: []int32{0, 1}, Settings: s})
	p := c.Particles(pool)
	shapes := []collide.Shape{
		// Around the root, pushing particle 1 out to x = 0.37.
		{Kind: collide.Sphere, A: mgl32.Vec3{0.05, 0, 0}, RA: 0.3, RB: 0.3},
		// Beyond the chain's rest reach, where particle 3 lands (x = 0.57).
		{Kind: collide.Sphere, A: mgl32.Vec3{0.6, 0, 0}, RA: 0.1, RB: 0.1},
	}
	r.animate()
	Update(p, c, r.pose, shapes, &r.obj)
	assertVec(t, "particle 1", p.Pos[1], mgl32.Vec3{0.37, 0, 0}, 1e-5)
	if d := penetration(p.Pos[3], c.Params(3).Radius, &shapes[1]); d > 1e-5 {
		t.Errorf("particle 3 at %v is %v inside the far collider", p.Pos[3], d)
	}
	if !p.Collided[3] {
		t.Error("particle 3 did not touch the far collider; the test proves nothing")
	}
}

// The step reads its parameters from what Prepare gathered; a Refresh
// after Prepare must reach the same frame's steps.
func TestRefreshReachesTheNextStep(t *testing.T) {
	s := still()
	s.Damping = 0
	r, p, c := onePendulum(t, s)
	p.Pos[1], p.Prev[1] = mgl32.Vec3{0, -1, 0}, mgl32.Vec3{0.1, -1, 0}
	c.Settings.Damping = 1 // keeps no velocity
	Refresh(p, c)
	Step(p, c, r.pose, 1, nil)
	assertVec(t, "Pos", p.Pos[1], mgl32.Vec3{0, -1, 0}, 1e-6)
}

// The kernels take the chain's own particles; any other range is left
// alone rather than read out of bounds.
func TestKernelsIgnoreAnotherRange(t *testing.T) {
	r := line(3, 0.2)
	pool, c := r.build(t, Desc{Settings: busy()})
	p := c.Particles(pool)
	r.prepare(p, c)
	short := pool.Slice(0, 2)
	before := append([]mgl32.Vec3(nil), pool.Pos...)
	Integrate(short, c, 0)
	Constrain(short, c, r.pose, nil)
	Step(short, c, r.pose, 0, nil)
	if n := Prepare(short, c, r.pose, &r.obj); n != -1 {
		t.Errorf("Prepare on another range = %d, want -1", n)
	}
	for i := range before {
		if pool.Pos[i] != before[i] {
			t.Errorf("particle %d moved from %v to %v", i, before[i], pool.Pos[i])
		}
	}
}

// A frame without a step carries the particles with the character and
// keeps the lengths and the stiffness limit, nothing else.
func TestSkipUpdateCarriesAndLimits(t *testing.T) {
	for _, tc := range []struct {
		name      string
		stiffness float32
	}{{"carried", 0}, {"stiffness 1", 1}} {
		t.Run(tc.name, func(t *testing.T) {
			s := still()
			s.Damping, s.Stiffness, s.Force = 0.05, tc.stiffness, GravityFromDynamicBone(mgl32.Vec3{0.01, 0, 0.005}, 30)
			s.UpdateRate = 30
			r := line(4, 0.25)
			pool, c := r.build(t, Desc{Settings: s})
			p := c.Particles(pool)
			r.run(t, p, c, nil, 40, nil, nil) // 60 fps frames: every other one steps
			move := mgl32.Vec3{0.05, 0.02, -0.03}
			r.obj.ObjectPos = r.obj.ObjectPos.Add(move)
			before := append([]mgl32.Vec3(nil), p.Pos...)
			prev := append([]mgl32.Vec3(nil), p.Prev...)
			for n := r.prepare(p, c); n != 0; n = r.prepare(p, c) {
				for k := 0; k < n; k++ {
					Step(p, c, r.pose, k, nil)
				}
				r.obj.ObjectPos = r.obj.ObjectPos.Add(move)
				before = append(before[:0], p.Pos...)
				prev = append(prev[:0], p.Prev...)
			}
			if tc.stiffness == 1 {
				// Far off the animated shape: the limit brings it back.
				for i := 1; i < p.Len(); i++ {
					p.Pos[i] = p.Pos[i].Add(mgl32.Vec3{0.1, 0, 0.05}.Mul(float32(i)))
				}
			}
			SkipUpdate(p, c, r.pose)
			anim := AnimatedPositions(nil, p, r.pose)
			for i := 1; i < p.Len(); i++ {
				o := anim[i].Sub(anim[i-1]) // the animated offset from the parent
				want := before[i].Add(move)
				if tc.stiffness == 1 {
					want = p.Pos[i-1].Add(o) // the animated shape
				}
				assertVec(t, "particle", p.Pos[i], want, 1e-5)
				assertVec(t, "previous", p.Prev[i], prev[i].Add(move), 1e-5)
				if l := p.Pos[i].Sub(p.Pos[i-1]).Len(); math.Abs(float64(l-o.Len())) > 1e-5 {
					t.Errorf("particle %d: length %v, want %v", i, l, o.Len())
				}
			}
		})
	}
}
