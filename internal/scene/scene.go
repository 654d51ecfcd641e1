// Package scene builds the standard stress rig deterministically from a
// seed: one skeleton of 85 bones, characters on a grid, and each
// character's root path. cmd/stress, bench/ and the tests share it, so a
// figure in docs/performance.md and a failing test talk about the same
// scene.
package scene

import (
	"fmt"
	"math"
	"math/rand"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/components"
	"github.com/sway-anim/sway/ecs"
)

// Bone counts of the standard rig.
const (
	BodyBones      = 21                                               // hips .. feet
	HairChains     = 8                                                // hanging from the head
	HairLength     = 6                                                // moving bones per hair chain
	EarLength      = 3                                                // moving bones per ear chain (two ears)
	TailLength     = 8                                                // moving bones of the tail, from the hips
	Earrings       = 2                                                // one simple tip spring each, on the head
	SecondaryBones = HairChains*HairLength + 2*EarLength + TailLength // 62 moving particles
	BonesPerChar   = BodyBones + SecondaryBones + Earrings            // 85
)

// SkeletonDesc returns the standard rig: a humanoid of 21 body bones
// (hips as root; spine, chest, neck, head, two eyes; per side shoulder,
// upper arm, lower arm, hand, upper leg, lower leg, foot), 8 hair chains of
// 6 bones and 2 ear chains of 3 bones on the head, a tail of 8 bones on the
// hips, and 2 earring bones on the head. Y is up, Z forward, X to the
// character's left; the hips stand 1 m above the root.
func SkeletonDesc() sway.SkeletonDesc {
	b := sway.Bone
	v := func(x, y, z float32) mgl32.Vec3 { return mgl32.Vec3{x, y, z} }
	bones := []sway.BoneDesc{
		b("hips", "", v(0, 1, 0)),
		b("spine", "hips", v(0, 0.1, 0)),
		b("chest", "spine", v(0, 0.15, 0)),
		b("neck", "chest", v(0, 0.2, 0)),
		b("head", "neck", v(0, 0.1, 0)),
		b("eye.L", "head", v(0.03, 0.07, 0.08)),
		b("eye.R", "head", v(-0.03, 0.07, 0.08)),
	}
	for _, side := range []struct {
		s string
		x float32
	}{{"L", 1}, {"R", -1}} {
		bones = append(bones,
			b("shoulder."+side.s, "chest", v(side.x*0.05, 0.15, 0)),
			b("upper_arm."+side.s, "shoulder."+side.s, v(side.x*0.12, 0, 0)),
			b("lower_arm."+side.s, "upper_arm."+side.s, v(side.x*0.26, 0, 0)),
			b("hand."+side.s, "lower_arm."+side.s, v(side.x*0.25, 0, 0)),
			b("upper_leg."+side.s, "hips", v(side.x*0.1, -0.05, 0)),
			b("lower_leg."+side.s, "upper_leg."+side.s, v(0, -0.42, 0)),
			b("foot."+side.s, "lower_leg."+side.s, v(0, -0.42, 0)),
		)
	}
	// Hair: chains around the back half of the head, hanging down.
	for k := 0; k < HairChains; k++ {
		a := math.Pi * (0.15 + 0.7*float64(k)/float64(HairChains-1)) // left to right, behind
		x, z := float32(0.09*math.Cos(a)), float32(-0.09*math.Sin(a))
		parent := "head"
		for j := 0; j < HairLength; j++ {
			name := fmt.Sprintf("hair%d.%d", k, j)
			off := v(0, -0.05, 0)
			if j == 0 {
				off = v(x, 0.12, z)
			}
			bones = append(bones, b(name, parent, off))
			parent = name
		}
	}
	for _, side := range []struct {
		s string
		x float32
	}{{"L", 1}, {"R", -1}} {
		parent := "head"
		for j := 0; j < EarLength; j++ {
			name := fmt.Sprintf("ear.%s.%d", side.s, j)
			off := v(0, 0.04, 0)
			if j == 0 {
				off = v(side.x*0.06, 0.16, 0)
			}
			bones = append(bones, b(name, parent, off))
			parent = name
		}
		bones = append(bones, b("earring."+side.s, "head", v(side.x*0.075, 0.02, 0)))
	}
	parent := "hips"
	for j := 0; j < TailLength; j++ {
		name := fmt.Sprintf("tail.%d", j)
		off := v(0, -0.01, -0.07)
		if j == 0 {
			off = v(0, -0.02, -0.1)
		}
		bones = append(bones, b(name, parent, off))
		parent = name
	}
	return sway.SkeletonDesc{Name: "stress-rig", Bones: bones}
}

