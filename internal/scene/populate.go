package scene

import (
	"github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/ecs"
)

// Populate adds the scene's characters to w at their roots for time 0.
func (s *Scene) Populate(w *sway.World) ([]ecs.Entity, error) {
	ents := make([]ecs.Entity, len(s.Chars))
	for i := range s.Chars {
		e, err := w.AddCharacter(s.Skeleton, s.RootAt(i, 0))
		if err != nil {
			return nil, err
		}
		ents[i] = e
	}
	return ents, nil
}

// MoveRoots sets every character's root for simulated time t: the game's
// part of a frame.
func (s *Scene) MoveRoots(w *sway.World, ents []ecs.Entity, t float64) error {
	for i, e := range ents {
		if err := w.SetRoot(e, s.RootAt(i, t)); err != nil {
			return err
		}
	}
	return nil
}
