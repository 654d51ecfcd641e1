package chain

import (
	"unsafe"

	"github.com/go-gl/mathgl/mgl32"
)

// Pose is a view of one character's pose slices, one element per bone.
// Prepare reads the World slices (the animated pose after forward
// kinematics, in the simulation space); Apply reads LocalPos and LocalRot
// (the animated locals) and overwrites them with the simulated result.
type Pose struct {
	LocalPos   []mgl32.Vec3
	LocalRot   []mgl32.Quat
	WorldPos   []mgl32.Vec3
	WorldRot   []mgl32.Quat
	WorldScale []mgl32.Vec3
}

// Frame is what a chain needs to know about the current frame.
type Frame struct {
	Dt float32 // seconds since the last frame
	// The character's world transform (the object DynamicBone measures
	// movement and scale on).
	ObjectPos   mgl32.Vec3
	ObjectRot   mgl32.Quat
	ObjectScale mgl32.Vec3
	// Reference is the point distance-based disabling measures from (a
	// camera or the player).
	Reference mgl32.Vec3
	// Weight is the character's weight in (0, 1]: it multiplies every
	// chain's Settings.Weight. The zero value means 1, so that a Frame
	// without it keeps the chains' own weights; a character at weight 0
	// is not prepared at all (its caller skips it, as when paused).
	Weight float32
}

// Chain is one dynamic chain's settings and per-chain simulation state. Its
// particles live in a Particles range [First, First+N). Build sets it up; a
// copy of a built Chain shares its per-particle step inputs, so only one of
// the two may be stepped.
type Chain struct {
	// First, what the step reads, together in the record's first two
	// cache lines: stepping the chains of thousands of characters, it
	// then fetches two lines of each record rather than all six.

	Colliders []int32 // indices into the shapes handed to Constrain; others are ignored
	First, N  int     // the chain's particles in the Particles it was built into
	// RestFirst is where the chain's rest data start: First in the pool
	// Build wrote, or a shared copy a store points it to (ParticlesIn).
	RestFirst int

	// The step's inputs, arrays held by their first element (see packs):
	// pk (like params below) has one record per particle when
	// perParticle, else a single one every particle shares (a chain
	// without curves). Refresh writes params from the settings, pack
	// derives pk from them. axis is the freeze-plane normal per particle
	// (the parent's animated axis; sized of them), written by Prepare;
	// nil without a freeze axis. The animated pose the step needs it
	// derives itself (animate).
	pk          *packed
	axis        *mgl32.Vec3
	sized       int32 // particles the arrays were sized for by Refresh; 0: not sized
	perParticle bool  // pk and params hold sized records, not one
	variable    bool  // Settings.Mode is Variable this frame
	steps       uint8 // sub-steps this frame (at most MaxSubStepsLimit); read in Variable mode
	covers      bool  // Build made the chain of every bone under its root (CoversSubtree)

	// Per frame, written by Prepare.
	move     mgl32.Vec3 // character movement to apply on the first sub-step
	force    mgl32.Vec3 // gravity (rest part removed) + force, times scale
	animRoot mgl32.Vec3 // the root bone's animated world position
	reach    float32    // farthest any particle can be from the root (collider culling); written by the step
	h        float32    // step length in seconds (Variable mode)

	// Read by the step in Variable mode only (and steps, above).
	rootFrom mgl32.Vec3 // root particle at the start of the frame
	prevH    float32    // the last step's length

	total float32 // rest length of the longest root-to-tip path

	Settings Settings

	restRot mgl32.Quat // the root bone's rest rotation (model space)

	acc float64 // the Clock's accumulator: time not yet simulated, seconds

	// Per frame, written by Prepare.
	objPos mgl32.Vec3
	objRot mgl32.Quat
	scale  float32 // object scale
	weight float32
	t      float32 // step length in units of 1/UpdateRate (1 in Fixed mode)

	params  *Params // the particles' parameters (see pk)
	rmax    float32 // the largest particle radius past the root, unscaled
	maxBone int32   // largest bone index used, checked against the pose

	turnAngle, turnCos float32 // Settings.TeleportAngleDegrees and the cosine of its half

	packOK bool // pk holds params packed for t, weight and scale

	started bool // objPos/objRot hold a previous frame
	off     bool // not simulated last frame (weight 0 or distant)
	reset   bool // return to the animated pose at the next Prepare

	// The record is five whole cache lines (TestStepFieldsInTwoCacheLines),
	// so that in an array of chains (the store's, 64-byte aligned) every
	// record's first two lines, the step's, are two whole lines.
}

