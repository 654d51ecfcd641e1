package anim

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// RootMode says what becomes of the root bone's horizontal motion and
// yaw: kept on the bone as the clips author it, or taken out of the pose
// and handed to the game as a per-frame delta.
type RootMode uint8

const (
	// RootAsAuthored keeps the root bone's motion in the pose: a walk
	// walks away from the character's root. Root motion computes nothing.
	RootAsAuthored RootMode = iota
	// RootInPlace removes the root bone's horizontal translation and its
	// yaw about +Y from the pose, holding them at the blend's
	// start-of-cycle values, and records what they moved this frame in
	// RootMotion.Delta for the game to move the character's root by.
	RootInPlace
	rootModeCount
)

var rootModeNames = [rootModeCount]string{"AsAuthored", "InPlace"}

func (m RootMode) String() string {
	if m < rootModeCount {
		return rootModeNames[m]
	}
	return fmt.Sprintf("RootMode(%d)", uint8(m))
}

// Valid reports whether m is one of the modes.
func (m RootMode) Valid() bool { return m < rootModeCount }

// RootDelta is the motion the animation made in one frame, in the
// character's root space (model space: +Y up, +Z forward): first a turn
// of Yaw radians about +Y (positive turns +Z towards +X), then a move of
// Pos metres, horizontal (Pos[1] is 0). A game moves its character by it
// as root ∘ delta: Pos' = Pos + Rot·Delta.Pos, Rot' = Rot·yaw(Delta.Yaw).
type RootDelta struct {
	Pos mgl32.Vec3
	Yaw float32
}

// RootMotion is a character's root-motion setting and state. It holds no
// pointers. The zero value keeps the motion on the bone.
type RootMotion struct {
	Mode RootMode // RootAsAuthored (the zero value) or RootInPlace
	Bone int32    // the bone whose motion is the character's, in [0, BoneCount)
	// Started is false until the first frame in place after the
	// character started playing (or was reset).
	Started bool
	Delta   RootDelta // the last frame's motion (zero unless RootInPlace)
}

// Restart marks the state as just started (after Play or Reset): the
// next frame's delta is measured from the start time.
func (r *RootMotion) Restart() {
	r.Started, r.Delta = false, RootDelta{}
}

// Frame is a model-space transform composed as forward kinematics
// composes bones: a point v maps to Pos + Rot·(Scale ⊙ v), a rotation q to
// Rot·q.
type Frame struct {
	Pos   mgl32.Vec3
	Rot   mgl32.Quat
	Scale mgl32.Vec3
}

// IdentityFrame is the frame of a skeleton root's parent: model space.
func IdentityFrame() Frame {
	return Frame{Rot: mgl32.QuatIdent(), Scale: mgl32.Vec3{1, 1, 1}}
}

// then returns f composed with the local transform (pos, rot, scale) of a
// child, as forward kinematics does.
func (f Frame) then(pos mgl32.Vec3, rot mgl32.Quat, scale mgl32.Vec3) Frame {
	return Frame{
		Pos:   f.Pos.Add(f.Rot.Rotate(mgl32.Vec3{f.Scale[0] * pos[0], f.Scale[1] * pos[1], f.Scale[2] * pos[2]})),
		Rot:   f.Rot.Mul(rot),
		Scale: mgl32.Vec3{f.Scale[0] * scale[0], f.Scale[1] * scale[1], f.Scale[2] * scale[2]},
	}
}

// ParentFrame returns the model-space frame of bone b's parent in the
// local pose p, parents being the skeleton's parent indices (-1 for a
// root): IdentityFrame for a skeleton root. The chain is composed from the
// top down without allocating (quadratic in b's depth, which for a root
// bone is a handful).
func ParentFrame(p Pose, parents []int32, b int) Frame {
	f := IdentityFrame()
	depth := 0
	for a := parents[b]; a >= 0; a = parents[a] {
		depth++
	}
	for k := depth; k >= 1; k-- {
		a := int32(b)
		for range k {
			a = parents[a]
		}
		f = f.then(p.Pos[a], p.Rot[a], p.Scale[a])
	}
	return f
}

