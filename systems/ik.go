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
func (s *IKSystem) Update(w *ecs.World) {
	items := s.chars.gather(w)
	s.pool, s.reg = s.frame.pool.Get(), s.frame.reg.Get()
	for i := range items {
		k := items[i].feat
		for l := 0; l < int(min(k.NumLimbs, components.MaxIKLimbs)); l++ {
			s.targets.resolve(w, s.pool, s.reg, &k.Limbs[l].Target)
		}
	}
	s.frame.faults.Get().Report(s.frame.jobs.Get().For(s.job, len(items), CharacterGrain, s.body))
	s.chars.release()
	s.pool, s.reg = nil, nil
}

func (s *IKSystem) run(lo, hi int) {
	for _, c := range s.chars.items[lo:hi] {
		skel := s.reg.Skeletons[c.pose.Skeleton]
		k := c.feat
		for l := 0; l < int(min(k.NumLimbs, components.MaxIKLimbs)); l++ {
			if !solveLimb(s.pool, skel, c.pose, c.root, &k.Limbs[l]) {
				break
			}
		}
	}
}

// solveLimb solves one limb and writes it back; false when the root is not
// finite (nothing is written).
func solveLimb(pool *rig.Pool, skel *rig.Skeleton, p *components.Pose, root *components.Root, l *components.IKLimb) bool {
	u, m, e := l.Upper, l.Middle, l.End
	if u < 0 || !(u < m && m < e && e < p.Count) {
		l.Reached = false
		return true // a component not made by the facade: skip the limb
	}
	if !EnsurePath(pool, skel, p, root, e) {
		return false
	}
	base := p.First
	in := ik.TwoBoneInput{
		UpperPos: pool.WorldPos[base+u], MiddlePos: pool.WorldPos[base+m], EndPos: pool.WorldPos[base+e],
		UpperRot: pool.WorldRot[base+u], MiddleRot: pool.WorldRot[base+m], EndRot: pool.WorldRot[base+e],
		Target:    l.Target.Point,
		TargetRot: l.TargetRot, UseTargetRot: l.UseTargetRot,
	}
	switch l.HintSpace {
	case components.HintWorld:
		in.Hint, in.UseHint = l.Hint, true
	case components.HintRoot:
		h := mgl32.Vec3{root.Scale[0] * l.Hint[0], root.Scale[1] * l.Hint[1], root.Scale[2] * l.Hint[2]}
		in.Hint, in.UseHint = root.Pos.Add(mathx.Rotate(root.Rot, h)), true
	}
	var out ik.TwoBoneResult
	ik.SolveTwoBone(&out, &l.Settings, &in)
	l.Reached = out.Reached

	parents := skel.Parents()
	pool.LocalRot[base+u] = ik.LocalRotation(boneParentWorldRot(pool, parents, base, root, u), out.UpperRot)
	p.MarkDirty(u, skel.SubtreeEnd(int(u)))
	pool.LocalRot[base+m] = ik.LocalRotation(solvedParent(pool, skel, p, root, m, u, out.UpperRot), out.MiddleRot)
	if l.UseTargetRot {
		pool.LocalRot[base+e] = ik.LocalRotation(solvedParent(pool, skel, p, root, e, m, out.MiddleRot), out.EndRot)
	}
	return true
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
