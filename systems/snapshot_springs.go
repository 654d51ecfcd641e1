package systems

import (
	"github.com/sway-anim/sway/components"
	"github.com/sway-anim/sway/internal/snapbin"
)

// AppendVRM appends a character's VRM spring bones: the handle's last
// root, started, paused and fault fields, then per spring its joint count
// (checked on reading), its reset flag and fixed-step accumulator, and per
// joint the previous and current tail and the joint's last rotation (a
// fixed-step spring shows it on frames without a step).
//
// Not saved: the colliders placed in world space and their subsets
// (placed every frame before the step), the kernel's view of the arrays
// (rebuilt from the handles) and the spring's parent and centre
// transforms (read from the pose every frame). Settings, joints and
// collider shapes are set-up.
func (s *SpringStore) AppendVRM(b []byte, h *components.VRMSprings) []byte {
	p := &s.VRM
	b = snapbin.U32(b, uint32(h.Count))
	b = snapbin.Transform(b, &h.LastRoot)
	b = snapbin.Bool(b, h.Started)
	b = snapbin.Bool(b, h.Paused)
	b = snapbin.U32(b, h.Faults)
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
func (s *SpringStore) ReadVRM(r *snapbin.Reader, h *components.VRMSprings, apply bool) {
	p := &s.VRM
	r.Count("vrm.Count", int(h.Count))
	lastRoot := r.FiniteTransform("vrm.LastRoot")
	started := r.Bool("vrm.Started")
	paused := r.Bool("vrm.Paused")
	faults := r.U32("vrm.Faults")
	if apply && !r.Failed() {
		h.LastRoot, h.Started, h.Paused, h.Faults = lastRoot, started, paused, faults
	}
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
// and its velocity. The animated and new rotations (SimplePart.Anim, Rot)
// are gathered and computed afresh every frame.
func (s *SpringStore) AppendSimple(b []byte, h *components.SimpleSprings) []byte {
	p := &s.Simple
	b = snapbin.U32(b, uint32(h.Count))
	b = snapbin.Transform(b, &h.LastRoot)
	b = snapbin.Bool(b, h.Started)
	b = snapbin.Bool(b, h.Paused)
	b = snapbin.U32(b, h.Faults)
	for k := h.First; k < h.First+h.Count; k++ {
		info := &p.Info[k]
		b = snapbin.U32(b, uint32(info.N))
		b = snapbin.Bool(b, info.Reset)
		lo, hi := info.Joint0, info.Joint0+info.N
		b = snapbin.Vec3s(b, p.LastTip[lo:hi])
		b = snapbin.Vec3s(b, p.Velocity[lo:hi])
	}
	return b
}

// ReadSimple reads what AppendSimple wrote; tips and velocities may be
// non-finite, as for ReadVRM.
func (s *SpringStore) ReadSimple(r *snapbin.Reader, h *components.SimpleSprings, apply bool) {
	p := &s.Simple
	r.Count("simple.Count", int(h.Count))
	lastRoot := r.FiniteTransform("simple.LastRoot")
	started := r.Bool("simple.Started")
	paused := r.Bool("simple.Paused")
	faults := r.U32("simple.Faults")
	if apply && !r.Failed() {
		h.LastRoot, h.Started, h.Paused, h.Faults = lastRoot, started, paused, faults
	}
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
	}
}
