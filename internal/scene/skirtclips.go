package scene

import (
	"math"
	"math/rand"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/internal/mathx"
	"github.com/sway-anim/sway/systems/anim"
)

// The skirt rig's motions: four clips of SkirtClipSeconds each, keyed at
// ClipRate, looping (the last key repeats the first).
const (
	SkirtWalk = iota // two walk cycles: thighs swing ±25°
	SkirtRun         // three run cycles: thighs from -35° to +55°, knees folding to 90°, body leaning forward
	SkirtKick        // a high kick with each leg in turn: the straight leg lifted to 90° in 0.3 s, held, lowered
	SkirtSit         // sitting down (thighs level, knees at 90°, hips 0.42 m lower and back) and standing up
	SkirtClipCount

	SkirtClipSeconds = 2
	SkirtClipKeys    = SkirtClipSeconds*ClipRate + 1
)

// SkirtClipNames are the clips' names, in clip order.
var SkirtClipNames = [SkirtClipCount]string{"skirt_walk", "skirt_run", "skirt_kick", "skirt_sit"}

// The schedule every skirt character follows, from its own offset in it:
// walk, run, kick, sit, SkirtSegment seconds each, each segment fading in
// over SkirtFade seconds from the one before (sit fades into walk). The
// root moves at the clip's speed (SkirtSpeeds, blended by the weights) on
// a circle, so the run also swings the skirt outwards; kicking and
// sitting stand still.
//
// Why this order: every motion follows the one that loads the skirt
// differently. The run, the fastest swing of the thighs, ends in a short
// fade to the kick, which lifts a straight leg through the front strands
// while they still swing; the sit brings both thighs level through the
// front of the skirt and holds them there, and standing up pulls them
// out again; walking then lets the skirt settle before the next run.
const (
	SkirtSegment = 4.0 // seconds per motion: two loops of its clip
	SkirtFade    = 0.3 // seconds of cross-fade into each motion
	SkirtCycle   = SkirtClipCount * SkirtSegment
)

// SkirtSpeeds are the root's speeds in m/s during each motion.
var SkirtSpeeds = [SkirtClipCount]float64{SkirtWalk: 1.3, SkirtRun: 3.2}

// skirtPathRadius is the radius of every skirt character's circle (m):
// the run's 3.2 m/s on it is a lateral 3.4 m/s².
const skirtPathRadius = 3.0

// bodyPose is one key of a skirt clip; angles in degrees.
type bodyPose struct {
	flex, knee [2]float64 // hip flexion (+ forward) and knee bend, left and right
	armSwing   [2]float64 // + forward
	elbow      float64
	lean       float64 // spine forward
	twist      float64 // hips about +Y
	drop, back float32 // hips lower and back, metres
}

// SkirtClips returns the skirt rig's four clips in clip order (SkirtWalk
// .. SkirtSit): rotation tracks on the 21 body bones and a translation
// track on the hips, built from the motions' curves; the skirt's bones
// keep their rest pose (the chains move them). The keys depend on nothing
// but the skeleton.
func (s *Scene) SkirtClips() []anim.ClipDesc {
	curves := [SkirtClipCount]func(u float64) bodyPose{walkPose, runPose, kickPose, sitPose}
	descs := make([]anim.ClipDesc, SkirtClipCount)
	for c := range descs {
		descs[c] = s.bodyClip(SkirtClipNames[c], curves[c])
	}
	return descs
}

// walkPose: u in [0, 1) over the clip; two cycles.
func walkPose(u float64) bodyPose {
	sin, cos := math.Sincos(2 * math.Pi * 2 * u)
	return bodyPose{
		flex:     [2]float64{25 * sin, -25 * sin},
		knee:     [2]float64{3 + 15*(1+cos), 3 + 15*(1-cos)},
		armSwing: [2]float64{-15 * sin, 15 * sin},
		elbow:    15, lean: 2, twist: 4 * sin,
		drop: float32(0.01 * (1 - math.Cos(4*math.Pi*2*u))),
	}
}

