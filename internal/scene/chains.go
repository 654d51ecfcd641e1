package scene

import (
	"fmt"
	"math/rand"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/ecs"
)

// Colliders returns the standard rig's three colliders: a head sphere and
// two tapered upper-arm capsules.
func Colliders() []sway.ColliderSpec {
	return []sway.ColliderSpec{
		{Bone: "head", Shape: sway.Sphere(mgl32.Vec3{0, 0.08, 0}, 0.08)},
		{Bone: "upper_arm.L", Shape: sway.Capsule(mgl32.Vec3{}, mgl32.Vec3{0.26, 0, 0}, 0.05, 0.04)},
		{Bone: "upper_arm.R", Shape: sway.Capsule(mgl32.Vec3{}, mgl32.Vec3{-0.26, 0, 0}, 0.05, 0.04)},
	}
}

// ChainSpecs returns the standard rig's dynamic chains with settings varied
// by the seed: 8 hair chains (6 moving particles each: 5 bones below the
// root plus a virtual end), 2 ears (3 each) and a tail (8): 62 moving
// particles. Hair collides with all three colliders, the ears with the
// head. Gravity is 10.8 m/s² for the hair, 3.6 for the ears and 7.2 for
// the tail, each varied by 10 % (in DynamicBone's units, displacement per
// 60 Hz step: 0.003, 0.001 and 0.002).
func ChainSpecs(rng *rand.Rand) []sway.ChainSpec {
	vary := func(v, spread float32) float32 { return v * (1 + spread*(2*rng.Float32()-1)) }
	base := func(damping, elasticity, stiffness, inert float32, gravity float32 /* m/s² */) sway.ChainSettings {
		s := sway.DefaultChainSettings()
		s.Damping, s.Elasticity, s.Stiffness, s.Inert = vary(damping, 0.2), vary(elasticity, 0.2), vary(stiffness, 0.2), vary(inert, 0.2)
		s.Radius = 0.005
		s.Gravity = mgl32.Vec3{0, -vary(gravity, 0.1), 0}
		return s
	}
	var specs []sway.ChainSpec
	for k := 0; k < HairChains; k++ {
		specs = append(specs, sway.ChainSpec{
			Root: fmt.Sprintf("hair%d.0", k), EndLength: 1, Colliders: []int{0, 1, 2},
			Settings: base(0.15, 0.05, 0.1, 0.2, 10.8),
		})
	}
	for _, side := range []string{"L", "R"} {
		specs = append(specs, sway.ChainSpec{
			Root: "ear." + side + ".0", EndLength: 1, Colliders: []int{0},
			Settings: base(0.2, 0.2, 0.5, 0.1, 3.6),
		})
	}
	specs = append(specs, sway.ChainSpec{Root: "tail.0", EndLength: 1, Settings: base(0.1, 0.08, 0.2, 0.3, 7.2)})
	return specs
}

// AddChains gives every character the standard chains and colliders, with
// per-character settings drawn from a generator seeded by seed.
func (s *Scene) AddChains(w *sway.World, ents []ecs.Entity, seed int64) error {
	return s.AddChainsWith(w, ents, seed, nil)
}

// AddChainsWith is AddChains with every chain's settings passed through
// tweak (when not nil) before they are added.
func (s *Scene) AddChainsWith(w *sway.World, ents []ecs.Entity, seed int64, tweak func(*sway.ChainSettings)) error {
	rng := rand.New(rand.NewSource(seed))
	colliders := Colliders()
	for _, e := range ents {
		if err := addChains(w, e, rng, colliders, tweak); err != nil {
			return err
		}
	}
	return nil
}

// addChains gives one character the standard chains, its settings drawn
// from rng.
func addChains(w *sway.World, e ecs.Entity, rng *rand.Rand, colliders []sway.ColliderSpec, tweak func(*sway.ChainSettings)) error {
	specs := ChainSpecs(rng)
	if tweak != nil {
		for i := range specs {
			tweak(&specs[i].Settings)
		}
	}
	_, err := w.Chains().Add(e, colliders, specs)
	return err
}
