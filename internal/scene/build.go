package scene

import (
	"fmt"
	"math/rand"

	"github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/ecs"
)

// Features is what Build gives every character: the same as the separate
// Add functions with the same seeds, called in the order of the fields.
type Features struct {
	// Chains is "dynamic" (AddChainsWith), "vrm" (AddVRMSprings) or ""
	// for neither, with its seed and, for dynamic chains, the settings'
	// tweak (nil for none).
	Chains     string
	ChainSeed  int64
	ChainTweak func(*sway.ChainSettings)
	Earrings   bool // AddEarrings
	// Animate puts the characters on Space (Animate); AddLocomotion must
	// have made it.
	Animate bool
	Space   sway.BlendSpaceID
	// Procedural is AddProcedural with ProceduralSeed.
	Procedural     bool
	ProceduralSeed int64
}

// Build gives every character of ents the features f lists, one
// character after the other. The result is the one the separate Add
// functions give, value for value (each feature draws from its own
// generator, seeded as theirs), with less memory: the ECS keeps the
// storage of every archetype an entity passes through on its way to its
// last one, so that adding a feature to all characters before the next
// feature leaves one full-size archetype per step behind, and adding a
// character's features one after the other leaves archetypes of one
// entity.
func (s *Scene) Build(w *sway.World, ents []ecs.Entity, f Features) error {
	var chainRNG *rand.Rand
	switch f.Chains {
	case "", "dynamic", "vrm":
		chainRNG = rand.New(rand.NewSource(f.ChainSeed))
	default:
		return fmt.Errorf("scene: Features.Chains %q: want \"dynamic\", \"vrm\" or \"\"", f.Chains)
	}
	colliders := Colliders()
	earrings := EarringSpecs()
	var pr *procedural
	if f.Procedural {
		var err error
		if pr, err = s.newProcedural(f.ProceduralSeed); err != nil {
			return err
		}
	}
	for _, e := range ents {
		var err error
		switch f.Chains {
		case "dynamic":
			err = addChains(w, e, chainRNG, colliders, f.ChainTweak)
		case "vrm":
			_, err = w.VRMSprings().Add(e, colliders, VRMSpecs(chainRNG))
		}
		if err == nil && f.Earrings {
			_, err = w.SimpleSprings().Add(e, earrings)
		}
		if err == nil && f.Animate {
			_, err = w.Animation().Add(e, f.Space, sway.DefaultAnimSettings())
		}
		if err == nil && pr != nil {
			err = pr.add(w, e)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
