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

// ColliderDesc is a collider in the local space of the bone it is
// attached to; see ColliderSpec for its units.
type ColliderDesc = collide.Desc

// Sphere, Capsule and Plane make collider descriptions in the bone's local
// space (see ColliderSpec for units).
var (
	Sphere  = collide.NewSphere
	Capsule = collide.NewCapsule
	Plane   = collide.NewPlane
)

// ColliderSpec attaches a collider to a bone of the character.
type ColliderSpec struct {
	Bone string // the bone's name; the collider follows its animated transform every frame
	// Shape is in the bone's local space. Its points (Offset, Tail) are
	// scaled with the bone (metres for a bone whose scale relative to the
	// root is 1, under a root of scale 1) and its plane Normal turns with
	// it. Its radii (Radius, TailRadius) are metres at rest: they scale
	// only with the root's scale and with a change of the bone's scale
	// since the rest pose (largest absolute components). Ranges: see
	// collide.Desc.
	Shape ColliderDesc
}

// ChainSpec describes one dynamic chain of a character by bone names.
type ChainSpec struct {
	Root       string   // the name of the bone the chain hangs from; it follows the animation, the bones below it swing
	Exclusions []string // names of bones whose subtrees are left out; nil: none
	// EndLength (>= 0, a fraction; default 0) adds a virtual end particle
	// past each tip (and in place of each excluded child), along the tip
	// bone and this fraction of its length further.
	EndLength float32
	// EndOffset (when EndLength is 0) puts a virtual end particle at this
	// offset from each tip in the character's model space, in metres
	// before the root's scale (finite; default zero: no end particle), as
	// DynamicBone does: in the rest pose it does not turn with the tip
	// bone's rotation; afterwards the particle moves with the bone.
	EndOffset mgl32.Vec3
	Colliders []int // indices into the colliders given to ChainFeature.Add; nil: none
	// Settings are the chain's parameters, each field's unit, default and
	// range in chain.Settings; start from DefaultChainSettings (the zero
	// value has Weight 0, which leaves the chain off).
	Settings ChainSettings
	// Sync, when not nil, makes the chain's root bone follow another
	// bone's motion before the simulation runs (KawaiiPhysics' SyncBone):
	// a skirt's front strands moving forward with the thigh as the leg
	// lifts. Default nil: the root follows the animation alone.
	Sync *ChainSync
}

// ChainSync makes a chain's root bone follow a driver bone: every frame,
// before the chains are prepared, the root bone moves by Weight times the
// driver's displacement from its rest position, per axis of the
// character's model space (metres, +Y up, +Z forward). Weight's
// components are 0..1 (0: that axis is not followed). The root's local
// translation is changed for the frame only; the animation or the rest
// pose gives it afresh the next.
type ChainSync struct {
	Bone   string     // the driver: a bone of the character that is not the chain's root
	Weight mgl32.Vec3 // per model-space axis, each 0..1
}

// ChainFeature adds dynamic chains to characters and finds them again
// (World.Chains).
type ChainFeature struct{ w *World }

// Chains returns the world's dynamic-chain feature.
func (w *World) Chains() ChainFeature { return ChainFeature{w} }

// Chains is a handle on a character's dynamic chains: the verbs every
// feature has (Pause, Resume, Reset, SetWeight, Remove; see "Features as
// handles") and the chains' own settings, teleport test and fault count.
type Chains struct{ feature }

var chainKind = featureKind{
	name: "Chains",
	control: func(w *World, e ecs.Entity) *components.Control {
		if m := &w.maps.chains; m.Has(e) {
			return &m.Get(e).Control
		}
		return nil
	},
	reset:  func(w *World, e ecs.Entity) { w.resetChains(e) },
	remove: func(w *World, e ecs.Entity) { w.removeChains(e) },
}

// Of returns the handle on character e's chains. It does not check that e
// has chains: its methods do.
func (f ChainFeature) Of(e ecs.Entity) Chains { return Chains{feature{f.w, e, &chainKind}} }

// Add gives a character dynamic chains and the colliders they may collide
// with, and returns their handle. It validates everything and returns a
// *FieldError naming the spec and field; a character has one set of
// chains (Remove them first to replace them), and no bone may be driven
// by two features: a chain over a bone that another chain or a spring of
// the character drives is an *OverlapError.
//
// The chains start here, as DynamicBone starts its particles: each on its
// bone's position in the character's current pose (its root as last set,
// its bones as of the last Step or AddCharacter), at rest. The next Step
// carries whatever moved since, so a character added at t = 0 and then
// moved with SetRoot before each Step swings from the first frame.
func (f ChainFeature) Add(e ecs.Entity, colliders []ColliderSpec, chains []ChainSpec) (Chains, error) {
	w := f.w
	if err := w.enter("Chains.Add"); err != nil {
		return Chains{}, err
	}
	defer w.leave()
	if err := w.addChains(e, colliders, chains); err != nil {
		return Chains{}, err
	}
	return f.Of(e), nil
}

