// Package snapio is the snapshot layer: it writes each character's part of
// the stores (pose pool, chain store, spring store) and of its components
// to a world snapshot, and reads it back, checked. It holds no system
// logic: the facade (ecs/snapshot.go) frames the snapshot (magic, version,
// checksum) and calls these encoders character by character; the byte
// layout is internal/snapbin's.
package snapio

import (
	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/components"
	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/internal/rig"
	"github.com/sway-anim/sway/internal/snapbin"
)

// The snapshot encoders: each appends one character's part of a store or
// component to a world snapshot (the facade's World.Snapshot) and reads it back.
// A Read function checks the bytes against the character as the world
// holds it (the counts must be equal: a snapshot is of state, not of
// set-up) and against the values the world can hold, and writes only when
// apply is set; the facade runs every Read twice, first to validate the
// whole snapshot, then to apply it, so a bad snapshot changes nothing.
// Loop counts always come from the world, never from the bytes.

// AppendPose appends a character's root, its Pose's frame-to-frame fields
// (dirty range, the root the world pose was computed with, the fault
// count) and the local and world transforms of its bones.
func AppendPose(b []byte, pool *rig.Pool, p *components.Pose, r *components.Root) []byte {
	b = snapbin.U32(b, uint32(p.Count))
	b = appendTransform(b, &r.Transform)
	b = snapbin.I32(b, p.DirtyLo)
	b = snapbin.I32(b, p.DirtyHi)
	b = appendTransform(b, &p.SyncedRoot)
	b = snapbin.U32(b, p.Faults)
	lo, hi := p.First, p.First+p.Count
	b = snapbin.Vec3s(b, pool.LocalPos[lo:hi])
	b = snapbin.Quats(b, pool.LocalRot[lo:hi])
	b = snapbin.Vec3s(b, pool.LocalScale[lo:hi])
	b = snapbin.Vec3s(b, pool.WorldPos[lo:hi])
	b = snapbin.Quats(b, pool.WorldRot[lo:hi])
	return snapbin.Vec3s(b, pool.WorldScale[lo:hi])
}

// ReadPose reads what AppendPose wrote. The root must be one SetRoot
// accepts, or non-finite (a root written straight into the component:
// the systems keep the last good pose, see Sync); every transform in the
// pool must be finite and within the sizes a world keeping the limits of
// internal/check holds: local scales within MaxScale (the limit on clip
// keys and SetBoneLocal), world positions within MaxWorldPosition and
// world scales within MaxWorldScale. Local translations are held to
// MaxWorldPosition too, not MaxTranslation: chains write their bones'
// local translations from particle positions (see chain.ApplyIn), and
// under a non-uniform scale those exceed the rest pose's.
func ReadPose(r *snapbin.Reader, pool *rig.Pool, p *components.Pose, root *components.Root, apply bool) {
	r.Count("pose.Count", int(p.Count))
	rt := readRoot(r, "root", 1e-3)
	off := r.Offset()
	lo, hi := r.I32("pose.DirtyLo"), r.I32("pose.DirtyHi")
	if lo < 0 || lo > p.Count || hi < 0 || hi > p.Count {
		r.Corrupt(off, "pose.DirtyLo", "the dirty range lies outside the bones")
	}
	synced := readFiniteTransform(r, "pose.SyncedRoot")
	faults := r.U32("pose.Faults")
	apply = apply && !r.Failed()
	if apply {
		root.Transform = rt
		p.DirtyLo, p.DirtyHi, p.SyncedRoot, p.Faults = lo, hi, synced, faults
	}
	a := p.First
	r.Vec3sWithin("pool.LocalPos", pool.LocalPos[a:a+p.Count], check.MaxWorldPosition, apply)
	readQuats(r, "pool.LocalRot", pool.LocalRot[a:a+p.Count], apply)
	r.Vec3sWithin("pool.LocalScale", pool.LocalScale[a:a+p.Count], check.MaxScale, apply)
	r.Vec3sWithin("pool.WorldPos", pool.WorldPos[a:a+p.Count], check.MaxWorldPosition, apply)
	readQuats(r, "pool.WorldRot", pool.WorldRot[a:a+p.Count], apply)
	r.Vec3sWithin("pool.WorldScale", pool.WorldScale[a:a+p.Count], check.MaxWorldScale, apply)
}

// readQuats reads len(dst) finite quaternions into dst when apply.
func readQuats(r *snapbin.Reader, field string, dst []mgl32.Quat, apply bool) {
	r.Quats(field, dst, true, apply)
}

// readAnyVec3s reads len(dst) vectors of any bits into dst when apply:
// for simulation state the systems check and repair themselves (chain
// particles, spring tails), which a snapshot taken on the frame of a
// fault holds.
func readAnyVec3s(r *snapbin.Reader, field string, dst []mgl32.Vec3, apply bool) {
	r.Vec3s(field, dst, false, apply)
}

// appendTransform appends t: position, rotation, scale.
func appendTransform(b []byte, t *components.Transform) []byte {
	return snapbin.Transform(b, t.Pos, t.Rot, t.Scale)
}

// readFiniteTransform reads a transform whose numbers must be finite.
func readFiniteTransform(r *snapbin.Reader, field string) components.Transform {
	return components.Transform{Pos: r.FiniteVec3(field), Rot: r.FiniteQuat(field), Scale: r.FiniteVec3(field)}
}

// readRoot reads a root transform (see snapbin.Reader.Root).
func readRoot(r *snapbin.Reader, field string, tol float32) components.Transform {
	pos, rot, scale := r.Root(field, tol)
	return components.Transform{Pos: pos, Rot: rot, Scale: scale}
}
