package chain

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/mathx"
)

// testRig is a skeleton with an animated pose and a forward-kinematics pass,
// standing in for the project's pose storage.
type testRig struct {
	skel       Skeleton
	animPos    []mgl32.Vec3 // the animation's locals, restored every frame
	animRot    []mgl32.Quat
	localScale []mgl32.Vec3
	pose       Pose
	obj        Frame
}

func newRig(parents []int32, pos []mgl32.Vec3) *testRig {
	n := len(parents)
	r := &testRig{
		skel: Skeleton{Parent: parents, RestPos: pos, RestRot: make([]mgl32.Quat, n), RestScale: make([]mgl32.Vec3, n)},
	}
	r.animPos = append([]mgl32.Vec3(nil), pos...)
	r.animRot = make([]mgl32.Quat, n)
	r.localScale = make([]mgl32.Vec3, n)
	for i := range parents {
		r.skel.RestRot[i] = mgl32.QuatIdent()
		r.skel.RestScale[i] = mgl32.Vec3{1, 1, 1}
		r.animRot[i] = mgl32.QuatIdent()
		r.localScale[i] = mgl32.Vec3{1, 1, 1}
	}
	r.pose = Pose{
		LocalPos: make([]mgl32.Vec3, n), LocalRot: make([]mgl32.Quat, n),
		WorldPos: make([]mgl32.Vec3, n), WorldRot: make([]mgl32.Quat, n), WorldScale: make([]mgl32.Vec3, n),
	}
	r.obj = Frame{Dt: 1.0 / 60, ObjectRot: mgl32.QuatIdent(), ObjectScale: mgl32.Vec3{1, 1, 1}}
	r.animate()
	return r
}

// line returns a root at the origin and n bones below it along -Y, seg apart.
func line(n int, seg float32) *testRig {
	parents := make([]int32, n+1)
	pos := make([]mgl32.Vec3, n+1)
	parents[0] = -1
	for i := 1; i <= n; i++ {
		parents[i] = int32(i - 1)
		pos[i] = mgl32.Vec3{0, -seg, 0}
	}
	return newRig(parents, pos)
}

// animate restores the animated locals and runs forward kinematics under
// the character transform r.obj.
func (r *testRig) animate() {
	copy(r.pose.LocalPos, r.animPos)
	copy(r.pose.LocalRot, r.animRot)
	r.fk()
}

// fk computes the world pose from the current locals.
func (r *testRig) fk() {
	for i, p := range r.skel.Parent {
		ppos, prot, pscl := r.obj.ObjectPos, r.obj.ObjectRot, r.obj.ObjectScale
		if p >= 0 {
			ppos, prot, pscl = r.pose.WorldPos[p], r.pose.WorldRot[p], r.pose.WorldScale[p]
		}
		r.pose.WorldPos[i] = ppos.Add(mathx.Rotate(prot, mul3(pscl, r.pose.LocalPos[i])))
		r.pose.WorldRot[i] = mathx.Mul(prot, r.pose.LocalRot[i])
		r.pose.WorldScale[i] = mul3(pscl, r.localScale[i])
	}
}

func (r *testRig) build(t testing.TB, d Desc) (*Particles, *Chain) {
	t.Helper()
	pool := &Particles{}
	c := &Chain{}
	if err := Build(pool, c, &r.skel, &d); err != nil {
		t.Fatal(err)
	}
	return pool, c
}

// frame animates and prepares one frame; it returns the sub-step count.
// animated returns the particles' positions on the animated pose (Apply
// turns the pose's world rotations: the pose is animated afresh first).
func (r *testRig) animated(p Particles) []mgl32.Vec3 {
	r.animate()
	return AnimatedPositions(nil, p, r.pose)
}

func (r *testRig) prepare(p Particles, c *Chain) int {
	r.animate()
	return Prepare(p, c, r.pose, &r.obj)
}

func nearVec(a, b mgl32.Vec3, tol float32) bool {
	return a.Sub(b).Len() <= tol
}

func assertVec(t *testing.T, what string, got, want mgl32.Vec3, tol float32) {
	t.Helper()
	if !nearVec(got, want, tol) {
		t.Errorf("%s = %v, want %v (tol %g)", what, got, want, tol)
	}
}

func allFinite(vs []mgl32.Vec3) bool {
	for _, v := range vs {
		if !mathx.Vec3Finite(v) {
			return false
		}
	}
	return true
}

func quatsFinite(qs []mgl32.Quat) bool {
	for _, q := range qs {
		if !mathx.QuatFinite(q) {
			return false
		}
	}
	return true
}

func rotZ(deg float64) mgl32.Quat {
	return mgl32.QuatRotate(float32(deg*math.Pi/180), mgl32.Vec3{0, 0, 1})
}

func rotX(deg float64) mgl32.Quat {
	return mgl32.QuatRotate(float32(deg*math.Pi/180), mgl32.Vec3{1, 0, 0})
}

// still returns settings with no motion of their own: no damping,
// elasticity or stiffness, no forces, weight 1.
// db60 is a DynamicBone gravity or force, a displacement per 60 Hz step,
// as the acceleration in m/s² Settings take: the tests' forces were
// written in DynamicBone's units.
func db60(v mgl32.Vec3) mgl32.Vec3 { return GravityFromDynamicBone(v, 60) }

func still() Settings {
	s := DefaultSettings()
	s.Damping, s.Elasticity, s.Stiffness = 0, 0, 0
	return s
}
