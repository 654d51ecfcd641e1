package systems

import (
	"github.com/go-gl/mathgl/mgl32"
	"github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/components"
	"github.com/sway-anim/sway/internal/mathx"
	"github.com/sway-anim/sway/internal/rig"
	"github.com/sway-anim/sway/jobs"
	"github.com/sway-anim/sway/systems/lookat"
)

func init() {
	registerDefault(PhaseProcedural, 20, "lookat", func() System { return NewLookAtSystem() })
}

// targetResolver resolves entity targets (components.Target) on the calling
// goroutine, before a system's parallel part: reading another
// character's bones from a worker would race with the worker that moves
// that character, and would depend on the order chunks run in.
type targetResolver struct {
	pose, root ecs.ID
}

func newTargetResolver(w *ecs.World) targetResolver {
	return targetResolver{pose: ecs.ComponentID[components.Pose](w), root: ecs.ComponentID[components.Root](w)}
}

// resolve sets t.Point to the world position of the target bone, brought
// up to date first. A target that is no longer a live character with that
// bone keeps its last point and is marked Lost; a target whose root is not
// finite keeps its last point for the frame.
func (r *targetResolver) resolve(w *ecs.World, pool *rig.Pool, reg *rig.Registry, t *components.Target) {
	if !t.IsEntity() {
		return
	}
	e := t.Entity
	if !w.Alive(e) || !w.Has(e, r.pose) || !w.Has(e, r.root) {
		t.Lost = true
		return
	}
	p := (*components.Pose)(w.Get(e, r.pose))
	root := (*components.Root)(w.Get(e, r.root))
	if t.Bone < 0 || t.Bone >= p.Count || int(p.Skeleton) >= len(reg.Skeletons) {
		t.Lost = true
		return
	}
	t.Lost = false
	if EnsurePath(pool, reg.Skeletons[p.Skeleton], p, root, t.Bone) {
		t.Point = pool.WorldPos[p.First+t.Bone]
	}
}

// boneParentWorldRot returns the world rotation of bone b's parent: the root's
// rotation for a root bone. base is the character's first pool slot.
func boneParentWorldRot(pool *rig.Pool, parents []int32, base int32, root *components.Root, b int32) mgl32.Quat {
	if p := parents[b]; p >= 0 {
		return pool.WorldRot[base+p]
	}
	return root.Rot
}

// LookAtSystem turns heads toward their targets (lookat.Head), spreads the
// configured share of each turn over spine bones (lookat.SplitTurn,
// ApplyWorldTurn) and then turns the eyes (lookat.Eye), each eye with its
// parent's world rotation recomputed after the head turned
// (EnsurePath). It runs in the procedural phase after breathing, so it
// looks from the breathing pose.
//
// The look-at writes absolute local rotations computed from the pose it
// finds, so, like breathing's absolute mode, it needs a pose reset or an
// animation every frame (the default pipeline has one).
//
// Entity targets are resolved before the parallel part, from the target's
// pose as the phase has left it so far (after breathing). A character
// whose root is not finite is skipped for the frame.
type LookAtSystem struct {
	frame   frame
	chars   featureCharacters[components.LookAt]
	targets targetResolver
	job     *jobs.Job
	body    func(lo, hi int)
	// Set for the duration of one Update.
	pool *rig.Pool
	view *components.View // the point distance culling measures from
	reg  *rig.Registry
	dt   float32
}

// NewLookAtSystem returns the look-at system.
func NewLookAtSystem() *LookAtSystem {
	s := &LookAtSystem{chars: newFeatureCharacters[components.LookAt](), job: jobs.NewJob("lookat")}
	s.body = s.run
	return s
}

// Initialize implements System.
func (s *LookAtSystem) Initialize(w *ecs.World) {
	s.frame = newFrame(w)
	s.targets = newTargetResolver(w)
}

// Update implements System.
func (s *LookAtSystem) Update(w *ecs.World) { runAlone(s, &s.frame, w) }

func (s *LookAtSystem) GatherFrame(w *ecs.World) (*jobs.Job, func(lo, hi int), int) {
	items := s.chars.gather(w)
	s.pool, s.reg, s.dt = s.frame.pool.Get(), s.frame.reg.Get(), s.frame.time.Get().Dt
	s.view = s.frame.view.Get()
	return s.job, s.body, len(items)
}

// crossReads reports whether a target is another entity's bone: resolving
// it reads that character's pose.
func (s *LookAtSystem) CrossReads() bool {
	for i := range s.chars.items {
		if s.chars.items[i].feat.Target.IsEntity() {
			return true
		}
	}
	return false
}

func (s *LookAtSystem) ResolveFrame(w *ecs.World) {
	for i := range s.chars.items {
		s.targets.resolve(w, s.pool, s.reg, &s.chars.items[i].feat.Target)
	}
}

func (s *LookAtSystem) FramePoses(dst []*components.Pose) []*components.Pose {
	return s.chars.framePoses(dst)
}

func (s *LookAtSystem) ReleaseFrame() {
	s.chars.release()
	s.pool, s.reg = nil, nil
}

