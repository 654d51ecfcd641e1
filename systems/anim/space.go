package anim

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/check"
)

// BlendSpaceDesc describes a blend space: one clip per sample, placed by
// Thresholds (Kind1D) or Positions (2D kinds); Direct takes neither.
type BlendSpaceDesc struct {
	Kind       Kind
	Clips      []*Clip
	Thresholds []float32    // Kind1D: one per clip, strictly increasing
	Positions  []mgl32.Vec2 // 2D kinds: one per clip
	// NormalizeDirect divides Direct weights by their sum (see DirectWeights).
	NormalizeDirect bool
}

// Validate reports the first bad field as a *check.FieldError.
func (d *BlendSpaceDesc) Validate() error {
	const typ = "BlendSpaceDesc"
	if d.Kind >= kindCount {
		return check.Errorf(typ, "Kind", d.Kind, "unknown blend space kind")
	}
	if err := validateCount(typ, "Clips", len(d.Clips)); err != nil {
		return err
	}
	for i, c := range d.Clips {
		if c == nil {
			return check.Errorf(typ, fmt.Sprintf("Clips[%d]", i), nil, "must not be nil")
		}
		if c.bones != d.Clips[0].bones {
			return check.Errorf(typ, fmt.Sprintf("Clips[%d]", i), c.name, "is for %d bones, Clips[0] for %d", c.bones, d.Clips[0].bones)
		}
	}
	n := len(d.Clips)
	switch d.Kind {
	case Kind1D:
		if len(d.Thresholds) != n {
			return check.Errorf(typ, "Thresholds", len(d.Thresholds), "must hold one threshold per clip (%d)", n)
		}
		return validate1D(typ, "Thresholds", d.Thresholds)
	case KindDirect:
		return nil
	}
	if len(d.Positions) != n {
		return check.Errorf(typ, "Positions", len(d.Positions), "must hold one position per clip (%d)", n)
	}
	if d.Kind == KindSimpleDirectional {
		return validateSimpleDirectional(typ, "Positions", d.Positions)
	}
	return validateFreeform(typ, "Positions", d.Positions)
}

// BlendSpace is shared, immutable set-up data: a kind, the sample positions
// and one clip per sample. Characters hold only their parameter and times.
type BlendSpace struct {
	kind       Kind
	clips      []*Clip
	thresholds []float32
	positions  []mgl32.Vec2
	normalize  bool
	bones      int
	loop       bool // every clip loops
	// live lists, per channel, the bones some clip animates; the others
	// are the rest pose whatever the weights, so a blend copies them and
	// accumulates and normalises only the live ones. clipRest[i] lists the
	// live bones clip i leaves to the rest pose.
	live     boneSets
	clipRest []boneSets
	rootBone int // RootBone
}

// boneSets holds one list of bone indices per channel.
type boneSets struct{ rot, pos, scl []int32 }

// NewBlendSpace validates desc and copies it into a blend space.
func NewBlendSpace(desc BlendSpaceDesc) (*BlendSpace, error) {
	if err := desc.Validate(); err != nil {
		return nil, err
	}
	s := &BlendSpace{
		kind:      desc.Kind,
		clips:     append([]*Clip(nil), desc.Clips...),
		normalize: desc.NormalizeDirect,
		bones:     desc.Clips[0].bones,
		loop:      true,
	}
	for _, c := range desc.Clips {
		s.loop = s.loop && c.loop
	}
	s.live = liveBones(s.clips, s.bones)
	s.clipRest = make([]boneSets, len(s.clips))
	for i, c := range s.clips {
		s.clipRest[i] = boneSets{
			rot: intersect(c.rotRest, s.live.rot, s.bones),
			pos: intersect(c.posRest, s.live.pos, s.bones),
			scl: intersect(c.sclRest, s.live.scl, s.bones),
		}
	}
	s.rootBone = defaultRootBone(s.clips, s.live)
	switch desc.Kind {
	case Kind1D:
		s.thresholds = append([]float32(nil), desc.Thresholds...)
	case KindDirect:
	default:
		s.positions = append([]mgl32.Vec2(nil), desc.Positions...)
	}
	return s, nil
}

// Kind returns the blend space's kind.
func (s *BlendSpace) Kind() Kind { return s.kind }

// Len returns the number of samples (clips).
func (s *BlendSpace) Len() int { return len(s.clips) }

// BoneCount returns the number of bones of the clips' skeleton.
func (s *BlendSpace) BoneCount() int { return s.bones }

// Loop reports whether every clip loops: then a normalised time wraps
// (AdvancePhase), otherwise it stops at the end.
func (s *BlendSpace) Loop() bool { return s.loop }

// Clip returns the clip of sample i.
func (s *BlendSpace) Clip(i int) *Clip { return s.clips[i] }

// Input is one character's per-frame input to a blend space.
type Input struct {
	Param  mgl32.Vec2 // blend parameter; Kind1D reads Param[0]; Direct ignores it
	Direct []float32  // KindDirect: one weight per sample
	Times  []float32  // play time in seconds of each sample's clip
}

