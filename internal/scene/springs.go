package scene

import (
	"fmt"
	"math/rand"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/ecs"
)

// VRMSpecs returns the standard rig's secondary bones as VRM springs, the
// same 62 joints as the dynamic chains: 8 hair springs of 6 joints, 2 ears
// of 3 and the tail of 8, each last joint with VRM 0.x's 7 cm virtual
// tail. Settings: stiffness 1, gravity power 0.5 along (0,-1,0), drag 0.4,
// hit radius 0.02, each varied by up to ±10% by rng. Every spring names
// all three colliders of Colliders, so a character's springs share one
// collider slice; the kernel skips the colliders a spring cannot reach.
func VRMSpecs(rng *rand.Rand) []sway.VRMSpringSpec {
	vary := func(v float32) float32 { return v * (1 + 0.1*(2*rng.Float32()-1)) }
	settings := func() sway.VRMJointSettings {
		return sway.VRMJointSettings{
			Stiffness: vary(1), GravityPower: vary(0.5), GravityDir: mgl32.Vec3{0, -1, 0},
			DragForce: vary(0.4), HitRadius: vary(0.02),
		}
	}
	joints := func(format string, n int) []string {
		names := make([]string, n)
		for j := range names {
			names[j] = fmt.Sprintf(format, j)
		}
		return names
	}
	all := []int{0, 1, 2}
	var specs []sway.VRMSpringSpec
	for k := 0; k < HairChains; k++ {
		specs = append(specs, sway.VRMSpringSpec{Joints: joints(fmt.Sprintf("hair%d.%%d", k), HairLength), Settings: settings(), Colliders: all})
	}
	for _, side := range []string{"L", "R"} {
		specs = append(specs, sway.VRMSpringSpec{Joints: joints("ear."+side+".%d", EarLength), Settings: settings(), Colliders: all})
	}
	return append(specs, sway.VRMSpringSpec{Joints: joints("tail.%d", TailLength), Settings: settings(), Colliders: all})
}

// AddVRMSprings gives every character the standard VRM springs and
// colliders, with per-character settings drawn from a generator seeded by
// seed.
func (s *Scene) AddVRMSprings(w *sway.World, ents []ecs.Entity, seed int64) error {
	rng := rand.New(rand.NewSource(seed))
	colliders := Colliders()
	for _, e := range ents {
		if _, err := w.VRMSprings().Add(e, colliders, VRMSpecs(rng)); err != nil {
			return err
		}
	}
	return nil
}

// EarringSpecs returns the rig's two earrings as simple tip springs: one
// bone each, the tip 4 cm below it.
func EarringSpecs() []sway.SimpleSpringSpec {
	s := sway.DefaultSimpleSpringSettings()
	end := mgl32.Vec3{0, -0.04, 0}
	return []sway.SimpleSpringSpec{
		{Bones: []string{"earring.L"}, SpringEnd: end, Settings: s},
		{Bones: []string{"earring.R"}, SpringEnd: end, Settings: s},
	}
}

// AddEarrings gives every character the two earring springs.
func (s *Scene) AddEarrings(w *sway.World, ents []ecs.Entity) error {
	specs := EarringSpecs()
	for _, e := range ents {
		if _, err := w.SimpleSprings().Add(e, specs); err != nil {
			return err
		}
	}
	return nil
}
