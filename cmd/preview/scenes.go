package main

import (
	"math"
	"math/rand"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/internal/scene"
)

// demo is a built scene: one character in its own world, what the game
// does before each step, and where the camera looks.
type demo struct {
	w      *sway.World
	e      ecs.Entity
	skel   *sway.Skeleton
	scale  float32 // pixels per metre
	ground bool    // draw the ground line
	lookAt bool    // draw the look-at target and the gaze
	steer  func(t float64) error
	centre func() mgl32.Vec3 // the point drawn at the middle of the views
}

type sceneDef struct {
	about string
	build func(cfg config) (*demo, error)
}

var scenes = map[string]sceneDef{
	"run":      {"the stress rig runs and turns sharply: its hair lags behind the head and swings out", buildRun},
	"hang":     {"a chain hangs from a swaying, tilting base and swings against a sphere and a capsule", buildHang},
	"tail":     {"a long tail on the stress rig running a slalom, kept out of the legs by capsules", buildTail},
	"idle":     {"the stress rig idles and breathes, its head and eyes following a moving target", buildIdle},
	"skirt":    {"the skirt rig kicks high with each leg in turn: 12 skirt strands on the hips against capsules on the legs", buildSkirt},
	"teleport": {"the stress rig walks on the spot and jumps 1.4 m (and turns) every 1.5 s: chains reset, no stretch", buildTeleport},
}

// apply overrides the settings given on the command line.
func (c chainFlags) apply(s *sway.ChainSettings) {
	set := func(dst *float32, v *float64) {
		if v != nil {
			*dst = float32(*v)
		}
	}
	set(&s.Damping, c.damping)
	set(&s.Elasticity, c.elasticity)
	set(&s.Stiffness, c.stiffness)
	set(&s.Inert, c.inert)
	if c.gravity != nil {
		s.Gravity = mgl32.Vec3{0, float32(*c.gravity), 0}
	}
}

// stressRig adds one stress-rig character at root to a new world, with the
// locomotion blend space playing param at speed.
func stressRig(root sway.Transform, param mgl32.Vec2, speed float32) (*demo, *scene.Scene, error) {
	sc, err := scene.New(scene.Config{Characters: 1})
	if err != nil {
		return nil, nil, err
	}
	// One worker: the preview is small, and the output is the same for any
	// count anyway.
	w, err := sway.NewWorld(sway.Options{Workers: 1})
	if err != nil {
		return nil, nil, err
	}
	e, err := w.AddCharacter(sc.Skeleton, root)
	if err == nil {
		var space sway.BlendSpaceID
		if space, err = sc.AddLocomotion(w); err == nil {
			_, err = w.Animation().Add(e, space, sway.AnimSettings{Param: param, Speed: speed})
		}
	}
	if err != nil {
		w.Close()
		return nil, nil, err
	}
	return &demo{w: w, e: e, skel: sc.Skeleton, scale: 130, ground: true}, sc, nil
}

// runner moves a root along the ground at a constant speed, its heading
// (radians about +Y, 0 facing +Z) a function of time; the position is
// integrated step by step.
type runner struct {
	pos     [3]float64
	speed   float64
	heading func(t float64) float64
	last    float64
}

func (r *runner) at(t float64) sway.Transform {
	h := r.heading(t)
	sin, cos := math.Sincos(h)
	r.pos[0] += r.speed * (t - r.last) * sin
	r.pos[2] += r.speed * (t - r.last) * cos
	r.last = t
	tr := sway.At(mgl32.Vec3{float32(r.pos[0]), 0, float32(r.pos[2])})
	tr.Rot = mgl32.QuatRotate(float32(h), mgl32.Vec3{0, 1, 0})
	return tr
}

// follow returns a camera centre on the root, at the hips' height.
func (d *demo) follow() mgl32.Vec3 {
	root, err := d.w.Root(d.e)
	if err != nil {
		return mgl32.Vec3{}
	}
	return root.Pos.Add(mgl32.Vec3{0, 1, 0})
}

func smoothstep(x float64) float64 {
	x = math.Max(0, math.Min(1, x))
	return x * x * (3 - 2*x)
}

// turn is a change of heading by angle radians over dur seconds from start.
type turn struct{ start, dur, angle float64 }

func headingOf(turns []turn) func(t float64) float64 {
	return func(t float64) float64 {
		h := 0.0
		for _, k := range turns {
			h += k.angle * smoothstep((t-k.start)/k.dur)
		}
		return h
	}
}

func rad(deg float64) float64 { return deg * math.Pi / 180 }

