package sway

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"

	"github.com/sway-anim/sway/components"
	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/internal/mathx"
	"github.com/sway-anim/sway/internal/rig"
	"github.com/sway-anim/sway/systems"
	"github.com/sway-anim/sway/systems/anim"
)

// ClipDesc describes an animation clip: key data sampled at a fixed rate
// (key k at k/SampleRate seconds), one track per animated bone (bone
// indices of the skeleton it is for, BoneCount its number of bones), keys
// in each bone's local space. See anim.ClipDesc for each field.
type ClipDesc = anim.ClipDesc

// TrackDesc is the key data of one animated bone. See anim.TrackDesc.
type TrackDesc = anim.TrackDesc

// BlendKind selects how a blend space turns its parameter into weights.
type BlendKind = anim.Kind

// The blend-space kinds, after Unity's blend trees.
const (
	Blend1D                  = anim.Kind1D                  // Param[0] between thresholds
	BlendSimpleDirectional   = anim.KindSimpleDirectional   // 2D, one sample per direction, optional centre
	BlendFreeformDirectional = anim.KindFreeformDirectional // 2D, several speeds per direction
	BlendFreeformCartesian   = anim.KindFreeformCartesian   // 2D, samples anywhere
	BlendDirect              = anim.KindDirect              // one weight per sample from the game
)

// MaxBlendSamples is the largest number of clips in one blend space.
const MaxBlendSamples = anim.MaxSamples

// ClipID names a clip added to a World.
type ClipID uint32

// BlendSpaceID names a blend space added to a World.
type BlendSpaceID uint32

// BlendSpaceDesc describes a blend space over clips of the world: one clip
// per sample, placed by Thresholds (Blend1D, strictly increasing) or
// Positions (the 2D kinds); BlendDirect takes neither.
//
// The 2D parameter is in the blend space's own terms, not a world vector;
// for locomotion the usual layout is x = strafe right, y = forward (so a
// walk-left clip sits at (-1, 0)). A game that feeds it the character's
// velocity converts it into the character's frame first: sway's characters
// stand +Y up and face +Z, so their right is -X (glTF / VRM 1.0), and the
// parameter of a velocity v is (-v.X, v.Z) in that frame.
type BlendSpaceDesc struct {
	Kind  BlendKind // Blend1D (the zero value) or another Blend* kind
	Clips []ClipID  // 1 to MaxBlendSamples clips of this world, all for the same number of bones
	// Thresholds (Blend1D only, ignored otherwise) place the clips on
	// Param[0]'s line, one per clip: finite, strictly increasing.
	Thresholds []float32
	// Positions (the 2D kinds only, ignored otherwise) place the clips in
	// the parameter's plane, one per clip: finite and distinct; Simple
	// Directional takes one per direction and at most one at the origin.
	Positions []mgl32.Vec2
	// NormalizeDirect divides BlendDirect weights by their sum; without it
	// (the default) a total below one leaves the rest to the rest pose.
	NormalizeDirect bool
}

// RootMotionMode says what becomes of the motion of a character's root
// bone (AnimSettings.RootMotion).
type RootMotionMode = anim.RootMode

// The root-motion modes.
const (
	// RootAsAuthored keeps the root bone's motion in the pose, as the
	// clips author it: a walk walks away from the character's root, and
	// RootDelta is zero. The default.
	RootAsAuthored = anim.RootAsAuthored
	// RootInPlace takes the root bone's horizontal motion and its turn
	// about +Y out of the pose (the character walks on the spot, facing
	// where the cycle starts) and reports them each frame as a delta
	// (Animation.RootDelta) for the game to move the character by.
	RootInPlace = anim.RootInPlace
)

