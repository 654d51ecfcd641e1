package main

import (
	"fmt"
	"io"
	"runtime"
	"time"

	arche "github.com/mlange-42/arche/ecs"

	sway "github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/internal/scene"
	"github.com/sway-anim/sway/systems"
)

// simulate builds the scene, steps it and measures every frame.
func simulate(cfg config, out io.Writer) (*report, error) {
	setupStart := time.Now()
	sc, err := scene.New(scene.Config{Characters: cfg.characters, Seed: cfg.seed})
	if err != nil {
		return nil, err
	}
	w := sway.NewWorld(sway.Options{Workers: cfg.workers})
	defer w.Close()
	ents, err := sc.Populate(w)
	if err != nil {
		return nil, err
	}
	if err := sc.AddChains(w, ents, cfg.seed+1); err != nil {
		return nil, err
	}
	store := arche.GetResource[systems.ChainStore](w.ECS())
	setup := time.Since(setupStart)
	if !cfg.quiet {
		fmt.Fprintf(out, "set up %d characters of %d bones in %v; %d workers\n",
			cfg.characters, sc.Skeleton.NumBones(), setup.Round(time.Millisecond), w.Workers())
	}

	names := []string{"game.roots"}
	for _, s := range w.Pipeline().Stats(nil) {
		names = append(names, s.Name)
	}
	// Per-frame series, allocated up front so the loop allocates nothing.
	series := make([][]float64, len(names))
	for i := range series {
		series[i] = make([]float64, cfg.frames)
	}
	frameMs := make([]float64, cfg.frames)
	stats := w.Pipeline().Stats(nil)

	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	mallocs0, bytes0, peakHeap := ms.Mallocs, ms.TotalAlloc, ms.HeapAlloc
	prog := progress{out: out, quiet: cfg.quiet, start: time.Now(), total: cfg.frames}
	dt := float32(cfg.dt)
	var particleSteps int
	for f := 0; f < cfg.frames; f++ {
		t := float64(f+1) * cfg.dt
		start := time.Now()
		if err := sc.MoveRoots(w, ents, t); err != nil {
			return nil, err
		}
		moved := time.Now()
		if err := w.Step(dt); err != nil {
			return nil, fmt.Errorf("frame %d: %w", f, err)
		}
		frameMs[f] = float64(time.Since(moved).Nanoseconds()) / 1e6
		for k := range store.Chains {
			if n := int(store.Steps[k]); n > 0 {
				particleSteps += (store.Chains[k].N - 1) * n // the root follows the animation
			}
		}
		series[0][f] = float64(moved.Sub(start).Nanoseconds()) / 1e6
		stats = w.Pipeline().Stats(stats[:0])
		for i, s := range stats {
			series[i+1][f] = float64(s.Last.Nanoseconds()) / 1e6
		}
		if f%60 == 59 {
			runtime.ReadMemStats(&ms)
			peakHeap = max(peakHeap, ms.HeapAlloc)
		}
		prog.update(f + 1)
	}
	runtime.ReadMemStats(&ms)
	peakHeap = max(peakHeap, ms.HeapAlloc)

	rep := &report{
		Characters:       cfg.characters,
		Frames:           cfg.frames,
		Workers:          w.Workers(),
		GOMAXPROCS:       runtime.GOMAXPROCS(0),
		GoVersion:        runtime.Version(),
		BonesPerChar:     sc.Skeleton.NumBones(),
		ParticlesPerChar: scene.SecondaryBones,
		SetupMs:          float64(setup.Nanoseconds()) / 1e6,
		Frame:            summarize(frameMs),
		AllocsPerFrame:   float64(ms.Mallocs-mallocs0) / float64(cfg.frames),
		BytesPerFrame:    float64(ms.TotalAlloc-bytes0) / float64(cfg.frames),
		PeakHeapBytes:    peakHeap,
		Checksum:         fmt.Sprintf("%016x", w.Checksum()),
	}
	for i, name := range names {
		s := summarize(series[i])
		if name == "chain.step" && particleSteps > 0 {
			total := 0.0
			for _, ms := range series[i] {
				total += ms
			}
			rep.NsPerParticleStep = total * 1e6 / float64(particleSteps)
		}
		rep.Systems = append(rep.Systems, systemRow{
			Name: name, P50: s.P50, P99: s.P99, Mean: s.Mean,
			NsPerChar: s.Mean * 1e6 / float64(cfg.characters),
		})
	}
	return rep, nil
}