// runPose: three cycles; the swinging leg folds.
func runPose(u float64) bodyPose {
	sin, cos := math.Sincos(2 * math.Pi * 3 * u)
	return bodyPose{
		flex:     [2]float64{10 + 45*sin, 10 - 45*sin},
		knee:     [2]float64{10 + 40*(1+cos), 10 + 40*(1-cos)},
		armSwing: [2]float64{-35 * sin, 35 * sin},
		elbow:    80, lean: 10, twist: 6 * sin,
		drop: float32(0.02 * (1 - math.Cos(4*math.Pi*3*u))),
	}
}

// kickPose: the left leg kicks in the first second, the right in the
// second: up in 0.3 s, held 0.15 s, down in 0.35 s.
func kickPose(u float64) bodyPose {
	side := 0
	if u >= 0.5 {
		side = 1
	}
	v := math.Mod(2*u, 1)
	var p float64
	switch {
	case v < 0.3:
		p = smooth(v / 0.3)
	case v < 0.45:
		p = 1
	case v < 0.8:
		p = smooth((0.8 - v) / 0.35)
	}
	var b bodyPose
	b.flex[side], b.knee[side] = 90*p, 40*4*p*(1-p) // bent on the way, straight at the top
	b.flex[1-side], b.knee[1-side] = -5*p, 3+5*p
	b.armSwing = [2]float64{-20 * p, -20 * p}
	b.elbow, b.lean = 20, -12*p
	return b
}

// sitPose: down in 0.7 s, seated 0.6 s, up in 0.7 s; the feet stay where
// they stand, so the hips go down and back as the thighs come level.
func sitPose(u float64) bodyPose {
	var p float64
	switch {
	case u < 0.35:
		p = smooth(u / 0.35)
	case u < 0.65:
		p = 1
	default:
		p = smooth((1 - u) / 0.35)
	}
	f := 90 * p
	sin, cos := math.Sincos(f * math.Pi / 180)
	return bodyPose{
		flex: [2]float64{f, f}, knee: [2]float64{f, f},
		armSwing: [2]float64{30 * p, 30 * p},
		elbow:    15 + 30*p, lean: 25 * p,
		drop: float32(legSegment * (1 - cos)), back: float32(legSegment * sin),
	}
}

func smooth(x float64) float64 {
	x = math.Max(0, math.Min(1, x))
	return x * x * (3 - 2*x)
}

// bodyClip keys pose(u) at SkirtClipKeys keys, u = k/(keys-1) with the
// last key equal to the first, bit for bit.
func (s *Scene) bodyClip(name string, pose func(u float64) bodyPose) anim.ClipDesc {
	skel := s.Skeleton
	const n = SkirtClipKeys
	d := anim.ClipDesc{Name: name, SampleRate: ClipRate, KeyCount: n, Loop: true, BoneCount: skel.NumBones()}
	d.Tracks = make([]anim.TrackDesc, len(BodyBoneNames))
	tracks := make(map[string]*anim.TrackDesc, len(BodyBoneNames))
	for i, name := range BodyBoneNames {
		d.Tracks[i] = anim.TrackDesc{Bone: skel.Index(name), Rotations: make([]mgl32.Quat, n)}
		tracks[name] = &d.Tracks[i]
	}
	hips := tracks["hips"]
	hips.Translations = make([]mgl32.Vec3, n)
	rest := skel.RestPos()[skel.Index("hips")]
	x, y, z := mgl32.Vec3{1, 0, 0}, mgl32.Vec3{0, 1, 0}, mgl32.Vec3{0, 0, 1}
	fwd := mgl32.Vec3{-1, 0, 0} // a rotation about -X swings a hanging limb forward (+Z)
	rot := func(axis mgl32.Vec3, degrees float64) mgl32.Quat { return mgl32.QuatRotate(deg(degrees), axis) }
	for k := 0; k < n; k++ {
		b := pose(float64(k%(n-1)) / float64(n-1))
		set := func(name string, q mgl32.Quat) { tracks[name].Rotations[k] = q }
		for i, side := range []string{"L", "R"} {
			set("upper_leg."+side, rot(fwd, b.flex[i]))
			set("lower_leg."+side, rot(x, b.knee[i]))
			set("foot."+side, rot(x, b.flex[i]-b.knee[i])) // level with the ground
		}
		set("shoulder.L", mgl32.QuatIdent())
		set("shoulder.R", mgl32.QuatIdent())
		set("upper_arm.L", mathx.Mul(rot(fwd, b.armSwing[0]), rot(z, -armDown)))
		set("upper_arm.R", mathx.Mul(rot(fwd, b.armSwing[1]), rot(z, armDown)))
		set("lower_arm.L", rot(y, -b.elbow))
		set("lower_arm.R", rot(y, b.elbow))
		set("hand.L", mgl32.QuatIdent())
		set("hand.R", mgl32.QuatIdent())
		twist := rot(y, b.twist)
		set("hips", twist)
		set("spine", mathx.Mul(rot(x, b.lean), mathx.Conjugate(twist)))
		set("chest", mgl32.QuatIdent())
		set("neck", rot(x, -0.5*b.lean))
		set("head", rot(x, -0.4*b.lean))
		set("eye.L", mgl32.QuatIdent())
		set("eye.R", mgl32.QuatIdent())
		hips.Translations[k] = rest.Add(mgl32.Vec3{0, -b.drop, -b.back})
	}
	return d
}

