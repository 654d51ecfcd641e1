package breath

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/mathx"
)

// FuzzBreath: any settings are either rejected by NewPlan with an error or
// breathe for a few frames of any dt on a six-bone spine with shoulders,
// writing finite unit local rotations.
func FuzzBreath(f *testing.F) {
	f.Add(float32(1.5), float32(2), float32(0.5), float32(1), float32(1), float32(3), float32(-2), float32(0.3), float32(1.0/60), uint8(0), uint8(0))
	f.Add(float32(0), float32(0), float32(0), float32(0), float32(100), float32(1e3), float32(-1e3), float32(1e9), float32(-1), uint8(9), uint8(1))
	f.Fuzz(func(t *testing.T, inhale, exhale, rest, durationRate, effectRate, inAngle, exAngle, offset, dt float32, easing, mode uint8) {
		// hips, spine, chest, neck, head, shoulder.L, shoulder.R
		parents := []int32{-1, 0, 1, 2, 3, 2, 2}
		s := DefaultSettings(1, 2, 3, 4, 5, 6)
		s.InhaleDuration, s.ExhaleDuration, s.RestDuration = inhale, exhale, rest
		s.DurationRate, s.EffectRate = durationRate, effectRate
		s.InhaleEasing, s.Mode = Easing(easing), Mode(mode)
		for i := range s.Segments {
			if s.Segments[i].Bone >= 0 {
				s.Segments[i].InhaleDegrees, s.Segments[i].ExhaleDegrees = inAngle, exAngle
			}
		}
		p, err := NewPlan(&s, parents)
		if err != nil {
			return
		}
		if !mathx.IsFinite(offset) || !mathx.IsFinite(dt) {
			return
		}
		var st State
		Init(&st, &s, offset)
		local := make([]mgl32.Quat, len(parents))
		for k := 0; k < 5; k++ {
			for i := range local {
				local[i] = mgl32.QuatIdent()
			}
			Step(&st, &s, dt)
			p.Apply(local, parents, &st)
			for i, q := range local {
				if l := q.Len(); !mathx.QuatFinite(q) || l < 0.999 || l > 1.001 {
					t.Fatalf("frame %d bone %d: rotation %v for %+v", k, i, q, s)
				}
			}
		}
	})
}
