package components

// Root is a character's root transform in the world. The game writes it
// (directly or through the facade); forward kinematics notices a change by
// comparing with Pose.SyncedRoot, so writing the component is enough.
type Root struct {
	// Transform places the character's model space in world space: Pos
	// in metres, Rot a unit quaternion, Scale per axis. The facade's
	// SetRoot checks each position component within ±1e6 m
	// (check.MaxPosition) and each scale component between 1e-4 and 1e4
	// in absolute value; a root that is not finite is skipped by the
	// systems (Pose.Faults).
	Transform
}

// Pose is a character's handle into the world's pose pool: bones
// [First, First+Count) of every pool array belong to this character, in the
// skeleton's parents-before-children order.
//
// DirtyLo..DirtyHi is the range of bones whose world transforms are stale.
// Because the skeleton is stored in depth-first order, every subtree is a
// contiguous index range, so marking a bone dirty extends the range by its
// subtree and forward kinematics recomputes only that range.
type Pose struct {
	Skeleton uint32 // index into the world's skeleton registry
	First    int32  // first bone in the pose pool
	Count    int32  // number of bones
	DirtyLo  int32  // first stale bone (a bone index of the skeleton); the range is clean when DirtyLo >= DirtyHi
	DirtyHi  int32  // one past the last stale bone
	// SyncedRoot is the root transform (world space) the world transforms
	// were computed with; a different Root marks the whole pose dirty.
	SyncedRoot Transform
	// Faults counts frames this character skipped because its root
	// transform was not finite (counted once per frame, by the final
	// forward-kinematics pass); the last good pose is kept.
	Faults uint32
}

// Clean reports whether the world transforms are current.
func (p *Pose) Clean() bool { return p.DirtyLo >= p.DirtyHi }

// MarkDirty marks bones [lo, hi) stale (hi is normally the end of a
// subtree: Skeleton.SubtreeEnd).
func (p *Pose) MarkDirty(lo, hi int32) {
	if p.Clean() {
		p.DirtyLo, p.DirtyHi = lo, hi
		return
	}
	p.DirtyLo = min(p.DirtyLo, lo)
	p.DirtyHi = max(p.DirtyHi, hi)
}

// MarkAllDirty marks the whole pose stale.
func (p *Pose) MarkAllDirty() { p.DirtyLo, p.DirtyHi = 0, p.Count }

// MarkClean records that the world transforms are current.
func (p *Pose) MarkClean() { p.DirtyLo, p.DirtyHi = p.Count, 0 }
