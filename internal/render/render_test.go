package render

import (
	"errors"
	"image"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/systems/collide"
)

// count returns how many pixels of img have each palette index.
func count(img *image.Paletted) map[uint8]int {
	n := map[uint8]int{}
	for y := img.Rect.Min.Y; y < img.Rect.Max.Y; y++ {
		for x := img.Rect.Min.X; x < img.Rect.Max.X; x++ {
			n[img.ColorIndexAt(x, y)]++
		}
	}
	return n
}

func mustNew(t testing.TB, size int) *Renderer {
	t.Helper()
	r, err := New(size)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestPixelOfKnownPoint(t *testing.T) {
	pr := Projection{Centre: mgl32.Vec3{1, 1, 0}, Scale: 100}
	size := image.Pt(200, 200)
	p := mgl32.Vec3{1.5, 1.25, -0.25} // exact in float32: no rounding at a pixel edge
	// Front: x = 100 + 100*(1.5-1) = 150, y = 100 - 100*(1.25-1) = 75.
	if got := pr.Pixel(Front, size, image.Pt(0, 0), p); got != image.Pt(150, 75) {
		t.Fatalf("front pixel %v, want (150,75)", got)
	}
	// Side: x = 100 + 100*(-0.25-0) = 75, in the second panel at x 200.
	if got := pr.Pixel(Side, size, image.Pt(200, 0), p); got != image.Pt(275, 75) {
		t.Fatalf("side pixel %v, want (275,75)", got)
	}
	// The centre lands on the middle pixel; a point just left of a pixel
	// boundary stays in the pixel before it (floor, not round).
	if got := pr.Pixel(Front, size, image.Pt(0, 0), pr.Centre); got != image.Pt(100, 100) {
		t.Fatalf("centre pixel %v, want (100,100)", got)
	}
	if got := pr.Pixel(Front, size, image.Pt(0, 0), mgl32.Vec3{0.999, 1, 0}); got != image.Pt(99, 100) {
		t.Fatalf("pixel %v, want (99,100)", got)
	}
	// Non-finite points land far off the panel, not on it.
	for _, bad := range []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1))} {
		got := pr.Pixel(Front, size, image.Pt(0, 0), mgl32.Vec3{bad, bad, bad})
		if got.In(image.Rect(0, 0, 200, 200)) {
			t.Fatalf("non-finite point on the panel at %v", got)
		}
	}
}

// The renderer draws a particle on the pixel the projection names, in both
// panels.
func TestDrawPutsParticleOnProjectedPixel(t *testing.T) {
	r := mustNew(t, 200)
	r.ParticleRadius = 0 // a single pixel
	pr := Projection{Centre: mgl32.Vec3{1, 1, 0}, Scale: 100}
	img := r.NewImage()
	p := mgl32.Vec3{1.5, 1.25, -0.25}
	if err := r.Draw(img, pr, &Frame{Particles: []mgl32.Vec3{p}}); err != nil {
		t.Fatal(err)
	}
	for k, want := range []image.Point{{150, 75}, {275, 75}} {
		if got := r.Origin(img.Rect.Min, k).Add(pr.Pixel(r.Views[k], r.Size, image.Pt(0, 0), p)); got != want {
			t.Fatalf("view %d: projected %v, want %v", k, got, want)
		}
		if c := img.ColorIndexAt(want.X, want.Y); c != ParticleColour {
			t.Fatalf("view %d: pixel %v has colour %d, want the particle's", k, want, c)
		}
	}
	if n := count(img)[ParticleColour]; n != 2 {
		t.Fatalf("%d particle pixels, want 2", n)
	}
}