// AnimSettings starts a character's animation.
//
// Time is normalised, as in Unity's blend trees: one time in [0, 1] for all
// clips of the space, each sampled at Time times its own duration, so
// locomotion loops of different lengths stay in step (a foot lands at the
// same time in each, whatever the blend). It moves by Speed*dt over the
// blend's duration, the clips' durations averaged by their weights; it
// wraps if every clip loops, and otherwise stays within [0, 1] (stops at
// 1, or at 0 playing backwards).
type AnimSettings struct {
	Param mgl32.Vec2 // the blend parameter to start with, finite, in the space's terms (Blend1D reads Param[0]); default (0, 0)
	Speed float32    // playback rate, finite: 1 as authored (DefaultAnimSettings'), 0 (the zero value) holds, negative plays backwards
	Time  float32    // normalised start time in [0, 1]; default 0
	// Smoothing is the rate (1/s) at which the parameter follows
	// SetBlendParam: it covers 1 - exp(-Smoothing*dt) of the way each
	// frame, the same for any frame rate. Finite and >= 0; 0 (the
	// default) snaps.
	Smoothing float32
	// Direct holds BlendDirect's starting weights, one per clip, each
	// finite and >= 0 (nil: all zero); it must be nil for the other kinds.
	Direct []float32
	// RootMotion is RootAsAuthored (the zero value) or RootInPlace; see
	// "Root motion" in the package documentation of Animation.RootDelta.
	RootMotion RootMotionMode
	// RootBone names the bone whose motion is the character's (its hips,
	// or a root bone that carries the motion), a bone of the character's
	// skeleton. Empty (the default) picks the first bone, in the
	// skeleton's depth-first order, whose translation keys move in some
	// clip of the space; failing that the first with translation keys,
	// then the first with rotation keys, then bone 0.
	RootBone string
}

// DefaultAnimSettings plays from the start at the authored speed, the
// parameter at the origin, unsmoothed.
func DefaultAnimSettings() AnimSettings { return AnimSettings{Speed: 1} }

// AnimState is a character's animation as of the last Step.
type AnimState struct {
	Space     BlendSpaceID // the blend space playing
	Param     mgl32.Vec2   // the parameter in use (smoothed), in the space's terms
	Target    mgl32.Vec2   // the parameter last set (AnimSettings.Param or SetBlendParam)
	Time      float32      // normalised time in [0, 1]
	Speed     float32      // playback rate (1 as authored; see AnimSettings)
	Smoothing float32      // the parameter's smoothing rate, 1/s (see AnimSettings)
}

// AnimationFeature makes characters play blend spaces and finds their
// animation again (World.Animation).
type AnimationFeature struct{ w *World }

// Animation returns the world's animation feature.
func (w *World) Animation() AnimationFeature { return AnimationFeature{w} }

// Animation is a handle on a character's animation: the verbs every
// feature has (Pause, Resume, Reset, SetWeight, Remove; see "Features as
// handles") and its playback. A paused animation keeps posing the time it
// stopped at; its weight blends its pose with the rest pose; Reset puts
// its time back to 0 and its blend parameter on its target.
type Animation struct{ feature }

var animKind = featureKind{
	name: "Animation",
	control: func(w *World, e ecs.Entity) *components.Control {
		if a := w.maps.anim.Get(e); a != nil {
			return &a.Control
		}
		return nil
	},
	reset: func(w *World, e ecs.Entity) {
		a := w.maps.anim.Get(e)
		a.Phase, a.Param = 0, a.Target
		a.Root.Restart()
	},
	remove: func(w *World, e ecs.Entity) {
		m := generic.NewMap1[components.Animation](w.ecs)
		m.Remove(e)
	},
}

// Of returns the handle on character e's animation. It does not check
// that e is animated: its methods do.
func (f AnimationFeature) Of(e ecs.Entity) Animation { return Animation{feature{f.w, e, &animKind}} }

func (w *World) animLibrary() *systems.AnimLibrary {
	return ecs.GetResource[systems.AnimLibrary](w.ecs)
}

// AddClip validates desc and adds the clip to the world's animation
// library, shared by every blend space that lists it.
func (w *World) AddClip(desc ClipDesc) (ClipID, error) {
	if err := w.enter("AddClip"); err != nil {
		return 0, err
	}
	defer w.leave()
	c, err := anim.NewClip(desc)
	if err != nil {
		return 0, err
	}
	lib := w.animLibrary()
	lib.Clips = append(lib.Clips, c)
	return ClipID(len(lib.Clips) - 1), nil
}

