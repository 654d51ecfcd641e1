package anim

import (
	"math"
	"math/rand"
	"sort"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

type weightFunc func(dst []float32, samples []mgl32.Vec2, input mgl32.Vec2) bool

// directionalLayout returns a valid Simple Directional layout: an optional
// centre and 3 to 8 directions whose gaps stay below 170 degrees (wider gaps
// make the source's 0.5/0.5 rule jump inside the gap), lengths 0.5 to 2.
func directionalLayout(rng *rand.Rand) []mgl32.Vec2 {
	for {
		k := 3 + rng.Intn(6)
		angles := make([]float64, k)
		for i := range angles {
			angles[i] = rng.Float64() * 2 * math.Pi
		}
		sort.Float64s(angles)
		ok := true
		for i := range angles {
			next := angles[(i+1)%k]
			if i == k-1 {
				next += 2 * math.Pi
			}
			if g := next - angles[i]; g > 170*math.Pi/180 || g < 0.05 {
				ok = false
			}
		}
		if !ok {
			continue
		}
		var s []mgl32.Vec2
		if rng.Intn(2) == 0 {
			s = append(s, mgl32.Vec2{})
		}
		for _, a := range angles {
			r := 0.5 + 1.5*rng.Float64()
			s = append(s, mgl32.Vec2{float32(r * math.Cos(a)), float32(r * math.Sin(a))})
		}
		rng.Shuffle(len(s), func(i, j int) { s[i], s[j] = s[j], s[i] })
		if ValidateSimpleDirectional(s) == nil {
			return s
		}
	}
}

// freeformLayout returns 2 to 9 samples at least 0.3 apart in [-2,2]²,
// with a centre sample when centre is set.
func freeformLayout(rng *rand.Rand, centre bool) []mgl32.Vec2 {
	k := 2 + rng.Intn(8)
	var s []mgl32.Vec2
	if centre {
		s = append(s, mgl32.Vec2{})
	}
	for len(s) < k {
		p := mgl32.Vec2{rng.Float32()*4 - 2, rng.Float32()*4 - 2}
		ok := true
		for _, q := range s {
			if p.Sub(q).Len() < 0.3 {
				ok = false
			}
		}
		if ok {
			s = append(s, p)
		}
	}
	return s
}

// ringLayout is the usual directional locomotion layout: a centre and one
// or two rings (walk, run) of 4 to 8 evenly spaced directions, jittered.
func ringLayout(rng *rand.Rand) []mgl32.Vec2 {
	s := []mgl32.Vec2{{}}
	k := 4 + rng.Intn(5)
	rings := 1 + rng.Intn(2)
	for r := 1; r <= rings; r++ {
		for i := range k {
			a := (float64(i) + 0.2*(rng.Float64()-0.5)) / float64(k) * 2 * math.Pi
			s = append(s, mgl32.Vec2{float32(float64(r) * math.Cos(a)), float32(float64(r) * math.Sin(a))})
		}
	}
	return s
}

// checkProperties asserts, for one layout: valid weights at random inputs,
// weight 1 at each sample's own position, and small changes for small
// input steps (continuity) at inputs at least minR from the origin.
func checkProperties(t *testing.T, name string, fn weightFunc, s []mgl32.Vec2, rng *rand.Rand, minR float32) {
	t.Helper()
	n := len(s)
	w := make([]float32, n)
	w2 := make([]float32, n)
	for i, p := range s {
		if !fn(w, s, p) {
			t.Fatalf("%s: returned false", name)
		}
		if !near(w[i], 1, 1e-5) {
			t.Fatalf("%s: layout %v: at sample %d %v the weights are %v", name, s, i, p, w)
		}
	}
	const step = 1e-4
	for range 400 {
		x := mgl32.Vec2{rng.Float32()*6 - 3, rng.Float32()*6 - 3}
		fn(w, s, x)
		checkWeights(t, name, w)
		if x.Len() < minR {
			continue
		}
		a := rng.Float64() * 2 * math.Pi
		x2 := x.Add(mgl32.Vec2{float32(step * math.Cos(a)), float32(step * math.Sin(a))})
		fn(w2, s, x2)
		for i := range w {
			if d := w2[i] - w[i]; d > 0.01 || d < -0.01 {
				t.Fatalf("%s: layout %v: step %v -> %v changes weight %d by %v (%v -> %v)", name, s, x, x2, i, d, w, w2)
			}
		}
	}
}

func TestPropertiesSimpleDirectional(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	for range 200 {
		checkProperties(t, "SimpleDirectional", SimpleDirectionalWeights, directionalLayout(rng), rng, 0)
	}
	checkProperties(t, "SimpleDirectional classic", SimpleDirectionalWeights, classic, rng, 0)
}

func TestPropertiesFreeformCartesian(t *testing.T) {
	rng := rand.New(rand.NewSource(12))
	for i := range 200 {
		checkProperties(t, "FreeformCartesian", FreeformCartesianWeights, freeformLayout(rng, i%2 == 0), rng, 0)
	}
	checkProperties(t, "FreeformCartesian classic", FreeformCartesianWeights, classic, rng, 0)
}

func TestPropertiesFreeformDirectional(t *testing.T) {
	rng := rand.New(rand.NewSource(13))
	for range 200 {
		checkProperties(t, "FreeformDirectional rings", FreeformDirectionalWeights, ringLayout(rng), rng, 0.05)
		checkProperties(t, "FreeformDirectional scattered", FreeformDirectionalWeights, freeformLayout(rng, true), rng, 0.05)
	}
	checkProperties(t, "FreeformDirectional classic", FreeformDirectionalWeights, classic, rng, 0.05)
}

// Continuity along a whole circle through every sector boundary, where the
// first/last pair changes.
func TestSimpleDirectionalContinuousAcrossSectors(t *testing.T) {
	w, prev := make([]float32, len(classic)), make([]float32, len(classic))
	for _, r := range []float64{0.3, 1, 1.7} {
		SimpleDirectionalWeights(prev, classic, mgl32.Vec2{float32(r), 0})
		for i := 1; i <= 20000; i++ {
			a := float64(i) / 20000 * 2 * math.Pi
			SimpleDirectionalWeights(w, classic, mgl32.Vec2{float32(r * math.Cos(a)), float32(r * math.Sin(a))})
			for k := range w {
				if d := w[k] - prev[k]; d > 1e-3 || d < -1e-3 {
					t.Fatalf("r=%v angle %v: weight %d jumps %v -> %v", r, a, k, prev[k], w[k])
				}
			}
			copy(prev, w)
		}
	}
}
