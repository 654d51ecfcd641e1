package scene

import (
	"github.com/mlange-42/arche/ecs"
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/internal/mathx"
	"github.com/sway-anim/sway/systems/anim"
)

// The locomotion clips: 1 s loops at 30 keys/s, the last key repeating the
// first as exporters write loops.
const (
	ClipRate = 30
	ClipKeys = ClipRate + 1
)

// The locomotion clips in blend-space order.
const (
	Idle = iota
	WalkForward
	WalkBack
	WalkLeft
	WalkRight
	LocomotionClipCount
)

// LocomotionPositions returns the Simple Directional layout of the
// locomotion clips, in clip order: idle at the centre, forward (0, 1), back
// (0, -1), left (-1, 0), right (1, 0). The parameter is x = strafe right,
// y = forward, in the character's own terms.
func LocomotionPositions() []mgl32.Vec2 {
	return []mgl32.Vec2{{0, 0}, {0, 1}, {0, -1}, {-1, 0}, {1, 0}}
}

// gait is one clip's motion: the walking direction in the rig's space
// (+Z forward, +X the character's left) and the swing amplitudes.
type gait struct {
	name     string
	dir      mgl32.Vec3
	legSwing float64 // degrees, hip swing along dir
	armSwing float64 // degrees
	knee     float64 // degrees of extra knee bend at the swing's peak
	sway     float64 // degrees of spine and hip twist or lean
	bob      float32 // metres of hip bob
}

var gaits = [LocomotionClipCount]gait{
	Idle:        {name: "idle", dir: mgl32.Vec3{0, 0, 1}, armSwing: 2, sway: 1.5, bob: 0.005},
	WalkForward: {name: "walk_forward", dir: mgl32.Vec3{0, 0, 1}, legSwing: 25, armSwing: 15, knee: 30, sway: 4, bob: 0.02},
	WalkBack:    {name: "walk_back", dir: mgl32.Vec3{0, 0, -1}, legSwing: 20, armSwing: 10, knee: 25, sway: 3, bob: 0.015},
	WalkLeft:    {name: "walk_left", dir: mgl32.Vec3{1, 0, 0}, legSwing: 15, armSwing: 6, knee: 20, sway: 3, bob: 0.015},
	WalkRight:   {name: "walk_right", dir: mgl32.Vec3{-1, 0, 0}, legSwing: 15, armSwing: 6, knee: 20, sway: 3, bob: 0.015},
}

// BodyBoneNames lists the stress rig's 21 body bones, the bones the
// locomotion clips animate.
var BodyBoneNames = [BodyBones]string{
	"hips", "spine", "chest", "neck", "head", "eye.L", "eye.R",
	"shoulder.L", "upper_arm.L", "lower_arm.L", "hand.L", "upper_leg.L", "lower_leg.L", "foot.L",
	"shoulder.R", "upper_arm.R", "lower_arm.R", "hand.R", "upper_leg.R", "lower_leg.R", "foot.R",
}

// armDown lowers the T-pose arms by this many degrees.
const armDown = 75

// LocomotionClips returns the stress rig's five locomotion clips, in clip
// order (Idle, WalkForward, WalkBack, WalkLeft, WalkRight): 1 s loops of
// ClipKeys keys with a rotation track on each of the 21 body bones and a
// translation track on the hips, built from sine swings of legs, arms, spine
// and hips so that they read as a walk cycle (idle: a slow sway with the
// arms down). The other bones keep their rest pose. The keys depend on
// nothing but the skeleton: every call returns the same clips.
func (s *Scene) LocomotionClips() []anim.ClipDesc {
	descs := make([]anim.ClipDesc, LocomotionClipCount)
	for i, g := range gaits {
		descs[i] = s.gaitClip(g)
	}
	return descs
}

func deg(d float64) float32 { return float32(d * math.Pi / 180) }

