package systems

import (
	"github.com/go-gl/mathgl/mgl32"
	"github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/components"
	"github.com/sway-anim/sway/internal/mathx"
	"github.com/sway-anim/sway/internal/rig"
	"github.com/sway-anim/sway/jobs"
	"github.com/sway-anim/sway/systems/ik"
)

func init() {
	registerDefault(PhaseProcedural, 30, "ik", func() System { return NewIKSystem() })
}

// IKSystem solves every character's two-bone limbs (ik.SolveTwoBone) on
// the pose as breathing and look-at left it, and writes the new local
// rotations back parents first: each bone's parent world rotation is the
// solved one, or, when bones lie between, recomputed (EnsurePath). It
// runs in the procedural phase after look-at.
//
// Like look-at it writes absolute local rotations computed from the pose it
// finds, so it needs a pose reset or an animation every frame. Entity
// targets are resolved before the parallel part; a character whose root is
// not finite is skipped for the frame.
type IKSystem struct {
	frame   frame
	chars   featureCharacters[components.IK]
	targets targetResolver
	job     *jobs.Job
	body    func(lo, hi int)
	// Set for the duration of one Update.
	pool *rig.Pool
	view *components.View // the point distance culling measures from
	reg  *rig.Registry
}

// NewIKSystem returns the IK system.
func NewIKSystem() *IKSystem {
	s := &IKSystem{chars: newFeatureCharacters[components.IK](), job: jobs.NewJob("ik")}
	s.body = s.run
	return s
}

// Initialize implements System.
func (s *IKSystem) Initialize(w *ecs.World) {
	s.frame = newFrame(w)
	s.targets = newTargetResolver(w)
}

// Update implements System.
func (s *IKSystem) Update(w *ecs.World) { runAlone(s, &s.frame, w) }

func (s *IKSystem) GatherFrame(w *ecs.World) (*jobs.Job, func(lo, hi int), int) {
	items := s.chars.gather(w)
	s.pool, s.reg, s.view = s.frame.pool.Get(), s.frame.reg.Get(), s.frame.view.Get()
	return s.job, s.body, len(items)
}

// crossReads reports whether a limb's target is another entity's bone:
// resolving it reads that character's pose.
func (s *IKSystem) CrossReads() bool {
	for i := range s.chars.items {
		k := s.chars.items[i].feat
		for l := 0; l < int(min(k.NumLimbs, components.MaxIKLimbs)); l++ {
			if k.Limbs[l].Target.IsEntity() {
				return true
			}
		}
	}
	return false
}

func (s *IKSystem) ResolveFrame(w *ecs.World) {
	for i := range s.chars.items {
		k := s.chars.items[i].feat
		for l := 0; l < int(min(k.NumLimbs, components.MaxIKLimbs)); l++ {
			s.targets.resolve(w, s.pool, s.reg, &k.Limbs[l].Target)
		}
	}
}

func (s *IKSystem) FramePoses(dst []*components.Pose) []*components.Pose {
	return s.chars.framePoses(dst)
}

func (s *IKSystem) ReleaseFrame() {
	s.chars.release()
	s.pool, s.reg = nil, nil
}

func (s *IKSystem) run(lo, hi int) {
	for _, c := range s.chars.items[lo:hi] {
		skel := s.reg.Skeletons[c.pose.Skeleton]
		k := c.feat
		if k.Off(c.root.Pos, s.view) {
			continue
		}
		known := int32(-1)
		for l := 0; l < int(min(k.NumLimbs, components.MaxIKLimbs)); l++ {
			if !solveLimb(s.pool, skel, c.pose, c.root, &k.Limbs[l], &known, k.Weight) {
				break
			}
		}
	}
}

