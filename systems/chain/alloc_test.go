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