// AddBlendSpace validates desc and adds the blend space to the world's
// animation library. All its clips must be for the same number of bones.
func (w *World) AddBlendSpace(desc BlendSpaceDesc) (BlendSpaceID, error) {
	if err := w.enter("AddBlendSpace"); err != nil {
		return 0, err
	}
	defer w.leave()
	lib := w.animLibrary()
	clips := make([]*anim.Clip, len(desc.Clips))
	for i, id := range desc.Clips {
		if int64(id) >= int64(len(lib.Clips)) {
			return 0, check.Errorf("BlendSpaceDesc", fmt.Sprintf("Clips[%d]", i), id, "no clip with this ID in the world")
		}
		clips[i] = lib.Clips[id]
	}
	s, err := anim.NewBlendSpace(anim.BlendSpaceDesc{
		Kind: desc.Kind, Clips: clips, Thresholds: desc.Thresholds, Positions: desc.Positions,
		NormalizeDirect: desc.NormalizeDirect,
	})
	if err != nil {
		return 0, err
	}
	lib.Spaces = append(lib.Spaces, s)
	return BlendSpaceID(len(lib.Spaces) - 1), nil
}

// Add makes character e play a blend space and returns the handle: from
// the next Step its local pose is the blend of the space's clips instead
// of the rest pose. A character has one animation (Remove it first, or
// switch spaces with Play). The space must be for as many bones as the
// character's skeleton, and its clips' scale keys must not scale a bone of
// it beyond 1e4 relative to the root (check.MaxModelScale).
func (f AnimationFeature) Add(e ecs.Entity, space BlendSpaceID, s AnimSettings) (Animation, error) {
	w := f.w
	if err := w.enter("Animation.Add"); err != nil {
		return Animation{}, err
	}
	defer w.leave()
	c, err := w.playing(e, space, s)
	if err != nil {
		return Animation{}, err
	}
	if w.maps.anim.Has(e) {
		return Animation{}, check.Errorf("Animation.Add", "Entity", e, "already plays an animation (Remove it first, or Play another space)")
	}
	c.Control = components.Control{Weight: 1}
	m := generic.NewMap1[components.Animation](w.ecs)
	m.Assign(e, &c)
	return f.Of(e), nil
}

// Play switches the character to another blend space (or the same one)
// and starts it over from s; the pause state and weight are kept.
func (a Animation) Play(space BlendSpaceID, s AnimSettings) error {
	if err := a.enter("Play"); err != nil {
		return err
	}
	defer a.w.leave()
	cur, err := a.w.animation(a.e)
	if err != nil {
		return err
	}
	c, err := a.w.playing(a.e, space, s)
	if err != nil {
		return err
	}
	c.Control = cur.Control
	*cur = c
	return nil
}

// playing validates that e can play space with s and returns the
// component that does.
func (w *World) playing(e ecs.Entity, space BlendSpaceID, s AnimSettings) (components.Animation, error) {
	p, err := w.pose(e)
	if err != nil {
		return components.Animation{}, err
	}
	lib := w.animLibrary()
	if int64(space) >= int64(len(lib.Spaces)) {
		return components.Animation{}, check.Errorf("Animation", "Space", space, "no blend space with this ID in the world")
	}
	bs := lib.Spaces[space]
	if bs.BoneCount() != int(p.Count) {
		return components.Animation{}, check.Errorf("Animation", "Space", space, "the blend space is for %d bones, the character's skeleton %q has %d",
			bs.BoneCount(), w.reg.Skeletons[p.Skeleton].Name(), p.Count)
	}
	if err := animScaleFits(w.reg.Skeletons[p.Skeleton], bs, space); err != nil {
		return components.Animation{}, err
	}
	c := components.Animation{Space: uint32(space)}
	if err := setAnimSettings(&c.Player, s, bs); err != nil {
		return components.Animation{}, err
	}
	root, err := rootMotion(s, bs, w.reg.Skeletons[p.Skeleton])
	if err != nil {
		return components.Animation{}, err
	}
	c.Root = root
	return c, nil
}

// rootMotion validates the root-motion settings of s and returns the
// state a character starts with.
func rootMotion(s AnimSettings, bs *anim.BlendSpace, skel *rig.Skeleton) (anim.RootMotion, error) {
	const typ = "AnimSettings"
	if !s.RootMotion.Valid() {
		return anim.RootMotion{}, check.Errorf(typ, "RootMotion", s.RootMotion, "must be RootAsAuthored or RootInPlace")
	}
	bone := bs.RootBone()
	if s.RootBone != "" {
		if bone = skel.Index(s.RootBone); bone < 0 {
			return anim.RootMotion{}, check.Errorf(typ, "RootBone", s.RootBone, "no bone of this name in the skeleton %q", skel.Name())
		}
	}
	return anim.RootMotion{Mode: s.RootMotion, Bone: int32(bone)}, nil
}

