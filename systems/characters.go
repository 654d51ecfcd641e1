package systems

import (
	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"

	"github.com/sway-anim/sway/components"
	"github.com/sway-anim/sway/internal/mathx"
	"github.com/sway-anim/sway/internal/rig"
	"github.com/sway-anim/sway/internal/slicex"
	"github.com/sway-anim/sway/systems/fk"
)

// charRef points at one character's components for the length of one
// Update (see the package doc for why that is safe).
type charRef struct {
	pose *components.Pose
	root *components.Root
}

// characters gathers the characters a filter matches, on the calling
// goroutine, into a slice reused from frame to frame.
type characters struct {
	filter *generic.Filter2[components.Pose, components.Root]
	items  []charRef
}

func newCharacters() characters {
	return characters{filter: generic.NewFilter2[components.Pose, components.Root]()}
}

func (c *characters) gather(w *ecs.World) []charRef {
	q := c.filter.Query(w)
	c.items = slicex.Reserve(c.items, q.Count()) // see featureCharacters.gather
	for q.Next() {
		p, r := q.Get()
		c.items = append(c.items, charRef{p, r})
	}
	return c.items
}

// release drops the pointers so none outlives the frame.
func (c *characters) release() {
	clear(c.items)
	c.items = c.items[:0]
}

// featureRef points at one character's components and one feature
// component (breath, look-at, chains...) for the length of one Update.
type featureRef[T any] struct {
	pose *components.Pose
	root *components.Root
	feat *T
}

// featureCharacters gathers the characters that carry a feature
// component T, like characters does for all of them.
type featureCharacters[T any] struct {
	filter *generic.Filter3[components.Pose, components.Root, T]
	items  []featureRef[T]
}

func newFeatureCharacters[T any]() featureCharacters[T] {
	return featureCharacters[T]{filter: generic.NewFilter3[components.Pose, components.Root, T]()}
}

func (c *featureCharacters[T]) gather(w *ecs.World) []featureRef[T] {
	q := c.filter.Query(w)
	// Sized to the count before the first append: grown by appending, the
	// first frame of a crowd would leave every outgrown copy behind as
	// garbage, which no collection reclaims while frames allocate nothing.
	c.items = slicex.Reserve(c.items, q.Count())
	for q.Next() {
		p, r, f := q.Get()
		c.items = append(c.items, featureRef[T]{p, r, f})
	}
	return c.items
}

// release drops the pointers so none outlives the frame.
func (c *featureCharacters[T]) release() {
	clear(c.items)
	c.items = c.items[:0]
}

// rootFinite reports whether a root transform is usable.
func rootFinite(t *components.Transform) bool {
	return mathx.Vec3Finite(t.Pos) && mathx.QuatFinite(t.Rot) && mathx.Vec3Finite(t.Scale)
}

// Sync brings the world transforms of one character up to date: a changed
// root marks the whole pose dirty, then only the dirty range is
// recomputed. A non-finite root is not used: the character keeps its last
// good world pose (the final forward-kinematics pass counts the frame in
// Pose.Faults). Sync reports whether the world pose is current.
func Sync(pool *rig.Pool, skel *rig.Skeleton, pose *components.Pose, root *components.Root) bool {
	return syncUpTo(pool, skel, pose, root, pose.Count)
}

// EnsureCurrent makes the world transform of one bone current without
// recomputing more than its stale ancestors and the stale bones before it:
// bones before DirtyLo are current, and the ancestors of bone b lie in
// [DirtyLo, b], so recomputing [DirtyLo, b] suffices and the dirty range
// shrinks to [b+1, DirtyHi). Systems that read a world transform mid-phase
// (look-at reading the head after breathing) call this.
func EnsureCurrent(pool *rig.Pool, skel *rig.Skeleton, pose *components.Pose, root *components.Root, bone int32) bool {
	return syncUpTo(pool, skel, pose, root, bone+1)
}

// takeRoot marks the whole pose dirty when the root moved since the pose
// was computed, and reports false for a non-finite root (the pose keeps its
// last good state).
func takeRoot(pose *components.Pose, root *components.Root) bool {
	if root.Transform != pose.SyncedRoot {
		if !rootFinite(&root.Transform) {
			return false
		}
		pose.SyncedRoot = root.Transform
		pose.MarkAllDirty()
	}
	return true
}

// maxPath is the longest ancestor path EnsurePath computes on its own;
// a longer one falls back to EnsureCurrent's range.
const maxPath = 32

// EnsurePath makes the world transform of bone b current by recomputing
// only its stale ancestors and itself, and leaves the dirty range as it
// was. EnsureCurrent recomputes every stale bone stored before b: on a
// depth-first skeleton that is whole subtrees unrelated to b (a foot is
// stored after the head's hair, so the foot would pay for the hair). The
// bones EnsurePath computes stay in the dirty range and the next full pass
// recomputes them to the same values, so the result does not depend on
// which systems asked for which bones. Look-at, IK and bone targets read a
// handful of bones; they call this.
func EnsurePath(pool *rig.Pool, skel *rig.Skeleton, pose *components.Pose, root *components.Root, b int32) bool {
	if !takeRoot(pose, root) {
		return false
	}
	// Bones before DirtyLo are current, and so are bones from DirtyHi on:
	// every dirty mark covers a whole subtree, so a bone past the range
	// has no stale ancestor.
	if pose.Clean() || b < pose.DirtyLo || b >= pose.DirtyHi {
		return true
	}
	parents := skel.Parents()
	var path [maxPath]int32
	k := maxPath
	for i := b; i >= pose.DirtyLo; i = parents[i] {
		if k == 0 {
			return syncUpTo(pool, skel, pose, root, b+1)
		}
		k--
		path[k] = i
	}
	a, e := pose.First, pose.First+pose.Count
	fk.RunOrder(pool.WorldPos[a:e], pool.WorldRot[a:e], pool.WorldScale[a:e], parents,
		pool.LocalPos[a:e], pool.LocalRot[a:e], pool.LocalScale[a:e],
		root.Pos, root.Rot, root.Scale, path[k:])
	return true
}

func syncUpTo(pool *rig.Pool, skel *rig.Skeleton, pose *components.Pose, root *components.Root, end int32) bool {
	if !takeRoot(pose, root) {
		return false // counted once per frame by the final FK pass
	}
	if pose.Clean() || end <= pose.DirtyLo {
		return true
	}
	hi := min(end, pose.DirtyHi)
	a, b := pose.First, pose.First+pose.Count
	order := skel.LevelOrder() // a full pass: independent neighbours, see fk.RunOrder
	if pose.DirtyLo > 0 || hi < pose.Count {
		order = fk.StorageOrder(int(pose.DirtyLo), int(hi))
	}
	fk.RunOrder(pool.WorldPos[a:b], pool.WorldRot[a:b], pool.WorldScale[a:b], skel.Parents(),
		pool.LocalPos[a:b], pool.LocalRot[a:b], pool.LocalScale[a:b],
		root.Pos, root.Rot, root.Scale, order)
	if hi >= pose.DirtyHi {
		pose.MarkClean()
	} else {
		pose.DirtyLo = hi
	}
	return true
}
