package breath

import (
	"math/rand"
	"strconv"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// crowd is n characters on the test rig, each with its own settings, state
// and pose, offset so that they breathe out of step.
type crowd struct {
	settings []Settings
	plans    []Plan
	states   []State
	local    [][]mgl32.Quat
	world    [][]mgl32.Quat
}

func newCrowd(n int, mode Mode) *crowd {
	r := rand.New(rand.NewSource(7))
	rest := testRig(6)
	c := &crowd{make([]Settings, n), make([]Plan, n), make([]State, n), make([][]mgl32.Quat, n), make([][]mgl32.Quat, n)}
	for i := range n {
		c.settings[i] = rigSettings()
		c.settings[i].Mode = mode
		c.settings[i].DurationRate = 0.8 + 0.4*r.Float32()
		Init(&c.states[i], &c.settings[i], 4*r.Float32())
		var err error
		if c.plans[i], err = NewPlan(&c.settings[i], rigParents); err != nil {
			panic(err)
		}
		c.local[i] = append([]mgl32.Quat(nil), rest.LocalRot...)
		c.world[i] = append([]mgl32.Quat(nil), rest.WorldRot...)
	}
	return c
}

// BenchmarkStepApply measures one frame of breath per character (Step then
// Apply; FK is the caller's and not included).
func BenchmarkStepApply(b *testing.B) {
	for _, mode := range []Mode{Absolute, Additive} {
		for _, n := range []int{1, 100, 10000} {
			name := "mode=absolute"
			if mode == Additive {
				name = "mode=additive"
			}
			b.Run(name+"/chars="+strconv.Itoa(n), func(b *testing.B) {
				c := newCrowd(n, mode)
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					for i := range c.states {
						Step(&c.states[i], &c.settings[i], 1.0/60)
						Apply(c.local[i], c.world[i], rigParents, &c.states[i], &c.settings[i])
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/char")
			})
		}
	}
}

// BenchmarkStepApplyPlan is BenchmarkStepApply with Plan.Apply, the
// kernel the ECS system runs.
func BenchmarkStepApplyPlan(b *testing.B) {
	for _, mode := range []Mode{Absolute, Additive} {
		for _, n := range []int{1, 100, 10000} {
			name := "mode=absolute"
			if mode == Additive {
				name = "mode=additive"
			}
			b.Run(name+"/chars="+strconv.Itoa(n), func(b *testing.B) {
				c := newCrowd(n, mode)
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					for i := range c.states {
						Step(&c.states[i], &c.settings[i], 1.0/60)
						c.plans[i].Apply(c.local[i], rigParents, &c.states[i])
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/char")
			})
		}
	}
}

func BenchmarkStep(b *testing.B) {
	for _, n := range []int{1, 10000} {
		b.Run("chars="+strconv.Itoa(n), func(b *testing.B) {
			c := newCrowd(n, Absolute)
			b.ReportAllocs()
			for b.Loop() {
				for i := range c.states {
					Step(&c.states[i], &c.settings[i], 1.0/60)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/char")
		})
	}
}

func BenchmarkApply(b *testing.B) {
	for _, n := range []int{1, 10000} {
		b.Run("chars="+strconv.Itoa(n), func(b *testing.B) {
			c := newCrowd(n, Absolute)
			for i := range c.states {
				Step(&c.states[i], &c.settings[i], 0.5)
			}
			b.ReportAllocs()
			for b.Loop() {
				for i := range c.states {
					Apply(c.local[i], c.world[i], rigParents, &c.states[i], &c.settings[i])
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/char")
		})
	}
}

func BenchmarkPlanApply(b *testing.B) {
	for _, n := range []int{1, 10000} {
		b.Run("chars="+strconv.Itoa(n), func(b *testing.B) {
			c := newCrowd(n, Absolute)
			for i := range c.states {
				Step(&c.states[i], &c.settings[i], 0.5)
			}
			b.ReportAllocs()
			for b.Loop() {
				for i := range c.states {
					c.plans[i].Apply(c.local[i], rigParents, &c.states[i])
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/char")
		})
	}
}

func BenchmarkEase(b *testing.B) {
	for e := Easing(0); e < numEasings; e++ {
		b.Run("easing="+e.String(), func(b *testing.B) {
			b.ReportAllocs()
			var sink float32
			t := float32(0)
			for b.Loop() {
				sink += Ease(e, t, 1, 2, 1)
				if t += 0.001; t > 1 {
					t = 0
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/eval")
			_ = sink
		})
	}
}
