package breath

import "github.com/sway-anim/sway/internal/mathx"

// Phase is a part of the breath cycle: Inhale, then Exhale, then Rest, then
// Inhale again.
type Phase uint8

// The phases in cycle order.
const (
	Inhale Phase = iota
	Exhale
	Rest
)

func (p Phase) String() string {
	switch p {
	case Inhale:
		return "Inhale"
	case Exhale:
		return "Exhale"
	case Rest:
		return "Rest"
	}
	return "Phase(invalid)"
}

// State is one character's place in its breath. It holds plain values only,
// so it can live in an ECS component and be copied freely. The zero State is
// not a valid start; use Init.
type State struct {
	Phase Phase
	// Easing is the current phase's curve: Settings.InhaleEasing while
	// inhaling, InOutQuad while exhaling (unused at rest).
	Easing Easing
	// Duration is the current phase's duration in seconds, DurationRate
	// applied, read from the settings when the phase began: Step reads the
	// settings only then.
	Duration float32
	// Time is the simulation time in seconds since the current phase began,
	// at least 0. It is a float64 so that a sum of float32 frame times is
	// exact (see Step).
	Time float64
	// Angle is each segment's eased angle in degrees this frame, sign
	// included (the source's lastEaseValue).
	Angle [MaxSegments]float32
	// Prev is Angle of the previous Step: Additive mode applies the
	// difference.
	Prev [MaxSegments]float32
	// Start and Change are the current ease's start angle and change in
	// angle, in degrees (the source's b and c). In Rest they still
	// describe the finished exhale. The state keeps degrees, as the
	// settings give them; Apply turns an angle into radians as it builds
	// the rotation.
	Start  [MaxSegments]float32
	Change [MaxSegments]float32
}

// maxStep bounds one step so that Time stays finite for any dt.
const maxStep = 1e6

// phaseSlack is the part of a phase's duration within which the phase
// counts as over. It absorbs the rounding of float32 frame times and
// durations (a few 1e-8 of the duration), so that 72 frames of 1/60 s end
// a 1.2 s phase, as the chain clock's stepSlack does for its steps.
const phaseSlack = 1.0 / (1 << 20)

// Init starts st at the beginning of an inhale from the unbent pose, as the
// source's OnEnable does, then moves it offset seconds (of simulation time,
// already scaled by DurationRate) into the cycle, so a crowd given different
// offsets does not breathe in step. A positive offset places the state in
// the steady cycle (inhales start from the exhale angle); the wrapped offset
// is offset modulo one cycle. Angle and Prev stay zero: nothing has been
// applied to the pose yet, so the first Step applies the whole angle in
// Additive mode too.
func Init(st *State, s *Settings, offset float32) {
	*st = State{}
	for i := range st.Change {
		st.Change[i] = target(s, i, Inhale)
	}
	begin(st, s, Inhale)
	r := rate(s)
	in, ex, rest := duration(s.InhaleDuration, r), duration(s.ExhaleDuration, r), duration(s.RestDuration, r)
	cycle := in + ex + rest
	if !(offset > 0) || !(cycle > 0) || !mathx.IsFinite(offset) {
		return
	}
	o := offset - cycle*float32(int64(offset/cycle))
	if !(o >= 0) || o >= cycle {
		o = 0 // rounding at the wrap
	}
	switch {
	case o < in:
		st.Time = float64(o)
		for i := range st.Start {
			st.Start[i] = target(s, i, Exhale)
			st.Change[i] = target(s, i, Inhale) - st.Start[i]
		}
	case o < in+ex:
		begin(st, s, Exhale)
		st.Time = float64(o - in)
		for i := range st.Start {
			st.Start[i] = target(s, i, Inhale)
			st.Change[i] = target(s, i, Exhale) - st.Start[i]
		}
	default:
		begin(st, s, Rest)
		st.Time = float64(o - in - ex)
		for i := range st.Start {
			st.Start[i] = target(s, i, Inhale)
			st.Change[i] = target(s, i, Exhale) - st.Start[i]
		}
	}
}

