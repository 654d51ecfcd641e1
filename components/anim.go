package components

import "github.com/sway-anim/sway/systems/anim"

// Animation makes a character play a blend space of the world's animation
// library: the animation system writes its local pose each frame instead of
// the rest pose. Space indexes the library's blend spaces (clips and spaces
// hold slices, so they live in the shared resource); the embedded Player is
// the character's own playback state: the blend parameter and its target,
// one normalised time for all clips of the space (so locomotion loops of
// different lengths stay in step) and a speed, Direct weights and the
// weights of the last frame.
type Animation struct {
	Space uint32 // index into the animation library's blend spaces
	// Control: paused (the player's clock stops; it keeps posing its
	// time), and the weight that blends its pose with the rest pose.
	Control
	anim.Player
	// Root is the character's root motion: kept on the root bone (the
	// default) or taken out of the pose in place, with the last frame's
	// delta for the game to move the character by.
	Root anim.RootMotion
}