func (s *Scene) gaitClip(g gait) anim.ClipDesc {
	skel := s.Skeleton
	d := anim.ClipDesc{Name: g.name, SampleRate: ClipRate, KeyCount: ClipKeys, Loop: true, BoneCount: skel.NumBones()}
	d.Tracks = make([]anim.TrackDesc, len(BodyBoneNames))
	tracks := make(map[string]*anim.TrackDesc, len(BodyBoneNames)) // looked up, never ranged over
	for i, name := range BodyBoneNames {
		d.Tracks[i] = anim.TrackDesc{Bone: skel.Index(name), Rotations: make([]mgl32.Quat, ClipKeys)}
		tracks[name] = &d.Tracks[i]
	}
	hips := tracks["hips"]
	hips.Translations = make([]mgl32.Vec3, ClipKeys)
	// A leg swings toward the walking direction about swing = (-Y) × dir;
	// the side axis leans the body across it.
	swing := mgl32.Vec3{-g.dir[2], 0, g.dir[0]}
	x, y, z := mgl32.Vec3{1, 0, 0}, mgl32.Vec3{0, 1, 0}, mgl32.Vec3{0, 0, 1}
	rot := func(axis mgl32.Vec3, degrees float64) mgl32.Quat { return mgl32.QuatRotate(deg(degrees), axis) }
	rest := skel.RestPos()[skel.Index("hips")]
	for k := 0; k < ClipKeys; k++ {
		// k mod the rate: the last key is the first, bit for bit.
		ph := 2 * math.Pi * float64(k%ClipRate) / ClipRate
		sin, cos := math.Sincos(ph)
		set := func(name string, q mgl32.Quat) { tracks[name].Rotations[k] = q }
		// Legs in opposition; each knee bends most while its leg swings
		// through, each foot keeps level against its knee.
		for _, leg := range []struct {
			side string
			sign float64
		}{{"L", 1}, {"R", -1}} {
			a := leg.sign * sin
			bend := g.knee * 0.5 * (1 + leg.sign*cos)
			set("upper_leg."+leg.side, rot(swing, g.legSwing*a))
			set("lower_leg."+leg.side, rot(x, bend+3))
			set("foot."+leg.side, rot(x, -0.5*bend))
		}
		// Arms down from the T-pose, swinging against the leg of their side;
		// elbows a little bent forward.
		set("shoulder.L", mgl32.QuatIdent())
		set("shoulder.R", mgl32.QuatIdent())
		set("upper_arm.L", mathx.Mul(rot(swing, -g.armSwing*sin), rot(z, -armDown)))
		set("upper_arm.R", mathx.Mul(rot(swing, g.armSwing*sin), rot(z, armDown)))
		set("lower_arm.L", rot(y, -(12+0.3*g.armSwing*(1+sin))))
		set("lower_arm.R", rot(y, 12+0.3*g.armSwing*(1-sin)))
		set("hand.L", rot(x, 5*sin))
		set("hand.R", rot(x, -5*sin))
		// Twist (forward, back) or lean (sideways) of hips and spine, the
		// chest and head countering it so the gaze stays ahead.
		lean := mathx.Mul(rot(y, g.sway*sin*float64(absf(g.dir[2]))), rot(z, g.sway*sin*float64(absf(g.dir[0]))))
		set("hips", lean)
		set("spine", mathx.Conjugate(lean))
		set("chest", rot(x, 0.5*g.sway*cos))
		set("neck", rot(x, -0.25*g.sway*cos))
		set("head", mathx.Conjugate(rot(y, 0.5*g.sway*sin)))
		set("eye.L", mgl32.QuatIdent())
		set("eye.R", mgl32.QuatIdent())
		// The hips drop at each step (twice a cycle) and shift over the
		// standing leg.
		shift := g.dir.Cross(y).Mul(0.01 * float32(sin))
		hips.Translations[k] = rest.Add(shift).Add(mgl32.Vec3{0, -g.bob * float32(0.5*(1-math.Cos(2*ph))), 0})
	}
	return d
}

func absf(f float32) float32 {
	if f < 0 {
		return -f
	}
	return f
}

// AddLocomotion adds the five locomotion clips and the Simple Directional
// blend space over them (LocomotionPositions) to w, and returns the space.
func (s *Scene) AddLocomotion(w *sway.World) (sway.BlendSpaceID, error) {
	ids := make([]sway.ClipID, LocomotionClipCount)
	for i, d := range s.LocomotionClips() {
		id, err := w.AddClip(d)
		if err != nil {
			return 0, err
		}
		ids[i] = id
	}
	return w.AddBlendSpace(sway.BlendSpaceDesc{Kind: sway.BlendSimpleDirectional, Clips: ids, Positions: LocomotionPositions()})
}

// LocomotionParam returns character i's blend parameter at simulated time
// t: a point going round a circle of radius 0.6 at the character's own
// speed and phase, so that every direction is visited and the idle clip
// keeps a share everywhere (a Simple Directional blend gives the centre
// 1 - x - y between two axes, positive inside radius 1/sqrt 2): three
// clips active, two on the axes.
func (s *Scene) LocomotionParam(i int, t float64) mgl32.Vec2 {
	c := &s.Chars[i]
	sin, cos := math.Sincos(float64(c.Phase) + float64(c.Speed)*t)
	return mgl32.Vec2{0.6 * float32(cos), 0.6 * float32(sin)}
}

// Animate puts every character on the locomotion blend space (added to w
// once by AddLocomotion).
func (s *Scene) Animate(w *sway.World, ents []ecs.Entity, space sway.BlendSpaceID) error {
	for _, e := range ents {
		if _, err := w.Animation().Add(e, space, sway.DefaultAnimSettings()); err != nil {
			return err
		}
	}
	return nil
}

// SteerLocomotion sets every character's blend parameter for time t: the
// game's part of a frame, like MoveRoots.
func (s *Scene) SteerLocomotion(w *sway.World, ents []ecs.Entity, t float64) error {
	for i, e := range ents {
		if err := w.Animation().Of(e).SetBlendParam(s.LocomotionParam(i, t)); err != nil {
			return err
		}
	}
	return nil
}