// identity reports whether f leaves points and rotations as they are.
func (f *Frame) identity() bool {
	return f.Pos == mgl32.Vec3{} && f.Rot == mgl32.QuatIdent() && f.Scale == mgl32.Vec3{1, 1, 1}
}

// rigid2 is a motion in the horizontal plane: a turn of yaw radians about
// +Y, then a move by (x, z). Root motion composes these in float64.
type rigid2 struct{ yaw, x, z float64 }

// mul returns a∘b: b applied first.
func (a rigid2) mul(b rigid2) rigid2 {
	s, c := math.Sincos(a.yaw)
	return rigid2{a.yaw + b.yaw, a.x + c*b.x + s*b.z, a.z - s*b.x + c*b.z}
}

func (a rigid2) inv() rigid2 {
	s, c := math.Sincos(a.yaw)
	// R(-yaw)·(x, z), negated.
	return rigid2{-a.yaw, -(c*a.x - s*a.z), -(s*a.x + c*a.z)}
}

// maxWraps bounds the loops one frame's delta carries: more is a speed no
// game plays at, and the power below stays cheap.
const maxWraps = 1 << 20

// pow returns a composed k times (its inverse for negative k).
func (a rigid2) pow(k float64) rigid2 {
	if k < 0 {
		a, k = a.inv(), -k
	}
	n := int64(min(k, maxWraps))
	r := rigid2{}
	for ; n > 0; n >>= 1 {
		if n&1 == 1 {
			r = r.mul(a)
		}
		a = a.mul(a)
	}
	return r
}

// wrapAngle maps a into (-π, π].
func wrapAngle(a float64) float64 {
	if a > math.Pi || a <= -math.Pi {
		a -= 2 * math.Pi * math.Ceil((a-math.Pi)/(2*math.Pi))
	}
	return a
}

// yawOf returns the heading of the model-space rotation q relative to the
// bone's rest rotation (restInv is its inverse): the angle about +Y of
// the twist of q·restInv about +Y, in (-π, π]. A rotation that turns +Y
// upside down has no heading: 0.
func yawOf(q, restInv mgl32.Quat) float64 {
	d := q.Mul(restInv)
	w, y := float64(d.W), float64(d.V[1])
	if math.Abs(w) < 1e-9 && math.Abs(y) < 1e-9 {
		return 0
	}
	return wrapAngle(2 * math.Atan2(y, w))
}

// yawQuat returns the rotation of a radians about +Y.
func yawQuat(a float64) mgl32.Quat {
	s, c := math.Sincos(a / 2)
	return mgl32.Quat{W: float32(c), V: mgl32.Vec3{0, float32(s), 0}}
}

// rootSample is a root bone's place in model space: its position and
// heading.
type rootSample struct {
	x, z, yaw float64
}

// relative returns the motion from the start of a cycle s to x: the turn
// between their headings, and the move that takes s's position, so
// turned, onto x's.
func relative(x, s rootSample) rigid2 {
	a := wrapAngle(x.yaw - s.yaw)
	sn, c := math.Sincos(a)
	return rigid2{a, x.x - (c*s.x + sn*s.z), x.z - (-sn*s.x + c*s.z)}
}

// boneAt returns bone b's local translation and rotation at key k and
// fraction a toward key k+1, as Sample writes them (rest for a channel
// without a track).
func (c *Clip) boneAt(b, k int, a float32, rest Pose) (mgl32.Vec3, mgl32.Quat) {
	pos, rot := rest.Pos[b], rest.Rot[b]
	if i := c.rotTrack[b]; i >= 0 {
		n := len(c.rotBones)
		q0 := &c.rot[k*n+int(i)]
		if a == 0 {
			rot = *q0
		} else {
			nlerpKeys(&rot, q0, &c.rot[(k+1)*n+int(i)], a)
		}
	}
	if i := c.posTrack[b]; i >= 0 {
		n := len(c.posBones)
		p := &c.pos[k*n+int(i)]
		if a == 0 {
			pos = *p
		} else {
			q := &c.pos[(k+1)*n+int(i)]
			pos = mgl32.Vec3{p[0] + (q[0]-p[0])*a, p[1] + (q[1]-p[1])*a, p[2] + (q[2]-p[2])*a}
		}
	}
	return pos, rot
}

