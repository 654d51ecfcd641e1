package snapio

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/components"
	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/internal/snapbin"
	"github.com/sway-anim/sway/systems/anim"
	"github.com/sway-anim/sway/systems/breath"
)

// breathLimit bounds a breath angle in degrees: a target is at most
// MaxAngle*MaxRate, and an ease's change spans two of them.
const breathLimit = 2 * breath.MaxAngle * breath.MaxRate

// AppendBreath appends a character's place in its breath (breath.State).
// The settings and the plan are set-up.
func AppendBreath(b []byte, c *components.Breath) []byte {
	st := &c.State
	b = snapbin.U8(b, uint8(st.Phase))
	b = snapbin.F64(b, st.Time)
	// The phase's curve and duration were read from the settings when it
	// began: an edit since then applies from the next phase on.
	b = snapbin.U8(b, uint8(st.Easing))
	b = snapbin.F32(b, st.Duration)
	b = snapbin.F32s(b, st.Angle[:])
	b = snapbin.F32s(b, st.Prev[:])
	b = snapbin.F32s(b, st.Start[:])
	b = snapbin.F32s(b, st.Change[:])
	return appendControl(b, &c.Control)
}

// appendControl appends a feature's Control: paused, weight, cull
// distance.
func appendControl(b []byte, c *components.Control) []byte {
	return snapbin.F32(snapbin.F32(snapbin.Bool(b, c.Paused), c.Weight), c.CullDistance)
}

// controlFields name a feature's Control fields in Restore's errors (made
// once: Restore does not allocate).
type controlFields struct{ paused, weight, cull string }

var (
	breathControl = controlFields{"breath.Paused", "breath.Weight", "breath.CullDistance"}
	lookAtControl = controlFields{"lookat.Paused", "lookat.Weight", "lookat.CullDistance"}
	ikControl     = controlFields{"ik.Paused", "ik.Weight", "ik.CullDistance"}
	animControl   = controlFields{"anim.Paused", "anim.Weight", "anim.CullDistance"}
	chainsControl = controlFields{"chains.Paused", "chains.Weight", "chains.CullDistance"}
	vrmControl    = controlFields{"vrm.Paused", "vrm.Weight", "vrm.CullDistance"}
	simpleControl = controlFields{"simple.Paused", "simple.Weight", "simple.CullDistance"}
)

// readControl reads what appendControl wrote, checked as the handles'
// setters check it.
func readControl(r *snapbin.Reader, f *controlFields) components.Control {
	paused := r.Bool(f.paused)
	weight := r.Range(f.weight, 0, 1)
	return components.Control{Paused: paused, Weight: weight, CullDistance: r.Range(f.cull, 0, check.MaxPosition)}
}

// ReadBreath reads what AppendBreath wrote.
func ReadBreath(r *snapbin.Reader, c *components.Breath, apply bool) {
	var st breath.State
	st.Phase = breath.Phase(r.Enum("breath.Phase", uint8(breath.Rest)+1))
	st.Time = r.RangeF64("breath.Time", 0, math.MaxFloat32)
	st.Easing = breath.Easing(r.Enum("breath.Easing", uint8(breath.OutExpo)+1))
	st.Duration = r.Range("breath.Duration", 0, math.MaxFloat32)
	for _, a := range [...]*[breath.MaxSegments]float32{&st.Angle, &st.Prev, &st.Start, &st.Change} {
		for i := range a {
			a[i] = r.Range("breath.Angle", -breathLimit, breathLimit)
		}
	}
	ctl := readControl(r, &breathControl)
	if apply && !r.Failed() {
		c.State, c.Control = st, ctl
	}
}

