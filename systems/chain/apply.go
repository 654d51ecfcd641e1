package chain

import (
	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/mathx"
)

// Apply writes the simulated chain into the pose's locals so that forward
// kinematics from the returned bone index on reproduces it, and returns that
// index (the lowest bone written; -1 if none). It reads the animated
// LocalPos, LocalRot and WorldRot/WorldScale the pose holds when it runs.
//
// As DynamicBone's ApplyParticlesToTransforms: a bone with exactly one child
// particle is turned by FromToRotation(animated child direction, simulated
// child direction); a bone with several keeps its rotation (the one-child
// rule) and its children are moved instead. Every bone but the root gets
// the local position that puts it on its particle. The root bone itself is
// never moved.
func Apply(p Particles, c *Chain, pose Pose) int { return apply(&p, c, &pose) }

func apply(p *Particles, c *Chain, pose *Pose) int {
	n := len(p.Pos)
	if n == 0 || !poseFits(*pose, c.maxBone) || p.Bone[0] < 0 {
		return -1
	}
	pos, parent, bone, children := p.Pos[:n], p.Parent[:n], p.Bone[:n], p.Children[:n]
	rot, local := p.Rot[:n], p.Local[:n]
	lp, lr, ws := pose.LocalPos, pose.LocalRot, pose.WorldScale
	lowest := c.maxBone + 1
	b0 := bone[0]
	rot[0] = pose.WorldRot[b0]
	// The inverse of the root bone's parent frame, for the root bone's new
	// local rotation (see below).
	root := mathx.Mul(lr[b0], mathx.Conjugate(rot[0]))
	for i := 1; i < n; i++ {
		j := parent[i]
		if uint(j) >= uint(i) {
			continue
		}
		pb, b := bone[j], bone[i]
		if pb < 0 {
			continue // an end particle has no children
		}
		s := ws[pb]
		w := rot[j]
		pi, pj := &pos[i], &pos[j]
		t0, t1, t2 := pi[0]-pj[0], pi[1]-pj[1], pi[2]-pj[2] // the simulated child direction
		if children[j] != 1 {
			// The one-child rule: the parent keeps its rotation.
			if b >= 0 {
				L := &lr[b]
				cw, cx, cy, cz := qmul(w.W, w.V[0], w.V[1], w.V[2], L.W, L.V[0], L.V[1], L.V[2])
				rot[i] = mgl32.Quat{W: cw, V: mgl32.Vec3{cx, cy, cz}}
				lp[b] = div3(mathx.InvRotate(w, mgl32.Vec3{t0, t1, t2}), s)
				lowest = min(lowest, b)
			}
			continue
		}
		var l mgl32.Vec3
		if b >= 0 {
			l = lp[b]
		} else {
			l = local[i]
		}
		// The animated child direction, a = w (s ⊙ l). Its length does not
		// depend on w: computed apart, it is off the chain of dependent
		// operations from one particle to the next.
		v0, v1, v2 := s[0]*l[0], s[1]*l[1], s[2]*l[2]
		la2, lb2 := v0*v0+v1*v1+v2*v2, t0*t0+t1*t1+t2*t2
		a0, a1, a2 := rotate(w.W, w.V[0], w.V[1], w.V[2], v0, v1, v2)
		// FromToRotation(a, t) in float32: r = (|a||t| + a·t, a×t)
		// normalised. Near opposite directions, or for a zero or huge
		// vector, the robust float64 one.
		var rw, rx, ry, rz float32
		exact := false
		m2 := la2 * lb2
		m := sqrt32(m2)
		if hw := m + a0*t0 + a1*t1 + a2*t2; m2 > 1e-24 && m2 < 1e30 && hw > 1e-3*m {
			c0, c1, c2 := a1*t2-a2*t1, a2*t0-a0*t2, a0*t1-a1*t0
			k := 1 / sqrt32(hw*hw+c0*c0+c1*c1+c2*c2)
			rw, rx, ry, rz = hw*k, c0*k, c1*k, c2*k
			exact = true
		} else {
			r := mathx.FromToRotation(mgl32.Vec3{a0, a1, a2}, mgl32.Vec3{t0, t1, t2})
			rw, rx, ry, rz = r.W, r.V[0], r.V[1], r.V[2]
		}
		// New world rotation nw = r w. The new local is the parent frame's
		// inverse times it: L w⁻¹ nw with L the animated local, and
		// w = P L, so P⁻¹ nw with P the parent's (final) world rotation.
		nw, nx, ny, nz := qmul(rw, rx, ry, rz, w.W, w.V[0], w.V[1], w.V[2])
		iw, ix, iy, iz := root.W, root.V[0], root.V[1], root.V[2]
		if j > 0 {
			pr := &rot[parent[j]]
			iw, ix, iy, iz = pr.W, -pr.V[0], -pr.V[1], -pr.V[2]
		}
		lr[pb] = normalized(qmul(iw, ix, iy, iz, nw, nx, ny, nz))
		rot[j] = mgl32.Quat{W: nw, V: mgl32.Vec3{nx, ny, nz}}
		lowest = min(lowest, pb)
		if b < 0 {
			continue
		}
		L := &lr[b]
		cw, cx, cy, cz := qmul(nw, nx, ny, nz, L.W, L.V[0], L.V[1], L.V[2])
		rot[i] = mgl32.Quat{W: cw, V: mgl32.Vec3{cx, cy, cz}}
		if exact {
			// r turns a onto t, so nw⁻¹ t = (|t|/|a|) (s ⊙ l): the child
			// keeps its local direction and takes the simulated length.
			f := lb2 / m
			lp[b] = mgl32.Vec3{l[0] * f, l[1] * f, l[2] * f}
		} else {
			lp[b] = div3(mathx.InvRotate(rot[j], mgl32.Vec3{t0, t1, t2}), s)
		}
		lowest = min(lowest, b)
	}
	if lowest > c.maxBone {
		return -1
	}
	return int(lowest)
}