// rootView converts a root bone's local values to model space.
type rootView struct {
	parent   Frame
	ident    bool // parent is model space: no conversion
	restInv  mgl32.Quat
	restRoot Pose
	bone     int
}

func (v *rootView) model(pos mgl32.Vec3, rot mgl32.Quat) (mgl32.Vec3, mgl32.Quat) {
	if v.ident {
		return pos, rot
	}
	f := &v.parent
	return f.Pos.Add(f.Rot.Rotate(mgl32.Vec3{f.Scale[0] * pos[0], f.Scale[1] * pos[1], f.Scale[2] * pos[2]})), f.Rot.Mul(rot)
}

func (v *rootView) sample(pos mgl32.Vec3, rot mgl32.Quat) rootSample {
	p, q := v.model(pos, rot)
	return rootSample{float64(p[0]), float64(p[2]), yawOf(q, v.restInv)}
}

// at samples clip c's root bone at play time t in model space.
func (v *rootView) at(c *Clip, t float32) rootSample {
	k, a := c.frame(t)
	return v.sample(c.boneAt(v.bone, k, a, v.restRoot))
}

// InPlace takes the root motion out of the pose dst that Play has just
// written for p (from is the phase Play started at, dt the time it was
// given) when r.Mode is RootInPlace; it does nothing and returns false
// otherwise, or when a pose is too short or r.Bone is out of range.
//
// The root bone's horizontal position and its heading about +Y in model
// space are set to the values the blend (with this frame's weights) has
// at the start of its cycle, phase 0; its height and the rest of its
// rotation (lean, roll) stay as animated. parent is the model-space frame
// of the bone's parent in dst (ParentFrame); restRot is the bone's rest
// rotation in model space, from which headings are measured.
//
// r.Delta becomes the motion this frame: for each clip with a weight, the
// motion of its root from its time at from to its time now, each loop
// wrapped over adding the clip's whole cycle (the end's motion from the
// start), playing backwards taking it away; the clips' motions weighted
// as the pose is (a Direct blend short of one gives the rest its share,
// which does not move). Weights that change do not move the root: each
// clip's motion is its own. The first frame after the start reports the
// motion from the start time (AnimSettings.Time, or 0 after Reset), so
// that the deltas add up to the clip's motion from its first frame; a
// frame with no time (paused) reports none. It never allocates.
func (s *BlendSpace) InPlace(dst Pose, p *Player, r *RootMotion, from, dt float32, rest Pose, parent Frame, restRot mgl32.Quat) bool {
	b := int(r.Bone)
	if r.Mode != RootInPlace || p == nil || b < 0 || b >= s.bones || dst.Len() < s.bones || rest.Len() < s.bones ||
		p.Scratch.n != len(s.clips) {
		return false
	}
	if !(dt > 0) || !finite64(float64(dt)) {
		dt = 0
	}
	w := p.Scratch.weights[:len(s.clips)]
	v := rootView{parent: parent, ident: parent.identity(), restInv: restRot.Conjugate(), restRoot: rest, bone: b}

	// Hold the bone at the blend's start-of-cycle heading and horizontal
	// position.
	p0, q0 := s.boneStart(b, w, rest)
	start := v.sample(p0, q0)
	pos, rot := v.model(dst.Pos[b], dst.Rot[b])
	rot = yawQuat(start.yaw - yawOf(rot, v.restInv)).Mul(rot).Normalize()
	pos[0], pos[2] = float32(start.x), float32(start.z)
	if v.ident {
		dst.Pos[b], dst.Rot[b] = pos, rot
	} else {
		f := &v.parent
		inv := f.Rot.Conjugate()
		l := inv.Rotate(pos.Sub(f.Pos))
		for i := range 3 {
			if f.Scale[i] != 0 {
				l[i] /= f.Scale[i]
			}
		}
		dst.Pos[b], dst.Rot[b] = l, inv.Mul(rot).Normalize()
	}

	r.Started = true
	if dt == 0 {
		r.Delta = RootDelta{}
		return true
	}
	_, wraps := advancePhase(from, p.Speed, dt, s.Duration(w), s.loop)
	if !finite64(float64(from)) {
		from = 0
	}
	div, _ := weightTotal(w)
	single, count := -1, 0
	for i, x := range w {
		if activeWeight(x) > 0 {
			single, count = i, count+1
		}
	}
	var d rigid2
	for i, x := range w {
		x = activeWeight(x)
		if x <= 0 {
			continue
		}
		share := float64(x) / div
		if count == 1 && w[single] >= 1-weightSlack {
			share = 1
		}
		c := s.clips[i]
		s0 := v.at(c, 0)
		m := relative(v.at(c, from*c.duration), s0).inv()
		if wraps != 0 {
			end := v.sample(c.boneAt(b, c.keys-1, 0, rest))
			m = m.mul(relative(end, s0).pow(wraps))
		}
		m = m.mul(relative(v.at(c, p.Phase*c.duration), s0))
		d.yaw += share * m.yaw
		d.x += share * m.x
		d.z += share * m.z
	}
	r.Delta = RootDelta{Pos: mgl32.Vec3{float32(d.x), 0, float32(d.z)}, Yaw: float32(d.yaw)}
	return true
}

