package scene

import (
	"math"
	"math/rand"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/mlange-42/arche/ecs"

	sway "github.com/sway-anim/sway/ecs"
)

// AddProcedural gives every character breathing (its phase offset and
// rate varied by the seed so that a crowd does not breathe in step), head
// and eye look-at, and a two-bone IK on the left leg.
func (s *Scene) AddProcedural(w *sway.World, ents []ecs.Entity, seed int64) error {
	rng := rand.New(rand.NewSource(seed))
	breath := sway.BreathFor(s.Skeleton)
	look := sway.LookAtFor(s.Skeleton)
	leg, err := sway.IKLimbFor(s.Skeleton, "upper_leg.L", "lower_leg.L", "foot.L")
	if err != nil {
		return err
	}
	leg.Hint, leg.HintSpace = mgl32.Vec3{0.1, 0.5, 0.6}, sway.IKHintRoot // knee bends forward
	for _, e := range ents {
		b := breath
		b.Offset = rng.Float32() * 4
		b.DurationRate = 0.8 + 0.4*rng.Float32()
		if err := w.AddBreath(e, b); err != nil {
			return err
		}
		if err := w.AddLookAt(e, look); err != nil {
			return err
		}
		if err := w.AddIK(e, leg); err != nil {
			return err
		}
	}
	return nil
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
		if err := w.SetLookAtTarget(e, look); err != nil {
			return err
		}
		step := float32(math.Sin(2 * a))
		foot := root.Pos.Add(root.Rot.Rotate(mgl32.Vec3{0.1, 0.12 + 0.08*step, 0.15 * step}))
		if err := w.SetIKTarget(e, 0, foot); err != nil {
			return err
		}
	}
	return nil
}
