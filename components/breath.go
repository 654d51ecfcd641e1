package components

import "github.com/sway-anim/sway/systems/breath"

// Breath is a character's procedural breathing: the spine, chest, neck and
// head (any bones) bend a few degrees in a loop of inhale, exhale and rest
// while the shoulders keep their world rotations.
//
// Everything is plain data resolved at set-up
// (systems.NewBreathComponent): bones are indices into the character's
// skeleton, axes are chosen from the rest pose, and Plan is the settings
// resolved against the skeleton. Breath holds what every frame reads and
// writes, 144 bytes; the settings, read only when a phase begins,
// are the character's BreathSettings component, so that a frame does not
// pull them through the cache. Change the bones, axes or mode only through
// a new component; angles, durations and rates may be edited in place (in
// BreathSettings) and take effect at the next phase.
type Breath struct {
	State breath.State
	Plan  breath.Plan
	// Control: paused (the breath's clock stops and its bones show the
	// pose coming into it), and the weight its bends are scaled by.
	Control
	// DirtyHi is one past the last bone whose world transform the breath
	// changes: the end of the union of the written bones' subtrees.
	DirtyHi int32
}

// BreathSettings holds the settings of a character's Breath.
type BreathSettings struct {
	breath.Settings
}
