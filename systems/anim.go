package systems

import (
	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"

	"github.com/sway-anim/sway/components"
	"github.com/sway-anim/sway/internal/mathx"
	"github.com/sway-anim/sway/internal/rig"
	"github.com/sway-anim/sway/jobs"
	"github.com/sway-anim/sway/systems/anim"
)

// AnimLibrary is the world resource holding the animation data characters
// share: clips, and the blend spaces over them that
// components.Animation.Space indexes. Entries are added at set-up and
// never removed, so an index stays valid; nothing writes the library
// during a frame.
type AnimLibrary struct {
	Clips  []*anim.Clip
	Spaces []*anim.BlendSpace
}

// Animation is the animation layer: for every character with a
// components.Animation it plays the component's blend space
// (anim.BlendSpace.Play: parameter smoothing, weights, normalised time,
// sampling of the clips with a non-zero weight, weighted quaternion blend
// with hemisphere correction, normalisation) into the character's local
// pose, and marks the pose dirty. The default pipeline runs it as "anim"
// right after pose.reset, which leaves animated characters alone; in a
// pipeline of your own, add both to the animation phase, before forward
// kinematics.
//
// A component whose Space is not in the library, or whose space is for a
// different number of bones than the skeleton, gets the rest pose: the
// facade rejects both at set-up, so only a component written directly can
// have them.
type Animation struct {
	noCrossReads
	frame frame
	lib   generic.Resource[AnimLibrary]
	chars featureCharacters[components.Animation]
	job   *jobs.Job
	body  func(lo, hi int)
	// Set for the duration of one Update.
	pool   *rig.Pool
	view   *components.View // the point distance culling measures from
	reg    *rig.Registry
	spaces []*anim.BlendSpace
	dt     float32
}

func init() {
	registerDefault(PhaseAnimation, 10, "anim", func() System { return NewAnimation() })
}

// NewAnimation returns the animation system (the default pipeline runs it
// as "anim", after pose.reset).
func NewAnimation() *Animation {
	s := &Animation{chars: newFeatureCharacters[components.Animation](), job: jobs.NewJob("anim")}
	s.body = s.run
	return s
}

// Initialize implements System.
func (s *Animation) Initialize(w *ecs.World) {
	s.frame = newFrame(w)
	s.lib = generic.NewResource[AnimLibrary](w)
	ecs.ComponentID[components.Animation](w) // registered now, not inside a locked query
}

// Update implements System.
func (s *Animation) Update(w *ecs.World) { runAlone(s, &s.frame, w) }

func (s *Animation) GatherFrame(w *ecs.World) (*jobs.Job, func(lo, hi int), int) {
	items := s.chars.gather(w)
	s.pool, s.reg, s.spaces = s.frame.pool.Get(), s.frame.reg.Get(), s.lib.Get().Spaces
	s.dt, s.view = s.frame.time.Get().Dt, s.frame.view.Get()
	return s.job, s.body, len(items)
}

func (s *Animation) FramePoses(dst []*components.Pose) []*components.Pose {
	return s.chars.framePoses(dst)
}

func (s *Animation) ReleaseFrame() {
	s.chars.release()
	s.pool, s.reg, s.spaces = nil, nil, nil
}

// run plays each character of one chunk. A character writes only its own
// component and its own range of the pose pool, and Play keeps its scratch
// (the clip times) on the stack, so chunks share nothing mutable and the
// result does not depend on which worker runs which chunk.
func (s *Animation) run(lo, hi int) {
	for _, c := range s.chars.items[lo:hi] {
		p, a := c.pose, c.feat
		skel := s.reg.Skeletons[p.Skeleton]
		first, end := p.First, p.First+p.Count
		dst := anim.Pose{Pos: s.pool.LocalPos[first:end], Rot: s.pool.LocalRot[first:end], Scale: s.pool.LocalScale[first:end]}
		rest := anim.Pose{Pos: skel.RestPos(), Rot: skel.RestRot(), Scale: skel.RestScale()}
		dt := s.dt
		if a.Paused || a.Culled(c.root.Pos, s.view) {
			dt = 0 // the clock stops; the player keeps posing its time
		}
		from := a.Phase
		if !(a.Weight > 0) || int(a.Space) >= len(s.spaces) || s.spaces[a.Space].BoneCount() != int(p.Count) ||
			!s.spaces[a.Space].Play(dst, &a.Player, dt, rest) {
			copy(dst.Pos, rest.Pos)
			copy(dst.Rot, rest.Rot)
			copy(dst.Scale, rest.Scale)
			a.Root.Delta = anim.RootDelta{}
			p.MarkAllDirty()
			continue
		}
		if a.Root.Mode == anim.RootInPlace {
			inPlace(s.spaces[a.Space], dst, a, from, dt, rest, skel)
		}
		if a.Weight < 1 {
			towardsRest(dst, rest, a.Weight)
		}
		p.MarkAllDirty()
	}
}

// inPlace takes the root motion out of the pose Play wrote (anim.BlendSpace.InPlace)
// and scales the delta by the animation's weight, as the pose is blended
// towards rest.
func inPlace(space *anim.BlendSpace, dst anim.Pose, a *components.Animation, from, dt float32, rest anim.Pose, skel *rig.Skeleton) {
	b := int(a.Root.Bone)
	if b < 0 || b >= len(dst.Pos) {
		a.Root.Delta = anim.RootDelta{}
		return
	}
	parent := anim.ParentFrame(dst, skel.Parents(), b)
	if !space.InPlace(dst, &a.Player, &a.Root, from, dt, rest, parent, skel.ModelRot()[b]) {
		a.Root.Delta = anim.RootDelta{}
		return
	}
	if w := a.Weight; w < 1 {
		d := &a.Root.Delta
		d.Pos, d.Yaw = d.Pos.Mul(w), d.Yaw*w
	}
}

// towardsRest blends pose dst with the rest pose: weight w of dst (in
// (0, 1)), translations and scales linearly, rotations by normalised lerp.
func towardsRest(dst, rest anim.Pose, w float32) {
	for i := range dst.Rot {
		dst.Pos[i] = mathx.LerpVec3(rest.Pos[i], dst.Pos[i], w)
		dst.Rot[i] = mathx.Nlerp(rest.Rot[i], dst.Rot[i], w)
		dst.Scale[i] = mathx.LerpVec3(rest.Scale[i], dst.Scale[i], w)
	}
}

// Finalize implements System.
func (s *Animation) Finalize(w *ecs.World) {}
