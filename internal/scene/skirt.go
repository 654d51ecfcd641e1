package scene

import (
	"fmt"
	"math"
	"math/rand"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/ecs"
)

// The skirt rig: the standard rig plus a ring skirt on the hips.
const (
	SkirtStrands = 12 // strands around the hips, strand 0 in front, going round to the character's left
	SkirtBones   = 4  // bones per strand: skirt.<k>.0 on the waistband (the chain's root) and three below it
	// SkirtPoints are the points of a strand that the metrics read: its
	// four bones and the hem (the virtual end particle, EndLength 1).
	SkirtPoints = SkirtBones + 1
	// SkirtParticles is the skirt's moving particles per character: per
	// strand the three bones below the waistband and the hem.
	SkirtParticles  = SkirtStrands * (SkirtBones - 1 + 1)
	SkirtBonesTotal = SkirtStrands * SkirtBones
	SkirtRigBones   = BonesPerChar + SkirtBonesTotal // 133
)

// The skirt's shape at rest: the waistband SkirtWaistHeight above the
// hips bone with radius SkirtWaistRadius; each bone below it steps
// skirtStep[j] outwards and down (an A-line skirt). The hem, one more
// step of the last bone's length, hangs at about 0.63 m, a little above
// the knees, 0.32 m from the body's axis.
const (
	SkirtWaistHeight = 0.06
	SkirtWaistRadius = 0.16
)

var skirtStep = [SkirtBones - 1][2]float32{{0.06, 0.10}, {0.04, 0.11}, {0.03, 0.11}} // (outwards, down) in metres

// SkirtBoneName returns the name of bone j of strand k: skirt.<k>.<j>.
func SkirtBoneName(k, j int) string { return fmt.Sprintf("skirt.%d.%d", k, j) }

// skirtDir returns strand k's outward direction: strand 0 in front (+Z),
// then round through the character's left (+X).
func skirtDir(k int) mgl32.Vec3 {
	sin, cos := math.Sincos(2 * math.Pi * float64(k) / SkirtStrands)
	return mgl32.Vec3{float32(sin), 0, float32(cos)}
}

// SkirtSkeletonDesc returns the skirt rig: SkeletonDesc's 85 bones, then
// the 12 strands of the skirt in strand order, each 4 bones from the
// waistband down (skirt.<k>.0 a child of the hips). Rest rotations are
// the identity, as everywhere in the standard rig.
func SkirtSkeletonDesc() sway.SkeletonDesc {
	d := SkeletonDesc()
	d.Name = "stress-rig-skirt"
	for k := 0; k < SkirtStrands; k++ {
		dir := skirtDir(k)
		d.Bones = append(d.Bones, sway.Bone(SkirtBoneName(k, 0), "hips", dir.Mul(SkirtWaistRadius).Add(mgl32.Vec3{0, SkirtWaistHeight, 0})))
		for j := 1; j < SkirtBones; j++ {
			st := skirtStep[j-1]
			d.Bones = append(d.Bones, sway.Bone(SkirtBoneName(k, j), SkirtBoneName(k, j-1), dir.Mul(st[0]).Add(mgl32.Vec3{0, -st[1], 0})))
		}
	}
	return d
}

// Leg capsules of the skirt rig, in the order LegColliders returns them.
// Radii are the rig's thighs and shins: 0.085 m at the hip joint tapering
// to 0.06 m at the knee, 0.055 m below the knee to 0.04 m at the ankle
// (thigh girth about 53 cm at the top and 38 cm at the knee). The two
// thighs' capsules nearly touch at the top, as thighs do.
const (
	ThighRadius     = 0.085
	KneeRadius      = 0.06
	ShinRadius      = 0.055
	AnkleRadius     = 0.04
	legSegment      = 0.42 // upper and lower leg bones are 0.42 m (SkeletonDesc)
	LegColliderBase = 3    // index of the first leg capsule in SkirtColliders (after Colliders' three)
)

// LegColliders returns the four leg capsules: upper_leg.L, upper_leg.R,
// lower_leg.L, lower_leg.R, each along its bone from the joint to the
// next joint.
func LegColliders() []sway.ColliderSpec {
	capsule := func(bone string, r0, r1 float32) sway.ColliderSpec {
		return sway.ColliderSpec{Bone: bone, Shape: sway.Capsule(mgl32.Vec3{}, mgl32.Vec3{0, -legSegment, 0}, r0, r1)}
	}
	return []sway.ColliderSpec{
		capsule("upper_leg.L", ThighRadius, KneeRadius),
		capsule("upper_leg.R", ThighRadius, KneeRadius),
		capsule("lower_leg.L", ShinRadius, AnkleRadius),
		capsule("lower_leg.R", ShinRadius, AnkleRadius),
	}
}

// SkirtColliders returns the skirt rig's colliders: the standard three
// (Colliders) and the four leg capsules (LegColliders) from index
// LegColliderBase.
func SkirtColliders() []sway.ColliderSpec { return append(Colliders(), LegColliders()...) }

