package chain

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/mathx"
)

// placed builds a 4-bone line under a non-uniformly scaled, turned
// character, prepares it, and moves its particles to pos (the root stays).
func placed(t *testing.T, pos []mgl32.Vec3) (*testRig, Particles, *Chain) {
	t.Helper()
	r := line(4, 0.2)
	r.obj.ObjectRot = rotX(30)
	r.obj.ObjectScale = mgl32.Vec3{1, 2, 0.5}
	r.animRot[1] = rotZ(15)
	pool, c := r.build(t, Desc{Settings: still()})
	p := c.Particles(pool)
	r.prepare(p, c)
	copy(p.Pos[1:], pos)
	return r, p, c
}

// checkFK runs forward kinematics on the pose Apply wrote and wants every
// bone on its particle, unit local rotations, and the world pose Apply
// wrote (the chain covers its root's subtree).
func checkFK(t *testing.T, r *testRig, p Particles, c *Chain) {
	t.Helper()
	if !c.CoversSubtree() {
		t.Fatal("the chain does not cover its root's subtree")
	}
	if lowest := Apply(p, c, r.pose); lowest != 0 {
		t.Errorf("lowest written bone = %d, want 0", lowest)
	}
	wrote := clonePose(r.pose)
	r.fk()
	for i := 1; i < p.Len(); i++ {
		assertVec(t, "bone on particle", r.pose.WorldPos[p.Bone[i]], p.Pos[i], 1e-5)
	}
	for b := range r.pose.WorldPos {
		assertVec(t, "world position Apply wrote", wrote.WorldPos[b], r.pose.WorldPos[b], 1e-5)
		if !wrote.WorldRot[b].ApproxEqualThreshold(r.pose.WorldRot[b], 1e-5) {
			t.Errorf("bone %d: Apply wrote world rotation %v, forward kinematics gives %v", b, wrote.WorldRot[b], r.pose.WorldRot[b])
		}
	}
	for b, q := range r.pose.LocalRot {
		if n := q.Len(); n < 1-1e-6 || n > 1+1e-6 {
			t.Errorf("local rotation %d has length %v", b, n)
		}
	}
}

// Apply turns each one-child bone in float32 with the simulated length,
// under non-uniform scale.
func TestApplyStretchedAndScaled(t *testing.T) {
	r, p, c := placed(t, nil)
	// Bend and stretch: each particle off its animated place.
	for i := 1; i < p.Len(); i++ {
		p.Pos[i] = p.Pos[i].Add(mgl32.Vec3{0.05 * float32(i), -0.03, 0.02 * float32(i*i)})
	}
	checkFK(t, r, p, c)
}

// A child pulled to exactly the opposite of its animated direction takes
// the robust float64 path; nearly opposite stays in float32.
func TestApplyOppositeDirection(t *testing.T) {
	for _, tc := range []struct {
		name string
		tilt float32
	}{{"opposite", 0}, {"nearly opposite", 1e-3}, {"float32 near its limit", 0.05}} {
		t.Run(tc.name, func(t *testing.T) {
			r, p, c := placed(t, nil)
			// Fold the chain back at particle 2: particles 3 and 4 go back
			// along the bone from 2 to 3, past particle 2.
			d := p.Pos[3].Sub(p.Pos[2])
			side := mathx.AnyPerpendicular(mathx.NormalizeOr(d, mgl32.Vec3{1, 0, 0})).Mul(tc.tilt * d.Len())
			p.Pos[3] = p.Pos[2].Sub(d).Add(side)
			p.Pos[4] = p.Pos[3].Sub(d)
			checkFK(t, r, p, c)
		})
	}
}

// Without RestoreLocals or an animation writing the chain, Apply reads its
// own output every frame: the local rotations must not drift off unit
// length.
func TestApplyOwnOutputStaysUnit(t *testing.T) {
	r := line(6, 0.15)
	s := still()
	s.Damping, s.Force = 0.05, db60(mgl32.Vec3{0.01, 0, 0.004})
	pool, c := r.build(t, Desc{Settings: s})
	p := c.Particles(pool)
	for f := 0; f < 2000; f++ {
		r.fk() // the locals as Apply left them
		Update(p, c, r.pose, nil, &r.obj)
	}
	for b, q := range r.pose.LocalRot {
		if n := q.Len(); n < 1-1e-5 || n > 1+1e-5 {
			t.Errorf("local rotation %d drifted to length %v", b, n)
		}
	}
	if a := mathx.AngleBetween(r.pose.LocalRot[0], mgl32.QuatIdent()); a < 0.01 {
		t.Errorf("root bone turned %v rad; the test proves nothing", a)
	}
}