// AddSkirtMotion adds the four skirt clips and a BlendDirect space over
// them (in clip order) to w, and returns the space.
func (s *Scene) AddSkirtMotion(w *sway.World) (sway.BlendSpaceID, error) {
	ids := make([]sway.ClipID, SkirtClipCount)
	for i, d := range s.SkirtClips() {
		id, err := w.AddClip(d)
		if err != nil {
			return 0, err
		}
		ids[i] = id
	}
	return w.AddBlendSpace(sway.BlendSpaceDesc{Kind: sway.BlendDirect, Clips: ids})
}

// skirtOffset is character i's place in the schedule at t = 0 (seconds),
// from its phase: the crowd does all four motions at any moment.
func (s *Scene) skirtOffset(i int) float64 {
	return float64(s.Chars[i].Phase) / (2 * math.Pi) * SkirtCycle
}

// SkirtMotionAt returns the motion that dominates character i's schedule
// at time t (the one fading in, once past half its fade).
func (s *Scene) SkirtMotionAt(i int, t float64) int {
	tau := math.Mod(t+s.skirtOffset(i), SkirtCycle)
	seg := int(tau / SkirtSegment)
	if tau-float64(seg)*SkirtSegment < SkirtFade/2 {
		return (seg + SkirtClipCount - 1) % SkirtClipCount
	}
	return seg % SkirtClipCount
}

// SkirtWeights writes character i's clip weights at time t into dst
// (SkirtClipCount long): the current motion's weight rises linearly over
// SkirtFade from the start of its segment and the previous one's falls;
// they sum to 1.
func (s *Scene) SkirtWeights(dst []float32, i int, t float64) {
	clear(dst)
	tau := math.Mod(t+s.skirtOffset(i), SkirtCycle)
	seg := min(int(tau/SkirtSegment), SkirtClipCount-1)
	a := math.Min(1, (tau-float64(seg)*SkirtSegment)/SkirtFade)
	dst[seg] = float32(a)
	dst[(seg+SkirtClipCount-1)%SkirtClipCount] += float32(1 - a)
}

// skirtDistance is how far the root has gone by schedule time tau >= 0:
// the integral of the weighted speeds.
func skirtDistance(tau float64) float64 {
	cycles := math.Floor(tau / SkirtCycle)
	perCycle := 0.0
	for _, v := range SkirtSpeeds {
		perCycle += v * SkirtSegment
	}
	d := cycles * perCycle
	rest := tau - cycles*SkirtCycle
	for seg := 0; seg < SkirtClipCount; seg++ {
		u := math.Max(0, math.Min(SkirtSegment, rest-float64(seg)*SkirtSegment))
		in := u - SkirtFade/2 // the fading-in motion's share of the segment so far
		if u < SkirtFade {
			in = u * u / (2 * SkirtFade)
		}
		d += SkirtSpeeds[seg]*in + SkirtSpeeds[(seg+SkirtClipCount-1)%SkirtClipCount]*(u-in)
	}
	return d
}

