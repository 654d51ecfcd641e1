package anim

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/mathx"
)

// Player is one character's playback of a blend space: the blend
// parameter, one normalised time, a speed, and the weights of the last
// frame. It holds no pointers, so an ECS component can embed it; the blend
// space itself is shared and held elsewhere. The zero value plays nothing
// (Speed 0) at the start, with the parameter at the origin.
//
// Time is normalised, as in Unity's blend trees: one Phase in [0, 1] for all
// clips of the space, each clip sampled at Phase times its own duration.
// Clips of different lengths (a walk and a run) therefore stay in step: a
// foot lands at the same phase in each, whatever the blend. The phase moves
// by Speed*dt over the blend's duration (BlendSpace.Duration), so a 50/50
// blend of a 1 s walk and a 0.6 s run cycles in 0.8 s.
type Player struct {
	Param  mgl32.Vec2 // the blend parameter in use; follows Target
	Target mgl32.Vec2 // the blend parameter the game asks for
	// Smoothing is the rate (1/s) at which Param follows Target
	// (SmoothParam, exact in dt); 0 or less snaps Param to Target.
	Smoothing float32
	Phase     float32             // normalised time in [0, 1]
	Speed     float32             // playback rate: 1 as authored, 0 holds, negative plays backwards
	Direct    [MaxSamples]float32 // KindDirect: the weight of each sample (DirectWeights)
	Scratch   Scratch             // the weights of the last Play
}

// Play advances p by dt seconds and writes the blend space's pose into dst:
// Param moves toward Target, the weights follow from Param (or from Direct),
// the phase moves on by Speed*dt over the blend's duration with those
// weights, and the clips with a non-zero weight are sampled at the new phase
// and blended as in Evaluate. A negative or non-finite dt counts as 0. It
// returns false and writes nothing into dst if dst or rest holds fewer than
// BoneCount bones, p is nil or dst is rest. It never allocates.
func (s *BlendSpace) Play(dst Pose, p *Player, dt float32, rest Pose) bool {
	if p == nil || dst.Len() < s.bones || rest.Len() < s.bones || aliases(dst, rest) {
		return false
	}
	if !(dt > 0) || !mathx.IsFinite(dt) {
		dt = 0
	}
	p.Param = followParam(p.Param, p.Target, p.Smoothing, dt)
	n := len(s.clips)
	w := p.Scratch.weights[:n]
	if !s.Weights(w, Input{Param: p.Param, Direct: p.Direct[:]}) {
		return false // unreachable: w and Direct hold MaxSamples
	}
	p.Scratch.n = n
	p.Phase = AdvancePhase(p.Phase, p.Speed, dt, s.Duration(w), s.loop)
	var times [MaxSamples]float32
	s.Times(times[:n], p.Phase)
	return s.blend(dst, w, times[:n], rest)
}

// followParam moves the parameter toward target: smoothed for a positive
// rate, snapped otherwise (a non-finite target is ignored either way).
func followParam(current, target mgl32.Vec2, rate, dt float32) mgl32.Vec2 {
	if rate > 0 {
		return SmoothParam(current, target, rate, dt)
	}
	if !mathx.IsFinite(target[0]) || !mathx.IsFinite(target[1]) {
		return current
	}
	return target
}

// Duration returns the length in seconds of one cycle of the blend with
// weights w (one per sample): the clips' durations averaged with the active
// weights, as Unity's blend trees time their children. It is 0 when no
// weight is active.
func (s *BlendSpace) Duration(w []float32) float32 {
	var sum, total float64
	for i, c := range s.clips[:min(len(w), len(s.clips))] {
		if v := activeWeight(w[i]); v > 0 {
			sum += float64(v) * float64(c.duration)
			total += float64(v)
		}
	}
	if !(total > 0) {
		return 0
	}
	return float32(sum / total)
}

// Times writes into dst each sample's clip time for the normalised time
// phase: phase times the clip's duration. It returns false and writes
// nothing if dst is shorter than Len.
func (s *BlendSpace) Times(dst []float32, phase float32) bool {
	if len(dst) < len(s.clips) {
		return false
	}
	for i, c := range s.clips {
		dst[i] = phase * c.duration
	}
	return true
}

// AdvancePhase returns the normalised time phase moved on by speed*dt over
// a cycle of duration seconds: wrapped into [0, 1) when loop, clamped to
// [0, 1] otherwise. A zero, negative or non-finite duration, or a
// non-finite step, leaves the phase where it is (a blend of single-key
// clips has nothing to play); a non-finite phase restarts at 0.
func AdvancePhase(phase, speed, dt, duration float32, loop bool) float32 {
	f, _ := advancePhase(phase, speed, dt, duration, loop)
	return f
}

// advancePhase is AdvancePhase that also returns how many times the phase
// wrapped: positive past the end, negative past the start (playing
// backwards), always 0 without loop. Root motion needs it to carry the
// motion over a wrap.
func advancePhase(phase, speed, dt, duration float32, loop bool) (float32, float64) {
	if !mathx.IsFinite(phase) {
		phase = 0
	}
	p := float64(phase)
	if duration > 0 && mathx.IsFinite(duration) {
		// float64: speed*dt/duration cannot overflow or lose a small step.
		if step := float64(speed) * float64(dt) / float64(duration); finite64(step) {
			p += step
		}
	}
	if !loop {
		return mathx.Clamp(float32(p), 0, 1), 0
	}
	k := math.Floor(p)
	p -= k
	// Rounding may land on 1 (or a hair outside): that is the loop's start.
	if f := float32(p); f >= 0 && f < 1 {
		return f, k
	}
	return 0, k + 1
}