// buildRun: the default scene. The stress rig with its standard chains
// runs at 2.5 m/s and turns sharply four times; the camera follows.
func buildRun(cfg config) (*demo, error) {
	r := &runner{speed: 2.5, heading: headingOf([]turn{
		{1.0, 0.3, rad(110)}, {2.2, 0.35, rad(-170)}, {3.4, 0.25, rad(120)}, {4.6, 0.4, rad(-180)},
	})}
	d, sc, err := stressRig(r.at(0), mgl32.Vec2{0, 1}, 1.7)
	if err != nil {
		return nil, err
	}
	if err := sc.AddChainsWith(d.w, []ecs.Entity{d.e}, cfg.seed, cfg.chain.apply); err != nil {
		d.w.Close()
		return nil, err
	}
	d.steer = func(t float64) error { return d.w.SetRoot(d.e, r.at(t)) }
	d.centre = d.follow
	return d, nil
}

// buildTail: only the tail, long and loose, on the stress rig running a
// slalom; capsules on the upper legs keep it out of them.
func buildTail(cfg config) (*demo, error) {
	r := &runner{speed: 3, heading: func(t float64) float64 { return rad(55) * math.Sin(2*math.Pi*t/1.6) }}
	d, _, err := stressRig(r.at(0), mgl32.Vec2{0, 1}, 1.8)
	if err != nil {
		return nil, err
	}
	tail := sway.DefaultChainSettings()
	tail.Damping, tail.Elasticity, tail.Stiffness, tail.Inert = 0.06, 0.03, 0.05, 0
	tail.Radius = 0.02
	tail.Gravity = mgl32.Vec3{0, -14.4, 0} // m/s² (DynamicBone: 0.004 per 60 Hz step)
	cfg.chain.apply(&tail)
	leg := func(bone string) sway.ColliderSpec {
		return sway.ColliderSpec{Bone: bone, Shape: sway.Capsule(mgl32.Vec3{}, mgl32.Vec3{0, -0.42, 0}, 0.07, 0.05)}
	}
	_, err = d.w.Chains().Add(d.e, []sway.ColliderSpec{leg("upper_leg.L"), leg("upper_leg.R")}, []sway.ChainSpec{{Root: "tail.0", EndLength: 1, Colliders: []int{0, 1}, Settings: tail}})
	if err != nil {
		d.w.Close()
		return nil, err
	}
	d.steer = func(t float64) error { return d.w.SetRoot(d.e, r.at(t)) }
	d.centre = d.follow
	return d, nil
}

// buildIdle: the stress rig idles with its hair, breathes (the bend
// doubled so that it reads at preview size) and looks at a target moving
// in a figure of eight in front of it.
func buildIdle(cfg config) (*demo, error) {
	d, sc, err := stressRig(sway.Identity(), mgl32.Vec2{}, 1)
	if err != nil {
		return nil, err
	}
	breath := sway.BreathFor(d.skel)
	breath.EffectRate = 2
	look := sway.LookAtFor(d.skel)
	err = sc.AddChainsWith(d.w, []ecs.Entity{d.e}, cfg.seed, cfg.chain.apply)
	if err == nil {
		_, err = d.w.Breath().Add(d.e, breath)
	}
	if err == nil {
		_, err = d.w.LookAt().Add(d.e, look)
	}
	if err != nil {
		d.w.Close()
		return nil, err
	}
	d.lookAt = true
	d.steer = func(t float64) error {
		return d.w.LookAt().Of(d.e).SetTarget(mgl32.Vec3{
			float32(0.9 * math.Sin(0.9*t)), float32(1.55 + 0.35*math.Sin(1.8*t)), 1.1,
		})
	}
	d.centre = func() mgl32.Vec3 { return mgl32.Vec3{0, 1.05, 0.3} }
	return d, nil
}

// buildTeleport: the stress rig walks on the spot; every 1.5 s it jumps
// between x = -0.7 and x = +0.7 (farther than the chains' 1 m teleport
// distance), turning by 150 degrees on every other jump.
func buildTeleport(cfg config) (*demo, error) {
	rootAt := func(t float64) sway.Transform {
		k := int(t / 1.5)
		x := float32(-0.7)
		if k%2 == 1 {
			x = 0.7
		}
		tr := sway.At(mgl32.Vec3{x, 0, 0})
		tr.Rot = mgl32.QuatRotate(float32(rad(150*float64(k/2))), mgl32.Vec3{0, 1, 0})
		return tr
	}
	d, sc, err := stressRig(rootAt(0), mgl32.Vec2{0, 1}, 1)
	if err != nil {
		return nil, err
	}
	if err := sc.AddChainsWith(d.w, []ecs.Entity{d.e}, cfg.seed, cfg.chain.apply); err != nil {
		d.w.Close()
		return nil, err
	}
	d.scale = 110
	d.steer = func(t float64) error { return d.w.SetRoot(d.e, rootAt(t)) }
	d.centre = func() mgl32.Vec3 { return mgl32.Vec3{0, 1, 0} }
	return d, nil
}

