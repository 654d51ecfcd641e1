package anim

import (
	"math"
	"math/rand"
	"strconv"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// classic is the layout of the hand-worked cases: centre, forward, back,
// left, right.
var classic = []mgl32.Vec2{{0, 0}, {0, 1}, {0, -1}, {-1, 0}, {1, 0}}

func near(a, b, tol float32) bool { return math.Abs(float64(a-b)) <= float64(tol) }

func assertWeights(t *testing.T, name string, got, want []float32, tol float32) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d weights, want %d", name, len(got), len(want))
	}
	for i := range want {
		if !near(got[i], want[i], tol) {
			t.Fatalf("%s: weights %v, want %v (index %d)", name, got, want, i)
		}
	}
}

// checkWeights asserts finite, non-negative weights summing to one.
func checkWeights(t *testing.T, name string, w []float32) {
	t.Helper()
	var sum float64
	for i, v := range w {
		if !(v >= 0) || math.IsInf(float64(v), 0) {
			t.Fatalf("%s: weight %d = %v in %v", name, i, v, w)
		}
		sum += float64(v)
	}
	if math.Abs(sum-1) > 1e-5 {
		t.Fatalf("%s: weights %v sum to %v", name, w, sum)
	}
}

func quatNear(a, b mgl32.Quat, tol float32) bool {
	d := a.W*b.W + a.V.Dot(b.V)
	if d < 0 {
		b = b.Scale(-1)
	}
	return near(a.W, b.W, tol) && near(a.V[0], b.V[0], tol) && near(a.V[1], b.V[1], tol) && near(a.V[2], b.V[2], tol)
}

func vecNear(a, b mgl32.Vec3, tol float32) bool {
	return near(a[0], b[0], tol) && near(a[1], b[1], tol) && near(a[2], b[2], tol)
}

func randQuat(rng *rand.Rand) mgl32.Quat {
	axis := mgl32.Vec3{rng.Float32()*2 - 1, rng.Float32()*2 - 1, rng.Float32()*2 - 1}
	if axis.Len() < 1e-3 {
		axis = mgl32.Vec3{0, 1, 0}
	}
	return mgl32.QuatRotate(rng.Float32()*2*math.Pi, axis.Normalize())
}

func randVec(rng *rand.Rand, s float32) mgl32.Vec3 {
	return mgl32.Vec3{(rng.Float32()*2 - 1) * s, (rng.Float32()*2 - 1) * s, (rng.Float32()*2 - 1) * s}
}

// randClipDesc builds a clip over bones bones where every bone has a
// rotation track and every other bone a translation and scale track; keys
// move smoothly so neighbouring keys are close, as in real clips.
func randClipDesc(rng *rand.Rand, bones, keys int, rate float32, loop bool) ClipDesc {
	d := ClipDesc{Name: "rand", SampleRate: rate, KeyCount: keys, Loop: loop, BoneCount: bones}
	for b := range bones {
		tr := TrackDesc{Bone: b, Rotations: make([]mgl32.Quat, keys)}
		base, axis := randQuat(rng), randVec(rng, 1).Add(mgl32.Vec3{0, 2, 0}).Normalize()
		for k := range keys {
			ang := float32(0.6 * math.Sin(2*math.Pi*float64(k)/float64(max(keys-1, 1))))
			tr.Rotations[k] = base.Mul(mgl32.QuatRotate(ang, axis))
		}
		if b%2 == 0 {
			tr.Translations = make([]mgl32.Vec3, keys)
			tr.Scales = make([]mgl32.Vec3, keys)
			p0 := randVec(rng, 0.3)
			for k := range keys {
				s := float32(math.Sin(2 * math.Pi * float64(k) / float64(max(keys-1, 1))))
				tr.Translations[k] = p0.Add(mgl32.Vec3{0, 0.05 * s, 0})
				tr.Scales[k] = mgl32.Vec3{1 + 0.1*s, 1, 1}
			}
		}
		d.Tracks = append(d.Tracks, tr)
	}
	return d
}

// restPose is a rest pose with distinct values so that "kept the rest pose"
// is observable.
func restPose(n int) Pose {
	p := MakePose(n)
	for i := range n {
		p.Pos[i] = mgl32.Vec3{0, 0.1 * float32(i+1), 0}
		p.Rot[i] = mgl32.QuatRotate(0.1*float32(i), mgl32.Vec3{1, 0, 0})
		p.Scale[i] = mgl32.Vec3{1, 1, 1}
	}
	return p
}

func mustClip(t testing.TB, d ClipDesc) *Clip {
	t.Helper()
	c, err := NewClip(d)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func ftoa(f float32) string { return strconv.FormatFloat(float64(f), 'g', -1, 32) }