// setAnimSettings validates s for the blend space bs and writes it into p.
func setAnimSettings(p *anim.Player, s AnimSettings, bs *anim.BlendSpace) error {
	const typ = "AnimSettings"
	if err := finiteVec2(typ, "Param", s.Param); err != nil {
		return err
	}
	if err := check.Finite(typ, "Speed", s.Speed); err != nil {
		return err
	}
	if err := check.Range(typ, "Time", s.Time, 0, 1); err != nil {
		return err
	}
	if err := check.NonNegative(typ, "Smoothing", s.Smoothing); err != nil {
		return err
	}
	if s.Direct != nil {
		if bs.Kind() != anim.KindDirect {
			return check.Errorf(typ, "Direct", s.Direct, "only a %v blend space takes Direct weights, this one is %v", anim.KindDirect, bs.Kind())
		}
		if err := directWeights(p, typ, "Direct", s.Direct, bs); err != nil {
			return err
		}
	}
	p.Param, p.Target = s.Param, s.Param
	p.Speed, p.Phase, p.Smoothing = s.Speed, s.Time, s.Smoothing
	return nil
}

// directWeights validates one weight per sample of bs and copies them into p.
func directWeights(p *anim.Player, typ, field string, weights []float32, bs *anim.BlendSpace) error {
	if len(weights) != bs.Len() {
		return check.Errorf(typ, field, len(weights), "must hold one weight per clip of the blend space (%d)", bs.Len())
	}
	for i, v := range weights {
		if !mathx.IsFinite(v) || v < 0 { // the field's name is formatted only for the error: a game calls this every frame
			return check.NonNegative(typ, fmt.Sprintf("%s[%d]", field, i), v)
		}
	}
	copy(p.Direct[:], weights)
	return nil
}

func finiteVec2(typ, field string, v mgl32.Vec2) error {
	if !mathx.IsFinite(v[0]) || !mathx.IsFinite(v[1]) {
		return &check.FieldError{Type: typ, Field: field, Value: v, Reason: "must be finite"}
	}
	return nil
}

// animation returns e's Animation component, or an *EntityError or a
// *FeatureError.
func (w *World) animation(e ecs.Entity) (*components.Animation, error) {
	if _, err := w.pose(e); err != nil {
		return nil, err
	}
	m := &w.maps.anim
	a := m.Get(e)
	if a == nil {
		return nil, &FeatureError{Feature: animKind.name, Entity: e}
	}
	return a, nil
}

// SetBlendParam sets the blend parameter the character's animation moves to
// (at once, or smoothed: AnimSettings.Smoothing); the game calls it every
// frame, for example with the character's velocity in its own frame.
func (a Animation) SetBlendParam(param mgl32.Vec2) error {
	if err := a.enter("SetBlendParam"); err != nil {
		return err
	}
	defer a.w.leave()
	c, err := a.w.animation(a.e)
	if err != nil {
		return err
	}
	if err := finiteVec2("Animation", "BlendParam", param); err != nil {
		return err
	}
	c.Target = param
	return nil
}

// SetDirectWeights sets the weights of a BlendDirect animation, one per
// clip of the space, each finite and >= 0; they apply from the next Step,
// unsmoothed.
func (a Animation) SetDirectWeights(weights []float32) error {
	if err := a.enter("SetDirectWeights"); err != nil {
		return err
	}
	defer a.w.leave()
	c, err := a.w.animation(a.e)
	if err != nil {
		return err
	}
	spaces := a.w.animLibrary().Spaces
	if int64(c.Space) >= int64(len(spaces)) { // only a component written directly
		return check.Errorf("Animation", "Space", c.Space, "the character's blend space is not in the world")
	}
	bs := spaces[c.Space]
	if bs.Kind() != anim.KindDirect {
		return check.Errorf("Animation", "DirectWeights", weights, "the character's blend space is %v, not %v", bs.Kind(), anim.KindDirect)
	}
	return directWeights(&c.Player, "Animation", "DirectWeights", weights, bs)
}

