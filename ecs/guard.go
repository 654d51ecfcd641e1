package sway

import (
	"github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/components"
)

// A World is not safe for concurrent use. Every method that reads or
// writes the world's state is a call: it claims the world on entry with
// one atomic compare-and-swap and releases it on return, so that a call
// made while another runs on another goroutine (Step included) fails with
// ErrConcurrentCall instead of corrupting the world or hanging, and a call
// on a closed world fails with ErrClosed. Methods that return an error
// return a *CallError naming the method; the few that return none
// (IsCharacter, NumCharacters, Checksum, the handles' Len) return
// their zero value. ECS, Pipeline, Time and Workers are plain reads, not
// calls: a system may call them during Step.

// enter claims the world for one call of method.
func (w *World) enter(method string) error {
	if !w.busy.CompareAndSwap(false, true) {
		return &CallError{Method: method, Reason: ErrConcurrentCall}
	}
	if w.closed {
		w.busy.Store(false)
		return &CallError{Method: method, Reason: ErrClosed}
	}
	return nil
}

// leave releases the world claimed by enter.
func (w *World) leave() { w.busy.Store(false) }

// isCharacter reports whether e is a live character of this world. An ID
// above any this world gave a character is not one, and is not looked up
// (arche would index past its entities for another world's entity).
func (w *World) isCharacter(e ecs.Entity) bool {
	return !e.IsZero() && e.ID() <= w.maxChar && w.ecs.Alive(e) && w.poses.Has(e)
}

// pose returns a live character's pose, or an *EntityError saying why e
// is not one.
func (w *World) pose(e ecs.Entity) (*components.Pose, error) {
	if !w.isCharacter(e) {
		return nil, w.entityError(e)
	}
	return w.poses.Get(e), nil
}

// entityError says why e is not a live character (the slow path: it may
// ask arche for its statistics).
func (w *World) entityError(e ecs.Entity) error {
	reason := ErrNotCharacter
	switch {
	case e.IsZero():
	case e.ID() > w.maxChar && int(e.ID()) > w.ecs.Stats().Entities.Total:
		reason = ErrForeignEntity
	case !w.ecs.Alive(e):
		reason = ErrRemovedEntity
	}
	return &EntityError{Entity: e, Reason: reason}
}
