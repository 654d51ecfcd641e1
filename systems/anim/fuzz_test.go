package anim

import (
	"math"
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// fuzzLayout draws a layout from seed: 1 to MaxSamples samples, sometimes a
// centre, sometimes unvalidated (duplicate directions, opposite pairs), at
// scales from 1e-3 to 1e3.
func fuzzLayout(seed int64) []mgl32.Vec2 {
	rng := rand.New(rand.NewSource(seed))
	n := 1 + rng.Intn(MaxSamples)
	scale := float32(math.Pow(10, rng.Float64()*6-3))
	s := make([]mgl32.Vec2, n)
	for i := range s {
		switch rng.Intn(8) {
		case 0:
			s[i] = mgl32.Vec2{} // centre (possibly several)
		case 1:
			if i > 0 {
				s[i] = s[rng.Intn(i)].Mul(-1) // opposite of another
				continue
			}
			fallthrough
		case 2:
			if i > 0 {
				s[i] = s[rng.Intn(i)].Mul(2) // same direction as another
				continue
			}
			fallthrough
		default:
			s[i] = mgl32.Vec2{(rng.Float32()*2 - 1) * scale, (rng.Float32()*2 - 1) * scale}
		}
	}
	return s
}

// fuzzWeights checks the weight contract for any finite input and layout,
// and weight 1 at a sample's own position when the layout validates.
func fuzzWeights(t *testing.T, fn weightFunc, validate func([]mgl32.Vec2) error, x, y float32, seed int64) {
	if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) || math.IsNaN(float64(y)) || math.IsInf(float64(y), 0) {
		t.Skip()
	}
	s := fuzzLayout(seed)
	w := make([]float32, len(s))
	if !fn(w, s, mgl32.Vec2{x, y}) {
		t.Fatal("returned false")
	}
	checkWeights(t, "fuzz", w)
	if validate(s) != nil {
		return
	}
	k := int(uint64(seed) % uint64(len(s)))
	fn(w, s, s[k])
	if !near(w[k], 1, 1e-5) {
		t.Fatalf("layout %v: at sample %d the weights are %v", s, k, w)
	}
}

func addFuzzSeeds(f *testing.F) {
	for i, in := range [][2]float32{{0, 0}, {0.5, 0.5}, {0, 0.5}, {-0.3, -0.3}, {0, 2}, {1e-30, -1e-30}, {3e38, -3e38}, {-1, 1e-7}} {
		f.Add(in[0], in[1], int64(i))
	}
}

func FuzzSimpleDirectional(f *testing.F) {
	addFuzzSeeds(f)
	f.Fuzz(func(t *testing.T, x, y float32, seed int64) {
		fuzzWeights(t, SimpleDirectionalWeights, ValidateSimpleDirectional, x, y, seed)
	})
}

func FuzzFreeformCartesian(f *testing.F) {
	addFuzzSeeds(f)
	f.Fuzz(func(t *testing.T, x, y float32, seed int64) {
		fuzzWeights(t, FreeformCartesianWeights, ValidateFreeformCartesian, x, y, seed)
	})
}

func FuzzFreeformDirectional(f *testing.F) {
	addFuzzSeeds(f)
	f.Fuzz(func(t *testing.T, x, y float32, seed int64) {
		fuzzWeights(t, FreeformDirectionalWeights, ValidateFreeformDirectional, x, y, seed)
	})
}

func FuzzWeights1D(f *testing.F) {
	f.Add(float32(0.3), int64(1))
	f.Add(float32(-5), int64(2))
	f.Add(float32(math.MaxFloat32), int64(3))
	f.Fuzz(func(t *testing.T, x float32, seed int64) {
		if math.IsNaN(float64(x)) {
			t.Skip()
		}
		rng := rand.New(rand.NewSource(seed))
		th := make([]float32, 1+rng.Intn(MaxSamples))
		v := float32(-10)
		for i := range th {
			v += rng.Float32()*3 + 1e-3
			th[i] = v
		}
		if rng.Intn(4) == 0 {
			rng.Shuffle(len(th), func(i, j int) { th[i], th[j] = th[j], th[i] }) // unvalidated
		}
		w := make([]float32, len(th))
		Weights1D(w, th, x)
		checkWeights(t, "1D", w)
	})
}
