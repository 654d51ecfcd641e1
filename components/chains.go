package components

// Chains is a character's handle into the world's chain store: its dynamic
// chains [First, First+Count) and its colliders [ColliderFirst,
// ColliderFirst+ColliderCount), placed on its bones every frame.
type Chains struct {
	First, Count                 int32
	ColliderFirst, ColliderCount int32
	// Paused characters keep the animated pose and their particles wait;
	// resuming restarts them from the animated pose.
	Paused bool
	// Faults counts chains of this character that were found with
	// non-finite particles and reset to the animated pose.
	Faults uint32
}
