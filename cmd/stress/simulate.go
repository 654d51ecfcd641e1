package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/go-gl/mathgl/mgl32"

	arche "github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/internal/scene"
	"github.com/sway-anim/sway/internal/store"
)

// simulate builds the scene, steps it and measures every frame.
func simulate(cfg config, out io.Writer) (*report, error) {
	setupStart := time.Now()
	skirt := cfg.rig == scene.RigSkirt
	mode := scene.SkirtLinked
	if cfg.plainSkirt {
		mode = scene.SkirtPlain
	}
	sc, err := scene.New(scene.Config{Characters: cfg.characters, Seed: cfg.seed, Rig: cfg.rig, Skirt: mode})
	if err != nil {
		return nil, err
	}
	w, err := sway.NewWorld(sway.Options{Workers: cfg.workers, Characters: cfg.characters})
	if err != nil {
		return nil, err
	}
	defer w.Close()
	var ents []arche.Entity
	if skirt {
		ents, err = sc.PopulateSkirt(w)
	} else {
		ents, err = sc.Populate(w)
	}
	if err != nil {
		return nil, err
	}
	var tweak func(*sway.ChainSettings)
	if cfg.camera {
		// The camera stands at the grid's corner; chains beyond 40 m rest.
		if err := w.SetReference(mgl32.Vec3{-5, 1.7, -5}); err != nil {
			return nil, err
		}
		tweak = func(s *sway.ChainSettings) { s.DisableDistance = 40 }
	}
	var probe *skirtProbe
	if skirt {
		if cfg.camera {
			return nil, fmt.Errorf("-camera is for the standard rig")
		}
		space, err := sc.AddSkirtMotion(w)
		if err != nil {
			return nil, err
		}
		if err := sc.BuildSkirt(w, ents, cfg.seed+1, space); err != nil {
			return nil, err
		}
		if probe, err = newSkirtProbe(sc, ents, cfg.skirtSample); err != nil {
			return nil, err
		}
	} else {
		space, err := sc.AddLocomotion(w)
		if err != nil {
			return nil, err
		}
		// One character's features after the other: see scene.Build.
		if err := sc.Build(w, ents, scene.Features{
			Chains: cfg.chains, ChainSeed: cfg.seed + 1, ChainTweak: tweak,
			Earrings: true, Animate: true, Space: space,
			Procedural: true, ProceduralSeed: cfg.seed + 2,
		}); err != nil {
			return nil, err
		}
	}
	if err := enableSystems(w, cfg.systems); err != nil {
		return nil, err
	}
	if err := w.Trim(); err != nil { // release the pools' slack from growing during set-up
		return nil, err
	}
	store := arche.GetResource[store.ChainStore](w.ECS())
	setup := time.Since(setupStart)
	if !cfg.quiet {
		fmt.Fprintf(out, "set up %d characters of %d bones in %v; %d workers\n",
			cfg.characters, sc.Skeleton.NumBones(), setup.Round(time.Millisecond), w.Workers())
	}

	names := []string{"game"}
	disabled := map[string]bool{}
	for _, s := range w.Pipeline().Stats(nil) {
		names = append(names, s.Name)
		disabled[s.Name] = s.Disabled
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
	peakHeap := ms.HeapAlloc
	// Allocations are counted around Step alone (runtime/metrics reads
	// without stopping the world and without allocating), so the progress
	// bar and the harness are not charged to sway.
	allocs := []metrics.Sample{{Name: "/gc/heap/allocs:objects"}, {Name: "/gc/heap/allocs:bytes"}}
	// The first frame sizes the systems' per-frame buffers (the gathered
	// characters): its allocations are reported apart from the steady
	// state's.
	var allocObjs, allocBytes, firstObjs, firstBytes uint64
	prog := newProgress(out, cfg.quiet, cfg.frames)
	dt := float32(cfg.dt)
	var particleSteps int
	for f := 0; f < cfg.frames; f++ {
		t := float64(f+1) * cfg.dt
		start := time.Now()
		if err := steer(sc, w, ents, t, probe); err != nil {
			return nil, err
		}
		metrics.Read(allocs)
		o0, b0 := allocs[0].Value.Uint64(), allocs[1].Value.Uint64()
		moved := time.Now()
		if err := w.Step(dt); err != nil {
			return nil, fmt.Errorf("frame %d: %w", f, err)
		}
		frameMs[f] = float64(time.Since(moved).Nanoseconds()) / 1e6
		metrics.Read(allocs)
		if f == 0 {
			firstObjs, firstBytes = allocs[0].Value.Uint64()-o0, allocs[1].Value.Uint64()-b0
		} else {
			allocObjs += allocs[0].Value.Uint64() - o0
			allocBytes += allocs[1].Value.Uint64() - b0
		}
		if probe != nil {
			if err := probe.measure(w, f, t); err != nil {
				return nil, err
			}
		}
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
	prog.finish()
	runtime.ReadMemStats(&ms)
	peakHeap = max(peakHeap, ms.HeapAlloc)
	if cfg.memprofile != "" {
		// While the world is alive: the profile shows what it holds.
		if err := writeHeapProfile(cfg.memprofile); err != nil {
			return nil, err
		}
	}
	if cfg.plot != "" {
		// After the heap is measured, which the plotting must not inflate.
		// The systems only: "game" (series[0]) is not part of the frame time.
		if err := writePlot(cfg.plot, names[1:], series[1:], frameMs); err != nil {
			return nil, err
		}
	}

	particles := scene.SecondaryBones
	if skirt {
		particles += scene.SkirtParticles
	}
	rep := &report{
		Characters:       cfg.characters,
		Frames:           cfg.frames,
		Workers:          w.Workers(),
		GOMAXPROCS:       runtime.GOMAXPROCS(0),
		GoVersion:        runtime.Version(),
		BonesPerChar:     sc.Skeleton.NumBones(),
		ParticlesPerChar: particles,
		SetupMs:          float64(setup.Nanoseconds()) / 1e6,
		Frame:            summarize(frameMs),
		AllocsPerFrame:   float64(allocObjs) / float64(max(cfg.frames-1, 1)),
		BytesPerFrame:    float64(allocBytes) / float64(max(cfg.frames-1, 1)),
		FirstFrameAllocs: firstObjs,
		FirstFrameBytes:  firstBytes,
		PeakHeapBytes:    peakHeap,
		Checksum:         fmt.Sprintf("%016x", w.Checksum()),
		Chains:           cfg.chains,
		Rig:              cfg.rig,
	}
	if probe != nil {
		probe.report(rep)
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
		if name == "spring.vrm" && cfg.chains == "vrm" {
			total := 0.0
			for _, ms := range series[i] {
				total += ms
			}
			// Every VRM joint steps once a frame (no FixedStep springs).
			rep.NsPerJointStep = total * 1e6 / float64(cfg.frames*cfg.characters*particles)
		}
		rep.Systems = append(rep.Systems, systemRow{
			Name: name, P50: s.P50, P99: s.P99, Mean: s.Mean, Disabled: disabled[name],
			NsPerChar: s.Mean * 1e6 / float64(cfg.characters),
		})
	}
	return rep, nil
}

// steer is the game's part of frame t: roots, animation parameters and
// targets.
func steer(sc *scene.Scene, w *sway.World, ents []arche.Entity, t float64, probe *skirtProbe) error {
	if probe != nil {
		return sc.SteerSkirt(w, ents, t, probe.weights)
	}
	if err := sc.MoveRoots(w, ents, t); err != nil {
		return err
	}
	if err := sc.SteerLocomotion(w, ents, t); err != nil {
		return err
	}
	return sc.SteerProcedural(w, ents, t)
}

// enableSystems leaves on only the named systems (and forward kinematics,
// which every later system and the checksum need); "" or "all" keeps all.
func enableSystems(w *sway.World, list string) error {
	if list == "" || list == "all" {
		return nil
	}
	p := w.Pipeline()
	want := map[string]bool{}
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		if !p.SetEnabled(name, true) {
			return fmt.Errorf("-systems: no system %q (have: %s)", name, strings.Join(p.Names(), ", "))
		}
		want[name] = true
	}
	for _, name := range p.Names() {
		if !want[name] && !strings.HasPrefix(name, "fk.") {
			p.SetEnabled(name, false)
		}
	}
	return nil
}

func writeHeapProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	runtime.GC()
	return pprof.WriteHeapProfile(f)
}