func (s *LookAtSystem) run(lo, hi int) {
	for _, c := range s.chars.items[lo:hi] {
		// Look-at runs at weight 0: it fades its applied weight out.
		if c.feat.Paused || c.feat.Culled(c.root.Pos, s.view) {
			continue
		}
		lookAtCharacter(s.pool, s.reg.Skeletons[c.pose.Skeleton], c.pose, c.root, c.feat, s.dt)
	}
}

// lookAtCharacter runs one character's look-at: head, spine share, eyes.
func lookAtCharacter(pool *rig.Pool, skel *rig.Skeleton, p *components.Pose, root *components.Root, la *components.LookAt, dt float32) {
	head := la.HeadBone
	if head < 0 || head >= p.Count || !EnsurePath(pool, skel, p, root, head) {
		return
	}
	parents := skel.Parents()
	base := p.First
	parent := boneParentWorldRot(pool, parents, base, root, head)
	rest := pool.LocalRot[base+head]
	in := lookat.HeadInput{
		ParentWorldRot: parent,
		RestLocalRot:   rest,
		HeadPos:        pool.WorldPos[base+head],
		TargetPos:      la.Target.Point,
		Weight:         la.Weight,
	}
	var out lookat.HeadPose
	la.Head.Step(&out, &la.HeadState, &in, dt)

	spine := false
	if n := int(min(la.NumSpine, components.MaxLookAtSpine)); n > 0 {
		spine = true
		// The head's world turn this frame, spread over the spine (parents
		// first, each under its parent's new world rotation); the head
		// keeps the rest, so its world rotation is out.World either way.
		turn := mathx.Mul(out.World, mathx.Conjugate(mathx.Mul(parent, rest)))
		var parts [components.MaxLookAtSpine]mgl32.Quat
		lookat.SplitTurn(parts[:n], turn, la.SpineShares[:n])
		acc := mgl32.QuatIdent() // the spine's turn so far
		lowest := head
		for i := 0; i < n; i++ {
			b := la.Spine[i]
			if b < 0 || b >= head {
				continue
			}
			pw := mathx.Mul(acc, boneParentWorldRot(pool, parents, base, root, b))
			pool.LocalRot[base+b] = lookat.ApplyWorldTurn(pw, pool.LocalRot[base+b], parts[i])
			acc = mathx.Mul(parts[i], acc)
			lowest = min(lowest, b)
		}
		newParent := mathx.Mul(acc, parent)
		local, _ := mathx.NormalizeQuat(mathx.Mul(mathx.Conjugate(newParent), out.World))
		pool.LocalRot[base+head] = local
		p.MarkDirty(lowest, skel.SubtreeEnd(int(lowest)))
	} else {
		pool.LocalRot[base+head] = out.Local
		p.MarkDirty(head, skel.SubtreeEnd(int(head)))
	}

	headPos := pool.WorldPos[base+head]
	// What both eyes share; each sets its parent, origin and rest.
	ein := lookat.EyeInput{TargetPos: la.Target.Point, Weight: la.HeadState.Weight}
	for k, eye := range la.EyeBones {
		if eye <= head || eye >= p.Count {
			continue
		}
		// The eye's parent and origin after the head (and spine) turned.
		if !spine && parents[eye] == head {
			// An eye on the head: the head kept its position and took the
			// world rotation out.World, the product forward kinematics
			// forms, so neither needs recomputing. The head's mark covers
			// the eye.
			ein.ParentWorldRot, ein.Origin = out.World, headPos
			if la.EyesConverge {
				ein.Origin = childPos(headPos, out.World, pool.WorldScale[base+head], pool.LocalPos[base+eye])
			}
		} else {
			if !EnsurePath(pool, skel, p, root, eye) {
				return
			}
			ein.ParentWorldRot, ein.Origin = boneParentWorldRot(pool, parents, base, root, eye), pool.WorldPos[base+head]
			if la.EyesConverge {
				ein.Origin = pool.WorldPos[base+eye]
			}
			p.MarkDirty(eye, skel.SubtreeEnd(int(eye)))
		}
		lr := &pool.LocalRot[base+eye]
		ein.RestLocalRot = *lr
		la.Eyes[k].Step(lr, &la.EyeStates[k], &ein, dt)
	}
}

// childPos is the world position of a bone with local position lp under a
// parent at pp with world rotation pr and scale ps, with the operations of
// fk.RunOrder, so that it matches what a pass computes.
func childPos(pp mgl32.Vec3, pr mgl32.Quat, ps, lp mgl32.Vec3) mgl32.Vec3 {
	x, y, z := ps[0]*lp[0], ps[1]*lp[1], ps[2]*lp[2]
	qw, qx, qy, qz := pr.W, pr.V[0], pr.V[1], pr.V[2]
	tx := 2 * (qy*z - qz*y)
	ty := 2 * (qz*x - qx*z)
	tz := 2 * (qx*y - qy*x)
	return mgl32.Vec3{
		pp[0] + x + qw*tx + (qy*tz - qz*ty),
		pp[1] + y + qw*ty + (qz*tx - qx*tz),
		pp[2] + z + qw*tz + (qx*ty - qy*tx),
	}
}

// Finalize implements System.
func (s *LookAtSystem) Finalize(w *ecs.World) {}
