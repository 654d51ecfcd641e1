package chain

import (
	"fmt"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/systems/collide"
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
		benchStress(b, Fixed, separate|andApply)
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
	andApply             // then Apply
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
				Step(p, c, pose, 1, s.shapes)
			} else {
				Integrate(p, c, 1)
				Constrain(p, c, pose, s.shapes)
			}
			if what&andApply != 0 {
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

// Apply alone for every chain of the stress rig, on the pose of a frame
// (its animated locals restored before each run, as a frame has them).
func BenchmarkApply(b *testing.B) {
	b.Run(fmt.Sprintf("joints=%d", stressMoving), func(b *testing.B) {
		s := newStress(b, Fixed)
		for f := 1; f < 60; f++ {
			s.frame(f)
		}
		s.rig.animate()
		pose := s.rig.pose
		lp := append([]mgl32.Vec3(nil), pose.LocalPos...)
		lr := append([]mgl32.Quat(nil), pose.LocalRot...)
		views := make([]Particles, len(s.chains))
		for k := range s.chains {
			views[k] = s.chains[k].Particles(s.pool)
		}
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			copy(pose.LocalPos, lp)
			copy(pose.LocalRot, lr)
			for k := range s.chains {
				Apply(views[k], &s.chains[k], pose)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/stressMoving, "ns/particle")
	})
}

// Prepare alone for every chain of the stress rig, the character moving a
// little every run.
func BenchmarkPrepare(b *testing.B) {
	b.Run(fmt.Sprintf("joints=%d", stressMoving), func(b *testing.B) {
		s := newStress(b, Fixed)
		for f := 1; f < 60; f++ {
			s.frame(f)
		}
		s.rig.animate()
		pose := s.rig.pose
		obj := s.rig.obj
		views := make([]Particles, len(s.chains))
		for k := range s.chains {
			views[k] = s.chains[k].Particles(s.pool)
		}
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			obj.ObjectPos[0] += 1e-4
			for k := range s.chains {
				Prepare(views[k], &s.chains[k], pose, &obj)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/stressMoving, "ns/particle")
	})
}

// The chain part of a frame as the product runs it per character: collider
// placement and Update (Prepare, the step, Apply) for every chain, on
// animated poses computed beforehand (the rig's forward kinematics, which
// BenchmarkFrame includes, is not the chains' cost).
func BenchmarkChainFrame(b *testing.B) {
	b.Run(fmt.Sprintf("joints=%d", stressMoving), func(b *testing.B) {
		s := newStress(b, Fixed)
		r := s.rig
		type frame struct {
			obj        Frame
			lp, wp, ws []mgl32.Vec3
			lr, wr     []mgl32.Quat
		}
		frames := make([]frame, 120)
		for f := range frames {
			s.frame(f + 1) // animates, then updates: keep the animated pose
			r.animate()
			frames[f] = frame{
				obj: r.obj,
				lp:  append([]mgl32.Vec3(nil), r.pose.LocalPos...), wp: append([]mgl32.Vec3(nil), r.pose.WorldPos...),
				ws: append([]mgl32.Vec3(nil), r.pose.WorldScale...),
				lr: append([]mgl32.Quat(nil), r.pose.LocalRot...), wr: append([]mgl32.Quat(nil), r.pose.WorldRot...),
			}
		}
		pose := r.pose
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			f := &frames[i%len(frames)]
			copy(pose.LocalPos, f.lp)
			copy(pose.LocalRot, f.lr)
			copy(pose.WorldPos, f.wp)
			copy(pose.WorldRot, f.wr)
			copy(pose.WorldScale, f.ws)
			PlaceColliders(s.shapes, s.descs, s.bones, pose)
			for k := range s.chains {
				c := &s.chains[k]
				Update(c.Particles(s.pool), c, pose, s.shapes, &f.obj)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/stressMoving, "ns/particle")
	})
}

// Eight stress-rig characters' chains stepped (one sub-step) and applied
// as the chain systems do: side by side on the AVX2 kernels, side by side
// on their Go definitions, and each chain alone (the scalar step and
// apply), their poses restored before each run.
func BenchmarkLanes(b *testing.B) {
	var rigs [LaneCount]*stress
	pool := &Particles{}
	var cs [][LaneCount]*Chain
	for s := range rigs {
		r := newStress(b, Fixed)
		rigs[s] = r
		// Into one pool, each chain's rest data character 0's, as a
		// store shares them.
		for k := range r.chains {
			c := &Chain{}
			d := Desc{Root: r.pool.Bone[r.chains[k].First], Colliders: []int32{0, 1, 2}, Settings: r.chains[k].Settings}
			if err := Build(pool, c, &r.rig.skel, &d); err != nil {
				b.Fatal(err)
			}
			if s == 0 {
				cs = append(cs, [LaneCount]*Chain{})
			} else {
				c.RestFirst = cs[k][0].First
			}
			cs[k][s] = c
		}
	}
	var poses [LaneCount]*Pose
	var shapes [LaneCount][]collide.Shape
	var saved [LaneCount]Pose
	for f := 1; f < 30; f++ {
		for s, r := range rigs {
			r.rig.obj.ObjectPos = mgl32.Vec3{float32(s) + float32(0.2*math.Sin(2*float64(f)/60+float64(s))), 0.7, 2.3}
			r.rig.animate()
			PlaceColliders(r.shapes, r.descs, r.bones, r.rig.pose)
			for k := range cs {
				n := PrepareIn(pool, pool, cs[k][s], &r.rig.pose, &r.rig.obj)
				StepsIn(pool, pool, cs[k][s], &r.rig.pose, n, r.shapes)
			}
		}
	}
	for s, r := range rigs {
		r.rig.animate()
		poses[s], shapes[s], saved[s] = &r.rig.pose, r.shapes, clonePose(r.rig.pose)
	}
	steps := [LaneCount]int{1, 1, 1, 1, 1, 1, 1, 1}
	for _, kind := range []string{"avx2", "go", "alone"} {
		b.Run("lanes="+kind, func(b *testing.B) {
			if kind == "avx2" && !hasAVX2 {
				b.Skip(noAVX2)
			}
			setAVX2(b, kind == "avx2")
			var q Lanes
			q.Shapes(&shapes)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for s, p := range poses {
					copy(p.LocalPos, saved[s].LocalPos)
					copy(p.LocalRot, saved[s].LocalRot)
					copy(p.WorldRot, saved[s].WorldRot)
				}
				for k := range cs {
					if kind == "alone" {
						for s, c := range cs[k] {
							StepsIn(pool, pool, c, poses[s], 1, shapes[s])
							ApplyIn(pool, pool, c, poses[s])
						}
						continue
					}
					q.StepsIn(pool, pool, &cs[k], &poses, &steps)
					q.ApplyIn(pool, pool, &cs[k], &poses)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(LaneCount*stressMoving), "ns/particle")
		})
	}
}