// A known scene: a vertical bone 1 m long, a sphere of radius 0.25 m and
// three particles, at 100 pixels per metre in two 200-pixel panels. The
// pixel counts per colour follow from the geometry:
//   - seams: one column of 200 pixels per panel: exactly 400;
//   - bone: 101 rows (both ends included) × 2 pixels wide per view: 404,
//     within [396, 412] for rounding at the ends;
//   - sphere outline, radius R = 25 px: a digital circle has between
//     4√2·R ≈ 141 (8-connected) and 2πR ≈ 157 pixels: [2·135, 2·160];
//   - particle dots of radius 2 px: 12 or 13 pixels each, 3 per view:
//     [2·3·9, 2·3·16].
//
// Non-background in all, the sum of those: [1120, 1228] of 80,000 pixels.
func TestKnownSceneNonBackgroundCount(t *testing.T) {
	r := mustNew(t, 200)
	pr := Projection{Centre: mgl32.Vec3{0, 0.5, 0}, Scale: 100}
	f := &Frame{
		Bones:     []Segment{{A: mgl32.Vec3{0, 0, 0}, B: mgl32.Vec3{0, 1, 0}}},
		Colliders: []collide.Shape{{Kind: collide.Sphere, A: mgl32.Vec3{0.5, 0.5, 0.5}, RA: 0.25, RB: 0.25}},
		Particles: []mgl32.Vec3{{-0.5, 0.2, -0.5}, {-0.5, 0.5, -0.6}, {-0.5, 0.8, -0.7}},
	}
	img := r.NewImage()
	if err := r.Draw(img, pr, f); err != nil {
		t.Fatal(err)
	}
	n := count(img)
	within := func(what string, got, lo, hi int) {
		t.Helper()
		if got < lo || got > hi {
			t.Errorf("%s: %d pixels, want %d..%d", what, got, lo, hi)
		}
	}
	within("seams", n[Grid], 400, 400)
	within("bone", n[BoneColour], 396, 412)
	within("sphere", n[ColliderColour], 2*135, 2*160)
	within("particles", n[ParticleColour], 2*3*9, 2*3*16)
	within("non-background", 80000-n[Background], 400+396+2*135+2*3*9, 400+412+2*160+2*3*16)
	if len(n) != 5 {
		t.Errorf("colours used: %v, want background, grid, bone, collider, particle", n)
	}
}

// A capsule's outline has its two tangent lines; the inside stays empty.
func TestCapsuleOutline(t *testing.T) {
	r := mustNew(t, 200)
	pr := Projection{Centre: mgl32.Vec3{}, Scale: 100}
	f := &Frame{Colliders: []collide.Shape{{Kind: collide.Capsule, A: mgl32.Vec3{-0.5, 0, 0}, B: mgl32.Vec3{0.5, 0, 0}, RA: 0.125, RB: 0.125}}}
	img := r.NewImage()
	if err := r.Draw(img, pr, f); err != nil {
		t.Fatal(err)
	}
	// Front view: tangents at y = 100 ± 12.5 (rows 87 and 112) from x = 50
	// to 150.
	for _, x := range []int{60, 100, 140} {
		for _, y := range []int{87, 112} {
			if img.ColorIndexAt(x, y) != ColliderColour {
				t.Fatalf("no tangent at (%d,%d)", x, y)
			}
		}
		if img.ColorIndexAt(x, 100) != Background {
			t.Fatalf("inside of the capsule drawn at (%d,100)", x)
		}
	}
	// Side view (Z-Y): the capsule lies along the line of sight, so both
	// end circles coincide: a circle of radius 12.5 about the centre.
	if img.ColorIndexAt(300, 87) != ColliderColour || img.ColorIndexAt(300, 100) != Background {
		t.Fatal("side view of the capsule is not a circle about the centre")
	}
}

// A plane shows as its trace: the ground plane is a horizontal line in both
// views; a plane facing the front view covers it and is left out there.
func TestPlaneTrace(t *testing.T) {
	r := mustNew(t, 100)
	pr := Projection{Centre: mgl32.Vec3{0, 0.25, 0}, Scale: 100} // y = 0 on row 50+25
	img := r.NewImage()
	ground := collide.Shape{Kind: collide.Plane, N: mgl32.Vec3{0, 1, 0}}
	if err := r.Draw(img, pr, &Frame{Colliders: []collide.Shape{ground}}); err != nil {
		t.Fatal(err)
	}
	if n := count(img)[ColliderColour]; n != 200 {
		t.Fatalf("ground plane: %d pixels, want the full row of both panels (200)", n)
	}
	if img.ColorIndexAt(30, 75) != ColliderColour || img.ColorIndexAt(130, 75) != ColliderColour {
		t.Fatal("ground plane not at y = 0")
	}
	wall := collide.Shape{Kind: collide.Plane, N: mgl32.Vec3{0, 0, 1}}
	if err := r.Draw(img, pr, &Frame{Colliders: []collide.Shape{wall}}); err != nil {
		t.Fatal(err)
	}
	n := 0
	for y := 0; y < 100; y++ {
		for x := 0; x < 100; x++ {
			if img.ColorIndexAt(x, y) == ColliderColour {
				n++
			}
		}
	}
	if n != 0 || count(img)[ColliderColour] != 100 || img.ColorIndexAt(150, 10) != ColliderColour {
		t.Fatalf("wall: %d pixels in the front view (want 0), %d in all (want a 100-pixel column in the side view)", n, count(img)[ColliderColour])
	}
}