// Params are one particle's parameters: its chain's Settings times its
// curves at the particle (see Curves), clamped to their ranges.
type Params struct {
	Damping, Elasticity, Stiffness float32
	Inert, Friction, Radius        float32
}

// Params returns particle i's parameters as Refresh derived them, or the
// zero Params for an index outside the chain.
func (c *Chain) Params(i int) Params {
	ps := c.paramsOf()
	k := i * paramStride(len(ps))
	if uint(i) >= uint(c.N) || uint(k) >= uint(len(ps)) {
		return Params{} // outside the chain, or N edited past what Refresh sized
	}
	return ps[k]
}

// The chain's arrays as slices. A Chain is a few hundred bytes, one per
// strand of every character, and the step reads its first lines for each:
// a pointer and one shared count take less of them than slice headers.
// Refresh is the only writer of the count, and of the pointers with Gather,
// which moves the arrays whole (pk and params are nil exactly when sized
// is 0), so the views cannot reach past what was allocated.

func (c *Chain) packs() []packed    { return unsafe.Slice(c.pk, c.recs()) }
func (c *Chain) paramsOf() []Params { return unsafe.Slice(c.params, c.recs()) }
func (c *Chain) axes() []mgl32.Vec3 {
	if c.axis == nil {
		return nil
	}
	return unsafe.Slice(c.axis, c.sized)
}

// recs is the number of pk and params records: one per particle or one.
func (c *Chain) recs() int32 {
	if c.perParticle {
		return c.sized
	}
	return min(c.sized, 1)
}

// fits reports whether the chain's step inputs are sized for its n
// particles (by Refresh), so that the kernels may run on them.
func (c *Chain) fits(n int) bool {
	return n > 0 && n == int(c.sized)
}

// freeze returns the freeze axis the kernels apply: Settings.Freeze once
// Refresh has sized the normals for it, FreezeNone before (an axis set
// without Refresh has no normals to write or read).
func (c *Chain) freeze() FreezeAxis {
	if c.axis == nil || int(c.sized) != c.N {
		return FreezeNone
	}
	return c.Settings.Freeze
}

// paramStride is the step from one particle's params or pk record to the
// next: 0 when the chain's particles share one.
func paramStride(n int) int {
	if n == 1 {
		return 0
	}
	return 1
}

// Particles returns the chain's range of pool, without allocating.
func (c *Chain) Particles(pool *Particles) Particles {
	return particlesIn(pool, c.RestFirst, pool, c.First, c.N)
}

// ParticlesIn returns the chain's particles when its rest data live in
// rest (from RestFirst) and the rest of its fields in sim (from First),
// without allocating.
func (c *Chain) ParticlesIn(rest, sim *Particles) Particles {
	return particlesIn(rest, c.RestFirst, sim, c.First, c.N)
}

// Reset makes the chain return to the animated pose at the next Prepare.
func (c *Chain) Reset() { c.reset = true }

// CoversSubtree reports whether every bone under the chain's root, the
// root included, is one of its particles: Build made it and no exclusion
// left a bone out. Apply writes the world pose of every chain bone, so
// for such a chain it leaves none to recompute by forward kinematics.
func (c *Chain) CoversSubtree() bool { return c.covers }

// TotalLength returns the rest length of the chain's longest root-to-tip
// path, the length curves are normalised by.
func (c *Chain) TotalLength() float32 { return c.total }
