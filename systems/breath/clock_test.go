package breath

import (
	"math"
	"math/rand"
	"testing"
)

// phaseFrames steps a fresh state at dt for the given number of frames and
// returns the frame numbers (1-based) of the Steps that began a phase.
func phaseFrames(s *Settings, dt func(k int) float32, frames int) (ends []int, at []float64) {
	var st State
	Init(&st, s, 0)
	t := 0.0
	for k := 1; k <= frames; k++ {
		before := st.Phase
		d := dt(k)
		Step(&st, s, d)
		t += float64(d)
		if st.Phase != before {
			ends, at = append(ends, k), append(at, t)
		}
	}
	return ends, at
}

// TestPhasesTakeWholeFrames: at 60, 90 and 30 fps the default durations
// (1.2, 2.4, 0.2 s) are whole numbers of frames, and every phase takes
// exactly that many, cycle after cycle: float32 frame times summed do not
// reach 1.2 s at the 72nd frame of 1/60 s (a clock compared exactly ran
// 73, 145 and 12 frames and drifted two frames a cycle).
func TestPhasesTakeWholeFrames(t *testing.T) {
	for _, c := range []struct {
		fps    int
		frames [3]int // inhale, exhale, rest: 1.2, 2.4, 0.2 s times fps
	}{
		{60, [3]int{72, 144, 12}},
		{90, [3]int{108, 216, 18}},
		{30, [3]int{36, 72, 6}},
	} {
		s := rigSettings()
		dt := float32(1) / float32(c.fps)
		const cycles = 100
		cycle := c.frames[0] + c.frames[1] + c.frames[2]
		ends, _ := phaseFrames(&s, func(int) float32 { return dt }, cycles*cycle)
		prev := 0
		for i, k := range ends {
			if got, want := k-prev, c.frames[i%3]; got != want {
				t.Fatalf("%d fps: phase %d (%v) took %d frames, want %d", c.fps, i, Phase(i%3), got, want)
			}
			prev = k
		}
		if len(ends) != 3*cycles {
			t.Fatalf("%d fps: %d phase changes in %d cycles, want %d", c.fps, len(ends), cycles, 3*cycles)
		}
		// 100 cycles of 3.8 s end on frame 100*228 = 22800 at 60 fps.
		if last := ends[len(ends)-1]; last != cycles*cycle {
			t.Errorf("%d fps: cycle %d ended on frame %d, want %d", c.fps, cycles, last, cycles*cycle)
		}
	}
}

// TestCycleKeepsTime: at a rate that does not divide the durations
// (144 fps: 172.8, 345.6 and 28.8 frames) and with uneven frame times, the
// time past a phase's end carries into the next, so cycle k ends on the
// first frame at or after k*3.8 s: no later than one frame past it and no
// earlier than the clock's slack allows (2^-20 of each phase's duration,
// at most 3.8 s * 2^-20 = 3.6 µs a cycle).
func TestCycleKeepsTime(t *testing.T) {
	const cycle, cycles = 3.8, 100
	r := rand.New(rand.NewSource(7))
	for _, c := range []struct {
		name  string
		dt    func(int) float32
		maxDt float64
	}{
		{"144 fps", func(int) float32 { return float32(1) / 144 }, 1.0 / 144},
		{"uneven 1/200..1/25 s", func(int) float32 { return float32(0.005 + 0.035*r.Float64()) }, 0.04},
	} {
		s := rigSettings()
		frames := int(cycles * cycle * 250)
		ends, at := phaseFrames(&s, c.dt, frames)
		if len(ends) < 3*cycles {
			t.Fatalf("%s: %d phase changes, want at least %d", c.name, len(ends), 3*cycles)
		}
		for k := 1; k <= cycles; k++ {
			got, want := at[3*k-1], float64(k)*cycle
			tol := float64(k) * cycle / (1 << 20)
			if got < want-tol || got >= want+c.maxDt+tol {
				t.Fatalf("%s: cycle %d ended at %.6f s, want in [%.6f, %.6f)", c.name, k, got, want-tol, want+c.maxDt)
			}
		}
	}
}

// TestCarryIntoNextPhase: the time past a phase's end starts the next one;
// a zero-length phase passes it on, and a carry longer than the next phase
// (a hitch) is dropped.
func TestCarryIntoNextPhase(t *testing.T) {
	s := rigSettings()
	var st State
	Init(&st, &s, 0)
	Step(&st, &s, 1)
	Step(&st, &s, 0.5) // 1.5 s: the 1.2 s inhale ended 0.3 s ago
	if st.Phase != Exhale || math.Abs(st.Time-0.3) > 1e-6 {
		t.Fatalf("after 1.5 s: %v at %v s, want Exhale at 0.3 s", st.Phase, st.Time)
	}
	Step(&st, &s, 0.6)
	// InOutQuad from 2 to -2 over 2.4 s at t = 0.9: x = 2*0.9/2.4 = 0.75,
	// 2 + (-4)/2 * 0.75^2 = 0.875 (dropping the carry gave 1.5).
	near(t, "spine 0.9 s into the exhale", st.Angle[Spine], 0.875, 1e-5)

	s.RestDuration = 0
	Init(&st, &s, 0)
	for range 8 { // inhale ends at 1.5 s (carry 0.3), exhale at 4 s (carry 0.4)
		Step(&st, &s, 0.5)
	}
	if st.Phase != Rest || math.Abs(st.Time-0.4) > 1e-6 {
		t.Fatalf("after 4 s: %v at %v s, want Rest at 0.4 s", st.Phase, st.Time)
	}
	Step(&st, &s, 0.5) // the zero-length rest ends and passes 0.9 s on
	if st.Phase != Inhale || math.Abs(st.Time-0.9) > 1e-6 {
		t.Fatalf("after 4.5 s: %v at %v s, want Inhale at 0.9 s", st.Phase, st.Time)
	}

	s = rigSettings()
	Init(&st, &s, 0)
	Step(&st, &s, 5) // 3.8 s past the inhale: longer than the exhale
	if st.Phase != Exhale || st.Time != 0 {
		t.Errorf("after a 5 s hitch: %v at %v s, want Exhale at 0", st.Phase, st.Time)
	}
}
