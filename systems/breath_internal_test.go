package systems

import (
	"math"
	"math/rand"
	"testing"
	"unsafe"

	"github.com/sway-anim/sway/components"
)

// TestFiniteRootMatchesRootFinite: the breath system's root test agrees
// with Sync's for finite roots (large, tiny, subnormal, signed zeros) and
// for a NaN or an infinity in any of the ten fields.
func TestFiniteRootMatchesRootFinite(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	special := []float32{0, float32(math.Copysign(0, -1)), 1e-45, -3e38, 3.4e38, float32(math.NaN()),
		float32(math.Inf(1)), float32(math.Inf(-1))}
	nonFinite := 0
	for trial := 0; trial < 10000; trial++ {
		var tr components.Transform
		f := (*[10]float32)(unsafe.Pointer(&tr))
		for i := range f {
			f[i] = float32(r.NormFloat64() * math.Pow(10, float64(r.Intn(60)-30)))
		}
		if trial%2 == 0 {
			f[r.Intn(10)] = special[r.Intn(len(special))]
		}
		if got, want := finiteRoot(&tr), rootFinite(&tr); got != want {
			t.Fatalf("%v: finiteRoot %v, rootFinite %v", tr, got, want)
		}
		if !rootFinite(&tr) {
			nonFinite++
		}
	}
	if nonFinite < 1000 {
		t.Fatalf("only %d roots not finite: the test is vacuous", nonFinite)
	}
}
