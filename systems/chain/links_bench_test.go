package chain

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// ringRig is a hips bone with m strands of 6 bones each around it.
func ringRig(b testing.TB, m int) (*testRig, *Particles, []Chain) {
	parents := []int32{-1}
	pos := []mgl32.Vec3{{}}
	for k := range m {
		x, z := float32(0.1)*cos32(float32(k)/float32(m)*6.2832), float32(0.1)*sin32(float32(k)/float32(m)*6.2832)
		parents = append(parents, 0)
		pos = append(pos, mgl32.Vec3{x, 0, z})
		for i := range 6 {
			parents = append(parents, int32(len(parents)-1))
			_ = i
			pos = append(pos, mgl32.Vec3{0, -0.08, 0})
		}
	}
	r := newRig(parents, pos)
	pool := &Particles{}
	cs := make([]Chain, m)
	for k := range m {
		s := DefaultSettings()
		s.Gravity = mgl32.Vec3{0, -9.81, 0}
		d := Desc{Root: int32(1 + 7*k), Settings: s}
		if err := Build(pool, &cs[k], &r.skel, &d); err != nil {
			b.Fatal(err)
		}
	}
	return r, pool, cs
}

func BenchmarkStepLinkedRing(b *testing.B) {
	for _, linked := range []bool{false, true} {
		name := "alone"
		if linked {
			name = "ring"
		}
		b.Run(name, func(b *testing.B) {
			r, pool, cs := ringRig(b, 8)
			ring := []int{0, 1, 2, 3, 4, 5, 6, 7}
			par := make([][]int32, len(cs))
			for k := range cs {
				par[k] = pool.Parent[cs[k].First : cs[k].First+cs[k].N]
			}
			ls, _ := LinkChains(cs, par, [][]int{ring}, nil, true)
			l := &Linked{Settings: LinkSettings{Compliance: 1e-4, Iterations: 2, MaxStretch: 0.1}, Links: ls}
			var sc LinkScratch
			steps := make([]int8, len(cs))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				r.obj.ObjectPos[0] = float32(i%60) * 0.01
				r.animate()
				for k := range cs {
					steps[k] = int8(Prepare(cs[k].Particles(pool), &cs[k], r.pose, &r.obj))
				}
				if linked {
					StepLinked(pool, pool, cs, steps, &r.pose, nil, l, &sc, r.obj.Dt)
				} else {
					for k := range cs {
						StepsIn(pool, pool, &cs[k], &r.pose, int(steps[k]), nil)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*8*6), "ns/particle-frame")
		})
	}
}

func cos32(x float32) float32 { return float32(mathCos(float64(x))) }
func sin32(x float32) float32 { return float32(mathSin(float64(x))) }

var mathCos, mathSin = math.Cos, math.Sin
