package chain

import (
	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/mathx"
)

// Apply writes the simulated chain into the pose: the locals, so that
// forward kinematics from the returned bone index on reproduces it, and
// the world position and rotation of every chain bone (a bone on its
// particle, turned as below). It returns the lowest bone written (-1 if
// none). It reads the animated LocalPos, LocalRot and WorldRot/WorldScale
// the pose holds when it runs; world scales do not change.
//
// A chain that covers its root's subtree (CoversSubtree) leaves the world
// pose current. Otherwise bones under the chain that are not particles
// (excluded subtrees) still hang from their parents' animated transforms:
// run forward kinematics over the root's subtree from the returned index,
// as the chain systems do. It gives the world pose Apply wrote up to
// rounding.
//
// As DynamicBone's ApplyParticlesToTransforms: a bone with exactly one child
// particle is turned by FromToRotation(animated child direction, simulated
// child direction); a bone with several keeps its rotation (the one-child
// rule) and its children are moved instead. Every bone but the root gets
// the local position that puts it on its particle. The root bone itself is
// never moved.
func Apply(p Particles, c *Chain, pose Pose) int {
	v := applyView{pos: p.Pos, parent: p.Parent, bone: p.Bone, children: p.Children, local: p.Local}
	return apply(&v, c, &pose)
}

// applyView is what apply reads of the particles: five slices, so that a
// caller with a store's pools (ApplyIn) builds no more.
type applyView struct {
	pos                    []mgl32.Vec3
	parent, bone, children []int32
	local                  []mgl32.Vec3
}

func apply(p *applyView, c *Chain, pose *Pose) int {
	n := len(p.pos)
	if n == 0 || !poseFits(pose, c.maxBone) || len(p.bone) < n || p.bone[0] < 0 {
		return -1
	}
	pos, parent, bone, children := p.pos[:n], p.parent[:n], p.bone[:n], p.children[:n]
	local := p.local[:n]
	// rot is indexed by bone: the root bone's animated world rotation, then
	// each turned bone's new one, written parents first.
	lp, lr, rot, wp := pose.LocalPos, pose.LocalRot, pose.WorldRot, pose.WorldPos
	lowest := c.maxBone + 1
	for i := 1; i < n; i++ {
		j := parent[i]
		if uint(j) >= uint(i) {
			continue
		}
		pb, b := bone[j], bone[i]
		if pb < 0 {
			continue // an end particle has no children
		}
		if children[j] != 1 {
			// The one-child rule: the parent keeps its rotation.
			if b >= 0 {
				moveChild(p, pose, i, int(j), pb, b)
				lowest = min(lowest, b)
			}
			continue
		}
		l := &local[i]
		if b >= 0 {
			l = &lp[b]
		}
		nw, nx, ny, nz := turn(pose, &rot[pb], l, &pos[i], &pos[j], pb, b)
		lowest = min(lowest, pb)
		if b < 0 {
			continue
		}
		// b's world rotation in its parent's new frame; a bone with one
		// child particle is turned again from it, at that child.
		C := &lr[b]
		cw, cx, cy, cz := qmul(nw, nx, ny, nz, C.W, C.V[0], C.V[1], C.V[2])
		rot[b] = mgl32.Quat{W: cw, V: mgl32.Vec3{cx, cy, cz}}
		wp[b] = pos[i]
		lowest = min(lowest, b)
	}
	if lowest > c.maxBone {
		return -1
	}
	return int(lowest)
}

