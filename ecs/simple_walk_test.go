package sway_test

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	arche "github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/ecs"
)

// The walker: hips 1 m above the root, the head 0.6 m above the hips and
// a 3 cm simple-spring earring hanging straight down 7.5 cm to the head's
// left.
const (
	walkDt     = 1.0 / 60
	walkSpeed  = 1.2 // m/s, along +Z
	earringLen = 0.03
)

func walkerSkeleton(t testing.TB) *sway.Skeleton {
	t.Helper()
	skel, err := sway.NewSkeleton(sway.SkeletonDesc{Name: "walker", Bones: []sway.BoneDesc{
		sway.Bone("hips", "", mgl32.Vec3{0, 1, 0}),
		sway.Bone("head", "hips", mgl32.Vec3{0, 0.6, 0}),
		sway.Bone("earring", "head", mgl32.Vec3{0.075, -0.05, 0}),
	}})
	if err != nil {
		t.Fatal(err)
	}
	return skel
}

// newWalker returns a world with one walker at the origin, facing +Z,
// its earring a simple spring with the default settings (centre: its
// Center bone, "" for none).
func newWalker(t testing.TB, centre string) (*sway.World, arche.Entity, *sway.Skeleton) {
	t.Helper()
	skel := walkerSkeleton(t)
	w, err := sway.NewWorld(sway.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	e, err := w.AddCharacter(skel, sway.Identity())
	if err != nil {
		t.Fatal(err)
	}
	_, err = w.SimpleSprings().Add(e, []sway.SimpleSpringSpec{{Bones: []string{"earring"},
		SpringEnd: mgl32.Vec3{0, -earringLen, 0}, Settings: sway.DefaultSimpleSpringSettings(), Center: centre}})
	if err != nil {
		t.Fatal(err)
	}
	return w, e, skel
}

// hangAngle returns the angle in degrees between where the walker's
// earring points and where the animation (its rest pose under the head)
// points it.
func hangAngle(t testing.TB, w *sway.World, e arche.Entity, skel *sway.Skeleton) float64 {
	t.Helper()
	head, err := w.BoneWorld(e, skel.Index("head"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := w.BoneWorld(e, skel.Index("earring"))
	if err != nil {
		t.Fatal(err)
	}
	want, got := head.Rot.Rotate(mgl32.Vec3{0, -1, 0}), b.Rot.Rotate(mgl32.Vec3{0, -1, 0})
	c := float64(got.Dot(want)) / math.Sqrt(float64(got.Dot(got))*float64(want.Dot(want)))
	return 180 / math.Pi * math.Acos(max(-1, min(1, c)))
}

// walkProfile is a root speed (m/s) and turn rate (rad/s) over time.
type walkProfile func(t float64) (speed, turn float64)

// ramp goes from 0 at t0 to 1 at t0+d, linearly.
func ramp(t, t0, d float64) float64 { return max(0, min(1, (t-t0)/d)) }

// walkFigures runs the walker for the profile's duration and returns the
// largest hang angle (degrees) in each of the windows [from, to) seconds.
func walkFigures(t testing.TB, centre string, p walkProfile, end float64, windows ...[2]float64) []float64 {
	t.Helper()
	w, e, skel := newWalker(t, centre)
	defer w.Close()
	return walkWindows(t, w, e, p, end, windows, func() float64 { return hangAngle(t, w, e, skel) })
}

// walkWindows walks character e of w along profile p until end (s),
// measuring after every frame, and returns the largest measure (a hang
// angle, degrees) in each of the windows [from, to) seconds.
func walkWindows(t testing.TB, w *sway.World, e arche.Entity, p walkProfile, end float64, windows [][2]float64, measure func() float64) []float64 {
	t.Helper()
	root := sway.Identity()
	heading := 0.0
	out := make([]float64, len(windows))
	for f := 0; float64(f)*walkDt < end; f++ {
		now := float64(f+1) * walkDt
		speed, turn := p(now)
		heading += turn * walkDt
		root.Rot = mgl32.QuatRotate(float32(heading), mgl32.Vec3{0, 1, 0})
		root.Pos = root.Pos.Add(root.Rot.Rotate(mgl32.Vec3{0, 0, float32(speed * walkDt)}))
		if err := w.SetRoot(e, root); err != nil {
			t.Fatal(err)
		}
		if err := w.Step(walkDt); err != nil {
			t.Fatal(err)
		}
		a := measure()
		if math.IsNaN(a) {
			t.Fatalf("frame %d: the hang angle is NaN", f)
		}
		for k, win := range windows {
			if now >= win[0] && now < win[1] {
				out[k] = max(out[k], a)
			}
		}
	}
	return out
}

// startWalkStop stands for 0.5 s, speeds up to walkSpeed over rampTime,
// walks until 4.5 s, slows down to a stop over rampTime and stands until
// 6.5 s. Its windows: the start (0.5-2 s), the steady walk after settling
// (3.5-4.5 s) and the stop (4.5-6.5 s).
func startWalkStop(rampTime float64) (walkProfile, float64, [][2]float64) {
	p := func(t float64) (float64, float64) {
		return walkSpeed * (ramp(t, 0.5, rampTime) - ramp(t, 4.5, rampTime)), 0
	}
	return p, 6.5, [][2]float64{{0.5, 2}, {3.5, 4.5}, {4.5, 6.5}}
}

// turnInPlace stands for 0.5 s, then turns at rate rad/s (reached over
// 0.3 s) until 4.5 s; its window is the steady turn after settling
// (3.5-4.5 s).
func turnInPlace(rate float64) (walkProfile, float64, [][2]float64) {
	p := func(t float64) (float64, float64) { return 0, rate * ramp(t, 0.5, 0.3) }
	return p, 4.5, [][2]float64{{3.5, 4.5}}
}

// TestSimpleEarringOnAWalk: with the default settings a 3 cm earring
// hangs within 15° of rest at a steady 1.2 m/s and swings at least 20°
// when the walker starts or stops over 0.2 or 0.3 s.
func TestSimpleEarringOnAWalk(t *testing.T) {
	for _, rampTime := range []float64{0.2, 0.3} {
		p, end, win := startWalkStop(rampTime)
		got := walkFigures(t, "", p, end, win...)
		start, steady, stop := got[0], got[1], got[2]
		t.Logf("ramp %.1f s: start %.1f°, steady walk %.1f°, stop %.1f°", rampTime, start, steady, stop)
		if steady > 15 {
			t.Errorf("ramp %.1f s: the earring sticks out %.1f° at a steady walk (want <= 15°)", rampTime, steady)
		}
		if start < 20 || stop < 20 {
			t.Errorf("ramp %.1f s: the earring swings %.1f° at the start and %.1f° at the stop (want >= 20°)", rampTime, start, stop)
		}
	}
}

// TestSimpleEarringTurningInPlace: turning in place at 180°/s the earring
// hangs within 15° of rest.
func TestSimpleEarringTurningInPlace(t *testing.T) {
	p, end, win := turnInPlace(math.Pi)
	got := walkFigures(t, "", p, end, win...)
	t.Logf("turning at 180°/s: %.1f°", got[0])
	if got[0] > 15 {
		t.Errorf("turning in place the earring sticks out %.1f° (want <= 15°)", got[0])
	}
}

// nodHead makes the walker's head nod ±25° about X once a second (an
// animation under the hips).
func nodHead(t testing.TB, w *sway.World, e arche.Entity, skel *sway.Skeleton) {
	t.Helper()
	keys := make([]mgl32.Quat, 31)
	for k := range keys {
		a := 25 * math.Sin(2*math.Pi*float64(k)/30)
		keys[k] = mgl32.QuatRotate(mgl32.DegToRad(float32(a)), mgl32.Vec3{1, 0, 0})
	}
	clip, err := w.AddClip(sway.ClipDesc{Name: "nod", SampleRate: 30, KeyCount: 31, Loop: true,
		BoneCount: skel.NumBones(), Tracks: []sway.TrackDesc{{Bone: skel.Index("head"), Rotations: keys}}})
	if err != nil {
		t.Fatal(err)
	}
	space, err := w.AddBlendSpace(sway.BlendSpaceDesc{Kind: sway.Blend1D, Clips: []sway.ClipID{clip}, Thresholds: []float32{0}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Animation().Add(e, space, sway.DefaultAnimSettings()); err != nil {
		t.Fatal(err)
	}
}

// TestSimpleCentreIsTheSpringsFrame: with the hips as the earring's
// centre, the walker's starts, stops and turns are not felt at all (the
// centre's motion is the frame the spring lives in), while the head
// nodding under the hips swings the earring.
func TestSimpleCentreIsTheSpringsFrame(t *testing.T) {
	p, end, win := startWalkStop(0.2)
	walk := walkFigures(t, "hips", p, end, win...)
	p, end, win = turnInPlace(2 * math.Pi)
	turn := walkFigures(t, "hips", p, end, [2]float64{0, end})
	t.Logf("centre at the hips: start %.2g°, steady walk %.2g°, stop %.2g°, turning at 360°/s %.2g°", walk[0], walk[1], walk[2], turn[0])
	for _, a := range append(walk, turn...) {
		if a > 0.01 {
			t.Fatalf("with the hips as centre the earring swung %.3f° from the centre's motion", a)
		}
	}

	w, e, skel := newWalker(t, "hips")
	defer w.Close()
	nodHead(t, w, e, skel)
	swing := 0.0
	for f := 0; f < 120; f++ {
		if err := w.Step(walkDt); err != nil {
			t.Fatal(err)
		}
		swing = max(swing, hangAngle(t, w, e, skel))
	}
	t.Logf("centre at the hips, the head nodding ±25° at 1 Hz: the earring swings %.1f°", swing)
	if swing < 2 {
		t.Errorf("the head nodding under the centre swung the earring only %.2f°", swing)
	}
}

// TestSimpleSpringsStartAtAddTime: a walker whose springs were added, then
// moved by SetRoot before its first Step, swings exactly as one that had
// stood stepping at rest before the same motion: the springs start on the
// pose they were added on, and the first frame's motion is not lost.
func TestSimpleSpringsStartAtAddTime(t *testing.T) {
	stood, es, skel := newWalker(t, "")
	defer stood.Close()
	fresh, ef, _ := newWalker(t, "")
	defer fresh.Close()
	for range 30 {
		if err := stood.Step(walkDt); err != nil {
			t.Fatal(err)
		}
	}
	swing := 0.0
	for f := 1; f <= 60; f++ {
		// Off at once at walking speed, turning a little.
		root := sway.Identity()
		root.Pos = mgl32.Vec3{0, 0, float32(walkSpeed * walkDt * float64(f))}
		root.Rot = mgl32.QuatRotate(0.02*float32(f), mgl32.Vec3{0, 1, 0})
		for _, c := range []struct {
			w *sway.World
			e arche.Entity
		}{{stood, es}, {fresh, ef}} {
			if err := c.w.SetRoot(c.e, root); err != nil {
				t.Fatal(err)
			}
			if err := c.w.Step(walkDt); err != nil {
				t.Fatal(err)
			}
		}
		a, _ := stood.BoneWorld(es, skel.Index("earring"))
		b, _ := fresh.BoneWorld(ef, skel.Index("earring"))
		if d := a.Rot.Sub(b.Rot).Len(); d > 1e-5 {
			t.Fatalf("frame %d: the earring added just before the motion is %.3g off the one that stood (%.2f° and %.2f° from rest)",
				f, d, hangAngle(t, fresh, ef, skel), hangAngle(t, stood, es, skel))
		}
		swing = max(swing, hangAngle(t, fresh, ef, skel))
	}
	if swing < 20 {
		t.Errorf("the sudden start swung the earring only %.1f°: the test does not test the first frame's motion", swing)
	}
}