// AppendLookAt appends a character's look-at state: the damped head
// rotation and weight, the eyes' yaws and pitches, the target point (a bone target's
// last resolved position) and lost flag, and the requested weight. The
// target's entity and bone are not saved: entities are the world's own
// (a snapshot restores into a world built the same way), and a bone
// target is resolved again at the next frame.
func AppendLookAt(b []byte, c *components.LookAt) []byte {
	b = snapbin.Quat(b, c.HeadState.Rotation)
	b = snapbin.F32(b, c.HeadState.Weight)
	for k := range c.EyeStates {
		b = snapbin.F32(b, c.EyeStates[k].Yaw)
		b = snapbin.F32(b, c.EyeStates[k].Pitch)
	}
	b = appendTarget(b, &c.Target)
	return appendControl(b, &c.Control)
}

// eyeYawLimit and eyePitchLimit bound an eye's yaw and pitch in radians
// (limits are within ±180° and ±90°).
const eyeYawLimit, eyePitchLimit = 3.2, 1.6

// ReadLookAt reads what AppendLookAt wrote.
func ReadLookAt(r *snapbin.Reader, c *components.LookAt, apply bool) {
	rot := r.FiniteQuat("lookat.HeadState.Rotation")
	weight := r.Range("lookat.HeadState.Weight", 0, 1)
	var yaw, pitch [len(c.EyeStates)]float32
	for k := range yaw {
		yaw[k] = r.Range("lookat.EyeStates.Yaw", -eyeYawLimit, eyeYawLimit)
		pitch[k] = r.Range("lookat.EyeStates.Pitch", -eyePitchLimit, eyePitchLimit)
	}
	point, lost := readTarget(r, "lookat.Target")
	ctl := readControl(r, &lookAtControl)
	if apply && !r.Failed() {
		c.HeadState.Rotation, c.HeadState.Weight = rot, weight
		for k := range yaw {
			c.EyeStates[k].Yaw, c.EyeStates[k].Pitch = yaw[k], pitch[k]
		}
		c.Target.Point, c.Target.Lost = point, lost
		c.Control = ctl
	}
}

func appendTarget(b []byte, t *components.Target) []byte {
	return snapbin.Bool(snapbin.Vec3(b, t.Point), t.Lost)
}

func readTarget(r *snapbin.Reader, field string) (mgl32.Vec3, bool) {
	return r.FiniteVec3(field), r.Bool(field)
}

// AppendIK appends a character's IK limbs' inputs that a game changes
// from frame to frame (target point, end rotation, hint, weight) and each
// limb's Reached flag. IK keeps no other state: it solves the pose it
// finds. Bones, MidAxis and Soften are set-up.
func AppendIK(b []byte, c *components.IK) []byte {
	b = snapbin.U8(b, c.NumLimbs)
	for i := range min(c.NumLimbs, components.MaxIKLimbs) {
		l := &c.Limbs[i]
		b = appendTarget(b, &l.Target)
		b = snapbin.Quat(b, l.TargetRot)
		b = snapbin.Bool(b, l.UseTargetRot)
		b = snapbin.Vec3(b, l.Hint)
		b = snapbin.U8(b, l.HintSpace)
		b = snapbin.F32(b, l.Settings.Weight)
		b = snapbin.Bool(b, l.Reached)
	}
	return appendControl(b, &c.Control)
}

// ReadIK reads what AppendIK wrote.
func ReadIK(r *snapbin.Reader, c *components.IK, apply bool) {
	off := r.Offset()
	if n := r.U8("ik.NumLimbs"); n != c.NumLimbs {
		r.Mismatch(off, "ik.NumLimbs", "the snapshot has %d limbs, the world %d", n, c.NumLimbs)
	}
	for i := range min(c.NumLimbs, components.MaxIKLimbs) {
		l := &c.Limbs[i]
		point, lost := readTarget(r, "ik.Target")
		rot := r.UnitQuat("ik.TargetRot", 1e-3)
		use := r.Bool("ik.UseTargetRot")
		hint := r.FiniteVec3("ik.Hint")
		space := r.Enum("ik.HintSpace", components.HintRoot+1)
		weight := r.Range("ik.Weight", 0, 1)
		reached := r.Bool("ik.Reached")
		if apply && !r.Failed() {
			l.Target.Point, l.Target.Lost = point, lost
			l.TargetRot, l.UseTargetRot = rot, use
			l.Hint, l.HintSpace = hint, space
			l.Settings.Weight, l.Reached = weight, reached
		}
	}
	if ctl := readControl(r, &ikControl); apply && !r.Failed() {
		c.Control = ctl
	}
}