// Degenerate input draws nothing wrong: non-finite and far points, zero
// and huge radii, a zero-length capsule; pixels outside the target
// sub-image are never written.
func TestDrawDegenerate(t *testing.T) {
	r := mustNew(t, 64)
	big := image.NewPaletted(image.Rect(0, 0, 200, 100), Palette)
	for i := range big.Pix {
		big.Pix[i] = TargetColour
	}
	sub := big.SubImage(image.Rect(10, 10, 10+128, 10+64)).(*image.Paletted)
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	f := &Frame{
		Bones: []Segment{
			{A: mgl32.Vec3{nan, 0, 0}, B: mgl32.Vec3{0, 1, 0}},
			{A: mgl32.Vec3{-inf, 0, 0}, B: mgl32.Vec3{inf, 0, 0}},
			{A: mgl32.Vec3{-1e30, 0.1, 0}, B: mgl32.Vec3{1e30, 0.1, 0}},
			{A: mgl32.Vec3{0.2, 0.2, 0.2}, B: mgl32.Vec3{0.2, 0.2, 0.2}},
		},
		Particles: []mgl32.Vec3{{nan, nan, nan}, {inf, 0, 0}, {1e30, 1e30, 1e30}},
		Colliders: []collide.Shape{
			{Kind: collide.Sphere, A: mgl32.Vec3{}, RA: 1e30},
			{Kind: collide.Sphere, A: mgl32.Vec3{}, RA: nan},
			{Kind: collide.Sphere, A: mgl32.Vec3{}, RA: 0},
			{Kind: collide.Capsule, A: mgl32.Vec3{}, B: mgl32.Vec3{}, RA: 0.1, RB: 0.2},
			{Kind: collide.Capsule, A: mgl32.Vec3{}, B: mgl32.Vec3{0.1, 0, 0}, RA: 0.3, RB: 0.01},
			{Kind: collide.Plane, A: mgl32.Vec3{nan, 0, 0}, N: mgl32.Vec3{0, 1, 0}},
			{Kind: collide.Plane, A: mgl32.Vec3{}, N: mgl32.Vec3{}},
		},
		Targets: []mgl32.Vec3{{inf, nan, 0}},
		Ground:  true, GroundY: nan,
	}
	for _, scale := range []float32{1e-30, 1, 100, 1e30} {
		if err := r.Draw(sub, Projection{Scale: scale}, f); err != nil {
			t.Fatal(err)
		}
	}
	for y := 0; y < 100; y++ {
		for x := 0; x < 200; x++ {
			if !image.Pt(x, y).In(sub.Rect) && big.ColorIndexAt(x, y) != TargetColour {
				t.Fatalf("pixel (%d,%d) outside the sub-image was written", x, y)
			}
		}
	}
}

func TestDrawRejectsBadSettings(t *testing.T) {
	r := mustNew(t, 16)
	img := r.NewImage()
	for _, s := range []float32{0, -1, float32(math.NaN()), float32(math.Inf(1))} {
		err := r.Draw(img, Projection{Scale: s}, &Frame{})
		var fe *check.FieldError
		if !errors.As(err, &fe) || fe.Field != "Scale" {
			t.Fatalf("scale %v: err %v, want a FieldError on Scale", s, err)
		}
	}
	r.Views = []View{{Right: 1, Up: 1}}
	if err := r.Draw(img, Projection{Scale: 1}, &Frame{}); !errors.Is(err, check.ErrInvalid) {
		t.Fatalf("a view with one axis twice: err %v", err)
	}
	for _, size := range []int{0, -1, MaxPanel + 1} {
		if _, err := New(size); !errors.Is(err, check.ErrInvalid) {
			t.Fatalf("New(%d): err %v", size, err)
		}
	}
}

