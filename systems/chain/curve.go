package chain

import (
	"fmt"

	"github.com/sway-anim/sway/internal/check"
)

// Key is one keyframe of a Curve: value V at position T along the chain.
type Key struct {
	// T is the position along the chain: the rest distance from the root
	// over the chain's length, 0 at the root and 1 at the farthest
	// particle. Finite; keys sorted by T (equal T allowed). V is the
	// factor at T, finite; the parameter times V is clamped afterwards
	// (see Settings).
	T, V float32
}

// Curve is a piecewise-linear distribution along a chain: keys sorted by T,
// evaluated at t = (rest distance from the root) / (total chain length), so
// t is 0 at the root and 1 at the farthest particle. Between keys the value
// is interpolated linearly; before the first key and after the last it is
// held constant. An empty curve has no effect (it evaluates to 1, the neutral
// factor), which is what DynamicBone does for a curve without keys.
type Curve []Key

// Eval returns the curve's value at t.
func (c Curve) Eval(t float32) float32 {
	n := len(c)
	if n == 0 {
		return 1
	}
	if !(t > c[0].T) {
		return c[0].V
	}
	if t >= c[n-1].T {
		return c[n-1].V
	}
	// Curves have a handful of keys: a linear scan beats a binary search.
	for i := 1; i < n; i++ {
		k1 := c[i]
		if t <= k1.T {
			k0 := c[i-1]
			span := k1.T - k0.T
			if !(span > 0) {
				return k1.V
			}
			return k0.V + float32((k1.V-k0.V)*((t-k0.T)/span))
		}
	}
	return c[n-1].V
}

// validate reports a non-finite key or keys out of order.
func (c Curve) validate(typ, field string) error {
	for i, k := range c {
		f := fmt.Sprintf("%s[%d]", field, i)
		if err := check.Finite(typ, f+".T", k.T); err != nil {
			return err
		}
		if err := check.Finite(typ, f+".V", k.V); err != nil {
			return err
		}
		if i > 0 && k.T < c[i-1].T {
			return check.Errorf(typ, f+".T", k.T, "keys must be sorted by T (previous key at %g)", c[i-1].T)
		}
	}
	return nil
}

// Curves are a chain's optional per-particle curves, one per parameter of
// Settings they multiply. A nil Curve (or a nil *Curves) has no effect.
type Curves struct {
	Damping, Elasticity, Stiffness Curve // each multiplies the Settings field of its name; nil: 1
	Inert, Friction, Radius        Curve // each multiplies the Settings field of its name; nil: 1
}

// validate checks every curve of c (none for a nil c), naming the field.
func (c *Curves) validate() error {
	if c == nil {
		return nil
	}
	for _, f := range []struct {
		name string
		c    Curve
	}{
		{"Curves.Damping", c.Damping}, {"Curves.Elasticity", c.Elasticity}, {"Curves.Stiffness", c.Stiffness},
		{"Curves.Inert", c.Inert}, {"Curves.Friction", c.Friction}, {"Curves.Radius", c.Radius},
	} {
		if err := f.c.validate(settingsType, f.name); err != nil {
			return err
		}
	}
	return nil
}
