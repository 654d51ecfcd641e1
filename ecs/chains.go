package sway

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"

	"github.com/sway-anim/sway/components"
	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/internal/rig"
	"github.com/sway-anim/sway/internal/store"
	"github.com/sway-anim/sway/systems"
	"github.com/sway-anim/sway/systems/chain"
	"github.com/sway-anim/sway/systems/collide"
)

// ChainSettings are a dynamic chain's parameters (DynamicBone's model);
// see the chain package for each field, its range and its clamp.
type ChainSettings = chain.Settings

// Curve multiplies a chain parameter along the chain: (T, V) keys, T the
// rest distance from the root over the chain's length, linear between keys.
type Curve = chain.Curve

// ChainCurves are a chain's optional curves, one per parameter
// (ChainSettings.Curves; nil for none).
type ChainCurves = chain.Curves

// DefaultChainSettings returns the chain defaults (see chain.DefaultSettings:
// DynamicBone's, but with Inert 0.7 and Damping 0.04, for a walking
// character).
func DefaultChainSettings() ChainSettings { return chain.DefaultSettings() }

// ColliderDesc is a collider in the space of the bone it is attached to.
type ColliderDesc = collide.Desc

// Sphere, Capsule and Plane make collider descriptions (bone space).
var (
	Sphere  = collide.NewSphere
	Capsule = collide.NewCapsule
	Plane   = collide.NewPlane
)

// ColliderSpec attaches a collider to a bone of the character.
type ColliderSpec struct {
	Bone  string
	Shape ColliderDesc
}

// ChainSpec describes one dynamic chain of a character by bone names.
type ChainSpec struct {
	Root       string   // the bone the chain hangs from; it follows the animation
	Exclusions []string // bones whose subtrees are left out
	EndLength  float32  // a virtual end particle this far past each tip, relative to the tip bone's length
	// EndOffset (when EndLength is 0) puts a virtual end particle at this
	// offset from each tip in the character's space, as DynamicBone does:
	// in the rest pose it does not turn with the tip bone's rotation;
	// afterwards the particle moves with the bone.
	EndOffset mgl32.Vec3
	Colliders []int // indices into the colliders given to AddChains
	Settings  ChainSettings
}

// AddChains gives a character dynamic chains and the colliders they may
// collide with. It validates everything and returns a *FieldError naming
// the spec and field; a character has one set of chains (RemoveChains
// first to replace them).
//
// The chains start here, as DynamicBone starts its particles: each on its
// bone's position in the character's current pose (its root as last set,
// its bones as of the last Step or AddCharacter), at rest. The next Step
// carries whatever moved since, so a character added at t = 0 and then
// moved with SetRoot before each Step swings from the first frame.
func (w *World) AddChains(e ecs.Entity, colliders []ColliderSpec, chains []ChainSpec) error {
	if err := w.enter("AddChains"); err != nil {
		return err
	}
	defer w.leave()
	pose, err := w.pose(e)
	if err != nil {
		return err
	}
	m := &w.maps.chains
	if m.Has(e) {
		return check.Errorf("AddChains", "Entity", e, "already has chains (RemoveChains first)")
	}
	skel := w.reg.Skeletons[pose.Skeleton]
	descs, bones, err := colliderDescs(skel, colliders)
	if err != nil {
		return err
	}
	builder := w.chainBuilders[skel]
	if builder == nil {
		builder = chain.NewBuilder(&chain.Skeleton{Parent: skel.Parents(), RestPos: skel.RestPos(), RestRot: skel.RestRot(), RestScale: skel.RestScale()})
		if w.chainBuilders == nil {
			w.chainBuilders = map[*rig.Skeleton]*chain.Builder{}
		}
		w.chainBuilders[skel] = builder
	}
	var built chain.Particles
	out := make([]chain.Chain, len(chains))
	for i, spec := range chains {
		field := fmt.Sprintf("[%d]", i)
		d := chain.Desc{Root: int32(skel.Index(spec.Root)), EndLength: spec.EndLength, EndOffset: spec.EndOffset, Settings: spec.Settings}
		if d.Root < 0 {
			return check.Errorf("ChainSpec", field+".Root", spec.Root, "no bone has this name")
		}
		for _, name := range spec.Exclusions {
			b := skel.Index(name)
			if b < 0 {
				return check.Errorf("ChainSpec", field+".Exclusions", name, "no bone has this name")
			}
			d.Exclusions = append(d.Exclusions, int32(b))
		}
		for _, k := range spec.Colliders {
			if k < 0 || k >= len(colliders) {
				return check.Errorf("ChainSpec", field+".Colliders", k, "no collider has this index (%d given)", len(colliders))
			}
			d.Colliders = append(d.Colliders, int32(k))
		}
		if err := builder.Build(&built, &out[i], &d); err != nil {
			return fmt.Errorf("ChainSpec%s: %w", field, err)
		}
	}
	st := w.chainStore()
	h := st.AddChains(out, &built, descs, bones)
	_, root := w.chars.Get(e)
	systems.StartChains(st, w.pool, skel, pose, root, &h)
	cm := generic.NewMap1[components.Chains](w.ecs)
	cm.Assign(e, &h)
	return nil
}

