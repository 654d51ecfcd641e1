package components

// VRMSprings is a character's handle into the world's spring store: its
// VRM springs [First, First+Count) and its colliders [ColliderFirst,
// ColliderFirst+ColliderCount), placed on its bones every frame. The
// springs of one character are stored ordered so that a spring hanging
// from another spring's joint comes after it.
type VRMSprings struct {
	First, Count                 int32
	ColliderFirst, ColliderCount int32
	// SetFirst, SetCount: the character's collider subsets (springs that
	// use some of its colliders), gathered from the placed colliders
	// every frame.
	SetFirst, SetCount int32
	// LastBone is the highest bone the springs read a world transform of
	// before stepping (parents, centres, collider bones).
	LastBone int32
	// LastRoot is the root of the previous step, for teleport detection.
	LastRoot Transform
	// Started is false until the first step, which starts the springs
	// from the animated pose.
	Started bool
	// Control: paused, and the weight the springs' rotations are blended
	// with the animated ones by.
	Control
	// Teleport is the jump test run before each step.
	Teleport Teleport
	// Faults counts springs of this character that were found with
	// non-finite state after a step and reset to the animated pose.
	Faults uint32
}

// SimpleSprings is a character's handle into the world's spring store: its
// simple (tip) spring chains [First, First+Count).
type SimpleSprings struct {
	First, Count int32
	LastBone     int32 // highest bone read before stepping (parents, centres)
	LastRoot     Transform
	Started      bool
	Control               // paused, and the weight (as VRMSprings)
	Teleport     Teleport // the jump test run before each step
	Faults       uint32
}