// Config describes a stress scene.
type Config struct {
	Characters int
	Seed       int64
	Spacing    float32 // grid spacing in metres (default 2)
	// Rig is the skeleton: RigStandard ("" too) for SkeletonDesc or
	// RigSkirt for SkirtSkeletonDesc.
	Rig string
	// Skirt is how RigSkirt's skirt is simulated (SkirtLinked, the
	// default, or SkirtPlain).
	Skirt SkirtMode
}

// The rigs Config.Rig names.
const (
	RigStandard = "standard"
	RigSkirt    = "skirt"
)

// Character is one character's seeded parameters.
type Character struct {
	Home   mgl32.Vec3 // grid position
	Phase  float32    // path phase in radians
	Speed  float32    // angular speed on the path, radians per second
	Radius float32    // path radius in metres
}

// Scene is a built stress scene.
type Scene struct {
	Skeleton *sway.Skeleton
	Chars    []Character
	seed     int64
	skirt    SkirtMode
}

// New builds the scene's skeleton and per-character parameters.
func New(cfg Config) (*Scene, error) {
	if cfg.Characters < 0 {
		return nil, fmt.Errorf("scene: Characters = %d, must be >= 0", cfg.Characters)
	}
	if cfg.Spacing == 0 {
		cfg.Spacing = 2
	}
	desc := SkeletonDesc()
	switch cfg.Rig {
	case "", RigStandard:
	case RigSkirt:
		desc = SkirtSkeletonDesc()
	default:
		return nil, fmt.Errorf("scene: Rig %q: want %q or %q", cfg.Rig, RigStandard, RigSkirt)
	}
	skel, err := sway.NewSkeleton(desc)
	if err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewSource(cfg.Seed))
	side := int(math.Ceil(math.Sqrt(float64(cfg.Characters))))
	s := &Scene{Skeleton: skel, Chars: make([]Character, cfg.Characters), seed: cfg.Seed, skirt: cfg.Skirt}
	for i := range s.Chars {
		s.Chars[i] = Character{
			Home:   mgl32.Vec3{float32(i%side) * cfg.Spacing, 0, float32(i/side) * cfg.Spacing},
			Phase:  rng.Float32() * 2 * math.Pi,
			Speed:  0.8 + 0.4*rng.Float32(),
			Radius: 0.3 + 0.4*rng.Float32(),
		}
	}
	return s, nil
}

// Teleports: every TeleportEvery seconds of simulated time, each character
// jumps TeleportJump metres along +X with probability TeleportShare (decided
// by a hash of the seed, the character and the moment, so every run and
// every worker count sees the same teleports).
const (
	TeleportEvery = 10.0
	TeleportShare = 0.01
	TeleportJump  = 50
)

// Teleports returns how many times character i has teleported by time t.
func (s *Scene) Teleports(i int, t float64) int {
	n := 0
	for k := 1; float64(k)*TeleportEvery <= t; k++ {
		h := uint64(s.seed)*0x9e3779b97f4a7c15 ^ uint64(i)*0xbf58476d1ce4e5b9 ^ uint64(k)*0x94d049bb133111eb
		h ^= h >> 31
		h *= 0xd6e8feb86659fd93
		h ^= h >> 32
		if float64(h%1_000_000)/1e6 < TeleportShare {
			n++
		}
	}
	return n
}

// RootAt returns character i's root transform at simulated time t: moving
// on a circle around its home, facing along the path, shifted by its
// teleports so far.
func (s *Scene) RootAt(i int, t float64) components.Transform {
	c := &s.Chars[i]
	a := float64(c.Phase) + float64(c.Speed)*t
	sin, cos := math.Sincos(a)
	tr := components.Identity()
	tr.Pos = c.Home.Add(mgl32.Vec3{c.Radius*float32(cos) + float32(TeleportJump*s.Teleports(i, t)), 0, c.Radius * float32(sin)})
	// Facing the tangent (-sin, 0, cos): a yaw about +Y with forward = +Z.
	yaw := float32(math.Atan2(-sin, cos))
	tr.Rot = mgl32.QuatRotate(yaw, mgl32.Vec3{0, 1, 0})
	return tr
}
