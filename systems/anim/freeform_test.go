package anim

import (
	"fmt"
	"math"
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// The float64 references below are written from the formulas (package
// documentation), not from FreeformCartesianWeights and
// FreeformDirectionalWeights: angles come from acos of the normalised dot
// product signed by the cross product, as Unity computes them, and each
// sample's minimum runs over the neighbour lists Unity precomputes (or over
// all pairs with nb nil). They normalise as Unity does: h/sum, or equal
// weights at a zero sum.

type pt = [2]float64

func refLen(p pt) float64    { return math.Sqrt(p[0]*p[0] + p[1]*p[1]) }
func refIsZero(p pt) bool    { return p[0] == 0 && p[1] == 0 }
func refDot(a, b pt) float64 { return a[0]*b[0] + a[1]*b[1] }

// refAngle is the angle from a to b in [-pi, pi]: acos of the normalised
// dot product, negative where the cross product is (so +pi when opposite).
func refAngle(a, b pt) float64 {
	c := refDot(a, b) / (refLen(a) * refLen(b))
	ang := math.Acos(math.Max(-1, math.Min(1, c)))
	if a[0]*b[1]-a[1]*b[0] < 0 {
		ang = -ang
	}
	return ang
}

// refPolar returns the influences h (before normalising) of Unity's Freeform
// Directional for input x; crop, when not nil, receives for each sample the
// pair that set its minimum below the fade (-1 for none), as Unity's
// precomputation records it.
func refPolar(s []pt, x pt, nb [][]int, crop []int) []float64 {
	n := len(s)
	toX := make([]float64, n)
	for i := range s {
		if !refIsZero(s[i]) && !refIsZero(x) {
			toX[i] = refAngle(s[i], x)
		}
	}
	h := make([]float64, n)
	for i := range s {
		value := 1 - math.Abs(toX[i])/math.Pi
		if crop != nil {
			crop[i] = -1
		}
		for _, j := range refPairs(n, i, nb) {
			mi, mj := refLen(s[i]), refLen(s[j])
			k := 2 / (mi + mj)
			ij := pt{0, (mj - mi) * k}
			io := pt{toX[i], (refLen(x) - mi) * k}
			if !refIsZero(s[i]) && !refIsZero(s[j]) {
				ij[0] = refAngle(s[i], s[j])
			}
			switch {
			case refIsZero(s[i]):
				ij[0] = toX[j]
			case refIsZero(s[j]):
				ij[0] = toX[i]
			case ij[0] == 0 || refIsZero(x):
				io[0] = ij[0]
			}
			g := 1 - refDot(ij, io)/refDot(ij, ij)
			if g <= 0 {
				value = 0
				if crop != nil {
					crop[i] = -1
				}
				break
			}
			if g < value && crop != nil {
				crop[i] = j
			}
			value = math.Min(value, g)
		}
		h[i] = value
	}
	return h
}

// refCartesian is refPolar's Cartesian counterpart (Freeform Cartesian).
func refCartesian(s []pt, x pt, nb [][]int, crop []int) []float64 {
	n := len(s)
	h := make([]float64, n)
	for i := range s {
		value := 1.0
		if crop != nil {
			crop[i] = -1
		}
		for _, j := range refPairs(n, i, nb) {
			ij := pt{s[j][0] - s[i][0], s[j][1] - s[i][1]}
			io := pt{x[0] - s[i][0], x[1] - s[i][1]}
			g := 1 - refDot(ij, io)/refDot(ij, ij)
			if g <= 0 {
				value = 0
				if crop != nil {
					crop[i] = -1
				}
				break
			}
			if g < value && crop != nil {
				crop[i] = j
			}
			value = math.Min(value, g)
		}
		h[i] = value
	}
	return h
}

func refPairs(n, i int, nb [][]int) []int {
	if nb != nil {
		return nb[i]
	}
	var js []int
	for j := range n {
		if j != i {
			js = append(js, j)
		}
	}
	return js
}

type refForm func(s []pt, x pt, nb [][]int, crop []int) []float64

// refNeighbours builds Unity's neighbour lists: the form is evaluated with
// all pairs on a 101 x 101 grid over the samples' bounding box grown by half
// its size on each side, and j is a neighbour of i if it set i's minimum at
// some grid point where i kept an influence.
func refNeighbours(s []pt, form refForm) [][]int {
	n := len(s)
	lo, hi := pt{math.Inf(1), math.Inf(1)}, pt{math.Inf(-1), math.Inf(-1)}
	for _, p := range s {
		for a := range 2 {
			lo[a], hi[a] = math.Min(lo[a], p[a]), math.Max(hi[a], p[a])
		}
	}
	for a := range 2 {
		r := (hi[a] - lo[a]) / 2
		lo[a], hi[a] = lo[a]-r, hi[a]+r
	}
	is := make([][]bool, n)
	for i := range is {
		is[i] = make([]bool, n)
	}
	crop := make([]int, n)
	for gx := 0; gx <= 100; gx++ {
		for gy := 0; gy <= 100; gy++ {
			u, v := float64(gx)/100, float64(gy)/100
			form(s, pt{lo[0]*(1-u) + hi[0]*u, lo[1]*(1-v) + hi[1]*v}, nil, crop)
			for i, j := range crop {
				if j >= 0 {
					is[i][j] = true
				}
			}
		}
	}
	nb := make([][]int, n)
	for i := range n {
		for j := range n {
			if is[i][j] {
				nb[i] = append(nb[i], j)
			}
		}
	}
	return nb
}

// refNormalise is Unity's normalisation: h/sum, equal weights at zero.
func refNormalise(h []float64) (w []float64, sum float64) {
	for _, v := range h {
		sum += v
	}
	w = make([]float64, len(h))
	for i, v := range h {
		if sum > 0 {
			w[i] = v / sum
		} else {
			w[i] = 1 / float64(len(h))
		}
	}
	return w, sum
}

func toPts(s []mgl32.Vec2) []pt {
	p := make([]pt, len(s))
	for i, v := range s {
		p[i] = pt{float64(v[0]), float64(v[1])}
	}
	return p
}

// locomotionLayout is idle at the origin, walks at 1.5 and runs at 5 in
// the four directions: idle, F, B, L, R, runF, runB, runL, runR.
var locomotionLayout = []mgl32.Vec2{{0, 0}, {0, 1.5}, {0, -1.5}, {-1.5, 0}, {1.5, 0}, {0, 5}, {0, -5}, {-5, 0}, {5, 0}}

// locomotion8Layout is idle with walks at 1.5 and runs at 5 in eight
// directions.
func locomotion8Layout() []mgl32.Vec2 {
	s := []mgl32.Vec2{{}}
	for _, r := range []float64{1.5, 5} {
		for i := range 8 {
			a := float64(i) * math.Pi / 4
			s = append(s, mgl32.Vec2{float32(r * math.Cos(a)), float32(r * math.Sin(a))})
		}
	}
	return s
}

// Hand-worked Freeform Directional weights on the locomotion layout, with
// m = |p|, k = 2/(m_i+m_j), fade_i = 1 - |angle(p_i,x)|/pi and, per pair,
// g = 1 - (a_ij a_ix + r_ij r_ix)/(a_ij² + r_ij²). A pair of the idle
// centre C with a sample j: a = angle(p_j,x), a_ix = 0, r_Cj = 2,
// r_Cx = 2|x|/m_j, so g = 1 - 4|x|/(m_j (a² + 4)). A sample i with C:
// a = a_ix = angle(p_i,x), r = -2, r_ix = 2(|x| - m_i)/m_i.
//
// x = (-0.75, 0.75), |x| = 0.75√2, 45° from F and from L:
//
//	h_C = 1 - 2√2/(4 + π²/16) = 0.387369 (pairs with F and L; the others bind less)
//	h_F: fade 0.75; with L: a = π/2, a_ix = π/4, r = 0 -> 1 - 1/2 = 0.5;
//	     with C: 1 - (π²/16 + 2(2-√2))/(π²/16 + 4) = 0.612631; others larger
//	     -> h_F = 0.5, and h_L = 0.5 by symmetry
//	h_B: fade 0.25; with L: a = -π/2, a_ix = -3π/4 -> 1 - 3/2 < 0 -> 0 (R alike)
//	runs: with their walk, same direction: 1 - r_ix/r_ij =
//	     1 - (|x| - 5)/(1.5 - 5) < 0 -> 0
//	-> idle = h_C/(h_C + 1) = 0.279211, F = L = 0.5/(h_C + 1) = 0.360394
//
// x = (0, 3.25), halfway from walk F to run F, both with fade 1: F with
// runF: 1 - r_ix/r_ij = 1 - (3.25-1.5)/(5-1.5) = 0.5; runF with F:
// 1 - (3.25-5)/(1.5-5) = 0.5 (their other pairs bind less); C with F:
// 1 - 4·3.25/(1.5·4) < 0; L with F: a = a_ix = -π/2, r = 0 -> 0 (R, runL,
// runR alike); B and runB: fade 0 -> F = runF = 0.5.
//
// x = (0.5, 0), a third of the way from idle to walk R: C with R:
// 1 - 4·0.5/(1.5·4) = 2/3 (with the others larger: F, B at a = ±π/2 give
// 1 - (4/3)/(π²/4 + 4) = 0.794); R with C: a = 0, r = -2, r_ix = -4/3 ->
// 1 - (8/3)/4 = 1/3; F with R: a = a_ix = -π/2, r = 0 -> 0 (B alike); L:
// fade 0; each run with its walk: 1 - (0.5-5)/(1.5-5) < 0 -> idle 2/3,
// R 1/3.
//
// x = (-3, -3), |x| = 3√2, 45° from B and L (fades 0.75): B with runB:
// 1 - (3√2-1.5)/3.5 = 0.216388; B with L: a = -π/2, a_ix = -π/4 -> 0.5;
// runB with runL: 0.5, with B: 1 - (3√2-5)/(1.5-5) = 0.783612; C:
// 1 - 4·3√2/(1.5(π²/16+4)) < 0; F, R and their runs (fades 0.25): with L or
// B, a = ±π/2, a_ix = ±3π/4 -> < 0 -> B = L = 0.216388/1.432777 = 0.151027,
// runB = runL = 0.5/1.432777 = 0.348973.
//
// x = (10, 10), far outside between runF and runR: fades 0.75; runF with
// runR: a = -π/2, a_ix = -π/4, r = 0 -> 0.5 (runR alike); walks with their
// run: 1 - (|x|-1.5)/3.5 < 0; C: < 0 -> runF = runR = 0.5.
func TestFreeformDirectionalLocomotionHandWorked(t *testing.T) {
	r2 := math.Sqrt2
	hC := 1 - 2*r2/(4+math.Pi*math.Pi/16)
	hB := 1 - (3*r2-1.5)/3.5
	for _, c := range []struct {
		x    mgl32.Vec2
		want []float64 // idle, F, B, L, R, runF, runB, runL, runR
	}{
		{mgl32.Vec2{-0.75, 0.75}, []float64{hC / (hC + 1), 0.5 / (hC + 1), 0, 0.5 / (hC + 1), 0, 0, 0, 0, 0}},
		{mgl32.Vec2{0, 3.25}, []float64{0, 0.5, 0, 0, 0, 0.5, 0, 0, 0}},
		{mgl32.Vec2{0.5, 0}, []float64{2.0 / 3, 0, 0, 0, 1.0 / 3, 0, 0, 0, 0}},
		{mgl32.Vec2{-3, -3}, []float64{0, 0, hB / (2*hB + 1), hB / (2*hB + 1), 0, 0, 0.5 / (2*hB + 1), 0.5 / (2*hB + 1), 0}},
		{mgl32.Vec2{10, 10}, []float64{0, 0, 0, 0, 0, 0.5, 0, 0, 0.5}},
		{mgl32.Vec2{0, 0}, []float64{1, 0, 0, 0, 0, 0, 0, 0, 0}},
		{mgl32.Vec2{-5, 0}, []float64{0, 0, 0, 0, 0, 0, 0, 1, 0}}, // on a sample
	} {
		name := fmt.Sprintf("x=%v", c.x)
		// The reference, from the formula, agrees with the hand numbers ...
		ref, _ := refNormalise(refPolar(toPts(locomotionLayout), pt{float64(c.x[0]), float64(c.x[1])}, nil, nil))
		for i := range ref {
			if math.Abs(ref[i]-c.want[i]) > 1e-9 {
				t.Fatalf("%s: reference %v, hand-worked %v", name, ref, c.want)
			}
		}
		// ... and so does sway, to float32 rounding.
		w := make([]float32, len(locomotionLayout))
		if !FreeformDirectionalWeights(w, locomotionLayout, c.x) {
			t.Fatal("returned false")
		}
		want := make([]float32, len(c.want))
		for i, v := range c.want {
			want[i] = float32(v)
		}
		assertWeights(t, name, w, want, 2e-6)
	}
	// The figures at (-0.75, 0.75): idle / F / L = 0.2792 / 0.3604 / 0.3604.
	w := make([]float32, len(locomotionLayout))
	FreeformDirectionalWeights(w, locomotionLayout, mgl32.Vec2{-0.75, 0.75})
	if !near(w[0], 0.2792, 5e-5) || !near(w[1], 0.3604, 5e-5) || !near(w[3], 0.3604, 5e-5) {
		t.Fatalf("(-0.75, 0.75): %v", w)
	}
}

// Samples exactly opposite each other must not make the weights jump where
// the input crosses their line: idle, F (0,1), B (0,-1) and runF (0,3) at
// (±0.001, 3.9). At (0, 3.9) runF's influence is its cap, 1 (fade 1; with
// F: 1 - (3.9-3)/(1-3) > 1; with B, opposite: a = π, a_ix = 0 -> 1 -
// (-1)(0.45)/(π²+1) > 1), F's is 1 - (3.9-1)/(3-1) < 0, B's fade is 0 and
// idle's (with F) 1 - 4·3.9/4 < 0: runF takes it all, on both sides. (With
// the angle doubled and no fade, the weights were [0 0 0 1] on one side and
// [0 0 0.262 0.738] on the other.)
func TestFreeformDirectionalOppositeSamples(t *testing.T) {
	s := []mgl32.Vec2{{0, 0}, {0, 1}, {0, -1}, {0, 3}}
	a, b, c := make([]float32, 4), make([]float32, 4), make([]float32, 4)
	FreeformDirectionalWeights(a, s, mgl32.Vec2{0.001, 3.9})
	FreeformDirectionalWeights(b, s, mgl32.Vec2{-0.001, 3.9})
	FreeformDirectionalWeights(c, s, mgl32.Vec2{0, 3.9})
	assertWeights(t, "(0, 3.9)", c, []float32{0, 0, 0, 1}, 1e-6)
	// B's fade is 0.001/3.9/π ≈ 8e-5 beside the line: the change is that small.
	assertWeights(t, "(0.001, 3.9)", a, c, 2e-4)
	assertWeights(t, "(-0.001, 3.9)", b, c, 2e-4)
}

// Edge cases: the centre, the origin without a centre, far outside, and an
// input opposite the only sample with influence.
func TestFreeformDirectionalEdgeCases(t *testing.T) {
	w := make([]float32, 5)
	// Without a centre, at the origin every band closes: equal weights, as
	// Unity gives when no sample has influence.
	ring := []mgl32.Vec2{{0, 1}, {1, 0}, {0, -1}, {-1, 0}}
	FreeformDirectionalWeights(w[:4], ring, mgl32.Vec2{})
	assertWeights(t, "origin, no centre", w[:4], []float32{0.25, 0.25, 0.25, 0.25}, 1e-6)
	// Influences are capped at 1: far out along a direction its sample
	// takes everything, however far.
	FreeformDirectionalWeights(w, classic, mgl32.Vec2{0, 1e30})
	assertWeights(t, "far forward", w, []float32{0, 1, 0, 0, 0}, 1e-6)
	FreeformDirectionalWeights(w, classic, mgl32.Vec2{-3e38, -3e38})
	assertWeights(t, "far back-left", w, []float32{0, 0, 0.5, 0.5, 0}, 1e-6)
	// Opposite every sample the total influence vanishes. At (0, 3.8) the
	// ray opposite sample 1 is met exactly: its fade is 0; sample 2 with 1:
	// a = -0.124, a_ix = 3.018, r = 0.851, r_ix = 2.134 -> < 0; the centre
	// with 2: 1 - 4(3.8/0.806)/(3.018² + 4) < 0. No sample has influence, so
	// Unity gives equal weights there and sample 1 alone just beside it
	// (its fade is barely above 0). Here the weights fade into the equal
	// ones as the total drops below DirectionalFadeTotal: continuous.
	s := []mgl32.Vec2{{0, 0}, {0, -2}, {0.1, -0.8}}
	on, _ := refNormalise(refPolar(toPts(s), pt{0, 3.8}, nil, nil))
	beside, _ := refNormalise(refPolar(toPts(s), pt{3.8 * math.Cos(math.Pi/2+1e-3), 3.8 * math.Sin(math.Pi/2+1e-3)}, nil, nil))
	if math.Abs(on[1]-1.0/3) > 1e-9 || math.Abs(beside[1]-1) > 1e-9 {
		t.Fatalf("Unity's form: %v on the ray, %v beside it", on, beside)
	}
	FreeformDirectionalWeights(w[:3], s, mgl32.Vec2{0, 3.8})
	assertWeights(t, "opposite the only sample with influence", w[:3], []float32{1.0 / 3, 1.0 / 3, 1.0 / 3}, 1e-6)
	prev, cur := make([]float32, 3), make([]float32, 3)
	for k := -400; k <= 400; k++ {
		ang := math.Pi/2 + float64(k)*1e-3
		x := mgl32.Vec2{float32(3.8 * math.Cos(ang)), float32(3.8 * math.Sin(ang))}
		FreeformDirectionalWeights(cur, s, x)
		checkWeights(t, "opposite ray", cur)
		if k > -400 {
			for i := range cur {
				if d := cur[i] - prev[i]; d > 0.01 || d < -0.01 {
					t.Fatalf("across the ray opposite sample 1 at %v: %v -> %v", x, prev, cur)
				}
			}
		}
		copy(prev, cur)
	}
	FreeformDirectionalWeights(cur, s, mgl32.Vec2{float32(3.8 * math.Cos(math.Pi/2+0.4)), float32(3.8 * math.Sin(math.Pi/2+0.4))})
	assertWeights(t, "0.4 rad beside the ray", cur, []float32{0, 1, 0}, 1e-6)
}

// The weights are Unity's runtime form: equal to the reference with Unity's
// neighbour lists on the locomotion layouts, and to the all-pairs reference
// everywhere the total influence is at least DirectionalFadeTotal.
func TestFreeformDirectionalMatchesUnityForm(t *testing.T) {
	rng := rand.New(rand.NewSource(36))
	layouts := [][]mgl32.Vec2{locomotionLayout, locomotion8Layout(), classic}
	for range 8 {
		layouts = append(layouts, ringLayout(rng))
	}
	for i := range 24 {
		layouts = append(layouts, speedLayout(rng, i%2 == 0))
	}
	worstNb := 0.0
	for li, s := range layouts {
		p := toPts(s)
		nb := refNeighbours(p, refPolar)
		scale := maxLen(s)
		w := make([]float32, len(s))
		for range 400 {
			x := mgl32.Vec2{float32((rng.Float64()*4 - 2) * scale), float32((rng.Float64()*4 - 2) * scale)}
			xp := pt{float64(x[0]), float64(x[1])}
			all, sum := refNormalise(refPolar(p, xp, nil, nil))
			unity, _ := refNormalise(refPolar(p, xp, nb, nil))
			FreeformDirectionalWeights(w, s, x)
			for i := range w {
				if sum >= DirectionalFadeTotal && math.Abs(float64(w[i])-all[i]) > 2e-6 {
					t.Fatalf("layout %v at %v: %v, all-pairs reference %v", s, x, w, all)
				}
				d := math.Abs(float64(w[i]) - unity[i])
				if li < 3 && d > 2e-6 {
					t.Fatalf("layout %v at %v: %v, Unity's neighbour lists %v", s, x, w, unity)
				}
				if sum >= DirectionalFadeTotal {
					worstNb = math.Max(worstNb, d)
				}
			}
		}
	}
	t.Logf("largest difference from the neighbour-list form: %.3g", worstNb)
}

// Freeform Cartesian is Unity's runtime form too, neighbour lists included.
func TestFreeformCartesianMatchesUnityForm(t *testing.T) {
	rng := rand.New(rand.NewSource(37))
	layouts := [][]mgl32.Vec2{locomotionLayout, locomotion8Layout(), classic}
	for i := range 40 {
		layouts = append(layouts, freeformLayout(rng, i%2 == 0))
	}
	worstNb := 0.0
	for li, s := range layouts {
		p := toPts(s)
		nb := refNeighbours(p, refCartesian)
		scale := maxLen(s)
		w := make([]float32, len(s))
		for range 400 {
			x := mgl32.Vec2{float32((rng.Float64()*4 - 2) * scale), float32((rng.Float64()*4 - 2) * scale)}
			xp := pt{float64(x[0]), float64(x[1])}
			all, _ := refNormalise(refCartesian(p, xp, nil, nil))
			unity, _ := refNormalise(refCartesian(p, xp, nb, nil))
			FreeformCartesianWeights(w, s, x)
			for i := range w {
				if math.Abs(float64(w[i])-all[i]) > 2e-6 {
					t.Fatalf("layout %v at %v: %v, all-pairs reference %v", s, x, w, all)
				}
				d := math.Abs(float64(w[i]) - unity[i])
				if li < 3 && d > 2e-6 {
					t.Fatalf("layout %v at %v: %v, Unity's neighbour lists %v", s, x, w, unity)
				}
				worstNb = math.Max(worstNb, d)
			}
		}
	}
	t.Logf("largest difference from the neighbour-list form: %.3g", worstNb)
}

func maxLen(s []mgl32.Vec2) float64 {
	m := 0.0
	for _, p := range s {
		m = math.Max(m, float64(p.Len()))
	}
	return m
}

// speedLayout is a random Freeform Directional layout of 3 to 9 samples as
// locomotion uses them: a centre sample when centre is set, and directions
// at least 20° apart holding one or two speeds between 1 and 5.
func speedLayout(rng *rand.Rand, centre bool) []mgl32.Vec2 {
	for {
		var s []mgl32.Vec2
		if centre {
			s = append(s, mgl32.Vec2{})
		}
		total := 3 + rng.Intn(7)
		var dirs []float64
		for tries := 0; len(s) < total && tries < 100; tries++ {
			a := rng.Float64() * 2 * math.Pi
			ok := true
			for _, d := range dirs {
				if math.Abs(math.Remainder(a-d, 2*math.Pi)) < 20*math.Pi/180 {
					ok = false
				}
			}
			if !ok {
				continue
			}
			dirs = append(dirs, a)
			speeds := []float64{1 + 2*rng.Float64()}
			if rng.Intn(2) == 0 {
				speeds = append(speeds, speeds[0]+1+2*rng.Float64())
			}
			for _, r := range speeds {
				if len(s) < total {
					s = append(s, mgl32.Vec2{float32(r * math.Cos(a)), float32(r * math.Sin(a))})
				}
			}
		}
		if len(s) == total && ValidateFreeformDirectional(s) == nil {
			return s
		}
	}
}

// continuityCheck moves the input along segments of length 0.1 in steps of
// 2e-3: from random points in a box around the layout, and across the
// lines through the origin and each sample (which are also the lines of
// opposite pairs). It returns the largest change of a weight in one step
// over segments keeping at least near from every sample and nearCentre
// from the centre sample (or from the origin, for a layout without one),
// where it fails on a change larger than bound, and over all segments. Every
// step changing a weight by more than bound, near samples too, is cut into
// 1000 steps, none of which may change a weight by more than bound: the
// weights are steep there, but do not jump. Only segments passing within
// 1e-2 of the origin of a layout without a centre sample, where the weights
// depend on the direction of approach, are left out of that.
func continuityCheck(t *testing.T, name string, fn weightFunc, s []mgl32.Vec2, rng *rand.Rand, segs int, near, nearCentre, bound float64) (worst, worstAll float64) {
	t.Helper()
	const length, step = 0.1, 2e-3
	scale := maxLen(s)
	centre := false
	for _, p := range s {
		centre = centre || isCentre(p)
	}
	n := len(s)
	prev, cur, sub, subPrev := make([]float32, n), make([]float32, n), make([]float32, n), make([]float32, n)
	at := func(a, d [2]float64, u float64) mgl32.Vec2 {
		return mgl32.Vec2{float32(a[0] + d[0]*u), float32(a[1] + d[1]*u)}
	}
	for range segs {
		var mid [2]float64
		if rng.Intn(3) == 0 {
			mid = [2]float64{(rng.Float64()*6 - 3) * scale, (rng.Float64()*6 - 3) * scale}
		} else {
			p := s[rng.Intn(n)]
			u := rng.Float64()*3 - 1.5
			mid = [2]float64{float64(p[0]) * u, float64(p[1]) * u}
		}
		ang := rng.Float64() * 2 * math.Pi
		d := [2]float64{math.Cos(ang), math.Sin(ang)}
		a := [2]float64{mid[0] - d[0]*length/2, mid[1] - d[1]*length/2}
		dist := func(p [2]float64) float64 {
			u := math.Max(0, math.Min(length, (p[0]-a[0])*d[0]+(p[1]-a[1])*d[1]))
			return math.Hypot(p[0]-a[0]-d[0]*u, p[1]-a[1]-d[1]*u)
		}
		if !centre && dist([2]float64{}) < 1e-2 {
			continue
		}
		bounded := centre || dist([2]float64{}) >= nearCentre
		for _, p := range s {
			r := near
			if isCentre(p) {
				r = nearCentre
			}
			if dist([2]float64{float64(p[0]), float64(p[1])}) < r {
				bounded = false
			}
		}
		fn(prev, s, at(a, d, 0))
		for k := 1; k <= 50; k++ { // length/step
			fn(cur, s, at(a, d, float64(k)*step))
			checkWeights(t, name, cur)
			big := false
			for i := range cur {
				c := math.Abs(float64(cur[i] - prev[i]))
				big = big || c > bound
				worstAll = math.Max(worstAll, c)
				if bounded {
					worst = math.Max(worst, c)
					if c > bound {
						t.Fatalf("%s: layout %v: step to %v changes weight %d by %.4f (%v -> %v)", name, s, at(a, d, float64(k)*step), i, c, prev, cur)
					}
				}
			}
			if big {
				copy(subPrev, prev)
				for m := 1; m <= 1000; m++ {
					fn(sub, s, at(a, d, (float64(k-1)+float64(m)/1000)*step))
					for i := range sub {
						if c := math.Abs(float64(sub[i] - subPrev[i])); c > bound {
							t.Fatalf("%s: layout %v: jump at %v: weight %d by %.4f (%v -> %v)", name, s, at(a, d, (float64(k-1)+float64(m)/1000)*step), i, c, subPrev, sub)
						}
					}
					copy(subPrev, sub)
				}
			}
			copy(prev, cur)
		}
	}
	return worst, worstAll
}

// Continuity of Freeform Directional weights, and the bound asked of them:
// no weight changes by more than 0.01 between inputs 2e-3 apart, on
// segments keeping 0.15 from the samples and, from the centre sample where
// all directions meet, 0.15 on the four-direction locomotion layout, 0.3 on
// the eight-direction one and the rings, 0.5 on random layouts (1 from the
// origin without a centre sample, where the weights depend on the
// direction of approach). Nearer, and on the generic freeform layouts, the
// weights are steeper but continuous (continuityCheck's finer steps).
// The radii about the centre are Unity's form's (the reference's) own:
// at distance r it hands a weight between directions a apart along an arc
// r·a, about 2e-3/(r·a) per step, which is 0.01 at r ≈ 0.2/a
// (TestFreeformDirectionalSteepNearCentre). Largest step per radius,
// measured along circles about the centre, reference and sway alike, on
// six rings and ten random layouts: rings 0.044 at 0.05, 0.019 at 0.15, 0.011 at 0.25, 0.0094 at 0.3;
// random layouts 0.039 at 0.075, 0.030 at 0.15, 0.012 at 0.4, 0.0093 at 0.5.
func TestFreeformDirectionalContinuous(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	segs, layouts := 1500, 25
	if testing.Short() {
		segs, layouts = 300, 6
	}
	fn := FreeformDirectionalWeights
	var worst, all [5]float64
	note := func(k int, w, a float64) { worst[k], all[k] = math.Max(worst[k], w), math.Max(all[k], a) }
	w, a := continuityCheck(t, "locomotion", fn, locomotionLayout, rng, segs, 0.15, 0.15, 0.01)
	note(0, w, a)
	w, a = continuityCheck(t, "locomotion 8", fn, locomotion8Layout(), rng, segs, 0.15, 0.3, 0.01)
	note(0, w, a)
	for i := range layouts {
		w, a = continuityCheck(t, "rings", fn, ringLayout(rng), rng, 100, 0.15, 0.3, 0.01)
		note(1, w, a)
		w, a = continuityCheck(t, "random", fn, speedLayout(rng, true), rng, 100, 0.15, 0.5, 0.01)
		note(2, w, a)
		w, a = continuityCheck(t, "random, no centre", fn, speedLayout(rng, false), rng, 100, 0.15, 1, 0.01)
		note(3, w, a)
		w, a = continuityCheck(t, "generic", fn, freeformLayout(rng, i%2 == 0), rng, 50, math.Inf(1), math.Inf(1), 0.01)
		note(4, w, a)
	}
	t.Logf("largest change of a weight in a step of 2e-3, outside the radii / anywhere: locomotion %.4f / %.4f, rings %.4f / %.4f, random %.4f / %.4f, random without centre %.4f / %.4f, generic - / %.4f",
		worst[0], all[0], worst[1], all[1], worst[2], all[2], worst[3], all[3], all[4])
}

// Freeform Cartesian: the same bound on segments keeping 0.15 from the
// samples, on the locomotion layouts and generic layouts of 2 to 9 samples.
func TestFreeformCartesianContinuous(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	segs, layouts := 2000, 80
	if testing.Short() {
		segs, layouts = 400, 20
	}
	fn := FreeformCartesianWeights
	worst, all := continuityCheck(t, "locomotion", fn, locomotionLayout, rng, segs, 0.15, 0.15, 0.01)
	for i := range layouts {
		w, a := continuityCheck(t, "generic", fn, freeformLayout(rng, i%2 == 0), rng, 100, 0.15, 0.15, 0.01)
		worst, all = math.Max(worst, w), math.Max(all, a)
	}
	t.Logf("largest change of a weight in a step of 2e-3, outside the radius / anywhere: %.4f / %.4f", worst, all)
}

// Near the centre the steepness is Unity's form's own, not sway's: on the
// locomotion layouts, the largest change of a weight in a step of 2e-3
// along circles about the centre is the reference's (all pairs, normalised
// as Unity does) to float32 rounding, radius by radius. Measured (the
// reference and sway alike, to four digits; on these layouts Unity's
// neighbour lists give the all-pairs minimum exactly):
//
//	radius       0.02   0.05   0.075  0.1    0.15   0.2    0.25   0.3    0.5
//	4 directions 0.0086 0.0206 0.0167 0.0126 0.0084 0.0063 0.0051 0.0042 0.0025
//	8 directions 0.0118 0.0284 0.0328 0.0248 0.0167 0.0125 0.0100 0.0084 0.0051
//
// Between two neighbouring directions a apart the band of two samples of
// one speed is 1 - a_ix/a_ij, a function of the input's angle alone: at
// distance r it hands the weight over along an arc of r·a, 2e-3/(r·a) per
// step (0.0085 at 0.15 for a = π/2, 0.017 for π/4). Nearer, the centre's
// pairs cap each direction's influence near 4r/(m(a_ix²+4)), so the step
// peaks (0.021 and 0.033 here) and falls to 0 at the centre. The step
// reaches 0.01 at r ≈ 0.2/a, where TestFreeformDirectionalContinuous's
// radii about the centre come from: any change that kept Unity's values
// beyond some radius would keep these steps there too.
func TestFreeformDirectionalSteepNearCentre(t *testing.T) {
	const step = 2e-3
	for _, c := range []struct {
		name          string
		s             []mgl32.Vec2
		steep, gentle float64 // a radius where the step exceeds 0.01, one where it does not
	}{
		{"4 directions", locomotionLayout, 0.1, 0.15},
		{"8 directions", locomotion8Layout(), 0.2, 0.3},
	} {
		p := toPts(c.s)
		w0, w1 := make([]float32, len(c.s)), make([]float32, len(c.s))
		worst := func(r float64) (ref, sway float64) {
			const n = 2000
			for k := range n {
				th := 2 * math.Pi * (float64(k) + 0.5) / n
				a := mgl32.Vec2{float32(r * math.Cos(th)), float32(r * math.Sin(th))}
				b := mgl32.Vec2{float32(r*math.Cos(th) - step*math.Sin(th)), float32(r*math.Sin(th) + step*math.Cos(th))}
				ra, _ := refNormalise(refPolar(p, pt{float64(a[0]), float64(a[1])}, nil, nil))
				rb, _ := refNormalise(refPolar(p, pt{float64(b[0]), float64(b[1])}, nil, nil))
				FreeformDirectionalWeights(w0, c.s, a)
				FreeformDirectionalWeights(w1, c.s, b)
				for i := range ra {
					ref = math.Max(ref, math.Abs(rb[i]-ra[i]))
					sway = math.Max(sway, math.Abs(float64(w1[i]-w0[i])))
				}
			}
			return ref, sway
		}
		line := ""
		for _, r := range []float64{0.02, 0.05, 0.075, 0.1, 0.15, 0.2, 0.25, 0.3, 0.5} {
			ref, sway := worst(r)
			if math.Abs(ref-sway) > 1e-5 {
				t.Fatalf("%s, radius %g: largest step %.5f, the reference's %.5f", c.name, r, sway, ref)
			}
			if r == c.steep && !(ref > 0.01) || r == c.gentle && !(ref <= 0.01) {
				t.Fatalf("%s, radius %g: the reference's largest step is %.5f", c.name, r, ref)
			}
			line += fmt.Sprintf(" %g: %.4f/%.4f", r, ref, sway)
		}
		t.Logf("%s, radius: largest step of the reference / sway:%s", c.name, line)
	}
}