func (w *World) chainStore() *store.ChainStore { return ecs.GetResource[store.ChainStore](w.ecs) }

// chainsOf returns a character's chain handle.
func (w *World) chainsOf(e ecs.Entity) (*components.Chains, error) {
	if _, err := w.pose(e); err != nil {
		return nil, err
	}
	m := &w.maps.chains
	if !m.Has(e) {
		return nil, fmt.Errorf("sway: character has no chains")
	}
	return m.Get(e), nil
}

// RemoveChains removes a character's chains and colliders; the pose goes
// back to the animation from the next frame.
func (w *World) RemoveChains(e ecs.Entity) error {
	if err := w.enter("RemoveChains"); err != nil {
		return err
	}
	defer w.leave()
	h, err := w.chainsOf(e)
	if err != nil {
		return err
	}
	w.chainStore().Release(*h)
	cm := generic.NewMap1[components.Chains](w.ecs)
	cm.Remove(e)
	return nil
}

// NumChains returns how many chains a character has.
func (w *World) NumChains(e ecs.Entity) int {
	if w.enter("NumChains") != nil {
		return 0
	}
	defer w.leave()
	h, err := w.chainsOf(e)
	if err != nil {
		return 0
	}
	return int(h.Count)
}

// ChainSettingsOf returns the settings of a character's chain i.
func (w *World) ChainSettingsOf(e ecs.Entity, i int) (ChainSettings, error) {
	if err := w.enter("ChainSettingsOf"); err != nil {
		return ChainSettings{}, err
	}
	defer w.leave()
	c, err := w.chainAt(e, i)
	if err != nil {
		return ChainSettings{}, err
	}
	return c.Settings, nil
}

// SetChainSettings edits chain i of a character; the new values take effect
// at the next frame, without rebuilding the chain. Invalid settings are
// rejected with a *FieldError and the old ones kept.
func (w *World) SetChainSettings(e ecs.Entity, i int, s ChainSettings) error {
	if err := w.enter("SetChainSettings"); err != nil {
		return err
	}
	defer w.leave()
	c, err := w.chainAt(e, i)
	if err != nil {
		return err
	}
	if err := s.Validate(); err != nil {
		return err
	}
	c.Settings = s
	st := w.chainStore()
	chain.Refresh(c.ParticlesIn(&st.Rest, &st.Particles), c)
	return nil
}

func (w *World) chainAt(e ecs.Entity, i int) (*chain.Chain, error) {
	h, err := w.chainsOf(e)
	if err != nil {
		return nil, err
	}
	if i < 0 || i >= int(h.Count) {
		return nil, check.Errorf("Chains", "Index", i, "the character has %d chains", h.Count)
	}
	return &w.chainStore().Chains[int(h.First)+i], nil
}

// ResetChains puts a character's chains back on the animated pose at the
// next frame (after a cut, a respawn or a pose snap).
func (w *World) ResetChains(e ecs.Entity) error {
	if err := w.enter("ResetChains"); err != nil {
		return err
	}
	defer w.leave()
	return w.resetChains(e)
}

func (w *World) resetChains(e ecs.Entity) error {
	h, err := w.chainsOf(e)
	if err != nil {
		return err
	}
	st := w.chainStore()
	for k := h.First; k < h.First+h.Count; k++ {
		st.Chains[k].Reset()
	}
	return nil
}

// PauseChains pauses or resumes a character's chains. A paused character
// shows its animated pose; on resume its chains restart from it.
func (w *World) PauseChains(e ecs.Entity, paused bool) error {
	if err := w.enter("PauseChains"); err != nil {
		return err
	}
	defer w.leave()
	h, err := w.chainsOf(e)
	if err != nil {
		return err
	}
	if h.Paused && !paused {
		h.Paused = false
		return w.resetChains(e)
	}
	h.Paused = paused
	return nil
}

// SetReference sets the point that distance-based disabling measures from
// (ChainSettings.DisableDistance): the camera or the player.
func (w *World) SetReference(p mgl32.Vec3) error {
	if err := w.enter("SetReference"); err != nil {
		return err
	}
	defer w.leave()
	if err := check.FiniteVec3("World", "Reference", p); err != nil {
		return err
	}
	w.chainStore().Reference = p
	return nil
}

// ChainFaults returns how many times a character's chains were found with
// non-finite particles and reset to the animated pose.
func (w *World) ChainFaults(e ecs.Entity) (uint32, error) {
	if err := w.enter("ChainFaults"); err != nil {
		return 0, err
	}
	defer w.leave()
	h, err := w.chainsOf(e)
	if err != nil {
		return 0, err
	}
	return h.Faults, nil
}