// rotate returns v rotated by the unit quaternion (w, x, y, z), in
// scalars so that it inlines.
func rotate(w, x, y, z, v0, v1, v2 float32) (float32, float32, float32) {
	// t = 2 (q.V × v); v' = v + w t + q.V × t
	t0, t1, t2 := 2*(y*v2-z*v1), 2*(z*v0-x*v2), 2*(x*v1-y*v0)
	return v0 + w*t0 + y*t2 - z*t1, v1 + w*t1 + z*t0 - x*t2, v2 + w*t2 + x*t1 - y*t0
}

// qmul is the Hamilton product a b of two quaternions in scalars (W
// first), so that it inlines.
func qmul(aw, ax, ay, az, bw, bx, by, bz float32) (float32, float32, float32, float32) {
	return aw*bw - ax*bx - ay*by - az*bz,
		aw*bx + ax*bw + ay*bz - az*by,
		aw*by + ay*bw + az*bx - ax*bz,
		aw*bz + az*bw + ax*by - ay*bx
}

// normalized returns q/|q| for a q of length near 1 with one Newton step
// (no root), and through mathx.NormalizeQuat otherwise.
func normalized(w, x, y, z float32) mgl32.Quat {
	n2 := w*w + x*x + y*y + z*z
	if d := n2 - 1; d < 1e-3 && d > -1e-3 {
		// 1/sqrt(n2) to second order: the error is below float32's.
		k := 1.5 - 0.5*n2
		return mgl32.Quat{W: w * k, V: mgl32.Vec3{x * k, y * k, z * k}}
	}
	q, _ := mathx.NormalizeQuat(mgl32.Quat{W: w, V: mgl32.Vec3{x, y, z}})
	return q
}

// RestoreLocals writes the rest local position and rotation of every chain
// bone into the pose (DynamicBone's InitTransforms). Call it at the start of
// a frame, before animation, for chain bones that no animation writes;
// otherwise last frame's simulated locals would be read as the animated
// pose.
func RestoreLocals(pose Pose, p Particles) {
	for i, b := range p.Bone {
		if b >= 0 && int(b) < len(pose.LocalPos) && int(b) < len(pose.LocalRot) {
			pose.LocalPos[b] = p.Local[i]
			pose.LocalRot[b] = p.LocalRot[i]
		}
	}
}
