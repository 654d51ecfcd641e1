package breath

import (
	"math"
	"testing"

	"github.com/sway-anim/sway/internal/mathx"
)

type phaseChange struct {
	to   Phase
	time float64 // simulation time of the Step that began the phase
}

// runPhases steps a fresh state for the given time and records every phase
// change.
func runPhases(s *Settings, dt float32, seconds float64) []phaseChange {
	var st State
	Init(&st, s, 0)
	var out []phaseChange
	frames := int(seconds / float64(dt))
	for k := 1; k <= frames; k++ {
		before := st.Phase
		Step(&st, s, dt)
		if st.Phase != before {
			out = append(out, phaseChange{st.Phase, float64(k) * float64(dt)})
		}
	}
	return out
}

func TestCyclePhasesAndDurations(t *testing.T) {
	const dt = float32(1) / 100
	for _, c := range []struct {
		rate                 float32
		inhale, exhale, rest float64 // seconds: 1.2, 2.4, 0.2 times the rate
	}{
		{1, 1.2, 2.4, 0.2},
		{2, 2.4, 4.8, 0.4},
	} {
		s := rigSettings()
		s.DurationRate = c.rate
		cycle := c.inhale + c.exhale + c.rest
		changes := runPhases(&s, dt, 3*cycle+0.5)
		if len(changes) != 9 {
			t.Fatalf("rate %v: %d phase changes in three cycles, want 9: %v", c.rate, len(changes), changes)
		}
		prev := 0.0
		for i, ch := range changes {
			// Sequence Exhale, Rest, Inhale, Exhale, ... (Init is at Inhale).
			want := [3]Phase{Exhale, Rest, Inhale}[i%3]
			if ch.to != want {
				t.Errorf("rate %v: change %d goes to %v, want %v", c.rate, i, ch.to, want)
			}
			// The phase that ended here lasted its duration, rounded up to
			// whole frames: at least d, less than d plus one frame.
			d := [3]float64{c.inhale, c.exhale, c.rest}[i%3]
			got := ch.time - prev
			if got < d-1e-6 || got > d+float64(dt)+1e-4 {
				t.Errorf("rate %v: phase %v lasted %.4f s, want %.2f s (+1 frame)", c.rate, [3]Phase{Inhale, Exhale, Rest}[i%3], got, d)
			}
			prev = ch.time
		}
	}
}

func TestPeakAnglesScaleWithEffectRate(t *testing.T) {
	for _, eff := range []float32{1, 1.5, 0.25} {
		s := rigSettings()
		s.EffectRate = eff
		s.Segments[Neck].Sign = -1 // the sign flips the neck's angles
		var st State
		Init(&st, &s, 0)
		var lo, hi [MaxSegments]float32
		var atInhaleEnd, atExhaleEnd [MaxSegments]float32
		for k := 0; k < 800; k++ { // two cycles of 3.8 s
			before := st.Phase
			Step(&st, &s, 0.01)
			for i, a := range st.Angle {
				lo[i], hi[i] = min(lo[i], a), max(hi[i], a)
			}
			if before == Inhale && st.Phase == Exhale {
				atInhaleEnd = st.Angle
			}
			if before == Exhale && st.Phase == Rest {
				atExhaleEnd = st.Angle
			}
		}
		// Defaults: spine 2/-2, chest -3/3, neck 0.5/-0.5 (sign -1), head 0.5/-0.5.
		wantIn := [MaxSegments]float32{2 * eff, -3 * eff, -0.5 * eff, 0.5 * eff}
		wantEx := [MaxSegments]float32{-2 * eff, 3 * eff, 0.5 * eff, -0.5 * eff}
		for i := range wantIn {
			near(t, "angle at end of inhale", atInhaleEnd[i], wantIn[i], 1e-6)
			near(t, "angle at end of exhale", atExhaleEnd[i], wantEx[i], 1e-6)
			// No curve overshoots: the extremes are the two targets.
			near(t, "largest angle", hi[i], max(wantIn[i], wantEx[i]), 1e-6)
			near(t, "smallest angle", lo[i], min(wantIn[i], wantEx[i]), 1e-6)
		}
	}
}

