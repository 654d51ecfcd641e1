package sway

import (
	"hash/fnv"
	"math"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"

	"github.com/sway-anim/sway/components"
	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/internal/rig"
	"github.com/sway-anim/sway/systems"
)

// AddCharacter creates a character entity using skel, with its root at
// root, in the rest pose. The world transforms are current on return.
func (w *World) AddCharacter(skel *Skeleton, root Transform) (ecs.Entity, error) {
	if err := w.enter("AddCharacter"); err != nil {
		return ecs.Entity{}, err
	}
	defer w.leave()
	return w.addCharacter(skel, root)
}

func (w *World) addCharacter(skel *Skeleton, root Transform) (ecs.Entity, error) {
	if skel == nil || skel.r == nil {
		return ecs.Entity{}, check.Errorf("AddCharacter", "Skeleton", nil, "a character needs a skeleton (from NewSkeleton or AddRig)")
	}
	r, err := validRoot("AddCharacter", root)
	if err != nil {
		return ecs.Entity{}, err
	}
	w.life.Reclaim(w.ecs) // reuse what characters removed with arche's calls left
	id := w.reg.Add(skel.r)
	if w.skeletons == nil {
		w.skeletons = map[*rig.Skeleton]*Skeleton{}
	}
	w.skeletons[skel.r] = skel
	n := int32(skel.NumBones())
	first := w.pool.Alloc(n)
	pose := components.Pose{Skeleton: id, First: first, Count: n}
	copy(w.pool.LocalPos[first:first+n], skel.RestPos())
	copy(w.pool.LocalRot[first:first+n], skel.RestRot())
	copy(w.pool.LocalScale[first:first+n], skel.RestScale())
	pose.MarkAllDirty()
	rc := components.Root{Transform: r}
	systems.Sync(w.pool, skel.r, &pose, &rc)
	e := w.chars.NewWith(&pose, &rc)
	w.maxChar = max(w.maxChar, e.ID())
	return e, nil
}

// RemoveCharacter removes a character and returns its storage: its pose
// range to the pool at once, its chains and springs at the next Step (or
// Trim). Removing the entity with arche's own calls (RemoveEntity, a batch
// removal) or removing its components.Pose is as safe: the world notices
// by count at the next Step, AddCharacter or Trim and frees the same
// storage (see docs/robustness.md, "Lifetime and misuse").
func (w *World) RemoveCharacter(e ecs.Entity) error {
	if err := w.enter("RemoveCharacter"); err != nil {
		return err
	}
	defer w.leave()
	return w.removeCharacter(e)
}

func (w *World) removeCharacter(e ecs.Entity) error {
	pose, err := w.pose(e)
	if err != nil {
		return err
	}
	w.pool.Release(pose.First, pose.Count)
	if m := &w.maps.chains; m.Has(e) {
		w.chainStore().Release(*m.Get(e))
	}
	w.ecs.RemoveEntity(e)
	return nil
}

// IsCharacter reports whether e is a live character of this world. It
// reports false for another world's entity (see ErrForeignEntity), and
// on a closed world or during another goroutine's call (see CallError).
func (w *World) IsCharacter(e ecs.Entity) bool {
	if w.enter("IsCharacter") != nil {
		return false
	}
	defer w.leave()
	return w.isCharacter(e)
}

// NumCharacters returns the number of characters.
func (w *World) NumCharacters() int {
	if w.enter("NumCharacters") != nil {
		return 0
	}
	defer w.leave()
	q := generic.NewFilter1[components.Pose]().Query(w.ecs)
	n := q.Count()
	q.Close()
	return n
}

// SetRoot moves a character's root. The transform must be finite with a
// unit rotation (normalised within 1e-3), each position component within
// ±1e6 m (check.MaxPosition) and each scale component between 1e-4 and
// 1e4 in absolute value (check.MinScale, check.MaxScale).
func (w *World) SetRoot(e ecs.Entity, root Transform) error {
	if err := w.enter("SetRoot"); err != nil {
		return err
	}
	defer w.leave()
	if _, err := w.pose(e); err != nil {
		return err
	}
	r, err := validRoot("SetRoot", root)
	if err != nil {
		return err
	}
	_, rc := w.chars.Get(e)
	rc.Transform = r
	return nil
}

// Root returns a character's root transform.
func (w *World) Root(e ecs.Entity) (Transform, error) {
	if err := w.enter("Root"); err != nil {
		return Transform{}, err
	}
	defer w.leave()
	if _, err := w.pose(e); err != nil {
		return Transform{}, err
	}
	_, rc := w.chars.Get(e)
	return rc.Transform, nil
}

func validRoot(typ string, t Transform) (Transform, error) {
	if err := check.Position(typ, "Root.Pos", t.Pos); err != nil {
		return t, err
	}
	if err := check.Scale(typ, "Root.Scale", t.Scale); err != nil {
		return t, err
	}
	q, err := check.UnitQuat(typ, "Root.Rot", t.Rot, 1e-3)
	if err != nil {
		return t, err
	}
	t.Rot = q
	return t, nil
}

// Skeleton returns a character's skeleton.
func (w *World) Skeleton(e ecs.Entity) (*Skeleton, error) {
	if err := w.enter("Skeleton"); err != nil {
		return nil, err
	}
	defer w.leave()
	p, err := w.pose(e)
	if err != nil {
		return nil, err
	}
	return w.skeletons[w.reg.Skeletons[p.Skeleton]], nil
}

// BoneWorld returns the world transform of one bone as of the last Step
// (or AddCharacter). A bone whose local transform was set since is brought
// up to date first.
func (w *World) BoneWorld(e ecs.Entity, bone int) (Transform, error) {
	if err := w.enter("BoneWorld"); err != nil {
		return Transform{}, err
	}
	defer w.leave()
	return w.boneWorld(e, bone)
}

