package sway_test

import (
	"fmt"
	"math"

	"github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/systems/collide"
	"github.com/sway-anim/sway/systems/spring"
)

// This file is a plain float64 reference of the VRMC_springBone 1.0 step,
// written from the specification's algorithm section ("SpringBone
// Algorithm": calculation order, initialisation, inertia, collision,
// rotation, centre space) and, where it is silent, from three-vrm: one
// joint at a time, no batching, its own forward kinematics from the rig's
// rest locals and the root. Applied on top, as sway documents and the
// project decided:
//
//   - The bone length is the rest tail offset under the joint's current
//     world transform (rest length times current scale), not last frame's
//     distance to the child (three-vrm).
//   - The rest direction is that offset's direction (equal to the
//     specification's parentWorldRotation*localRotation*boneAxis under
//     uniform scale).
//   - A 0.x joint without a child node swings with a virtual tail
//     VirtualTail long in the joint's local units along the direction
//     from its parent to it.
//   - The scale rule: the scale a file has at rest is its authoring frame.
//     Stiffness, gravity and hit radius are world quantities at rest and
//     collider radii too; at run time each is multiplied by k = (the
//     joint's, or the collider node's, uniform world scale now) / (its
//     model-space world scale at rest). Collider offsets and tails are
//     node-local points (through the node's whole world transform).
//
// Tails are initialised from the pose when the springs are added (the
// specification's initialisation), not at the first step. Centre space
// is the centre node's whole world transform (three-vrm's matrix), and
// gravity acts in world space.
//
// Colliders: the base shapes, and VRMC_springBone_extended_collider's
// inside sphere and capsule and plane from its README's reference
// implementation (an inside shape's distance R - r - |delta| and
// direction -delta; a plane's normal through the node's normal matrix).
//
// Joint limits from VRMC_springBone_limit (1.0-draft, the draft of
// vrm-specification PR #496): the limit's space maps to world space by
// parentWorldRotation * localSpaceInitialRotation * axisRotation *
// limit.rotation, axisRotation the shortest arc from +Y to the bone axis
// (the child's rest local position), or the half turn about +X when
// boneAxis.y + 1 < 1e-8. The tail's direction from the joint, in that
// space, is limited with the draft's pseudocode: the cone and the hinge
// by the cosine of their angle, the spherical limit by its pitch
// atan2(z, y) and yaw asin(x), each clamped; angles above π (the yaw
// above π/2) count as π (π/2). The limit applies where the bone length is
// restored: after the inertia step, and after every collider that pushes
// the tail (the draft's "Limit Application Order").

// refXf is a transform: position, rotation (w, x, y, z), per-axis scale,
// composed as the project composes transforms (for a child l of p:
// pos = p.pos + p.rot*(p.scale⊙l.pos), rot = p.rot*l.rot, scale =
// p.scale⊙l.scale; under uniform scale the glTF matrix product).
type refXf struct {
	pos   [3]float64
	rot   [4]float64
	scale [3]float64
}

type v3d = [3]float64

