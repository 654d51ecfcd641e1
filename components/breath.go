package components

import "github.com/sway-anim/sway/systems/breath"

// Breath is a character's procedural breathing: the spine, chest, neck and
// head (any bones) bend a few degrees in a loop of inhale, exhale and rest
// while the shoulders keep their world rotations.
//
// Everything is plain data resolved at set-up
// (systems.NewBreathComponent): bones are indices into the character's
// skeleton, axes are chosen from the rest pose, and Plan is Settings
// resolved against the skeleton. Change the bones, axes or mode only
// through a new component; angles, durations and rates may be edited in
// place and take effect at the next phase.
type Breath struct {
	Settings breath.Settings
	Plan     breath.Plan
	State    breath.State
	// DirtyHi is one past the last bone whose world transform the breath
	// changes: the end of the union of the written bones' subtrees.
	DirtyHi int32
}
