package chain

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/mathx"
	"github.com/sway-anim/sway/internal/slicex"
)

// Prepare reads the frame and the animated pose, handles weight, distance
// disabling, resets and teleports, and returns the number of sub-steps to
// run: 0 means run SkipUpdate, and -1 means the chain is off this frame
// (weight 0, too far from the reference, or a pose too short for its bones):
// leave the animated pose alone and do not call Apply.
func Prepare(p Particles, c *Chain, pose Pose, f *Frame) int {
	o := objectOf(f)
	v := prepView{p: p, built: true}
	return prepare(&v, c, &pose, &o)
}

// object is what Prepare reads of the frame, with what every chain of the
// character derives from it worked out once.
type object struct {
	*Frame
	rot   mgl32.Quat // ObjectRot normalised; the zero value counts as identity
	scale float32    // the object scale (maxAbs)
}

func objectOf(f *Frame) object {
	r := &f.ObjectRot
	return object{Frame: f, rot: normalized(r.W, r.V[0], r.V[1], r.V[2]), scale: maxAbs(f.ObjectScale)}
}

// prepView hands prepare a chain's particles. PrepareIn's is built only
// when needed: on most frames prepare reads the root's bone alone, and the
// whole view (nine slices) only on a reset, a carry or with a freeze axis.
type prepView struct {
	rest, sim *Particles // where the chain's particles live, when not built
	p         Particles
	built     bool
}

// fits reports whether c's particles are sized for its step inputs
// (c.fits), its root's bone within reach.
func (v *prepView) fits(c *Chain) bool {
	if v.built {
		return c.fits(v.p.Len())
	}
	return c.fits(c.N) && c.RestFirst >= 0 && c.RestFirst < len(v.rest.Bone)
}

// rootBone returns the bone of c's root particle (fits was true).
func (v *prepView) rootBone(c *Chain) int32 {
	if v.built {
		return v.p.Bone[0]
	}
	return v.rest.Bone[c.RestFirst]
}

// particles returns c's particles, building the view the first time.
func (v *prepView) particles(c *Chain) *Particles {
	if !v.built {
		viewIn(&v.p, v.rest, c.RestFirst, v.sim, c.First, c.N)
		v.built = true
	}
	return &v.p
}

func prepare(v *prepView, c *Chain, pose *Pose, f *object) int {
	s := &c.Settings
	weight := s.Weight
	if f.Weight > 0 && f.Weight < 1 {
		weight *= f.Weight
	}
	off := !(weight > 0)
	if s.DisableDistance > 0 {
		d := f.Reference.Sub(f.ObjectPos)
		off = off || mathx.Dot(d, d) > s.DisableDistance*s.DisableDistance
	}
	if off || !v.fits(c) || !poseFits(pose, c.maxBone) {
		c.off = true
		return -1
	}
	root := v.rootBone(c)
	if root < 0 {
		c.off = true
		return -1
	}
	if c.off {
		// Back on: start again from the animated pose (DynamicBone's
		// ResetParticlesPosition when weight or distance re-enables it).
		c.off, c.reset = false, true
	}
	// The step length, weight and object scale pk was packed for (when
	// packOK): every Prepare that writes them packs if one changes.
	t0, w0, s0 := c.t, c.weight, c.scale
	c.weight = mathx.Clamp01(weight)
	c.scale = f.scale

	objRot := f.rot
	move := f.ObjectPos.Sub(c.objPos)
	if c.started && !c.reset && c.isTeleport(move, objRot) {
		if s.Teleport == TeleportKeep {
			carry(*v.particles(c), c.objPos, c.objRot, f.ObjectPos, objRot)
		} else {
			c.reset = true
		}
		move = mgl32.Vec3{}
	}
	reset := !c.started || c.reset
	if reset {
		c.acc = 0
		c.prevH = 0
		c.reset = false
		move = mgl32.Vec3{}
	}
	c.started = true
	c.objPos, c.objRot = f.ObjectPos, objRot
	if !mathx.Vec3Finite(move) {
		move = mgl32.Vec3{}
	}
	c.move = move

	// The chain keeps only the clock's accumulator: rate and cap come from
	// the settings every frame, so that an edit takes effect at once.
	clock := Clock{Rate: s.UpdateRate, MaxSteps: int(min(s.MaxSubSteps, MaxSubStepsLimit)), acc: c.acc} // MaxSteps <= 0: the default
	c.variable = s.Mode == Variable
	steps := 0
	if c.variable {
		if !(s.UpdateRate > 0) {
			clock.Rate = DefaultUpdateRate
		}
		n, h := clock.Variable(f.Dt)
		c.h, c.t, steps = h, h*clock.Rate, n
	} else {
		c.t = 1
		steps = clock.Fixed(f.Dt)
	}
	c.acc, c.steps = clock.acc, uint8(steps) // clock.MaxSteps <= MaxSubStepsLimit

	// They seldom change, so pk is repacked only when one does (or
	// Refresh ran). NaN compares unequal: repacked every frame.
	if !c.packOK || c.t != t0 || c.weight != w0 || c.scale != s0 {
		pack(c)
	}
	c.animRoot = mgl32.Vec3{}
	if int(root) < len(pose.WorldPos) {
		c.animRoot = pose.WorldPos[root] // animAt of the root
	}
	if freeze := c.freeze(); reset || freeze != FreezeNone {
		prepareAnim(v.particles(c), c, pose, freeze, reset)
	}

	// Gravity minus the part that already acts on the rest pose: the rest
	// direction of gravity follows the root bone's animated rotation.
	// That part is g (g·restG)/|g|², restG having g's length: no root.
	g := s.Gravity
	if g2 := mathx.Dot(g, g); g2 > mathx.Epsilon {
		rg0, rg1, rg2 := invRotate(&c.restRot, g) // g in the root bone's rest space
		q := &pose.WorldRot[root]
		r0, r1, r2 := rotate(q.W, q.V[0], q.V[1], q.V[2], rg0, rg1, rg2)
		if k := (float32(g[0]*r0) + float32(g[1]*r1) + float32(g[2]*r2)) / g2; k > 0 {
			g = mgl32.Vec3{g[0] - float32(g[0]*k), g[1] - float32(g[1]*k), g[2] - float32(g[2]*k)}
		}
	}
	// Gravity and Force are accelerations (m/s²); the step adds their
	// displacement over one step of 1/UpdateRate, a·h², DynamicBone's
	// per-step unit (see forceStep).
	c.force = g.Add(s.Force).Mul(c.scale * forceStep(clock.Rate, f.Dt, c.variable))
	if !mathx.Vec3Finite(c.force) {
		c.force = mgl32.Vec3{}
	}
	return steps
}