func (w *World) addChains(e ecs.Entity, colliders []ColliderSpec, chains []ChainSpec) error {
	pose, err := w.pose(e)
	if err != nil {
		return err
	}
	m := &w.maps.chains
	if m.Has(e) {
		return check.Errorf("Chains.Add", "Entity", e, "already has chains (Remove them first)")
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
	var syncs []chain.RootSync
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
		if sy := spec.Sync; sy != nil {
			drv := skel.Index(sy.Bone)
			switch {
			case drv < 0:
				return check.Errorf("ChainSpec", field+".Sync.Bone", sy.Bone, "no bone has this name")
			case int32(drv) == d.Root:
				return check.Errorf("ChainSpec", field+".Sync.Bone", sy.Bone, "is the chain's root: a root cannot follow itself")
			case d.Root == 0:
				return check.Errorf("ChainSpec", field+".Root", spec.Root, "a synced root needs a parent bone")
			}
			for a, wgt := range sy.Weight {
				if err := check.Range("ChainSpec", fmt.Sprintf("%s.Sync.Weight[%d]", field, a), wgt, 0, 1); err != nil {
					return err
				}
			}
			syncs = append(syncs, chain.RootSync{Root: d.Root, Driver: int32(drv), Weight: sy.Weight, DriverRest: skel.ModelPos()[drv]})
		}
	}
	if err := w.checkChainOverlaps(e, skel, out, &built); err != nil {
		return err
	}
	st := w.chainStore()
	h := st.AddChains(out, &built, descs, bones)
	if len(syncs) > 0 {
		st.Syncs[h.First] = syncs
	}
	_, root := w.chars.Get(e)
	systems.StartChains(st, w.view, w.pool, skel, pose, root, &h)
	cm := generic.NewMap1[components.Chains](w.ecs)
	cm.Assign(e, &h)
	return nil
}

func (w *World) chainStore() *store.ChainStore { return ecs.GetResource[store.ChainStore](w.ecs) }

// chainsOf returns a character's chain handle. The world must be entered.
func (w *World) chainsOf(e ecs.Entity) (*components.Chains, error) {
	if _, err := w.pose(e); err != nil {
		return nil, err
	}
	m := &w.maps.chains
	if !m.Has(e) {
		return nil, &FeatureError{Feature: chainKind.name, Entity: e}
	}
	return m.Get(e), nil
}

// removeChains removes a character's chains and colliders.
func (w *World) removeChains(e ecs.Entity) {
	w.chainStore().Release(*w.maps.chains.Get(e))
	cm := generic.NewMap1[components.Chains](w.ecs)
	cm.Remove(e)
}

// Len returns how many chains the character has (0 without chains).
func (c Chains) Len() int {
	if c.enter("Len") != nil {
		return 0
	}
	defer c.w.leave()
	h, err := c.w.chainsOf(c.e)
	if err != nil {
		return 0
	}
	return int(h.Count)
}

// Settings returns the settings of chain i (in the order given to Add).
func (c Chains) Settings(i int) (ChainSettings, error) {
	if err := c.enter("Settings"); err != nil {
		return ChainSettings{}, err
	}
	defer c.w.leave()
	ch, err := c.w.chainAt(c.e, i)
	if err != nil {
		return ChainSettings{}, err
	}
	return ch.Settings, nil
}

