package components

// Chains is a character's handle into the world's chain store: its dynamic
// chains [First, First+Count) and its colliders [ColliderFirst,
// ColliderFirst+ColliderCount), placed on its bones every frame.
type Chains struct {
	First, Count                 int32
	ColliderFirst, ColliderCount int32
	// Control: paused, and the weight that multiplies each chain's
	// Settings.Weight.
	Control
	// Faults counts chains of this character that were found with
	// non-finite particles and reset to the animated pose.
	Faults uint32
}