// forceStep is h², the square of the step length in seconds that turns an
// acceleration into the displacement the step adds (a·h²: DynamicBone's
// per-step units): h = 1/rate, or in Fixed mode at rate 0 (one step per
// frame) the frame's dt. In Variable mode the rate is never 0 here
// (Prepare puts DefaultUpdateRate in its place), and the step scales the
// displacement to its own length (forceScale). It is worked out in
// Prepare, a division per chain and frame, not per step, so that an edit
// of UpdateRate or Mode takes effect at once, as the clock's does.
func forceStep(rate, dt float32, variable bool) float32 {
	if !variable && !(rate > 0 && rate <= math.MaxFloat32) { // as Clock.Fixed: one step per frame
		return dt * dt
	}
	return 1 / (rate * rate)
}

// prepareAnim reads what Prepare keeps of the animated pose: the root's
// world position and, with a freeze axis, the freeze plane's normal per
// particle (the parent bone's animated axis). With reset it also puts every
// particle at rest on its animated position. The rest of the animated pose
// the step reads from the pose itself (animate).
func prepareAnim(p *Particles, c *Chain, pose *Pose, freeze FreezeAxis, reset bool) {
	n := int(c.sized)
	c.animRoot = animAt(p, pose, 0)
	if reset {
		pos, prev, hit := p.Pos[:n], p.Prev[:n], p.Collided[:n]
		for i := range pos {
			x := animAt(p, pose, i)
			pos[i], prev[i], hit[i] = x, x, false
		}
	}
	if freeze == FreezeNone {
		return
	}
	bone, parent, ax := p.Bone[:n], p.Parent[:n], c.axes()[:n]
	var axis mgl32.Vec3
	axis[(freeze-FreezeX)%3] = 1 // %3: an unvalidated edit must not panic
	for i := 1; i < n; i++ {
		if j := parent[i]; uint(j) < uint(i) && bone[j] >= 0 {
			ax[i] = mathx.Rotate(pose.WorldRot[bone[j]], axis)
		}
	}
}

// animAt returns particle i's animated world position in pose: its bone's,
// or for an end particle its offset in the parent bone's animated frame
// (the origin when the parent has no bone either, not a tree Build makes,
// or when the bone is outside the pose).
func animAt(p *Particles, pose *Pose, i int) mgl32.Vec3 {
	if b := p.Bone[i]; b >= 0 {
		if int(b) >= len(pose.WorldPos) {
			return mgl32.Vec3{}
		}
		return pose.WorldPos[b]
	}
	j := p.Parent[i]
	if uint(j) >= uint(i) || p.Bone[j] < 0 {
		return mgl32.Vec3{}
	}
	pb := p.Bone[j]
	if int(pb) >= len(pose.WorldPos) || int(pb) >= len(pose.WorldRot) || int(pb) >= len(pose.WorldScale) {
		return mgl32.Vec3{}
	}
	q, s, l := &pose.WorldRot[pb], &pose.WorldScale[pb], &p.Local[i]
	x0, x1, x2 := rotate(q.W, q.V[0], q.V[1], q.V[2], s[0]*l[0], s[1]*l[1], s[2]*l[2])
	return pose.WorldPos[pb].Add(mgl32.Vec3{x0, x1, x2})
}