// SetSettings edits chain i; the new values take effect at the next
// frame, without rebuilding the chain. Invalid settings are rejected with
// a *FieldError and the old ones kept.
func (c Chains) SetSettings(i int, s ChainSettings) error {
	if err := c.enter("SetSettings"); err != nil {
		return err
	}
	defer c.w.leave()
	ch, err := c.w.chainAt(c.e, i)
	if err != nil {
		return err
	}
	if err := s.Validate(); err != nil {
		return err
	}
	ch.Settings = s
	st := c.w.chainStore()
	chain.Refresh(ch.ParticlesIn(&st.Rest, &st.Particles), ch)
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

func (w *World) resetChains(e ecs.Entity) {
	h := w.maps.chains.Get(e)
	st := w.chainStore()
	for k := h.First; k < h.First+h.Count; k++ {
		st.Chains[k].Reset()
	}
}

// SetTeleport sets the teleport test of every chain of the character
// (ChainSettings.TeleportDistance and TeleportAngleDegrees; what a chain then
// does is its ChainSettings.Teleport). A *FieldError for values outside
// the ranges Teleport documents.
func (c Chains) SetTeleport(t Teleport) error {
	if err := c.enter("SetTeleport"); err != nil {
		return err
	}
	defer c.w.leave()
	if err := t.validate("Chains"); err != nil {
		return err
	}
	h, err := c.w.chainsOf(c.e)
	if err != nil {
		return err
	}
	st := c.w.chainStore()
	for k := h.First; k < h.First+h.Count; k++ {
		ch := &st.Chains[k]
		s := ch.Settings
		s.TeleportDistance = t.Distance
		s.TeleportAngleDegrees = t.AngleDegrees
		ch.Settings = s
		chain.Refresh(ch.ParticlesIn(&st.Rest, &st.Particles), ch)
	}
	return nil
}

// Teleport returns the teleport test of the character's first chain (the
// one SetTeleport gave every chain, unless SetSettings changed a chain's
// since); DefaultTeleport for a character with no chains in its set.
func (c Chains) Teleport() (Teleport, error) {
	if err := c.enter("Teleport"); err != nil {
		return Teleport{}, err
	}
	defer c.w.leave()
	h, err := c.w.chainsOf(c.e)
	if err != nil {
		return Teleport{}, err
	}
	if h.Count == 0 {
		return DefaultTeleport(), nil
	}
	s := &c.w.chainStore().Chains[h.First].Settings
	return Teleport{Distance: s.TeleportDistance, AngleDegrees: s.TeleportAngleDegrees}, nil
}

// Faults returns how many times the character's chains were found with
// non-finite particles and reset to the animated pose.
func (c Chains) Faults() (uint32, error) {
	if err := c.enter("Faults"); err != nil {
		return 0, err
	}
	defer c.w.leave()
	h, err := c.w.chainsOf(c.e)
	if err != nil {
		return 0, err
	}
	return h.Faults, nil
}

// SetReference sets the point distance culling measures from: the camera
// or the player, in world space (metres); every feature's cull distance
// (SetCullDistance on its handle) and ChainSettings.DisableDistance
// measure from the character's root to it. Its coordinates must be finite
// and within ±1e6 m (check.MaxPosition).
func (w *World) SetReference(p mgl32.Vec3) error {
	if err := w.enter("SetReference"); err != nil {
		return err
	}
	defer w.leave()
	if err := check.Position("World", "Reference", p); err != nil {
		return err
	}
	w.view.Point = p
	return nil
}

// ChainLinkSettings are the parameters of the links between a character's
// chains (see ChainLinks; units and ranges in chain.LinkSettings):
// Compliance in metres per newton (XPBD, each particle weighing 1 kg; 0:
// rigid), Iterations: rounds per sub-step of links, limits, link
// collision and the chains' own lengths and colliders (0..16, 0 meaning
// 1), MaxStretch and MaxCompression as fractions of a link's target
// length (0: no limit), SegmentCollision: the segment between a link's
// particles kept out of the first chain's spheres and capsules (default
// false).
type ChainLinkSettings = chain.LinkSettings

// ChainLinks link a character's chains side by side, so that a skirt's
// strands keep their spacing around the hips (or a cape's side by side):
// distance constraints between the particles of neighbouring chains at
// the same depth, the target being their distance in the animated pose of
// the frame (see the chain package, "Links between chains"). Chains are
// named by their index in the order given to ChainFeature.Add.
type ChainLinks struct {
	// Rings are chains in order around a closed loop (the last neighbours
	// the first): at least 3 each. A skirt's strands around the hips.
	Rings [][]int
	// Strips are chains in order along an open strip: at least 2 each.
	Strips [][]int
	// Diagonal also links each particle with its neighbour's at the next
	// depth (shear resistance).
	Diagonal bool
	ChainLinkSettings
}

// SetLinks links the character's chains (replacing any links set
// before; no rings and no strips remove them). It is a *FieldError for an
// index out of range, a chain listed twice in one ring or strip, a ring
// of fewer than 3 or a strip of fewer than 2 chains, or settings outside
// their ranges. Linked chains step their sub-steps together (every chain,
// then the links, then the chains' lengths and colliders again) on the
// scalar path rather than side by side with other characters' in the
// SIMD lanes; give them the same UpdateRate, MaxSubSteps and Mode (links
// act only in sub-steps both their chains run). Links are set-up, not
// saved in a snapshot (as settings are not).
func (c Chains) SetLinks(l ChainLinks) error {
	if err := c.enter("SetLinks"); err != nil {
		return err
	}
	defer c.w.leave()
	h, err := c.w.chainsOf(c.e)
	if err != nil {
		return err
	}
	if err := l.ChainLinkSettings.Validate(); err != nil {
		return err
	}
	st := c.w.chainStore()
	cs := st.Chains[h.First : h.First+h.Count]
	parents := make([][]int32, len(cs))
	for k := range cs {
		parents[k] = st.Rest.Parent[cs[k].RestFirst : cs[k].RestFirst+cs[k].N]
	}
	links, err := chain.LinkChains(cs, parents, l.Rings, l.Strips, l.Diagonal)
	if err != nil {
		return err
	}
	if h.Count == 0 {
		return nil
	}
	if len(l.Rings) == 0 && len(l.Strips) == 0 {
		st.Links[h.First] = nil
		return nil
	}
	st.Links[h.First] = &chain.Linked{Settings: l.ChainLinkSettings, Links: links}
	return nil
}

// Links returns the links between the character's chains as built by
// SetLinks: the settings and the number of particle pairs linked (0 and
// the zero settings without links).
func (c Chains) Links() (ChainLinkSettings, int, error) {
	if err := c.enter("Links"); err != nil {
		return ChainLinkSettings{}, 0, err
	}
	defer c.w.leave()
	h, err := c.w.chainsOf(c.e)
	if err != nil {
		return ChainLinkSettings{}, 0, err
	}
	if l := c.w.chainStore().LinksOf(h); l != nil {
		return l.Settings, len(l.Links), nil
	}
	return ChainLinkSettings{}, 0, nil
}
