package ik

import (
	"fmt"
	"math/rand"
	"testing"
)

// BenchmarkSolveTwoBone solves n limbs with random poses, targets and hints
// per iteration.
func BenchmarkSolveTwoBone(b *testing.B) {
	s := DefaultTwoBoneSettings()
	for _, n := range []int{1, 64, 1024} {
		b.Run(fmt.Sprintf("limbs=%d", n), func(b *testing.B) {
			r := rand.New(rand.NewSource(8))
			limbs := make([]TwoBoneInput, n)
			for i := range limbs {
				limbs[i] = randLimb(r)
				limbs[i].Target = limbs[i].UpperPos.Add(randDir(r).Mul(0.2 + 2*r.Float32()))
				limbs[i].Hint = limbs[i].UpperPos.Add(randDir(r).Mul(2))
				limbs[i].UseHint = true
			}
			var out TwoBoneResult
			b.ReportAllocs()
			b.ResetTimer()
			for it := 0; it < b.N; it++ {
				for i := range limbs {
					SolveTwoBone(&out, &s, &limbs[i])
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/solve")
		})
	}
}