// solveLimb solves one limb and writes it back; false when the root is not
// finite (nothing is written).
//
// known is the bone above an earlier limb of the character whose world
// transform is current in the pool (-1: none): both legs hang from the
// hips, and an earlier limb only turns bones below it.
//
// weight, the character's IK weight in (0, 1], multiplies the limb's.
func solveLimb(pool *rig.Pool, skel *rig.Skeleton, p *components.Pose, root *components.Root, l *components.IKLimb, known *int32, weight float32) bool {
	u, m, e := l.Upper, l.Middle, l.End
	if u < 0 || !(u < m && m < e && e < p.Count) {
		l.Reached = false
		return true // a component not made by the facade: skip the limb
	}
	parents := skel.Parents()
	base := p.First
	in := ik.TwoBoneInput{
		Target:    l.Target.Point,
		TargetRot: l.TargetRot, UseTargetRot: l.UseTargetRot,
	}
	var upperParent mgl32.Quat
	if pu := parents[u]; parents[m] == u && parents[e] == m {
		// A three-bone chain: bring the upper joint's parent up to date
		// (once for all limbs hanging from it), then, when the chain is
		// stale, compute its joints here, in registers, as fk.RunOrder
		// would. The pool keeps their stale world transforms, which the
		// dirty range still covers.
		pp, pr, ps := &root.Pos, &root.Rot, &root.Scale
		if pu >= 0 {
			if pu != *known {
				if !EnsurePath(pool, skel, p, root, pu) {
					return false
				}
				*known = pu
			}
			pp, pr, ps = &pool.WorldPos[base+pu], &pool.WorldRot[base+pu], &pool.WorldScale[base+pu]
		} else if !takeRoot(p, root) {
			return false
		}
		upperParent = *pr
		if !p.Clean() && e >= p.DirtyLo && e < p.DirtyHi {
			limbWorld(&in, pool, base, u, m, e, pp, pr, ps)
		} else {
			readLimb(&in, pool, base, u, m, e)
		}
	} else {
		if !EnsurePath(pool, skel, p, root, e) {
			return false
		}
		readLimb(&in, pool, base, u, m, e)
		upperParent = boneParentWorldRot(pool, parents, base, root, u)
	}
	switch l.HintSpace {
	case components.HintWorld:
		in.Hint, in.UseHint = l.Hint, true
	case components.HintRoot:
		h := mgl32.Vec3{root.Scale[0] * l.Hint[0], root.Scale[1] * l.Hint[1], root.Scale[2] * l.Hint[2]}
		in.Hint, in.UseHint = root.Pos.Add(mathx.Rotate(root.Rot, h)), true
	}
	var out ik.TwoBoneResult
	if weight < 1 {
		st := l.Settings
		st.Weight *= weight
		ik.SolveTwoBone(&out, &st, &in)
	} else {
		ik.SolveTwoBone(&out, &l.Settings, &in)
	}
	l.Reached = out.Reached

	pool.LocalRot[base+u] = ik.LocalRotation(upperParent, out.UpperRot)
	p.MarkDirty(u, skel.SubtreeEnd(int(u)))
	pool.LocalRot[base+m] = ik.LocalRotation(solvedParent(pool, skel, p, root, m, u, out.UpperRot), out.MiddleRot)
	if l.UseTargetRot {
		pool.LocalRot[base+e] = ik.LocalRotation(solvedParent(pool, skel, p, root, e, m, out.MiddleRot), out.EndRot)
	}
	return true
}

// readLimb copies the limb's current world positions and rotations from
// the pool.
func readLimb(in *ik.TwoBoneInput, pool *rig.Pool, base, u, m, e int32) {
	in.UpperPos, in.MiddlePos, in.EndPos = pool.WorldPos[base+u], pool.WorldPos[base+m], pool.WorldPos[base+e]
	in.UpperRot, in.MiddleRot, in.EndRot = pool.WorldRot[base+u], pool.WorldRot[base+m], pool.WorldRot[base+e]
}

// limbWorld computes the world positions and rotations of the chain u, m,
// e (each the parent of the next) from their locals under the parent
// transform pp, pr, ps: the operations of fk.RunOrder in the same order,
// so the values match what a pass writes.
func limbWorld(in *ik.TwoBoneInput, pool *rig.Pool, base, u, m, e int32, pp *mgl32.Vec3, pr *mgl32.Quat, ps *mgl32.Vec3) {
	px, py, pz := pp[0], pp[1], pp[2]
	qw, qx, qy, qz := pr.W, pr.V[0], pr.V[1], pr.V[2]
	sx, sy, sz := ps[0], ps[1], ps[2]
	bones := [3]int32{base + u, base + m, base + e}
	var pos [3]mgl32.Vec3
	var rot [3]mgl32.Quat
	for k, b := range bones {
		lp, lr, ls := &pool.LocalPos[b], &pool.LocalRot[b], &pool.LocalScale[b]
		// Scaled local offset, rotated by the parent (t = 2 v×x form).
		x, y, z := sx*lp[0], sy*lp[1], sz*lp[2]
		tx := 2 * (qy*z - qz*y)
		ty := 2 * (qz*x - qx*z)
		tz := 2 * (qx*y - qy*x)
		px, py, pz = px+x+qw*tx+(qy*tz-qz*ty), py+y+qw*ty+(qz*tx-qx*tz), pz+z+qw*tz+(qx*ty-qy*tx)
		qw, qx, qy, qz = qw*lr.W-qx*lr.V[0]-qy*lr.V[1]-qz*lr.V[2],
			qw*lr.V[0]+qx*lr.W+qy*lr.V[2]-qz*lr.V[1],
			qw*lr.V[1]+qy*lr.W+qz*lr.V[0]-qx*lr.V[2],
			qw*lr.V[2]+qz*lr.W+qx*lr.V[1]-qy*lr.V[0]
		sx, sy, sz = sx*ls[0], sy*ls[1], sz*ls[2]
		pos[k] = mgl32.Vec3{px, py, pz}
		rot[k] = mgl32.Quat{W: qw, V: mgl32.Vec3{qx, qy, qz}}
	}
	in.UpperPos, in.MiddlePos, in.EndPos = pos[0], pos[1], pos[2]
	in.UpperRot, in.MiddleRot, in.EndRot = rot[0], rot[1], rot[2]
}

// solvedParent returns the new world rotation of bone b's parent: rot when
// the parent is the solved bone above (the usual case), else the parent's
// world rotation recomputed from the locals just written.
func solvedParent(pool *rig.Pool, skel *rig.Skeleton, p *components.Pose, root *components.Root, b, above int32, rot mgl32.Quat) mgl32.Quat {
	parents := skel.Parents()
	if parents[b] == above {
		return rot
	}
	EnsurePath(pool, skel, p, root, parents[b])
	return boneParentWorldRot(pool, parents, p.First, root, b)
}

// Finalize implements System.
func (s *IKSystem) Finalize(w *ecs.World) {}