// SkirtRing says where a skirt character's strands are among its chains:
// Count chains from First, in ring order (neighbours k and k+1, and the
// last next to the first: Closed).
type SkirtRing struct {
	First, Count int
	Closed       bool
}

// SkirtChainSpecs returns the 12 skirt chains in strand order, each
// hanging from its waistband bone with a virtual hem particle (EndLength
// 1) and colliding with the four leg capsules (indices into
// SkirtColliders), settings varied by rng as ChainSpecs varies its own.
func SkirtChainSpecs(rng *rand.Rand) []sway.ChainSpec {
	vary := func(v, spread float32) float32 { return v * (1 + spread*(2*rng.Float32()-1)) }
	legs := []int{LegColliderBase, LegColliderBase + 1, LegColliderBase + 2, LegColliderBase + 3}
	specs := make([]sway.ChainSpec, SkirtStrands)
	for k := range specs {
		s := SkirtChainSettings()
		s.Damping, s.Elasticity, s.Stiffness, s.Inert = vary(s.Damping, 0.1), vary(s.Elasticity, 0.1), vary(s.Stiffness, 0.1), vary(s.Inert, 0.1)
		specs[k] = sway.ChainSpec{Root: SkirtBoneName(k, 0), EndLength: 1, Colliders: legs, Settings: s}
	}
	return specs
}

// SkirtChainSettings are the skirt strands' settings before the per-chain
// variation: cloth that hangs (gravity 9.8 m/s²), keeps some of its
// A-line shape (stiffness, elasticity), follows the body (inert) and
// collides as particles of 1 cm radius.
//
// Hook: the per-chain skirt options of the chain kernel (collision along
// segments, angle limits) are set here, so every skirt chain gets them.
func SkirtChainSettings() sway.ChainSettings {
	s := sway.DefaultChainSettings()
	s.Damping, s.Elasticity, s.Stiffness, s.Inert = 0.12, 0.06, 0.2, 0.3
	s.Radius = 0.01
	s.Gravity = mgl32.Vec3{0, -9.8, 0}
	return s
}

// SkirtMode says how a skirt is simulated.
type SkirtMode uint8

const (
	// SkirtLinked ties each strand to its neighbours around the ring
	// (Chains.SetLinks: stiff links with stretch and compression
	// limits) and collides the segments between particles with the leg
	// capsules (ChainSettings.SegmentCollision): what a skirt needs.
	SkirtLinked SkirtMode = iota
	// SkirtPlain is 12 independent strands colliding as particles only,
	// shown for contrast.
	SkirtPlain
)

// SkirtLinkSettings are the links between neighbouring strands: stiff
// (1e-4 m/N), two rounds per sub-step, a neighbour distance held within
// 8 % of the animated pose's, and the links' segments kept out of the
// legs (so that a thigh cannot lift between two strands).
func SkirtLinkSettings() sway.ChainLinkSettings {
	return sway.ChainLinkSettings{Compliance: 1e-4, Iterations: 2, MaxStretch: 0.08, MaxCompression: 0.08, SegmentCollision: true}
}

// ConfigureSkirt is called once per skirt character after its chains are
// added (AddSkirtChains), with the handle and where the strands are: in
// SkirtLinked mode it links the ring's strands, closed.
func ConfigureSkirt(w *sway.World, e ecs.Entity, chains sway.Chains, ring SkirtRing, mode SkirtMode) error {
	_, _ = w, e
	if mode == SkirtPlain {
		return nil
	}
	strands := make([]int, ring.Count)
	for k := range strands {
		strands[k] = ring.First + k
	}
	links := sway.ChainLinks{ChainLinkSettings: SkirtLinkSettings()}
	if ring.Closed {
		links.Rings = [][]int{strands}
	} else {
		links.Strips = [][]int{strands}
	}
	return chains.SetLinks(links)
}

// AddSkirtChains gives one character of the skirt rig its chains: the
// standard ones (ChainSpecs, colliding with the standard colliders) and
// the skirt (SkirtChainSpecs), both drawn from rng, every chain's
// settings passed through tweak when it is not nil, with SkirtColliders;
// then ConfigureSkirt.
func AddSkirtChains(w *sway.World, e ecs.Entity, rng *rand.Rand, tweak func(*sway.ChainSettings), mode SkirtMode) (sway.Chains, error) {
	specs := ChainSpecs(rng)
	ring := SkirtRing{First: len(specs), Count: SkirtStrands, Closed: true}
	specs = append(specs, SkirtChainSpecs(rng)...)
	for i := range specs {
		if tweak != nil {
			tweak(&specs[i].Settings)
		}
		if i >= ring.First && mode == SkirtLinked {
			specs[i].Settings.SegmentCollision = true
		}
	}
	h, err := w.Chains().Add(e, SkirtColliders(), specs)
	if err != nil {
		return h, err
	}
	return h, ConfigureSkirt(w, e, h, ring, mode)
}
