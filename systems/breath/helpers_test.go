package breath

import (
	"math"
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/mathx"
)

// Bones of the test rig: a hips root, the four segments and, under the
// chest, a shoulder and an upper arm on each side.
const (
	rigHips = iota
	rigSpine
	rigChest
	rigNeck
	rigHead
	rigLShoulder
	rigLUpperArm
	rigRShoulder
	rigRUpperArm
	rigBones
)

var rigParents = []int32{-1, rigHips, rigSpine, rigChest, rigNeck, rigChest, rigLShoulder, rigChest, rigRShoulder}

// testPose is a pose in the project's struct-of-arrays layout.
type testPose struct {
	LocalPos, LocalScale, WorldPos, WorldScale []mgl32.Vec3
	LocalRot, WorldRot                         []mgl32.Quat
}

func newPose(n int) *testPose {
	return &testPose{
		LocalPos: make([]mgl32.Vec3, n), LocalScale: make([]mgl32.Vec3, n),
		WorldPos: make([]mgl32.Vec3, n), WorldScale: make([]mgl32.Vec3, n),
		LocalRot: make([]mgl32.Quat, n), WorldRot: make([]mgl32.Quat, n),
	}
}

func (p *testPose) copyLocals(from *testPose) {
	copy(p.LocalPos, from.LocalPos)
	copy(p.LocalRot, from.LocalRot)
	copy(p.LocalScale, from.LocalScale)
}

// fk applies the project convention: worldPos = pPos + pRot*(pScale ⊙
// localPos), worldRot = pRot*localRot, worldScale = pScale ⊙ localScale.
func (p *testPose) fk(parents []int32) {
	for i, par := range parents {
		if par < 0 {
			p.WorldPos[i], p.WorldRot[i], p.WorldScale[i] = p.LocalPos[i], p.LocalRot[i], p.LocalScale[i]
			continue
		}
		ps := p.WorldScale[par]
		lp := p.LocalPos[i]
		p.WorldPos[i] = p.WorldPos[par].Add(mathx.Rotate(p.WorldRot[par], mgl32.Vec3{ps[0] * lp[0], ps[1] * lp[1], ps[2] * lp[2]}))
		p.WorldRot[i] = mathx.Mul(p.WorldRot[par], p.LocalRot[i])
		ls := p.LocalScale[i]
		p.WorldScale[i] = mgl32.Vec3{ps[0] * ls[0], ps[1] * ls[1], ps[2] * ls[2]}
	}
}

// randomRot returns a unit rotation of up to maxDeg degrees about a random
// axis.
func randomRot(r *rand.Rand, maxDeg float64) mgl32.Quat {
	axis := mathx.NormalizeOr(mgl32.Vec3{float32(r.NormFloat64()), float32(r.NormFloat64()), float32(r.NormFloat64())}, mgl32.Vec3{0, 1, 0})
	return mgl32.QuatRotate(float32((r.Float64()*2-1)*maxDeg*math.Pi/180), axis)
}

// testRig returns the rig's rest pose (locals set, FK done) with rest
// rotations of up to 40 degrees and a non-uniform hips scale.
func testRig(seed int64) *testPose {
	r := rand.New(rand.NewSource(seed))
	p := newPose(rigBones)
	offsets := []mgl32.Vec3{{0, 1, 0}, {0, 0.1, 0}, {0, 0.15, 0}, {0, 0.2, 0}, {0, 0.1, 0}, {0.05, 0.15, 0}, {0.12, 0, 0}, {-0.05, 0.15, 0}, {-0.12, 0, 0}}
	for i := range p.LocalPos {
		p.LocalPos[i] = offsets[i]
		p.LocalRot[i] = randomRot(r, 40)
		p.LocalScale[i] = mgl32.Vec3{1, 1, 1}
	}
	p.LocalScale[rigHips] = mgl32.Vec3{1.2, 0.9, 1.1}
	p.fk(rigParents)
	return p
}

func rigSettings() Settings {
	return DefaultSettings(rigSpine, rigChest, rigNeck, rigHead, rigLShoulder, rigRShoulder)
}

// quatDiff returns the largest component difference of a and b, taking q
// and -q as the same rotation.
func quatDiff(a, b mgl32.Quat) float32 {
	var d1, d2 float32
	d1 = max(abs(a.W-b.W), abs(a.V[0]-b.V[0]), abs(a.V[1]-b.V[1]), abs(a.V[2]-b.V[2]))
	d2 = max(abs(a.W+b.W), abs(a.V[0]+b.V[0]), abs(a.V[1]+b.V[1]), abs(a.V[2]+b.V[2]))
	return min(d1, d2)
}

func near(t *testing.T, what string, got, want, tol float32) {
	t.Helper()
	if !(abs(got-want) <= tol) {
		t.Errorf("%s = %.9g, want %.9g (±%g)", what, got, want, tol)
	}
}
