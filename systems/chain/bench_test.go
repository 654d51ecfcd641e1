package chain

import (
	"fmt"
	"testing"
)

// The stress rig's chains, one sub-step: Integrate + Constrain with 3
// colliders on all 62 moving particles.
func BenchmarkStep(b *testing.B) {
	for _, mode := range []StepMode{Fixed, Variable} {
		b.Run(fmt.Sprintf("mode=%s/joints=%d", modeName(mode), stressMoving), func(b *testing.B) {
			benchStress(b, mode, separate)
		})
	}
}

// As BenchmarkStep, through Step (Integrate and Constrain in one pass), as
// Update runs it.
func BenchmarkStepFused(b *testing.B) {
	for _, mode := range []StepMode{Fixed, Variable} {
		b.Run(fmt.Sprintf("mode=%s/joints=%d", modeName(mode), stressMoving), func(b *testing.B) {
			benchStress(b, mode, fused)
		})
	}
}

// As BenchmarkStep, plus Apply (writing the pose) for every chain.
func BenchmarkStepApply(b *testing.B) {
	b.Run(fmt.Sprintf("joints=%d", stressMoving), func(b *testing.B) {
		benchStress(b, Fixed, separate|apply)
	})
}

// A whole frame: collider placement and Update (Prepare, one sub-step,
// Apply) for every chain; forward kinematics excluded.
func BenchmarkFrame(b *testing.B) {
	b.Run(fmt.Sprintf("joints=%d", stressMoving), func(b *testing.B) {
		s := newStress(b, Fixed)
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			s.frame(i)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/stressMoving, "ns/particle")
	})
}

// What benchStress runs per chain.
const (
	separate = 1 << iota // Integrate, then Constrain
	fused                // Step
	apply                // then Apply
)

func benchStress(b *testing.B, mode StepMode, what int) {
	s := newStress(b, mode)
	for f := 1; f < 60; f++ {
		s.frame(f)
	}
	if mode == Variable {
		// A 144 fps frame, so that the variable-step factors are computed.
		s.rig.obj.Dt = 1.0 / 144
		s.frame(60)
	}
	pose := s.rig.pose
	views := make([]Particles, len(s.chains))
	for k := range s.chains {
		views[k] = s.chains[k].Particles(s.pool)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for k := range s.chains {
			c := &s.chains[k]
			p := views[k]
			if what&fused != 0 {
				Step(p, c, 1, s.shapes)
			} else {
				Integrate(p, c, 1)
				Constrain(p, c, s.shapes)
			}
			if what&apply != 0 {
				Apply(p, c, pose)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/stressMoving, "ns/particle")
}

func modeName(m StepMode) string {
	if m == Variable {
		return "variable"
	}
	return "fixed"
}
