package chain

import (
	"testing"
)

func TestPerFrameKernelsDoNotAllocate(t *testing.T) {
	for _, mode := range []StepMode{Fixed, Variable} {
		s := newStress(t, mode)
		for f := 1; f < 30; f++ {
			s.frame(f)
		}
		c := &s.chains[0]
		p := c.Particles(s.pool)
		r := s.rig
		clock := Clock{Rate: 60}
		f := 30
		for name, fn := range map[string]func(){
			"frame (PlaceColliders+Update)": func() { f++; s.frame(f) },
			"Prepare":                       func() { Prepare(p, c, r.pose, &r.obj) },
			"Integrate":                     func() { Integrate(p, c, 0) },
			"Constrain":                     func() { Constrain(p, c, r.pose, s.shapes) },
			"Step":                          func() { Step(p, c, r.pose, 0, s.shapes) },
			"SkipUpdate":                    func() { SkipUpdate(p, c, r.pose) },
			"Apply":                         func() { Apply(p, c, r.pose) },
			"Refresh":                       func() { Refresh(p, c) },
			"RestoreLocals":                 func() { RestoreLocals(r.pose, p) },
			"ResetParticles":                func() { ResetParticles(p, r.pose) },
			"Particles":                     func() { _ = c.Particles(s.pool) },
			"Clock.Fixed":                   func() { clock.Fixed(1.0 / 144) },
			"Clock.Variable":                func() { clock.Variable(1.0 / 30) },
		} {
			if a := testing.AllocsPerRun(100, fn); a != 0 {
				t.Errorf("mode %d: %s allocates %v times per run", mode, name, a)
			}
		}
	}
}

// Stepping and applying side by side allocates nothing, on the AVX2
// kernels and on their Go definitions.
func TestLanesDoNotAllocate(t *testing.T) {
	forEachLanes(t, func(t *testing.T) {
		l := newQuadLanes(t, Variable, true)
		al := newApplyLanes(t, applyLine, Desc{Root: 1, Settings: DefaultSettings()}, 5)
		cs := l.chains()
		var q Lanes
		var poses [LaneCount]*Pose
		for s, r := range al.rigs {
			poses[s] = &r.pose
		}
		steps := l.frame(t, 0, 1.0/60)
		if !quadable(l.a, l.a, &cs, l.poses(), &steps) || appliable(al.pool, al.pool, &al.cs, &poses) < 0 {
			t.Fatal("the lanes do not run side by side: the test proves nothing")
		}
		for name, fn := range map[string]func(){
			"Lanes.StepsIn": func() { q.Shapes(&l.shapes); q.StepsIn(l.a, l.a, &cs, l.poses(), &steps) },
			"Lanes.ApplyIn": func() { q.ApplyIn(al.pool, al.pool, &al.cs, &poses) },
		} {
			if a := testing.AllocsPerRun(50, fn); a != 0 {
				t.Errorf("%s allocates %v times per run", name, a)
			}
		}
	})
}