// turn is apply's work on particle i at pi, of bone b (-1 for an end
// particle), whose parent particle at pj has one child, of bone pb with
// world rotation w; l is b's animated local position (an end particle's
// rest offset). In the parent bone's frame w (its world rotation with the
// animated local L): the animated child offset v = s ⊙ l and the simulated
// one u = w⁻¹ t, t = pi - pj. The bone turns by r = FromToRotation(v, u):
// its new local is L r, its new world rotation w r, which turn writes to w
// and returns. Bone b keeps its local direction and takes the simulated
// length.
func turn(pose *Pose, w *mgl32.Quat, l, pi, pj *mgl32.Vec3, pb, b int32) (nw, nx, ny, nz float32) {
	lp, lr := pose.LocalPos, pose.LocalRot
	s := &pose.WorldScale[pb]
	ww, wx, wy, wz := w.W, w.V[0], w.V[1], w.V[2]
	v0, v1, v2 := s[0]*l[0], s[1]*l[1], s[2]*l[2]
	t0, t1, t2 := pi[0]-pj[0], pi[1]-pj[1], pi[2]-pj[2]
	// The lengths do not depend on w: computed apart, they are off the
	// chain of dependent operations from one particle to the next.
	la2, lb2 := float32(v0*v0)+float32(v1*v1)+float32(v2*v2), float32(t0*t0)+float32(t1*t1)+float32(t2*t2)
	m2 := la2 * lb2
	m := sqrt32(m2)
	if b >= 0 {
		// r turns v onto u, so the child keeps its local direction and
		// takes the simulated length: l |t|/|v|. Written now, while few
		// values are live; the robust path below rewrites it.
		f := lb2 / m
		lp[b] = mgl32.Vec3{l[0] * f, l[1] * f, l[2] * f}
	}
	u0, u1, u2 := rotate(ww, -wx, -wy, -wz, t0, t1, t2)
	// FromToRotation(v, u) in float32: r = (|v||u| + v·u, v×u)
	// normalised. Near opposite directions, or for a zero or huge
	// vector, the robust float64 one.
	var rw, rx, ry, rz float32
	exact := false
	if hw := m + float32(v0*u0) + float32(v1*u1) + float32(v2*u2); m2 > 1e-24 && m2 < 1e30 && hw > 1e-3*m {
		c0, c1, c2 := float32(v1*u2)-float32(v2*u1), float32(v2*u0)-float32(v0*u2), float32(v0*u1)-float32(v1*u0)
		k := 1 / sqrt32(float32(hw*hw)+float32(c0*c0)+float32(c1*c1)+float32(c2*c2))
		rw, rx, ry, rz = hw*k, c0*k, c1*k, c2*k
		exact = true
	} else {
		r := mathx.FromToRotation(mgl32.Vec3{v0, v1, v2}, mgl32.Vec3{u0, u1, u2})
		rw, rx, ry, rz = r.W, r.V[0], r.V[1], r.V[2]
	}
	L := &lr[pb]
	qw, qx, qy, qz := qmul(L.W, L.V[0], L.V[1], L.V[2], rw, rx, ry, rz)
	// One Newton step for 1/|q|, as |q| is 1 up to rounding (a
	// non-unit animated local goes through NormalizeQuat).
	if d := float32(qw*qw) + float32(qx*qx) + float32(qy*qy) + float32(qz*qz) - 1; d < 1e-3 && d > -1e-3 {
		k := 1 - float32(0.5*d)
		*L = mgl32.Quat{W: qw * k, V: mgl32.Vec3{qx * k, qy * k, qz * k}}
	} else {
		*L, _ = mathx.NormalizeQuat(mgl32.Quat{W: qw, V: mgl32.Vec3{qx, qy, qz}})
	}
	nw, nx, ny, nz = qmul(ww, wx, wy, wz, rw, rx, ry, rz)
	*w = mgl32.Quat{W: nw, V: mgl32.Vec3{nx, ny, nz}}
	if b >= 0 && !exact {
		lp[b] = div3(mathx.InvRotate(*w, mgl32.Vec3{t0, t1, t2}), *s)
	}
	return nw, nx, ny, nz
}

// moveChild puts bone b of particle i on it, its parent particle j (bone
// pb) keeping its rotation.
func moveChild(p *applyView, pose *Pose, i, j int, pb, b int32) {
	w, L := &pose.WorldRot[pb], &pose.LocalRot[b]
	cw, cx, cy, cz := qmul(w.W, w.V[0], w.V[1], w.V[2], L.W, L.V[0], L.V[1], L.V[2])
	pose.WorldRot[b] = mgl32.Quat{W: cw, V: mgl32.Vec3{cx, cy, cz}}
	pose.LocalPos[b] = div3(mathx.InvRotate(*w, p.pos[i].Sub(p.pos[j])), pose.WorldScale[pb])
	pose.WorldPos[b] = p.pos[i]
}

// rotate returns v rotated by the unit quaternion (w, x, y, z), in
// scalars so that it inlines.
func rotate(w, x, y, z, v0, v1, v2 float32) (float32, float32, float32) {
	// t = 2 (q.V × v); v' = v + w t + q.V × t
	t0, t1, t2 := 2*(float32(y*v2)-float32(z*v1)), 2*(float32(z*v0)-float32(x*v2)), 2*(float32(x*v1)-float32(y*v0))
	return v0 + float32(w*t0) + float32(y*t2) - float32(z*t1),
		v1 + float32(w*t1) + float32(z*t0) - float32(x*t2),
		v2 + float32(w*t2) + float32(x*t1) - float32(y*t0)
}

// qmul is the Hamilton product a b of two quaternions in scalars (W
// first), so that it inlines.
func qmul(aw, ax, ay, az, bw, bx, by, bz float32) (float32, float32, float32, float32) {
	return float32(aw*bw) - float32(ax*bx) - float32(ay*by) - float32(az*bz),
		float32(aw*bx) + float32(ax*bw) + float32(ay*bz) - float32(az*by),
		float32(aw*by) + float32(ay*bw) + float32(az*bx) - float32(ax*bz),
		float32(aw*bz) + float32(az*bw) + float32(ax*by) - float32(ay*bx)
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
