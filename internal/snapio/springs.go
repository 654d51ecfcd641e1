package snapio

import (
	"github.com/sway-anim/sway/components"
	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/internal/snapbin"
	"github.com/sway-anim/sway/internal/store"
	"github.com/sway-anim/sway/systems/chain"
)

// AppendVRM appends a character's VRM spring bones: the handle's last
// root, started, paused and fault fields, then per spring its joint count
// (checked on reading), its reset flag and fixed-step accumulator, and per
// joint the previous and current tail and the joint's last rotation in
// the store (a fixed-step spring shows it on frames without a step; the
// springs of a character stepped in batches write the pose instead, and
// theirs is the rest rotation of their last reset, which nothing reads).
//
// Not saved: the colliders placed in world space and their subsets
// (placed every frame before the step), the kernel's view of the arrays
// (rebuilt from the handles) and the spring's parent and centre
// transforms (read from the pose every frame). Settings, joints and
// collider shapes are set-up.
func AppendVRM(b []byte, s *store.SpringStore, h *components.VRMSprings) []byte {
	p := &s.VRM
	b = appendSpringHandle(b, h.Count, &h.LastRoot, h.Started, &h.Control, &h.Teleport, h.Faults)
	for k := h.First; k < h.First+h.Count; k++ {
		info := &p.Info[k]
		b = snapbin.U32(b, uint32(info.N))
		b = snapbin.Bool(b, info.Reset)
		b = snapbin.F32(b, info.Acc)
		lo, hi := info.Joint0, info.Joint0+info.N
		b = snapbin.Vec3s(b, p.Prev[lo:hi])
		b = snapbin.Vec3s(b, p.Cur[lo:hi])
		b = snapbin.Quats(b, p.Rot[lo:hi])
	}
	return b
}

// ReadVRM reads what AppendVRM wrote. Tails may be non-finite (a snapshot
// taken on the frame a spring faulted): the spring system resets such a
// spring itself. Rotations must be finite: a fixed-step spring writes
// them into the pose as they are.
func ReadVRM(r *snapbin.Reader, s *store.SpringStore, h *components.VRMSprings, apply bool) {
	p := &s.VRM
	readSpringHandle(r, &vrmHandleFields, h.Count, &h.LastRoot, &h.Started, &h.Control, &h.Teleport, &h.Faults, apply)
	for k := h.First; k < h.First+h.Count && !r.Failed(); k++ {
		info := &p.Info[k]
		r.Count("vrm.N", int(info.N))
		reset := r.Bool("vrm.Reset")
		acc := r.Range("vrm.Acc", 0, info.FixedStep)
		ok := apply && !r.Failed()
		if ok {
			info.Reset, info.Acc = reset, acc
		}
		lo, hi := info.Joint0, info.Joint0+info.N
		readAnyVec3s(r, "vrm.Prev", p.Prev[lo:hi], ok)
		readAnyVec3s(r, "vrm.Cur", p.Cur[lo:hi], ok)
		readQuats(r, "vrm.Rot", p.Rot[lo:hi], ok)
	}
}

// AppendSimple appends a character's simple (tip) springs: the handle's
// last root, started, paused and fault fields, then per chain its joint
// count (checked on reading) and reset flag, and per joint the last tip
// its velocity and the last animated tip. The animated and new rotations
// (SimplePart.Anim, Rot) are gathered and computed afresh every frame.
func AppendSimple(b []byte, s *store.SpringStore, h *components.SimpleSprings) []byte {
	p := &s.Simple
	b = appendSpringHandle(b, h.Count, &h.LastRoot, h.Started, &h.Control, &h.Teleport, h.Faults)
	for k := h.First; k < h.First+h.Count; k++ {
		info := &p.Info[k]
		b = snapbin.U32(b, uint32(info.N))
		b = snapbin.Bool(b, info.Reset)
		lo, hi := info.Joint0, info.Joint0+info.N
		b = snapbin.Vec3s(b, p.LastTip[lo:hi])
		b = snapbin.Vec3s(b, p.Velocity[lo:hi])
		b = snapbin.Vec3s(b, p.LastAnim[lo:hi])
	}
	return b
}

// ReadSimple reads what AppendSimple wrote; tips and velocities may be
// non-finite, as for ReadVRM.
func ReadSimple(r *snapbin.Reader, s *store.SpringStore, h *components.SimpleSprings, apply bool) {
	p := &s.Simple
	readSpringHandle(r, &simpleHandleFields, h.Count, &h.LastRoot, &h.Started, &h.Control, &h.Teleport, &h.Faults, apply)
	for k := h.First; k < h.First+h.Count && !r.Failed(); k++ {
		info := &p.Info[k]
		r.Count("simple.N", int(info.N))
		reset := r.Bool("simple.Reset")
		ok := apply && !r.Failed()
		if ok {
			info.Reset = reset
		}
		lo, hi := info.Joint0, info.Joint0+info.N
		readAnyVec3s(r, "simple.LastTip", p.LastTip[lo:hi], ok)
		readAnyVec3s(r, "simple.Velocity", p.Velocity[lo:hi], ok)
		readAnyVec3s(r, "simple.LastAnim", p.LastAnim[lo:hi], ok)
	}
}

// appendSpringHandle appends the fields the VRM and simple spring handles
// share: the count (checked on reading), last root, started, the control
// (paused, weight), the teleport limits and faults.
func appendSpringHandle(b []byte, count int32, lastRoot *components.Transform, started bool,
	ctl *components.Control, tp *components.Teleport, faults uint32) []byte {
	b = snapbin.U32(b, uint32(count))
	b = appendTransform(b, lastRoot)
	b = snapbin.Bool(b, started)
	b = appendControl(b, ctl)
	b = snapbin.F32(snapbin.F32(b, tp.Distance), tp.AngleDegrees) // HalfCos is derived
	return snapbin.U32(b, faults)
}

// handleFields names a spring handle's fields in Restore's errors (made
// once: Restore does not allocate).
type handleFields struct {
	count, lastRoot, started string
	control                  controlFields
	distance, angle          string
	faults                   string
}

var (
	vrmHandleFields = handleFields{"vrm.Count", "vrm.LastRoot", "vrm.Started", vrmControl,
		"vrm.Teleport.Distance", "vrm.Teleport.AngleDegrees", "vrm.Faults"}
	simpleHandleFields = handleFields{"simple.Count", "simple.LastRoot", "simple.Started", simpleControl,
		"simple.Teleport.Distance", "simple.Teleport.AngleDegrees", "simple.Faults"}
)

// readSpringHandle reads what appendSpringHandle wrote and sets the
// handle's fields when apply is set and nothing failed.
func readSpringHandle(r *snapbin.Reader, f *handleFields, count int32, lastRoot *components.Transform,
	started *bool, ctl *components.Control, tp *components.Teleport, faults *uint32, apply bool) {
	r.Count(f.count, int(count))
	root := readFiniteTransform(r, f.lastRoot)
	st := r.Bool(f.started)
	c := readControl(r, &f.control)
	// As the handles' SetTeleport takes it.
	distance := r.Range(f.distance, 0, check.MaxPosition)
	off := r.Offset()
	angle := r.Range(f.angle, 0, 180)
	if angle > 0 && angle < chain.MinTeleportAngleDegrees && !r.Failed() {
		r.Corrupt(off, f.angle, "must be 0 (off) or 4 to 180 degrees")
	}
	t := components.NewTeleport(distance, angle)
	fa := r.U32(f.faults)
	if apply && !r.Failed() {
		*lastRoot, *started, *ctl, *tp, *faults = root, st, c, t, fa
	}
}