// AnimatedPositions writes into dst (grown as needed) the animated world
// position of every particle in pose, as Prepare reads them: where the
// chain is at rest, and where a reset puts it. Apply turns the pose's world
// rotations, so call it on the animated pose (before Apply, or after the
// next forward kinematics of an animated frame).
func AnimatedPositions(dst []mgl32.Vec3, p Particles, pose Pose) []mgl32.Vec3 {
	n := p.Len()
	dst = slicex.Extend(dst[:0], n)
	if n == 0 || !poseFits(&pose, maxBoneOf(p.Bone)) {
		return dst
	}
	for i := range dst {
		dst[i] = animAt(&p, &pose, i)
	}
	return dst
}

// ResetParticles puts every particle at rest on its animated position in
// pose, with no velocity and no collider touch.
func ResetParticles(p Particles, pose Pose) {
	if !poseFits(&pose, maxBoneOf(p.Bone)) {
		return
	}
	for i := range p.Pos {
		x := animAt(&p, &pose, i)
		p.Pos[i], p.Prev[i], p.Collided[i] = x, x, false
	}
}

func maxBoneOf(bones []int32) int32 {
	m := int32(0)
	for _, b := range bones {
		m = max(m, b)
	}
	return m
}

// isTeleport reports a character jump larger than the settings allow. The
// turn is compared through the cosine of half the angle, cached for the
// setting's value: no arc cosine per frame.
func (c *Chain) isTeleport(move mgl32.Vec3, cur mgl32.Quat) bool {
	s := &c.Settings
	if d := s.TeleportDistance; d > 0 && mathx.Dot(move, move) > d*d {
		return true
	}
	a := s.TeleportAngleDegrees
	if !(a > 0) {
		return false
	}
	if a != c.turnAngle {
		// Half the angle, in radians: degrees × π/360.
		c.turnAngle, c.turnCos = a, float32(math.Cos(float64(a)*(math.Pi/360)))
	}
	// The angle between two rotations is 2 acos(|a·b|).
	prev := &c.objRot
	d := float32(prev.W*cur.W) + float32(prev.V[0]*cur.V[0]) + float32(prev.V[1]*cur.V[1]) + float32(prev.V[2]*cur.V[2])
	if d < 0 {
		d = -d
	}
	return d < c.turnCos
}

// carry moves every particle rigidly with the character from (p0, r0) to
// (p1, r1), velocities included.
func carry(p Particles, p0 mgl32.Vec3, r0 mgl32.Quat, p1 mgl32.Vec3, r1 mgl32.Quat) {
	dr, _ := mathx.NormalizeQuat(mathx.Mul(r1, mathx.Conjugate(r0)))
	for i := range p.Pos {
		p.Pos[i] = p1.Add(mathx.Rotate(dr, p.Pos[i].Sub(p0)))
		p.Prev[i] = p1.Add(mathx.Rotate(dr, p.Prev[i].Sub(p0)))
	}
}

func poseFits(pose *Pose, maxBone int32) bool {
	n := int(maxBone)
	return n < len(pose.WorldPos) && n < len(pose.WorldRot) && n < len(pose.WorldScale) &&
		n < len(pose.LocalPos) && n < len(pose.LocalRot)
}

// maxAbs is the object scale: the largest absolute component, the rule the
// collider module uses for radii (DynamicBone reads |x| only). A zero or
// non-finite scale counts as 1.
func maxAbs(v mgl32.Vec3) float32 {
	m := float32(0)
	for _, x := range v {
		if x < 0 {
			x = -x
		}
		if x > m {
			m = x
		}
	}
	if m == 0 || !mathx.IsFinite(m) {
		return 1 // unset (zero value) or unusable
	}
	return m
}

// invRotate is mathx.InvRotate in scalars, the same operations (so the
// same bits), with the rotation by pointer: half the instructions of
// passing both by value, once per chain and frame.
func invRotate(q *mgl32.Quat, v mgl32.Vec3) (float32, float32, float32) {
	w, x, y, z := q.W, -q.V[0], -q.V[1], -q.V[2]
	tx := 2 * (float32(y*v[2]) - float32(z*v[1]))
	ty := 2 * (float32(z*v[0]) - float32(x*v[2]))
	tz := 2 * (float32(x*v[1]) - float32(y*v[0]))
	return v[0] + float32(w*tx) + (float32(y*tz) - float32(z*ty)),
		v[1] + float32(w*ty) + (float32(z*tx) - float32(x*tz)),
		v[2] + float32(w*tz) + (float32(x*ty) - float32(y*tx))
}

// normalized returns q/|q| for a q of length near 1 with one Newton step
// (no root), and through mathx.NormalizeQuat otherwise (the zero value
// gives the identity).
func normalized(w, x, y, z float32) mgl32.Quat {
	if d := float32(w*w) + float32(x*x) + float32(y*y) + float32(z*z) - 1; d < 1e-3 && d > -1e-3 {
		// 1/sqrt(1+d) to second order: the error is below float32's.
		k := 1 - float32(0.5*d)
		return mgl32.Quat{W: w * k, V: mgl32.Vec3{x * k, y * k, z * k}}
	}
	q, _ := mathx.NormalizeQuat(mgl32.Quat{W: w, V: mgl32.Vec3{x, y, z}})
	return q
}
