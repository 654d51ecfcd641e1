package main

import (
	"fmt"
	"image"
	"math"

	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"

	"github.com/sway-anim/sway/components"
	"github.com/sway-anim/sway/internal/render"
	"github.com/sway-anim/sway/internal/store"
)

// stepRate is the simulation's fixed step, per second.
const stepRate = 60

// record steps the demo for cfg.seconds and draws every cfg.every-th step.
func record(d *demo, cfg config) ([]*image.Paletted, error) {
	r, err := render.New(cfg.size)
	if err != nil {
		return nil, err
	}
	scale := d.scale
	if cfg.scale > 0 {
		scale = float32(cfg.scale)
	}
	c := newCapturer(d)
	steps := int(math.Round(cfg.seconds * stepRate))
	var frames []*image.Paletted
	for s := 1; s <= steps; s++ {
		t := float64(s) / stepRate
		if err := d.steer(t); err != nil {
			return nil, err
		}
		if err := d.w.Step(1.0 / stepRate); err != nil {
			return nil, fmt.Errorf("step %d: %w", s, err)
		}
		if s%cfg.every != 0 {
			continue
		}
		if err := c.capture(d); err != nil {
			return nil, err
		}
		img := r.NewImage()
		if err := r.Draw(img, render.Projection{Centre: d.centre(), Scale: scale}, &c.frame); err != nil {
			return nil, err
		}
		timeBar(img, float64(s)/float64(steps))
		frames = append(frames, img)
	}
	if len(frames) == 0 {
		return nil, fmt.Errorf("-seconds %v and -every %d draw no frame", cfg.seconds, cfg.every)
	}
	return frames, nil
}

// timeBar marks how far through the run a frame is: a bar along the
// image's top edge, so that a contact sheet reads in order.
func timeBar(img *image.Paletted, done float64) {
	b := img.Rect
	n := int(done * float64(b.Dx()))
	for y := b.Min.Y; y < b.Min.Y+3; y++ {
		for x := b.Min.X; x < b.Min.X+n; x++ {
			img.SetColorIndex(x, y, render.Grid)
		}
	}
}

// capturer reads a demo's character into a render.Frame: its pose, its
// chains' particles and colliders, its look-at target.
type capturer struct {
	frame     render.Frame
	chainBone []bool // bones moved by a chain (not the chain roots)
	store     *store.ChainStore
	chains    generic.Map[components.Chains]
	head      int
}

func newCapturer(d *demo) *capturer {
	c := &capturer{
		store:     ecs.GetResource[store.ChainStore](d.w.ECS()),
		chains:    generic.NewMap[components.Chains](d.w.ECS()),
		chainBone: make([]bool, d.skel.NumBones()),
		head:      d.skel.Index("head"),
	}
	if h := c.handle(d.e); h != nil {
		for k := h.First; k < h.First+h.Count; k++ {
			p := c.store.View(int(k))
			for i := range p.Bone {
				if b := p.Bone[i]; b >= 0 && p.Parent[i] >= 0 && int(b) < len(c.chainBone) {
					c.chainBone[b] = true
				}
			}
		}
	}
	return c
}

func (c *capturer) handle(e ecs.Entity) *components.Chains {
	if !c.chains.Has(e) {
		return nil
	}
	return c.chains.Get(e)
}

func (c *capturer) capture(d *demo) error {
	f := &c.frame
	f.Reset()
	pose, err := d.w.Pose(d.e)
	if err != nil {
		return err
	}
	f.AddSkeleton(pose.WorldPos, d.skel.Parents(), func(b int) bool { return c.chainBone[b] })
	if h := c.handle(d.e); h != nil {
		for k := h.First; k < h.First+h.Count; k++ {
			p := c.store.View(int(k))
			for i := range p.Pos {
				f.Particles = append(f.Particles, p.Pos[i])
				// A virtual end particle has no bone: its link is drawn here.
				if parent := p.Parent[i]; p.Bone[i] < 0 && parent >= 0 {
					f.Chains = append(f.Chains, render.Segment{A: p.Pos[parent], B: p.Pos[i]})
				}
			}
		}
		f.Colliders = append(f.Colliders, c.store.Shapes[h.ColliderFirst:h.ColliderFirst+h.ColliderCount]...)
	}
	if d.lookAt {
		target, _, _, err := d.w.LookAt().Of(d.e).Target()
		if err != nil {
			return err
		}
		f.Targets = append(f.Targets, target)
		if c.head >= 0 {
			head, err := d.w.BoneWorld(d.e, c.head)
			if err != nil {
				return err
			}
			f.Gaze = append(f.Gaze, render.Segment{A: head.Pos, B: target})
		}
	}
	f.Ground = d.ground
	return nil
}