// boneStart returns bone b's local translation and rotation in the blend
// with weights w at phase 0, as blend writes them.
func (s *BlendSpace) boneStart(b int, w []float32, rest Pose) (mgl32.Vec3, mgl32.Quat) {
	single, count := -1, 0
	for i, v := range w {
		if activeWeight(v) > 0 {
			single, count = i, count+1
		}
	}
	if count == 1 && w[single] >= 1-weightSlack {
		return s.clips[single].boneAt(b, 0, 0, rest)
	}
	div, rem := weightTotal(w)
	var pos mgl32.Vec3
	var rot mgl32.Quat
	for i, v := range w {
		if v = activeWeight(v); v > 0 {
			p, q := s.clips[i].boneAt(b, 0, 0, rest)
			x := float32(float64(v) / div)
			addVecTo(&pos, &p, x)
			addQuatTo(&rot, &q, x)
		}
	}
	if rem > 0 {
		addVecTo(&pos, &rest.Pos[b], rem)
		addQuatTo(&rot, &rest.Rot[b], rem)
	}
	normalizeOrRest(&rot, &rest.Rot[b])
	return pos, rot
}

// RootBone returns the bone a character playing the space takes root
// motion from by default: the first bone, in the skeleton's depth-first
// order, whose translation keys move in some clip of the space (the hips
// of a walk, or a dedicated root bone that carries the motion); failing
// that the first bone with translation keys, then the first with rotation
// keys, then bone 0.
func (s *BlendSpace) RootBone() int { return s.rootBone }

// defaultRootBone computes RootBone at set-up.
func defaultRootBone(clips []*Clip, live boneSets) int {
	for _, b := range live.pos {
		for _, c := range clips {
			if c.posTrack[b] >= 0 && c.translationMoves(int(c.posTrack[b])) {
				return int(b)
			}
		}
	}
	if len(live.pos) > 0 {
		return int(live.pos[0])
	}
	if len(live.rot) > 0 {
		return int(live.rot[0])
	}
	return 0
}

// translationMoves reports whether the i-th translation track's keys are
// not all the same.
func (c *Clip) translationMoves(i int) bool {
	n := len(c.posBones)
	for k := 1; k < c.keys; k++ {
		if c.pos[k*n+i] != c.pos[i] {
			return true
		}
	}
	return false
}