func TestFirstInhaleFromZero(t *testing.T) {
	s := rigSettings()
	var st State
	Init(&st, &s, 0)
	Step(&st, &s, 0.6) // half the inhale
	// OutSine at t = d/2 from 0 to 2: 2*sin(pi/4) = 1.41421356.
	near(t, "spine", st.Angle[Spine], 1.41421356, 1e-6)
	// Chest from 0 to -3: -3*sin(pi/4) = -2.12132034.
	near(t, "chest", st.Angle[Chest], -2.12132034, 1e-6)
}

func TestExhaleUsesInOutQuad(t *testing.T) {
	s := rigSettings()
	var st State
	Init(&st, &s, 0)
	Step(&st, &s, 1.2) // ends the inhale: spine at 2
	if st.Phase != Exhale {
		t.Fatalf("phase %v after the whole inhale, want Exhale", st.Phase)
	}
	Step(&st, &s, 0.6) // a quarter of the exhale
	// InOutQuad from 2 to -2 at t = d/4: 2 + (-4)/2 * 0.5^2 = 1.5.
	near(t, "spine", st.Angle[Spine], 1.5, 1e-6)
	s.InhaleEasing = InOutQuad
	Init(&st, &s, 0)
	Step(&st, &s, 0.3) // a quarter of the inhale, now InOutQuad: 0 + 2/2*0.25 = 0.25
	near(t, "spine with InOutQuad inhale", st.Angle[Spine], 0.25, 1e-6)
}

func TestEffectRateChangeWaitsForNextPhase(t *testing.T) {
	s := rigSettings()
	var st State
	Init(&st, &s, 0)
	Step(&st, &s, 0.6)
	s.EffectRate = 2 // mid-inhale: the source keeps the change in value of SetEase
	Step(&st, &s, 0.6)
	near(t, "spine at end of inhale", st.Angle[Spine], 2, 1e-6)
	Step(&st, &s, 2.4)
	near(t, "spine at end of exhale", st.Angle[Spine], -4, 1e-6)
}

// TestDurationChangeWaitsForNextPhase: Step reads the settings only when a
// phase begins, so a duration or rate edited mid-phase applies from the
// next phase on, like an angle or EffectRate.
func TestDurationChangeWaitsForNextPhase(t *testing.T) {
	s := rigSettings()
	var st State
	Init(&st, &s, 0)
	Step(&st, &s, 0.6)
	s.InhaleDuration, s.ExhaleDuration = 5, 1 // mid-inhale
	Step(&st, &s, 0.6)                        // the inhale still ends at 1.2 s
	if st.Phase != Exhale || st.Duration != 1 {
		t.Fatalf("after 1.2 s: %v lasting %v s, want Exhale lasting 1 s", st.Phase, st.Duration)
	}
	s.DurationRate = 2 // mid-exhale
	Step(&st, &s, 0.5)
	near(t, "spine half way through the exhale", st.Angle[Spine], 0, 1e-6)
	Step(&st, &s, 0.5)
	if st.Phase != Rest || st.Duration != 2*DefaultRestDuration {
		t.Fatalf("after the exhale: %v lasting %v s, want Rest lasting %v s", st.Phase, st.Duration, 2*DefaultRestDuration)
	}
}

func TestInitOffset(t *testing.T) {
	s := rigSettings()
	s.DurationRate = 2 // cycle: 2.4 + 4.8 + 0.4 = 7.6 s
	var st State
	for _, c := range []struct {
		offset float32
		phase  Phase
		time   float32
	}{
		{0, Inhale, 0},
		{1, Inhale, 1},
		{3.4, Exhale, 1},
		{7.5, Rest, 0.3},
		{7.6*3 + 1, Inhale, 1}, // wraps
		{-5, Inhale, 0},
		{float32(math.Inf(1)), Inhale, 0},
		{float32(math.NaN()), Inhale, 0},
	} {
		Init(&st, &s, c.offset)
		if st.Phase != c.phase {
			t.Errorf("offset %v: phase %v, want %v", c.offset, st.Phase, c.phase)
		}
		near(t, "time in phase", float32(st.Time), c.time, 1e-4)
		if st.Angle != ([MaxSegments]float32{}) || st.Prev != st.Angle {
			t.Errorf("offset %v: Angle %v Prev %v, want zero (nothing applied yet)", c.offset, st.Angle, st.Prev)
		}
	}
	// In the steady cycle an inhale starts from the exhale angle: spine from
	// -2 to 2 with OutSine over 2.4 s, at t = 1.2 (half): -2 + 4*sin(pi/4).
	Init(&st, &s, 1)
	Step(&st, &s, 0.2)
	near(t, "spine 1.2 s into a steady inhale", st.Angle[Spine], -2+4*0.70710678, 1e-5)
	// Exhale, 1 s in, after 0.2 s more: InOutQuad from 2 to -2 over 4.8 s at
	// t = 1.2 (a quarter): 2 - 2*0.25 = 1.5.
	Init(&st, &s, 3.4)
	Step(&st, &s, 0.2)
	near(t, "spine 1.2 s into an exhale", st.Angle[Spine], 1.5, 1e-5)
	// Rest holds -2.
	Init(&st, &s, 7.5)
	Step(&st, &s, 0.05)
	near(t, "spine at rest", st.Angle[Spine], -2, 1e-6)
	if st.Phase != Rest {
		t.Errorf("phase %v, want Rest with 0.05 s of rest left", st.Phase)
	}
}