// Weights writes the blend weight of each sample for in into dst (length
// Len). It returns false and writes nothing if dst or in.Direct (for
// KindDirect) is too short.
func (s *BlendSpace) Weights(dst []float32, in Input) bool {
	switch s.kind {
	case Kind1D:
		return Weights1D(dst, s.thresholds, in.Param[0])
	case KindSimpleDirectional:
		return SimpleDirectionalWeights(dst, s.positions, in.Param)
	case KindFreeformDirectional:
		return FreeformDirectionalWeights(dst, s.positions, in.Param)
	case KindFreeformCartesian:
		return FreeformCartesianWeights(dst, s.positions, in.Param)
	}
	if len(in.Direct) < len(s.clips) {
		return false
	}
	return DirectWeights(dst, in.Direct[:len(s.clips)], s.normalize)
}

// Scratch is the working memory of Evaluate, one per character or per
// worker: the blend weights. Clips are sampled straight into the
// destination pose, so no pose buffer is needed. The zero value is ready.
type Scratch struct {
	weights [MaxSamples]float32
	n       int
}

// Weights returns the weights of the last Evaluate (for debugging and UI);
// the slice is overwritten by the next Evaluate.
func (sc *Scratch) Weights() []float32 { return sc.weights[:sc.n] }

// Evaluate is the per-character kernel: it computes the weights for in,
// samples only the clips with a non-zero weight at their times, and writes
// the blended local pose into dst (BoneCount bones; bones no clip animates
// keep rest). The result equals Clip.Sample of each weighted clip followed
// by BlendPoses, but each clip is sampled and accumulated in one pass; one
// clip at weight one is sampled straight into dst. It returns false and
// writes nothing if dst, rest or in's slices are too short, sc is nil or dst
// is rest (dst's animated bones are cleared before rest is read). Only the
// bones some clip of the space animates are blended; the others are copied
// from rest. It never allocates.
func (s *BlendSpace) Evaluate(dst Pose, sc *Scratch, in Input, rest Pose) bool {
	n, bones := len(s.clips), s.bones
	if sc == nil || dst.Len() < bones || rest.Len() < bones || len(in.Times) < n || aliases(dst, rest) {
		return false
	}
	w := sc.weights[:n]
	if !s.Weights(w, in) {
		return false
	}
	sc.n = n
	return s.blend(dst, w, in.Times, rest)
}

// blend samples the clips with a non-zero weight in w at their times and
// writes the blend into dst: the second half of Evaluate, after the checks.
func (s *BlendSpace) blend(dst Pose, w, times []float32, rest Pose) bool {
	single, count := -1, 0
	for i, v := range w {
		if activeWeight(v) > 0 {
			single = i
			count++
		}
	}
	if count == 1 && w[single] >= 1-weightSlack {
		return s.clips[single].Sample(dst, rest, times[single])
	}
	div, rem := weightTotal(w)
	s.blendBegin(dst, rest)
	for i, v := range w {
		if v = activeWeight(v); v > 0 {
			s.clips[i].accumulate(dst, rest, times[i], float32(float64(v)/div), &s.clipRest[i])
		}
	}
	s.blendEnd(dst, rest, rem)
	return true
}

// blendBegin sets the bones no clip animates to the rest pose (one copy of
// each channel is cheaper than picking them out) and clears the live ones,
// the accumulator.
func (s *BlendSpace) blendBegin(dst, rest Pose) {
	n := s.bones
	copy(dst.Pos[:n], rest.Pos[:n])
	copy(dst.Rot[:n], rest.Rot[:n])
	copy(dst.Scale[:n], rest.Scale[:n])
	for _, b := range s.live.rot {
		dst.Rot[b] = mgl32.Quat{}
	}
	for _, b := range s.live.pos {
		dst.Pos[b] = mgl32.Vec3{}
	}
	for _, b := range s.live.scl {
		dst.Scale[b] = mgl32.Vec3{}
	}
}

// blendEnd gives the rest pose its remainder weight on the live bones and
// normalises their rotations, as the package's blendEnd does for all.
func (s *BlendSpace) blendEnd(dst, rest Pose, rem float32) {
	if rem > 0 {
		for _, b := range s.live.rot {
			addQuatTo(&dst.Rot[b], &rest.Rot[b], rem)
		}
		for _, b := range s.live.pos {
			addVecTo(&dst.Pos[b], &rest.Pos[b], rem)
		}
		for _, b := range s.live.scl {
			addVecTo(&dst.Scale[b], &rest.Scale[b], rem)
		}
	}
	for _, b := range s.live.rot {
		normalizeOrRest(&dst.Rot[b], &rest.Rot[b])
	}
}

// liveBones returns, per channel, the bones of [0, n) that some clip
// animates, in increasing order.
func liveBones(clips []*Clip, n int) boneSets {
	mark := func(tracked func(c *Clip) []int32) []int32 {
		has := make([]bool, n)
		for _, c := range clips {
			for _, b := range tracked(c) {
				has[b] = true
			}
		}
		var live []int32
		for b := range n {
			if has[b] {
				live = append(live, int32(b))
			}
		}
		return live
	}
	return boneSets{rot: mark((*Clip).rotTracked), pos: mark((*Clip).posTracked), scl: mark((*Clip).sclTracked)}
}

// intersect returns the bones of a (increasing, in [0, n)) also in b.
func intersect(a, b []int32, n int) []int32 {
	in := make([]bool, n)
	for _, x := range b {
		in[x] = true
	}
	var out []int32
	for _, x := range a {
		if in[x] {
			out = append(out, x)
		}
	}
	return out
}
