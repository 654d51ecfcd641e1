package chain

import "math"

// DefaultMaxSubSteps is DynamicBone's cap on steps per frame.
const DefaultMaxSubSteps = 3

// Clock turns frame time into simulation steps. It is pure and small so
// that every simulation with an update rate (chains, spring bones) can use
// it. The zero value of MaxSteps means DefaultMaxSubSteps.
type Clock struct {
	Rate     float32 // steps per second
	MaxSteps int     // hitch cap: steps per frame at most
	acc      float64 // time not yet simulated, seconds
}

// stepSlack absorbs rounding so that a frame exactly one step long gives
// one step, not zero then two (float32 frame times rarely sum exactly).
const stepSlack = 1e-4

func (c *Clock) maxSteps() int {
	if c.MaxSteps > 0 {
		return c.MaxSteps
	}
	return DefaultMaxSubSteps
}

// Fixed adds dt to the accumulator and returns how many steps of 1/Rate to
// run now. When the cap is reached the rest of the accumulator is dropped
// (a hitch is not caught up later), as DynamicBone does. A Rate <= 0 means
// one step per frame. Non-finite or negative dt counts as zero.
func (c *Clock) Fixed(dt float32) int {
	if !(dt > 0) || math.IsInf(float64(dt), 0) {
		return 0
	}
	if !(c.Rate > 0) || math.IsInf(float64(c.Rate), 0) {
		return 1
	}
	step := 1 / float64(c.Rate)
	c.acc += float64(dt)
	maxN := c.maxSteps()
	n := 0
	for c.acc >= step*(1-stepSlack) {
		c.acc -= step
		if n++; n >= maxN {
			c.acc = 0
			break
		}
	}
	if c.acc < 0 {
		c.acc = 0
	}
	return n
}

// Variable returns the frame's steps for the variable-step mode: dt split
// into n equal steps of h <= 1/Rate. Time beyond MaxSteps/Rate is dropped
// (the hitch cap). Zero, negative or non-finite dt gives no step.
func (c *Clock) Variable(dt float32) (n int, h float32) {
	if !(dt > 0) || math.IsInf(float64(dt), 0) {
		return 0, 0
	}
	if !(c.Rate > 0) || math.IsInf(float64(c.Rate), 0) {
		return 1, dt
	}
	maxN := c.maxSteps()
	if lim := float32(maxN) / c.Rate; dt > lim {
		dt = lim
	}
	n = int(math.Ceil(float64(dt*c.Rate) - stepSlack))
	if n < 1 {
		n = 1
	}
	if n > maxN {
		n = maxN
	}
	return n, dt / float32(n)
}

// Reset empties the accumulator.
func (c *Clock) Reset() { c.acc = 0 }
