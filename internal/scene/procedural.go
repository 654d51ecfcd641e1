package scene

import (
	"math"
	"math/rand"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/ecs"
)

// AddProcedural gives every character breathing (its phase offset and
// rate varied by the seed so that a crowd does not breathe in step), head
// and eye look-at, and a two-bone IK on the left leg.
func (s *Scene) AddProcedural(w *sway.World, ents []ecs.Entity, seed int64) error {
	pr, err := s.newProcedural(seed)
	if err != nil {
		return err
	}
	for _, e := range ents {
		if err := pr.add(w, e); err != nil {
			return err
		}
	}
	return nil
}

// procedural is what AddProcedural gives every character, and the
// generator of the per-character variations.
type procedural struct {
	rng    *rand.Rand
	breath sway.BreathSettings
	look   sway.LookAtSettings
	leg    sway.IKLimb
}

func (s *Scene) newProcedural(seed int64) (*procedural, error) {
	leg, err := sway.IKLimbFor(s.Skeleton, "upper_leg.L", "lower_leg.L", "foot.L")
	if err != nil {
		return nil, err
	}
	leg.Hint, leg.HintSpace = mgl32.Vec3{0.1, 0.5, 0.6}, sway.IKHintRoot // knee bends forward
	return &procedural{rng: rand.New(rand.NewSource(seed)), breath: sway.BreathFor(s.Skeleton), look: sway.LookAtFor(s.Skeleton), leg: leg}, nil
}

// add gives one character breathing, look-at and the leg IK.
func (pr *procedural) add(w *sway.World, e ecs.Entity) error {
	b := pr.breath
	b.Offset = pr.rng.Float32() * 4
	b.DurationRate = 0.8 + 0.4*pr.rng.Float32()
	if _, err := w.Breath().Add(e, b); err != nil {
		return err
	}
	if _, err := w.LookAt().Add(e, pr.look); err != nil {
		return err
	}
	_, err := w.IK().Add(e, pr.leg)
	return err
}

// SteerProcedural sets every character's look-at and IK targets for time t
// (the game's part of a frame): the look-at target circles the character
// at eye height, 1.5 m away; the left foot's target lifts and swings in
// front of the hip.
func (s *Scene) SteerProcedural(w *sway.World, ents []ecs.Entity, t float64) error {
	for i, e := range ents {
		root := s.RootAt(i, t)
		c := &s.Chars[i]
		a := float64(c.Phase) + 1.3*t
		sin, cos := math.Sincos(a)
		look := root.Pos.Add(mgl32.Vec3{1.5 * float32(cos), 1.6, 1.5 * float32(sin)})
		if err := w.LookAt().Of(e).SetTarget(look); err != nil {
			return err
		}
		step := float32(math.Sin(2 * a))
		foot := root.Pos.Add(root.Rot.Rotate(mgl32.Vec3{0.1, 0.12 + 0.08*step, 0.15 * step}))
		if err := w.IK().Of(e).SetTarget(0, foot); err != nil {
			return err
		}
	}
	return nil
}