func (w *World) boneWorld(e ecs.Entity, bone int) (Transform, error) {
	p, err := w.pose(e)
	if err != nil {
		return Transform{}, err
	}
	if bone < 0 || bone >= int(p.Count) {
		return Transform{}, ErrBone
	}
	_, rc := w.chars.Get(e)
	systems.EnsurePath(w.pool, w.reg.Skeletons[p.Skeleton], p, rc, int32(bone))
	i := p.First + int32(bone)
	return Transform{Pos: w.pool.WorldPos[i], Rot: w.pool.WorldRot[i], Scale: w.pool.WorldScale[i]}, nil
}

// SetBoneLocal sets one bone's local transform and marks its subtree
// dirty. The next Step's animation phase resets it unless a later phase
// writes it again; use it between frames for tools and tests. A custom
// system writes the pose pool itself (rig.Pool, then Pose.MarkDirty):
// during Step, World methods other than ECS, Pipeline, Time and Workers
// return ErrConcurrentCall (see CallError). As for a clip key, each
// translation component must lie within ±1e4 m (check.MaxTranslation)
// and each scale component within ±1e4 (check.MaxScale; zero hides the
// bone), and no bone may end up scaled beyond 1e4 relative to the root
// (check.MaxModelScale).
func (w *World) SetBoneLocal(e ecs.Entity, bone int, t Transform) error {
	if err := w.enter("SetBoneLocal"); err != nil {
		return err
	}
	defer w.leave()
	p, err := w.pose(e)
	if err != nil {
		return err
	}
	if bone < 0 || bone >= int(p.Count) {
		return ErrBone
	}
	if err := check.Translation("SetBoneLocal", "Pos", t.Pos); err != nil {
		return err
	}
	if err := check.ScaleKey("SetBoneLocal", "Scale", t.Scale); err != nil {
		return err
	}
	if t.Rot, err = check.UnitQuat("SetBoneLocal", "Rot", t.Rot, 1e-3); err != nil {
		return err
	}
	i := p.First + int32(bone)
	if err := w.boneScaleFits(p, bone, t.Scale); err != nil {
		return err
	}
	w.pool.LocalPos[i], w.pool.LocalRot[i], w.pool.LocalScale[i] = t.Pos, t.Rot, t.Scale
	p.MarkDirty(int32(bone), w.reg.Skeletons[p.Skeleton].SubtreeEnd(bone))
	return nil
}

// PoseView is a read-only view of one character's pose. Its slices alias
// the world's storage: they are valid until the next Step, AddCharacter,
// RemoveCharacter or Trim, and must not be written. Each holds one element
// per bone, indexed by bone index; see Transform for how they compose.
type PoseView struct {
	// LocalPos is each bone's translation in its parent's space, in metres
	// before the parent's scale (a root bone's in the character's root
	// space); WorldPos its position in world space, in metres; LocalScale
	// its scale relative to its parent and WorldScale in world space (the
	// root's scale included), per axis.
	LocalPos, WorldPos, LocalScale, WorldScale []mgl32.Vec3
	// LocalRot is each bone's rotation relative to its parent (a root
	// bone's to the character's root) and WorldRot in world space, unit
	// quaternions.
	LocalRot, WorldRot []mgl32.Quat
}

// Pose returns a view of a character's pose, its world transforms brought
// up to date.
func (w *World) Pose(e ecs.Entity) (PoseView, error) {
	if err := w.enter("Pose"); err != nil {
		return PoseView{}, err
	}
	defer w.leave()
	p, err := w.pose(e)
	if err != nil {
		return PoseView{}, err
	}
	_, rc := w.chars.Get(e)
	systems.Sync(w.pool, w.reg.Skeletons[p.Skeleton], p, rc)
	a, b := p.First, p.First+p.Count
	return PoseView{
		LocalPos: w.pool.LocalPos[a:b], LocalRot: w.pool.LocalRot[a:b], LocalScale: w.pool.LocalScale[a:b],
		WorldPos: w.pool.WorldPos[a:b], WorldRot: w.pool.WorldRot[a:b], WorldScale: w.pool.WorldScale[a:b],
	}, nil
}

// Checksum hashes the local and world poses of every character, in the
// world's query order, with FNV-1a over the float bits. Equal checksums
// mean bit-identical poses; it is how the worker-count independence is
// checked.
func (w *World) Checksum() uint64 {
	if w.enter("Checksum") != nil {
		return 0
	}
	defer w.leave()
	h := fnv.New64a()
	var buf [4]byte
	put := func(f float32) {
		u := math.Float32bits(f)
		buf[0], buf[1], buf[2], buf[3] = byte(u), byte(u>>8), byte(u>>16), byte(u>>24)
		h.Write(buf[:])
	}
	vecs := func(s []mgl32.Vec3) {
		for _, v := range s {
			put(v[0])
			put(v[1])
			put(v[2])
		}
	}
	quats := func(s []mgl32.Quat) {
		for _, q := range s {
			put(q.W)
			put(q.V[0])
			put(q.V[1])
			put(q.V[2])
		}
	}
	q := generic.NewFilter1[components.Pose]().Query(w.ecs)
	for q.Next() {
		p := q.Get()
		a, b := p.First, p.First+p.Count
		vecs(w.pool.LocalPos[a:b])
		quats(w.pool.LocalRot[a:b])
		vecs(w.pool.LocalScale[a:b])
		vecs(w.pool.WorldPos[a:b])
		quats(w.pool.WorldRot[a:b])
		vecs(w.pool.WorldScale[a:b])
	}
	return h.Sum64()
}