// buildHang: a base 1.9 m up sways left-right and back-forth and tilts;
// an 8-link chain hangs from it and swings against a sphere and a tapered
// capsule fixed to the base.
func buildHang(cfg config) (*demo, error) {
	bones := []sway.BoneDesc{sway.Bone("base", "", mgl32.Vec3{}), sway.Bone("link.0", "base", mgl32.Vec3{0, -0.02, 0})}
	for k := 1; k < 8; k++ {
		bones = append(bones, sway.Bone(linkName(k), linkName(k-1), mgl32.Vec3{0, -0.12, 0}))
	}
	skel, err := sway.NewSkeleton(sway.SkeletonDesc{Name: "hang", Bones: bones})
	if err != nil {
		return nil, err
	}
	rootAt := func(t float64) sway.Transform {
		tr := sway.At(mgl32.Vec3{float32(0.45 * math.Sin(2*math.Pi*0.4*t)), 1.9, float32(0.2 * math.Sin(2*math.Pi*0.25*t))})
		tr.Rot = mgl32.QuatRotate(float32(rad(25)*math.Sin(2*math.Pi*0.3*t)), mgl32.Vec3{0, 0, 1})
		return tr
	}
	w, err := sway.NewWorld(sway.Options{Workers: 1})
	if err != nil {
		return nil, err
	}
	e, err := w.AddCharacter(skel, rootAt(0))
	if err == nil {
		s := sway.DefaultChainSettings()
		s.Damping, s.Elasticity, s.Stiffness, s.Inert = 0.08, 0.03, 0, 0
		s.Radius = 0.03
		s.Gravity = mgl32.Vec3{0, -28.8, 0} // m/s², 0.008 per 60 Hz step; pulls as far as the base tilts
		cfg.chain.apply(&s)
		_, err = w.Chains().Add(e, []sway.ColliderSpec{
			{Bone: "base", Shape: sway.Sphere(mgl32.Vec3{0.3, -0.75, 0}, 0.15)},
			{Bone: "base", Shape: sway.Capsule(mgl32.Vec3{-0.35, -0.35, 0.1}, mgl32.Vec3{-0.25, -1.0, -0.1}, 0.07, 0.04)},
		}, []sway.ChainSpec{{Root: "link.0", EndLength: 1, Colliders: []int{0, 1}, Settings: s}})
	}
	if err != nil {
		w.Close()
		return nil, err
	}
	d := &demo{w: w, e: e, skel: skel, scale: 130}
	d.steer = func(t float64) error { return w.SetRoot(e, rootAt(t)) }
	d.centre = func() mgl32.Vec3 { return mgl32.Vec3{0, 1.35, 0} }
	return d, nil
}

func linkName(k int) string { return "link." + string(rune('0'+k)) }

// buildSkirt: the skirt rig (the stress rig with a ring skirt of 12
// strands and capsules on the legs, scene.AddSkirtChains) walks for 2 s,
// stops and kicks high, left then right (the thigh lifting to 90° through
// the front of the skirt), and walks on; the camera follows.
func buildSkirt(cfg config) (*demo, error) {
	sc, err := scene.New(scene.Config{Characters: 1, Rig: scene.RigSkirt})
	if err != nil {
		return nil, err
	}
	w, err := sway.NewWorld(sway.Options{Workers: 1})
	if err != nil {
		return nil, err
	}
	e, err := w.AddCharacter(sc.Skeleton, sway.Identity())
	weights := make([]float32, scene.SkirtClipCount)
	if err == nil {
		var space sway.BlendSpaceID
		if space, err = sc.AddSkirtMotion(w); err == nil {
			a := sway.DefaultAnimSettings()
			a.Direct = weights
			a.Direct[scene.SkirtWalk] = 1
			_, err = w.Animation().Add(e, space, a)
		}
	}
	if err == nil {
		_, err = scene.AddSkirtChains(w, e, rand.New(rand.NewSource(cfg.seed)), cfg.chain.apply, scene.SkirtLinked)
	}
	if err != nil {
		w.Close()
		return nil, err
	}
	d := &demo{w: w, e: e, skel: sc.Skeleton, scale: 150, ground: true}
	// Two clip loops (2 s each) in turn, walk then kick, each fading in
	// over 0.3 s; the root moves at the walk's speed times its weight.
	const loop, fade = scene.SkirtClipSeconds, 0.3
	var z, last float64
	d.steer = func(t float64) error {
		clear(weights)
		cur := scene.SkirtWalk
		if int(t/loop)%2 == 1 {
			cur = scene.SkirtKick
		}
		a := math.Min(1, (t-loop*math.Floor(t/loop))/fade)
		if t < loop {
			a = 1
		}
		weights[cur] = float32(a)
		weights[scene.SkirtWalk+scene.SkirtKick-cur] = float32(1 - a)
		z += scene.SkirtSpeeds[scene.SkirtWalk] * float64(weights[scene.SkirtWalk]) * (t - last)
		last = t
		if err := w.SetRoot(e, sway.At(mgl32.Vec3{0, 0, float32(z)})); err != nil {
			return err
		}
		return w.Animation().Of(e).SetDirectWeights(weights)
	}
	d.centre = func() mgl32.Vec3 { return d.follow().Add(mgl32.Vec3{0, -0.15, 0.15}) }
	return d, nil
}