func TestDrawDoesNotAllocate(t *testing.T) {
	r := mustNew(t, 128)
	img := r.NewImage()
	pr := Projection{Centre: mgl32.Vec3{0, 1, 0}, Scale: 80}
	f := &Frame{
		Bones:     []Segment{{A: mgl32.Vec3{0, 0, 0}, B: mgl32.Vec3{0, 1, 0}}},
		Chains:    []Segment{{A: mgl32.Vec3{0, 1, 0}, B: mgl32.Vec3{0.2, 0.8, -0.1}}},
		Particles: []mgl32.Vec3{{0.2, 0.8, -0.1}},
		Colliders: []collide.Shape{
			{Kind: collide.Sphere, A: mgl32.Vec3{0, 1.5, 0}, RA: 0.1},
			{Kind: collide.Capsule, A: mgl32.Vec3{0, 1, 0}, B: mgl32.Vec3{0.3, 1, 0}, RA: 0.05, RB: 0.04},
			{Kind: collide.Plane, N: mgl32.Vec3{0, 1, 0}},
		},
		Targets: []mgl32.Vec3{{0.5, 1.6, 1}},
		Gaze:    []Segment{{A: mgl32.Vec3{0, 1.6, 0}, B: mgl32.Vec3{0.5, 1.6, 1}}},
		Ground:  true,
	}
	if n := testing.AllocsPerRun(20, func() { _ = r.Draw(img, pr, f) }); n != 0 {
		t.Fatalf("Draw allocates %v times", n)
	}
}

func TestAddSkeleton(t *testing.T) {
	var f Frame
	pos := []mgl32.Vec3{{0, 0, 0}, {0, 1, 0}, {0, 2, 0}, {1, 2, 0}}
	f.AddSkeleton(pos, []int32{-1, 0, 1, 7}, func(b int) bool { return b == 2 })
	if len(f.Bones) != 1 || f.Bones[0] != (Segment{A: pos[0], B: pos[1]}) {
		t.Fatalf("bones %v", f.Bones)
	}
	if len(f.Chains) != 1 || f.Chains[0] != (Segment{A: pos[1], B: pos[2]}) {
		t.Fatalf("chains %v (a parent index out of range must be skipped)", f.Chains)
	}
	f.Reset()
	if len(f.Bones)+len(f.Chains) != 0 || cap(f.Bones) == 0 {
		t.Fatal("Reset did not empty the frame or dropped its storage")
	}
}

// BenchmarkDraw draws a frame the size of one stress-rig character (85
// bones, 73 particles, a sphere and two capsules, a target) into two
// 320-pixel views.
func BenchmarkDraw(b *testing.B) {
	r := mustNew(b, 320)
	img := r.NewImage()
	pr := Projection{Centre: mgl32.Vec3{0, 1, 0}, Scale: 130}
	var f Frame
	for i := 0; i < 85; i++ {
		a := float32(i) * 0.07
		f.Bones = append(f.Bones, Segment{A: mgl32.Vec3{0.3 * mathSin(a), 0.02 * float32(i), 0}, B: mgl32.Vec3{0.3 * mathSin(a+0.07), 0.02 * float32(i+1), 0.05}})
	}
	for i := 0; i < 73; i++ {
		f.Particles = append(f.Particles, mgl32.Vec3{0.1 * float32(i%8), 1.2 + 0.04*float32(i/8), -0.1})
	}
	f.Colliders = []collide.Shape{
		{Kind: collide.Sphere, A: mgl32.Vec3{0, 1.63, 0}, RA: 0.08},
		{Kind: collide.Capsule, A: mgl32.Vec3{0.17, 1.45, 0}, B: mgl32.Vec3{0.43, 1.2, 0}, RA: 0.05, RB: 0.04},
		{Kind: collide.Capsule, A: mgl32.Vec3{-0.17, 1.45, 0}, B: mgl32.Vec3{-0.43, 1.2, 0}, RA: 0.05, RB: 0.04},
	}
	f.Targets = []mgl32.Vec3{{0.5, 1.6, 1}}
	f.Ground = true
	b.ReportAllocs()
	for b.Loop() {
		_ = r.Draw(img, pr, &f)
	}
}

func mathSin(x float32) float32 { return float32(math.Sin(float64(x))) }