// begin sets the phase, its curve and its duration (Time and the ease are
// the caller's).
func begin(st *State, s *Settings, p Phase) {
	st.Phase = p
	r := rate(s)
	switch p {
	case Inhale:
		st.Easing, st.Duration = s.InhaleEasing, duration(s.InhaleDuration, r)
	case Exhale:
		st.Easing, st.Duration = InOutQuad, duration(s.ExhaleDuration, r)
	default:
		st.Easing, st.Duration = InOutQuad, duration(s.RestDuration, r)
	}
}

// Step advances st by dt seconds of simulation time and sets Angle to this
// frame's eased angles, as one LateUpdate of the source: the angles are
// eased first, then, if the phase is over, the next phase begins on this
// frame and its ease starts from the angles just reached. At most one
// phase ends per Step. A phase is over when its time has run out, to
// within phaseSlack of its duration; a zero duration counts as finished,
// so a phase lasts at least one Step. Rest holds the exhale angles.
//
// Unlike the source, which drops the time past a phase's end, Step carries
// it into the next phase, so that the cycle keeps time: phases end on the
// first frame at or after their exact end and do not drift. A carry of at
// most phaseSlack of the duration is dropped (so frame times that add up
// to a duration begin the next phase at exactly 0), and so is a carry that
// would end the next phase too (a hitch longer than the phase; a
// zero-length phase passes its carry on). A negative or NaN dt counts as
// zero.
//
// s is read only when a phase begins (for its targets, curve and
// duration): edits to the settings take effect at the next phase.
func Step(st *State, s *Settings, dt float32) {
	if !(dt > 0) {
		dt = 0
	} else if dt > maxStep {
		dt = maxStep
	}
	st.Time += float64(dt)
	d := float64(st.Duration)
	end := d - d*phaseSlack
	// Copied after the clock, whose conversions would otherwise reuse the
	// copy's register and wait for its load (slow right after the last
	// Step's stores, as in a tight loop over one state).
	st.Prev = st.Angle
	if st.Time < end {
		p := float32(1) // Rest holds the exhale's end
		if st.Phase != Rest {
			p = progress(st.Easing, float32(st.Time), st.Duration)
		}
		for i := range st.Angle {
			st.Angle[i] = st.Start[i] + st.Change[i]*p
		}
		return
	}
	// The phase is over and ends on its target.
	for i := range st.Angle {
		st.Angle[i] = st.Start[i] + st.Change[i]
	}
	c := st.Time - d
	switch st.Phase {
	case Rest:
		begin(st, s, Inhale)
		setEase(st, s, Inhale)
	case Inhale:
		begin(st, s, Exhale)
		setEase(st, s, Exhale)
	default:
		begin(st, s, Rest) // Start and Change keep the finished exhale
	}
	st.Time = carry(c, d, st.Duration)
}

// carry returns the time c past the end of a phase of duration d that the
// next phase, of duration next, begins with (see Step).
func carry(c, d float64, next float32) float64 {
	if c <= d*phaseSlack || (next > 0 && c >= float64(next)) {
		return 0
	}
	return c
}

// setEase starts an ease from the current angles to the targets of phase p.
// The targets are read now, as the source's SetEase does: a change of
// EffectRate takes effect at the next phase.
func setEase(st *State, s *Settings, p Phase) {
	for i := range st.Start {
		st.Start[i] = st.Angle[i]
		st.Change[i] = target(s, i, p) - st.Angle[i]
	}
}

// target returns segment i's angle at the end of phase p (Inhale or Exhale).
func target(s *Settings, i int, p Phase) float32 {
	sg := &s.Segments[i]
	a := sg.ExhaleDegrees
	if p == Inhale {
		a = sg.InhaleDegrees
	}
	return a * sg.Sign * s.EffectRate
}

// rate returns DurationRate with a NaN or negative rate counted as zero.
func rate(s *Settings) float32 {
	if r := s.DurationRate; r > 0 {
		return r
	}
	return 0
}

// duration scales d by r; a NaN, negative or infinite product counts as zero.
func duration(d, r float32) float32 {
	if v := d * r; v > 0 && mathx.IsFinite(v) {
		return v
	}
	return 0
}
