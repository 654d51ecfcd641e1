package chain

import (
	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/mathx"
)

// Prepare reads the frame and the animated pose, handles weight, distance
// disabling, resets and teleports, and returns the number of sub-steps to
// run: 0 means run SkipUpdate, and -1 means the chain is off this frame
// (weight 0, too far from the reference, or a pose too short for its bones):
// leave the animated pose alone and do not call Apply.
func Prepare(p Particles, c *Chain, pose Pose, f *Frame) int {
	s := &c.Settings
	off := !(s.Weight > 0)
	if s.DisableDistance > 0 {
		d := f.Reference.Sub(f.ObjectPos)
		off = off || mathx.Dot(d, d) > s.DisableDistance*s.DisableDistance
	}
	if off || p.Len() == 0 || !poseFits(pose, c.maxBone) {
		c.off = true
		return -1
	}
	if c.off {
		// Back on: start again from the animated pose (DynamicBone's
		// ResetParticlesPosition when weight or distance re-enables it).
		c.off, c.reset = false, true
	}
	c.weight = mathx.Clamp01(s.Weight)
	pathMax, rmax := prepareAnim(p, pose, s.Freeze)

	objRot, _ := mathx.NormalizeQuat(f.ObjectRot) // the zero value counts as identity
	move := f.ObjectPos.Sub(c.objPos)
	if c.started && !c.reset && isTeleport(s, move, c.objRot, objRot) {
		if s.Teleport == TeleportKeep {
			carry(p, c.objPos, c.objRot, f.ObjectPos, objRot)
		} else {
			c.reset = true
		}
		move = mgl32.Vec3{}
	}
	if !c.started || c.reset {
		ResetParticles(p)
		c.clock.Reset()
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
	c.scale = maxAbs(f.ObjectScale)
	c.reach = reachOf(pathMax, rmax, c.scale)

	// Gravity minus the part that already acts on the rest pose: the rest
	// direction of gravity follows the root bone's animated rotation.
	g := s.Gravity
	restG := mathx.Rotate(pose.WorldRot[p.Bone[0]], c.gravity)
	if dir, ok := mathx.SafeNormalize(g); ok {
		g = g.Sub(dir.Mul(max(mathx.Dot(restG, dir), 0)))
	}
	c.force = g.Add(s.Force).Mul(c.scale)
	if !mathx.Vec3Finite(c.force) {
		c.force = mgl32.Vec3{}
	}

	c.clock.Rate = s.UpdateRate
	if s.Mode == Variable {
		if !(s.UpdateRate > 0) {
			c.clock.Rate = DefaultUpdateRate
		}
		n, h := c.clock.Variable(f.Dt)
		c.h, c.t, c.steps = h, h*c.clock.Rate, n
		return n
	}
	c.t = 1
	c.steps = c.clock.Fixed(f.Dt)
	return c.steps
}

// prepareAnim records the animated pose of every particle: its world
// position, its offset from the parent, the length to keep, its path length
// from the root and the freeze plane's normal. It returns the longest path
// and the largest particle radius.
func prepareAnim(p Particles, pose Pose, freeze FreezeAxis) (pathMax, rmax float32) {
	for i := range p.Bone {
		b := p.Bone[i]
		j := p.Parent[i]
		if b >= 0 {
			p.AnimPos[i] = pose.WorldPos[b]
		} else {
			// End particle: its offset in the parent bone's animated frame.
			pb := p.Bone[j]
			p.AnimPos[i] = pose.WorldPos[pb].Add(mathx.Rotate(pose.WorldRot[pb], mul3(pose.WorldScale[pb], p.Local[i])))
		}
		if j < 0 {
			p.PathLen[i] = 0
			continue
		}
		off := p.AnimPos[i].Sub(p.AnimPos[j])
		p.RestOff[i] = off
		p.RestLen[i] = mathx.Len(off)
		p.PathLen[i] = p.PathLen[j] + p.RestLen[i]
		pathMax = max(pathMax, p.PathLen[i])
		rmax = max(rmax, p.Radius[i])
		if freeze != FreezeNone {
			var axis mgl32.Vec3
			axis[freeze-FreezeX] = 1
			p.Axis[i] = mathx.Rotate(pose.WorldRot[p.Bone[j]], axis)
		}
	}
	return pathMax, rmax
}

// ResetParticles puts every particle at rest on the animated pose recorded
// by the last Prepare.
func ResetParticles(p Particles) {
	for i := range p.Pos {
		p.Pos[i] = p.AnimPos[i]
		p.Prev[i] = p.AnimPos[i]
		p.Collided[i] = false
	}
}

// isTeleport reports a character jump larger than the settings allow.
func isTeleport(s *Settings, move mgl32.Vec3, prev, cur mgl32.Quat) bool {
	if d := s.TeleportDistance; d > 0 && mathx.Dot(move, move) > d*d {
		return true
	}
	return s.TeleportAngle > 0 && mathx.AngleBetween(prev, cur) > s.TeleportAngle
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

func poseFits(pose Pose, maxBone int32) bool {
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