func TestStepZeroDt(t *testing.T) {
	s := rigSettings()
	var st State
	Init(&st, &s, 0.5)
	Step(&st, &s, 0.1)
	want := st
	for _, dt := range []float32{0, -1, float32(math.NaN()), float32(math.Inf(-1))} {
		Step(&st, &s, dt)
		if st.Phase != want.Phase || st.Time != want.Time || st.Angle != want.Angle {
			t.Errorf("dt = %v moved the state: %+v, want %+v", dt, st, want)
		}
	}
}

func TestStepHugeDt(t *testing.T) {
	s := rigSettings()
	var st State
	Init(&st, &s, 0)
	// Each huge step finishes exactly one phase and lands on its target.
	for _, dt := range []float32{1e30, float32(math.Inf(1)), math.MaxFloat32} {
		Init(&st, &s, 0)
		Step(&st, &s, dt)
		if st.Phase != Exhale || st.Angle[Spine] != 2 {
			t.Errorf("dt = %v: phase %v spine %v, want Exhale at 2", dt, st.Phase, st.Angle[Spine])
		}
		Step(&st, &s, dt)
		if st.Phase != Rest || st.Angle[Spine] != -2 {
			t.Errorf("dt = %v: phase %v spine %v, want Rest at -2", dt, st.Phase, st.Angle[Spine])
		}
		Step(&st, &s, dt)
		if st.Phase != Inhale || st.Angle[Spine] != -2 {
			t.Errorf("dt = %v: phase %v spine %v, want Inhale from -2", dt, st.Phase, st.Angle[Spine])
		}
		assertFinite(t, &st)
	}
}

func TestStepZeroDurations(t *testing.T) {
	for _, zero := range []string{"durations", "DurationRate"} {
		s := rigSettings()
		if zero == "durations" {
			s.InhaleDuration, s.ExhaleDuration, s.RestDuration = 0, 0, 0
		} else {
			s.DurationRate = 0
		}
		var st State
		Init(&st, &s, 3) // no cycle to place an offset in: starts at Inhale
		// Every Step ends its phase, even with dt = 0.
		want := []struct {
			phase Phase
			spine float32
		}{{Exhale, 2}, {Rest, -2}, {Inhale, -2}, {Exhale, 2}, {Rest, -2}}
		for k, w := range want {
			Step(&st, &s, 0)
			if st.Phase != w.phase || st.Angle[Spine] != w.spine {
				t.Errorf("zero %s, step %d: phase %v spine %v, want %v at %v", zero, k, st.Phase, st.Angle[Spine], w.phase, w.spine)
			}
			assertFinite(t, &st)
		}
	}
}

func assertFinite(t *testing.T, st *State) {
	t.Helper()
	for i := range st.Angle {
		for _, v := range []float32{st.Angle[i], st.Prev[i], st.Start[i], st.Change[i], float32(st.Time)} {
			if !mathx.IsFinite(v) {
				t.Fatalf("non-finite state: %+v", st)
			}
		}
	}
}

func TestPhaseString(t *testing.T) {
	if Inhale.String() != "Inhale" || Exhale.String() != "Exhale" || Rest.String() != "Rest" || Phase(9).String() != "Phase(invalid)" {
		t.Error("phase names")
	}
}