// SkirtRootAt returns character i's root at time t: on a circle of 3 m
// about its home, as far along as its schedule has carried it, facing
// along the circle.
func (s *Scene) SkirtRootAt(i int, t float64) sway.Transform {
	c := &s.Chars[i]
	off := s.skirtOffset(i)
	a := float64(c.Phase) + (skirtDistance(t+off)-skirtDistance(off))/skirtPathRadius
	sin, cos := math.Sincos(a)
	tr := sway.At(c.Home.Add(mgl32.Vec3{skirtPathRadius * float32(cos), 0, skirtPathRadius * float32(sin)}))
	tr.Rot = mgl32.QuatRotate(float32(math.Atan2(-sin, cos)), mgl32.Vec3{0, 1, 0})
	return tr
}

// SkirtAnimSettings returns character i's animation settings on the
// skirt space: its weights and clip time at t = 0.
func (s *Scene) SkirtAnimSettings(i int) sway.AnimSettings {
	a := sway.DefaultAnimSettings()
	a.Direct = make([]float32, SkirtClipCount)
	s.SkirtWeights(a.Direct, i, 0)
	off := s.skirtOffset(i)
	a.Time = float32(off/SkirtClipSeconds - math.Floor(off/SkirtClipSeconds))
	return a
}

// SteerSkirt is the skirt rig's game part of a frame for time t: every
// character's root and clip weights. weights is scratch of
// SkirtClipCount floats (so the frame allocates nothing).
func (s *Scene) SteerSkirt(w *sway.World, ents []ecs.Entity, t float64, weights []float32) error {
	for i, e := range ents {
		if err := w.SetRoot(e, s.SkirtRootAt(i, t)); err != nil {
			return err
		}
		s.SkirtWeights(weights, i, t)
		if err := w.Animation().Of(e).SetDirectWeights(weights); err != nil {
			return err
		}
	}
	return nil
}

// BuildSkirt gives every character of ents (populated with
// PopulateSkirt) its features, one character after the other (see Build):
// the chains (AddSkirtChains, drawn from a generator seeded by
// chainSeed), the earrings and the skirt motion on space (made by
// AddSkirtMotion). Breathing, look-at and the leg IK of the standard
// scene are left out: the IK would take the left leg from the clips.
func (s *Scene) BuildSkirt(w *sway.World, ents []ecs.Entity, chainSeed int64, space sway.BlendSpaceID) error {
	rng := rand.New(rand.NewSource(chainSeed))
	earrings := EarringSpecs()
	for i, e := range ents {
		chains, err := AddSkirtChains(w, e, rng, nil, s.skirt)
		if err != nil {
			return err
		}
		if _, err := w.SimpleSprings().Add(e, earrings); err != nil {
			return err
		}
		if _, err := w.Animation().Add(e, space, s.SkirtAnimSettings(i)); err != nil {
			return err
		}
		// The chains started from the rest pose when added; the first
		// frame puts the character wherever its schedule starts (a leg
		// lifted, or seated). Reset starts them from that frame's pose
		// instead, as a game does for a character it spawns mid-motion.
		if err := chains.Reset(); err != nil {
			return err
		}
	}
	return nil
}

// PopulateSkirt adds the scene's characters to w at their skirt roots for
// time 0.
func (s *Scene) PopulateSkirt(w *sway.World) ([]ecs.Entity, error) {
	ents := make([]ecs.Entity, len(s.Chars))
	for i := range s.Chars {
		e, err := w.AddCharacter(s.Skeleton, s.SkirtRootAt(i, 0))
		if err != nil {
			return nil, err
		}
		ents[i] = e
	}
	return ents, nil
}