func rAdd(a, b v3d) v3d         { return v3d{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }
func rSub(a, b v3d) v3d         { return v3d{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }
func rMul(a v3d, k float64) v3d { return v3d{a[0] * k, a[1] * k, a[2] * k} }
func rHad(a, b v3d) v3d         { return v3d{a[0] * b[0], a[1] * b[1], a[2] * b[2]} }
func rDiv(a, b v3d) v3d         { return v3d{a[0] / b[0], a[1] / b[1], a[2] / b[2]} }
func rDot(a, b v3d) float64     { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }
func rLen(a v3d) float64        { return math.Sqrt(rDot(a, a)) }
func rMaxAbs(a v3d) float64     { return max(math.Abs(a[0]), math.Abs(a[1]), math.Abs(a[2])) }
func rCross(a, b v3d) v3d {
	return v3d{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}
func rConj(q [4]float64) [4]float64 { return [4]float64{q[0], -q[1], -q[2], -q[3]} }

func rNorm(a v3d) v3d {
	l := rLen(a)
	if l == 0 {
		return a
	}
	return rMul(a, 1/l)
}

func rQMul(a, b [4]float64) [4]float64 {
	return [4]float64{
		a[0]*b[0] - a[1]*b[1] - a[2]*b[2] - a[3]*b[3],
		a[0]*b[1] + a[1]*b[0] + a[2]*b[3] - a[3]*b[2],
		a[0]*b[2] - a[1]*b[3] + a[2]*b[0] + a[3]*b[1],
		a[0]*b[3] + a[1]*b[2] - a[2]*b[1] + a[3]*b[0],
	}
}

func rRot(q [4]float64, v v3d) v3d {
	p := rQMul(rQMul(q, [4]float64{0, v[0], v[1], v[2]}), rConj(q))
	return v3d{p[1], p[2], p[3]}
}

func rQNorm(q [4]float64) [4]float64 {
	l := math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3])
	return [4]float64{q[0] / l, q[1] / l, q[2] / l, q[3] / l}
}

// rFromTo is the shortest rotation taking unit a to unit b.
func rFromTo(a, b v3d) [4]float64 {
	d := rDot(a, b)
	if d < -1+1e-12 {
		// Half a turn about any axis perpendicular to a.
		p := rCross(a, v3d{1, 0, 0})
		if rLen(p) < 1e-6 {
			p = rCross(a, v3d{0, 1, 0})
		}
		p = rNorm(p)
		return [4]float64{0, p[0], p[1], p[2]}
	}
	c := rCross(a, b)
	return rQNorm([4]float64{1 + d, c[0], c[1], c[2]})
}

func (p refXf) child(l refXf) refXf {
	return refXf{pos: rAdd(p.pos, rRot(p.rot, rHad(p.scale, l.pos))), rot: rQMul(p.rot, l.rot), scale: rHad(p.scale, l.scale)}
}

// point maps a local point to world space; local is its inverse.
func (p refXf) point(v v3d) v3d { return rAdd(p.pos, rRot(p.rot, rHad(p.scale, v))) }
func (p refXf) local(v v3d) v3d { return rDiv(rRot(rConj(p.rot), rSub(v, p.pos)), p.scale) }

func refOf(t sway.Transform) refXf {
	return refXf{pos: v3d{float64(t.Pos[0]), float64(t.Pos[1]), float64(t.Pos[2])},
		rot:   [4]float64{float64(t.Rot.W), float64(t.Rot.V[0]), float64(t.Rot.V[1]), float64(t.Rot.V[2])},
		scale: v3d{float64(t.Scale[0]), float64(t.Scale[1]), float64(t.Scale[2])}}
}

var refIdent = refXf{rot: [4]float64{1, 0, 0, 0}, scale: v3d{1, 1, 1}}

// refJoint is a joint that swings: its bone, its rest tail in the bone's
// frame (the child's rest position, or the virtual tail), and settings.
type refJoint struct {
	bone                      int
	tail, axis                v3d
	stiffness, power, drag, r float64
	gravity                   v3d
	limit                     refLimit
}

// refLimit is a joint's VRMC_springBone_limit limit.
type refLimit struct {
	kind spring.LimitKind
	// angle is the cone's or hinge's angle, pitch and yaw the spherical
	// limit's, in radians, each clamped as the draft says.
	angle, pitch, yaw float64
	// space is axisRotation * limit.rotation (w, x, y, z).
	space [4]float64
}

// limitName names a kind of limit as VRMC_springBone_limit does.
func limitName(k spring.LimitKind) string {
	switch k {
	case spring.ConeLimit:
		return "cone"
	case spring.HingeLimit:
		return "hinge"
	case spring.SphericalLimit:
		return "spherical"
	}
	return "no"
}

// newRefLimit prepares a limit of a joint whose unit bone axis is axis,
// its angles turned from degrees to radians.
func newRefLimit(l spring.Limit, axis v3d) refLimit {
	rad := func(deg float32, max float64) float64 { return min(float64(deg)*math.Pi/180, max) }
	out := refLimit{kind: l.Kind, angle: rad(l.AngleDegrees, math.Pi), pitch: rad(l.PitchDegrees, math.Pi), yaw: rad(l.YawDegrees, math.Pi/2)}
	// The shortest rotation from +Y to the axis is the normalised
	// quaternion (cross(+Y, axis); dot(+Y, axis) + 1), which is
	// (axis.z, 0, -axis.x; axis.y + 1); for an axis of exactly -Y, the
	// half turn about +X.
	var ar [4]float64
	if axis[1]+1 < 1e-8 {
		ar = [4]float64{0, 1, 0, 0}
	} else {
		ar = rQNorm([4]float64{axis[1] + 1, axis[2], 0, -axis[0]})
	}
	rot := [4]float64{1, 0, 0, 0}
	if q := l.Rotation; q.W != 0 || q.V != [3]float32{} {
		rot = rQNorm([4]float64{float64(q.W), float64(q.V[0]), float64(q.V[1]), float64(q.V[2])})
	}
	out.space = rQMul(ar, rot)
	return out
}

// apply limits the direction of the tail next from head, the joint's
// rest frame being restRot (its parent's world rotation times its rest
// local rotation): the tail is put back at length from head, along the
// limited direction. It reports whether the limit moved it.
func (l *refLimit) apply(head, next v3d, restRot [4]float64, length float64) (v3d, bool) {
	if l.kind == spring.NoLimit {
		return next, false
	}
	space := rQMul(restRot, l.space)
	d := rRot(rConj(space), rNorm(rSub(next, head)))
	in := d
	switch l.kind {
	case spring.ConeLimit:
		if c := math.Cos(l.angle); d[1] < c {
			ratio := math.Sqrt((1 - c*c) / (1 - d[1]*d[1]))
			d = v3d{d[0] * ratio, c, d[2] * ratio}
		}
	case spring.HingeLimit:
		d = rNorm(v3d{0, d[1], d[2]})
		if c := math.Cos(l.angle); d[1] < c {
			ratio := math.Sqrt((1 - c*c) / (1 - d[1]*d[1]))
			d = v3d{0, c, d[2] * ratio}
		}
	case spring.SphericalLimit:
		pitch, yaw := math.Atan2(d[2], d[1]), math.Asin(max(-1, min(1, d[0])))
		if math.Abs(pitch) > l.pitch {
			pitch = math.Copysign(l.pitch, pitch)
		}
		if math.Abs(yaw) > l.yaw {
			yaw = math.Copysign(l.yaw, yaw)
		}
		d = v3d{math.Sin(yaw), math.Cos(yaw) * math.Cos(pitch), math.Cos(yaw) * math.Sin(pitch)}
	}
	return rAdd(head, rMul(rRot(space, d), length)), rLen(rSub(d, in)) > 1e-9
}

type refSpring struct {
	name      string
	joints    []refJoint
	parent    int // the bone joint 0 hangs from
	center    int // -1 for world space
	colliders []int
	cur, prev []v3d // tails in centre space
	// subtree is the first joint's bone and every bone below it, parents
	// first: the bones whose world transform a step of the spring moves.
	subtree []int
}

type refCollider struct {
	bone  int
	shape collide.Desc
}

// vrmRef is the reference model of one character.
type vrmRef struct {
	names     []string
	parent    []int // -1 for a root; parents come before children
	rest      []refXf
	model     []refXf // rest in model space (root at the identity)
	local     []refXf // this frame's locals
	world     []refXf
	springs   []*refSpring // in step order: ancestors first
	colliders []refCollider
	// placed colliders of this frame, world space
	at, tailAt []v3d
	radius     []float64
	normal     []v3d
	// hits counts the tails each collider pushed, over all steps;
	// limited the tails each kind of limit moved.
	hits    []int
	limited map[spring.LimitKind]int
}

// newVRMRef builds the reference from a rig as loaded, with the
// character added at root: the tails start at rest under that pose.
func newVRMRef(r *sway.Rig, root sway.Transform) (*vrmRef, error) {
	bones := r.Skeleton.Bones
	index := map[string]int{}
	ref := &vrmRef{}
	// Parents first, keeping the file's order otherwise.
	placed := map[string]bool{"": true}
	for len(ref.names) < len(bones) {
		n := len(ref.names)
		for _, b := range bones {
			if !placed[b.Name] && placed[b.Parent] {
				placed[b.Name] = true
				index[b.Name] = len(ref.names)
				ref.names = append(ref.names, b.Name)
				p := -1
				if b.Parent != "" {
					p = index[b.Parent]
				}
				ref.parent = append(ref.parent, p)
				ref.rest = append(ref.rest, refOf(sway.Transform{Pos: b.Pos, Rot: b.Rot, Scale: b.Scale}))
			}
		}
		if len(ref.names) == n {
			return nil, fmt.Errorf("the skeleton has a bone without its parent")
		}
	}
	ref.rest = normRot(ref.rest)
	ref.local = append([]refXf(nil), ref.rest...)
	ref.model = ref.fk(refIdent)
	for _, c := range r.Colliders {
		ref.colliders = append(ref.colliders, refCollider{bone: index[c.Bone], shape: c.Shape})
	}
	n := len(ref.colliders)
	ref.at, ref.tailAt, ref.radius, ref.normal = make([]v3d, n), make([]v3d, n), make([]float64, n), make([]v3d, n)
	ref.hits = make([]int, n)
	ref.limited = map[spring.LimitKind]int{}
	var springs []*refSpring
	for _, s := range r.Springs {
		joints := s.Joints
		if s.VirtualTail == 0 { // 1.0: the last joint is only the tail
			joints = joints[:len(joints)-1]
		}
		if len(joints) == 0 {
			continue
		}
		sp := &refSpring{name: s.Name, parent: ref.parent[index[s.Joints[0].Bone]], center: -1, colliders: s.Colliders}
		if s.Center != "" {
			sp.center = index[s.Center]
		}
		for j, jt := range joints {
			b := index[jt.Bone]
			var tail v3d
			if j+1 < len(s.Joints) {
				tail = ref.rest[index[s.Joints[j+1].Bone]].pos
			} else {
				// 0.x: VirtualTail along the parent-to-joint direction, in
				// the joint's own rest frame and units.
				tail = rMul(rNorm(rRot(rConj(ref.rest[b].rot), ref.rest[b].pos)), float64(s.VirtualTail))
			}
			g := jt.GravityDir
			sp.joints = append(sp.joints, refJoint{bone: b, tail: tail, axis: rNorm(tail),
				stiffness: float64(jt.Stiffness), power: float64(jt.GravityPower), drag: float64(jt.DragForce), r: float64(jt.HitRadius),
				gravity: v3d{float64(g[0]), float64(g[1]), float64(g[2])}, limit: newRefLimit(jt.Limit, rNorm(tail))})
		}
		springs = append(springs, sp)
	}
	// Calculation order: a spring with a joint among the ancestors of
	// another's first joint steps first.
	done := map[*refSpring]bool{}
	for len(ref.springs) < len(springs) {
		n := len(ref.springs)
		for _, s := range springs {
			if done[s] {
				continue
			}
			ready := true
			for _, o := range springs {
				if o != s && !done[o] && ref.hangsFrom(s, o) {
					ready = false
				}
			}
			if ready {
				done[s] = true
				ref.springs = append(ref.springs, s)
			}
		}
		if len(ref.springs) == n {
			return nil, fmt.Errorf("springs hang from each other in a cycle")
		}
	}
	for _, s := range ref.springs {
		in := map[int]bool{s.joints[0].bone: true}
		for i := range ref.names {
			if in[i] || (ref.parent[i] >= 0 && in[ref.parent[i]]) {
				in[i] = true
				s.subtree = append(s.subtree, i)
			}
		}
	}
	// Initialisation: every tail at rest under the pose at the add.
	ref.world = ref.fk(refOf(root))
	for _, s := range ref.springs {
		c := ref.centre(s)
		for _, j := range s.joints {
			t := c.local(ref.world[j.bone].point(j.tail))
			s.cur, s.prev = append(s.cur, t), append(s.prev, t)
		}
	}
	return ref, nil
}

func normRot(x []refXf) []refXf {
	for i := range x {
		x[i].rot = rQNorm(x[i].rot)
	}
	return x
}

// hangsFrom reports whether s's first joint has a joint of o among its
// ancestors.
func (ref *vrmRef) hangsFrom(s, o *refSpring) bool {
	for b := s.parent; b >= 0; b = ref.parent[b] {
		for _, j := range o.joints {
			if j.bone == b {
				return true
			}
		}
	}
	return false
}

// fk composes every bone's world transform from this frame's locals.
func (ref *vrmRef) fk(root refXf) []refXf { return ref.compose(root, ref.local) }

// compose composes world transforms from locals under root.
func (ref *vrmRef) compose(root refXf, locals []refXf) []refXf {
	w := make([]refXf, len(locals))
	for i, l := range locals {
		if p := ref.parent[i]; p >= 0 {
			w[i] = w[p].child(l)
		} else {
			w[i] = root.child(l)
		}
	}
	return w
}

func (ref *vrmRef) centre(s *refSpring) refXf {
	if s.center < 0 {
		return refIdent
	}
	return ref.world[s.center]
}

// k is the scale rule's factor of a bone: its uniform world scale now
// over its model-space world scale at rest.
func (ref *vrmRef) k(b int) float64 {
	return rMaxAbs(ref.world[b].scale) / rMaxAbs(ref.model[b].scale)
}

// step advances one frame: the rest pose (no animation) under root, the
// colliders placed on it, the springs in order, each joint root to tip.
func (ref *vrmRef) step(root sway.Transform, dt float64) {
	copy(ref.local, ref.rest)
	rt := refOf(root)
	ref.world = ref.fk(rt)
	for i, c := range ref.colliders {
		w := ref.world[c.bone]
		ref.at[i], ref.tailAt[i] = w.point(vf(c.shape.Offset)), w.point(vf(c.shape.Tail))
		ref.radius[i] = float64(c.shape.Radius) * ref.k(c.bone)
		// A plane's normal through the inverse transpose (three-vrm's
		// normal matrix).
		ref.normal[i] = rNorm(rRot(w.rot, rDiv(vf(c.shape.Normal), w.scale)))
	}
	for _, s := range ref.springs {
		ref.stepSpring(s, dt)
		// Forward kinematics again where the spring turned bones: the
		// rest of the skeleton is as it was.
		for _, i := range s.subtree {
			ref.world[i] = ref.world[ref.parent[i]].child(ref.local[i])
		}
	}
}

func vf(v [3]float32) v3d { return v3d{float64(v[0]), float64(v[1]), float64(v[2])} }

func (ref *vrmRef) stepSpring(s *refSpring, dt float64) {
	c := ref.centre(s)
	p := ref.world[s.parent]
	for i := range s.joints {
		j := &s.joints[i]
		w := p.child(ref.rest[j.bone])
		head := w.pos
		restOff := rRot(w.rot, rHad(w.scale, j.tail))
		length := rLen(restOff)
		restDir := rMul(restOff, 1/length)
		k := ref.k(j.bone)
		// Inertia in centre space, forces in world space.
		cur, prev := c.point(s.cur[i]), c.point(s.prev[i])
		next := rAdd(cur, rMul(rSub(cur, prev), 1-j.drag))
		next = rAdd(next, rMul(rAdd(rMul(restDir, j.stiffness), rMul(j.gravity, j.power)), dt*k))
		next = rAdd(head, rMul(rNorm(rSub(next, head)), length))
		next = ref.limit(j, head, next, w.rot, length)
		for _, ci := range s.colliders {
			if q, hit := ref.push(ci, next, j.r*k); hit {
				ref.hits[ci]++
				next = rAdd(head, rMul(rNorm(rSub(q, head)), length))
				next = ref.limit(j, head, next, w.rot, length)
			}
		}
		s.prev[i], s.cur[i] = s.cur[i], c.local(next)
		to := rNorm(w.local(next))
		lr := rQNorm(rQMul(ref.rest[j.bone].rot, rFromTo(j.axis, to)))
		ref.local[j.bone].rot = lr
		w.rot = rQMul(p.rot, lr)
		p = w
	}
}

// limit applies joint j's limit to the tail next and counts it.
func (ref *vrmRef) limit(j *refJoint, head, next v3d, restRot [4]float64, length float64) v3d {
	next, moved := j.limit.apply(head, next, restRot, length)
	if moved {
		ref.limited[j.limit.kind]++
	}
	return next
}

// push moves a tail of radius r out of (or into) collider i; it reports
// whether the collider touched it. The specification's push: the tail
// moves along the collision direction by the penetration depth.
func (ref *vrmRef) push(i int, t v3d, r float64) (v3d, bool) {
	d := ref.colliders[i].shape
	inside := d.Bound == collide.Inside
	a, R := ref.at[i], ref.radius[i]
	switch d.Kind {
	case collide.Plane:
		n := ref.normal[i]
		if dist := rDot(rSub(t, a), n) - r; dist < 0 {
			return rSub(t, rMul(n, dist)), true
		}
		return t, false
	case collide.Capsule:
		// The segment's point nearest the tail stands for the centre.
		ab := rSub(ref.tailAt[i], a)
		if l2 := rDot(ab, ab); l2 > 0 {
			a = rAdd(a, rMul(ab, min(max(rDot(rSub(t, a), ab)/l2, 0), 1)))
		}
	}
	off := rSub(t, a)
	l := rLen(off)
	dist := l - R - r
	if inside {
		dist = R - r - l
	}
	if dist >= 0 || l == 0 {
		return t, false
	}
	dir := rMul(off, 1/l)
	if inside {
		dir = rMul(dir, -1)
	}
	return rSub(t, rMul(dir, dist)), true
}

// tailPoints are the points the comparison watches of a character: every
// bone's world position, and the tip of every spring whose last joint
// swings with a virtual tail (it moves no bone).
func (ref *vrmRef) tailPoints() (names []string, pts []v3d) {
	for i, n := range ref.names {
		names, pts = append(names, n), append(pts, ref.world[i].pos)
	}
	for _, s := range ref.springs {
		j := s.joints[len(s.joints)-1]
		if len(ref.childrenOf(j.bone)) == 0 {
			names, pts = append(names, ref.names[j.bone]+" (virtual tail)"), append(pts, ref.world[j.bone].point(j.tail))
		}
	}
	return names, pts
}

func (ref *vrmRef) childrenOf(b int) []int {
	var out []int
	for i, p := range ref.parent {
		if p == b {
			out = append(out, i)
		}
	}
	return out
}

// degrees turns an angle in radians into the degrees a spring.Limit takes.
func degrees(rad float64) float32 { return float32(rad * 180 / math.Pi) }