// AppendAnim appends a character's playback (anim.Player: parameter and
// target, smoothing, normalised time, speed, Direct weights, and the
// weights of the last frame) and its root motion's state (whether its
// first frame is behind it, and the last frame's delta). The blend
// space's index, the root-motion mode and the root bone are written to be
// checked: they are chosen with the space (Add, Play).
func AppendAnim(b []byte, c *components.Animation) []byte {
	p := &c.Player
	b = snapbin.U32(b, c.Space)
	b = snapbin.F32(snapbin.F32(b, p.Param[0]), p.Param[1])
	b = snapbin.F32(snapbin.F32(b, p.Target[0]), p.Target[1])
	b = snapbin.F32(b, p.Smoothing)
	b = snapbin.F32(b, p.Phase)
	b = snapbin.F32(b, p.Speed)
	b = snapbin.F32s(b, p.Direct[:])
	w := p.Scratch.Weights()
	b = snapbin.U8(b, uint8(len(w)))
	b = snapbin.F32s(b, w)
	rm := &c.Root
	b = snapbin.U8(b, uint8(rm.Mode))
	b = snapbin.U32(b, uint32(rm.Bone))
	b = snapbin.Bool(b, rm.Started)
	b = snapbin.Vec3(b, rm.Delta.Pos)
	b = snapbin.F32(b, rm.Delta.Yaw)
	return appendControl(b, &c.Control)
}

// ReadAnim reads what AppendAnim wrote; the values must be ones the
// setters accept.
func ReadAnim(r *snapbin.Reader, c *components.Animation, apply bool) {
	off := r.Offset()
	if space := r.U32("anim.Space"); space != c.Space {
		r.Mismatch(off, "anim.Space", "the snapshot plays blend space %d, the world %d", space, c.Space)
	}
	var p anim.Player
	p.Param = mgl32.Vec2{r.Finite("anim.Param"), r.Finite("anim.Param")}
	p.Target = mgl32.Vec2{r.Finite("anim.Target"), r.Finite("anim.Target")}
	p.Smoothing = r.Range("anim.Smoothing", 0, math.MaxFloat32)
	p.Phase = r.Range("anim.Phase", 0, 1)
	p.Speed = r.Finite("anim.Speed")
	for i := range p.Direct {
		p.Direct[i] = r.Range("anim.Direct", 0, math.MaxFloat32)
	}
	var w [anim.MaxSamples]float32
	n := r.Enum("anim.Weights", anim.MaxSamples+1)
	for i := range w[:n] {
		w[i] = r.Range("anim.Weights", 0, math.MaxFloat32)
	}
	off = r.Offset()
	if mode := r.U8("anim.Root.Mode"); mode != uint8(c.Root.Mode) {
		r.Mismatch(off, "anim.Root.Mode", "the snapshot's root motion is %v, the world's %v", anim.RootMode(mode), c.Root.Mode)
	}
	off = r.Offset()
	if bone := r.U32("anim.Root.Bone"); bone != uint32(c.Root.Bone) {
		r.Mismatch(off, "anim.Root.Bone", "the snapshot takes root motion from bone %d, the world from %d", bone, c.Root.Bone)
	}
	started := r.Bool("anim.Root.Started")
	// A frame's motion is bounded by the clips' translations over the
	// loops it wraps; finite is what the kernel guarantees.
	delta := anim.RootDelta{Pos: r.FiniteVec3("anim.Root.Delta.Pos"), Yaw: r.Finite("anim.Root.Delta.Yaw")}
	ctl := readControl(r, &animControl)
	if apply && !r.Failed() {
		p.Scratch.SetWeights(w[:n])
		root := c.Root
		root.Started, root.Delta = started, delta
		c.Player, c.Control, c.Root = p, ctl, root
	}
}