// SetSpeed sets the playback rate of the animation: 1 as
// authored, 0 holds, negative plays backwards.
func (a Animation) SetSpeed(speed float32) error {
	if err := a.enter("SetSpeed"); err != nil {
		return err
	}
	defer a.w.leave()
	c, err := a.w.animation(a.e)
	if err != nil {
		return err
	}
	if err := check.Finite("Animation", "Speed", speed); err != nil {
		return err
	}
	c.Speed = speed
	return nil
}

// BlendWeights appends to dst the weight of each clip of the character's
// blend space as of the last Step (nothing before the first), for
// debugging and UI. With a dst of enough capacity it does not allocate.
func (a Animation) BlendWeights(dst []float32) ([]float32, error) {
	if err := a.enter("BlendWeights"); err != nil {
		return nil, err
	}
	defer a.w.leave()
	c, err := a.w.animation(a.e)
	if err != nil {
		return dst, err
	}
	return append(dst, c.Scratch.Weights()...), nil
}

// State returns the animation's state as of the last Step.
func (a Animation) State() (AnimState, error) {
	if err := a.enter("State"); err != nil {
		return AnimState{}, err
	}
	defer a.w.leave()
	c, err := a.w.animation(a.e)
	if err != nil {
		return AnimState{}, err
	}
	return AnimState{
		Space: BlendSpaceID(c.Space), Param: c.Param, Target: c.Target,
		Time: c.Phase, Speed: c.Speed, Smoothing: c.Smoothing,
	}, nil
}

// RootDelta returns the motion the animation made in the last Step, for
// a character playing RootInPlace (zero otherwise): a turn of yawDegrees
// about +Y (positive turns +Z, the character's forward, towards +X), then
// a horizontal move pos in metres, both in the character's root space. A
// game that owns the character's root moves it by the delta each frame,
// after Step (ApplyRootDelta does that for a root the game leaves to
// sway):
//
//	root.Pos = root.Pos.Add(root.Rot.Rotate(pos))
//	root.Rot = root.Rot.Mul(mgl32.QuatRotate(mgl32.DegToRad(yaw), mgl32.Vec3{0, 1, 0}))
//
// or feeds it to its character controller. The motion is each playing
// clip's own, between its time before the Step and after, weighted as the
// pose is: a loop's wrap carries the motion on (the end's motion from the
// start added), playing backwards undoes it, and a change of weights
// moves nothing. The first Step after Add, Play or Reset reports none, as
// does a paused or culled Step. A weight below one scales it. A clip's
// turn must stay under 180 degrees from the start of its cycle (a turn on
// the spot of more is cut into cycles).
func (a Animation) RootDelta() (pos mgl32.Vec3, yawDegrees float32, err error) {
	if err := a.enter("RootDelta"); err != nil {
		return mgl32.Vec3{}, 0, err
	}
	defer a.w.leave()
	c, err := a.w.animation(a.e)
	if err != nil {
		return mgl32.Vec3{}, 0, err
	}
	return c.Root.Delta.Pos, mgl32.RadToDeg(c.Root.Delta.Yaw), nil
}

// ApplyRootDelta moves the character's root by the last Step's root
// delta (see RootDelta), as World.SetRoot would: for a game that lets the
// animation drive where its character goes. A game that moves its
// characters itself (physics, a character controller, the network) reads
// RootDelta instead. Call it once per Step.
func (a Animation) ApplyRootDelta() error {
	if err := a.enter("ApplyRootDelta"); err != nil {
		return err
	}
	defer a.w.leave()
	c, err := a.w.animation(a.e)
	if err != nil {
		return err
	}
	d := c.Root.Delta
	if d == (anim.RootDelta{}) {
		return nil
	}
	_, rc := a.w.chars.Get(a.e)
	r := rc.Transform
	r.Pos = r.Pos.Add(r.Rot.Rotate(mgl32.Vec3{d.Pos[0] * r.Scale[0], d.Pos[1] * r.Scale[1], d.Pos[2] * r.Scale[2]}))
	s, co := math.Sincos(float64(d.Yaw) / 2)
	r.Rot = r.Rot.Mul(mgl32.Quat{W: float32(co), V: mgl32.Vec3{0, float32(s), 0}}).Normalize()
	nr, err := validRoot("Animation.ApplyRootDelta", r)
	if err != nil {
		return err
	}
	rc.Transform = nr
	return nil
}
