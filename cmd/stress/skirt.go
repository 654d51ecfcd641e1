package main

import (
	"fmt"

	arche "github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/internal/scene"
)

// skirtProbe measures the skirt of -rig skirt every frame, after the
// step and outside its timing, on a sample of the characters: every
// stride-th character from the first, at most -skirtsample of them. Each
// sampled character runs through the whole schedule (walk, run, kick,
// sit) every 16 s from its own offset in it, so a sample sees every
// motion; the measurement reads the pose alone (scene.SkirtProbe).
//
// The first skirtWarmup seconds are not measured: the characters are
// added in the rest pose, and their first frame puts them wherever their
// schedule starts (a leg already lifted to 90°, or seated), a jump no
// cloth follows.
type skirtProbe struct {
	sc      *scene.Scene
	probe   *scene.SkirtProbe
	ents    []arche.Entity
	index   []int // the sampled characters' indices in the scene
	weights []float32
	// The maxima over the run, in metres and as a ratio, overall and by
	// the motion dominating the character's schedule at the time.
	pen, stretch     float32
	penAt            skirtWorst
	penBy, stretchBy [scene.SkirtClipCount]float32
	measured         int
}

// skirtWorst says where the deepest penetration was.
type skirtWorst struct {
	Frame     int    `json:"frame"`
	Character int    `json:"character"`
	Motion    string `json:"motion"`
}

// skirtWarmup is the time before the skirt is measured, in seconds.
const skirtWarmup = 1.0

func newSkirtProbe(sc *scene.Scene, ents []arche.Entity, sample int) (*skirtProbe, error) {
	if sample < 1 {
		return nil, fmt.Errorf("-skirtsample %d: want >= 1", sample)
	}
	p, err := scene.NewSkirtProbe(sc.Skeleton)
	if err != nil {
		return nil, err
	}
	stride := (len(ents) + sample - 1) / sample
	sp := &skirtProbe{sc: sc, probe: p, weights: make([]float32, scene.SkirtClipCount)}
	for i := 0; i < len(ents); i += stride {
		sp.ents = append(sp.ents, ents[i])
		sp.index = append(sp.index, i)
	}
	return sp, nil
}

// measure reads the sampled characters' poses after frame f (time t).
func (sp *skirtProbe) measure(w *sway.World, f int, t float64) error {
	if t < skirtWarmup {
		return nil
	}
	for n, e := range sp.ents {
		pose, err := w.Pose(e)
		if err != nil {
			return err
		}
		m := sp.probe.Measure(pose)
		i := sp.index[n]
		motion := sp.sc.SkirtMotionAt(i, t)
		if m.Penetration > sp.pen {
			sp.pen, sp.penAt = m.Penetration, skirtWorst{Frame: f, Character: i, Motion: scene.SkirtClipNames[motion]}
		}
		sp.stretch = max(sp.stretch, m.Stretch)
		sp.penBy[motion] = max(sp.penBy[motion], m.Penetration)
		sp.stretchBy[motion] = max(sp.stretchBy[motion], m.Stretch)
	}
	sp.measured++
	return nil
}

// report adds the maxima to r.
func (sp *skirtProbe) report(r *report) {
	pen, stretch := float64(sp.pen)*1000, float64(sp.stretch)
	r.SkirtPenetrationMaxMm, r.SkirtNeighbourStretchMax = &pen, &stretch
	r.SkirtSampled, r.SkirtMeasuredFrames = len(sp.ents), sp.measured
	if sp.pen > 0 {
		r.SkirtPenetrationWorst = &sp.penAt
	}
	r.SkirtByMotion = map[string]skirtMotionRow{}
	for c, name := range scene.SkirtClipNames {
		r.SkirtByMotion[name] = skirtMotionRow{PenetrationMaxMm: float64(sp.penBy[c]) * 1000, NeighbourStretchMax: float64(sp.stretchBy[c])}
	}
}

// skirtMotionRow is the maxima while one motion dominated.
type skirtMotionRow struct {
	PenetrationMaxMm    float64 `json:"penetration_max_mm"`
	NeighbourStretchMax float64 `json:"neighbour_stretch_max"`
}
