package chain

import "github.com/go-gl/mathgl/mgl32"

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
}

// Chain is one dynamic chain's settings and per-chain simulation state. Its
// particles live in a Particles range [First, First+N). Build sets it up; a
// copy of a built Chain shares its per-particle step inputs, so only one of
// the two may be stepped.
type Chain struct {
	// First, what the step reads, together in the record's first three
	// cache lines: stepping the chains of thousands of characters, it
	// then fetches three lines of each record rather than all seven.

	Colliders []int32 // indices into the shapes handed to Constrain; others are ignored
	First, N  int     // the chain's particles in the Particles it was built into
	// RestFirst is where the chain's rest data start: First in the pool
	// Build wrote, or a shared copy a store points it to (ParticlesIn).
	RestFirst int

	// The step's inputs. pk (like params below) holds one record per
	// particle, or a single one that every particle shares when their
	// parameters are equal (a chain without curves): Refresh writes params
	// from the settings, pack derives pk from them. anim is per particle,
	// written by Prepare.
	pk   []packed
	anim []animated
	// The freeze-plane normal per particle (the parent's animated axis),
	// written by Prepare; nil without a freeze axis.
	axis []mgl32.Vec3

	// Per frame, written by Prepare.
	move     mgl32.Vec3 // character movement to apply on the first sub-step
	force    mgl32.Vec3 // gravity (rest part removed) + force, times scale
	rootFrom mgl32.Vec3 // root particle at the start of the frame (Variable mode)
	animRoot mgl32.Vec3 // the root bone's animated world position
	reach    float32    // farthest any particle can be from the root (collider culling)
	h, prevH float32    // step lengths in seconds (Variable mode)
	variable bool       // Settings.Mode is Variable this frame
	steps    int        // sub-steps this frame

	Settings Settings

	total   float32    // rest length of the longest root-to-tip path
	restRot mgl32.Quat // the root bone's rest rotation (model space)
	gravity mgl32.Vec3 // Settings.Gravity in the root bone's rest space
	maxBone int32      // largest bone index used, checked against the pose

	clock Clock

	// Per frame, written by Prepare.
	objPos mgl32.Vec3
	objRot mgl32.Quat
	scale  float32 // object scale
	weight float32
	t      float32 // step length in units of 1/UpdateRate (1 in Fixed mode)

	params []Params // the particles' parameters (see pk)
	rmax   float32  // the largest particle radius past the root, unscaled

	turnAngle, turnCos float32 // Settings.TeleportAngle and the cosine of its half

	// What pk's step parameters were packed for (see packCurrent).
	packT, packW, packS float32
	packOK              bool

	started bool // objPos/objRot hold a previous frame
	off     bool // not simulated last frame (weight 0 or distant)
	reset   bool // return to the animated pose at the next Prepare
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
	if uint(i) >= uint(c.N) || len(c.params) == 0 {
		return Params{}
	}
	return c.params[i*paramStride(len(c.params))]
}

// fits reports whether the chain's step inputs are sized for its n
// particles (by Refresh), so that the kernels may run on them.
func (c *Chain) fits(n int) bool {
	return n > 0 && n == len(c.anim) && (len(c.pk) == 1 || len(c.pk) == n)
}

// freeze returns the freeze axis the kernels apply: Settings.Freeze once
// Refresh has sized the normals for it, FreezeNone before (an axis set
// without Refresh has no normals to write or read).
func (c *Chain) freeze() FreezeAxis {
	if len(c.axis) != c.N {
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

// TotalLength returns the rest length of the chain's longest root-to-tip
// path, the length curves are normalised by.
func (c *Chain) TotalLength() float32 { return c.total }
