// Command stress is sway's main job: it builds the standard stress rig
// (internal/scene) for many characters, steps every system for a number of
// frames, and reports where the time went.
//
//	go run ./cmd/stress                      # 10,000 characters, 600 frames
//	go run ./cmd/stress -characters 1000 -frames 120 -workers 1
//	go run ./cmd/stress -chains vrm          # the same joints as VRM spring bones
//	go run ./cmd/stress -rig skirt -characters 1000 -json skirt.json  # plus a ring skirt; reports its penetration and stretch
//	go run ./cmd/stress -cpuprofile cpu.out  # then: go tool pprof -tagfocus system=chain.step cpu.out
//	go run ./cmd/stress -systems chain.prepare,chain.step,chain.apply -pprof localhost:6060
//
// The report has one row per system (p50 and p99 milliseconds per frame,
// share of the frame, nanoseconds per character), the whole frame's
// percentiles, allocations per frame, the peak heap and a checksum of the
// final poses that is identical for every -workers value.
package main

import (
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	_ "net/http/pprof"
	"os"
	"runtime/pprof"
	"runtime/trace"

	"github.com/sway-anim/sway/internal/scene"
)

type config struct {
	characters int
	frames     int
	dt         float64
	workers    int
	seed       int64
	cpuprofile string
	memprofile string
	trace      string
	json       string
	quiet      bool
	systems    string // comma list of systems to run; "" or "all" for all
	pprofAddr  string
	camera     bool
	chains     string // dynamic or vrm: what simulates the 62 secondary joints
	// rig is standard or skirt: the standard rig plus a ring skirt of 12
	// strands on the hips, leg capsules and clips walking, running,
	// kicking and sitting (scene.RigSkirt); skirtSample is how many of
	// its characters the skirt metrics read every frame.
	rig         string
	skirtSample int
	plainSkirt  bool   // -rig skirt: independent strands, particles only (contrast)
	plot        string // .png or .svg: frame and system times per frame, and a histogram
}

func main() {
	var cfg config
	flag.IntVar(&cfg.characters, "characters", 10000, "number of characters")
	flag.IntVar(&cfg.frames, "frames", 600, "frames to step")
	flag.Float64Var(&cfg.dt, "dt", 1.0/60, "seconds per frame")
	flag.IntVar(&cfg.workers, "workers", 0, "workers (0 = GOMAXPROCS)")
	flag.Int64Var(&cfg.seed, "seed", 1, "scene seed")
	flag.StringVar(&cfg.cpuprofile, "cpuprofile", "", "write a CPU profile (pprof labels: system=<name>)")
	flag.StringVar(&cfg.memprofile, "memprofile", "", "write a heap profile at the end")
	flag.StringVar(&cfg.trace, "trace", "", "write an execution trace")
	flag.StringVar(&cfg.json, "json", "", "write the report as JSON to this file")
	flag.BoolVar(&cfg.quiet, "quiet", false, "print only the report")
	flag.StringVar(&cfg.systems, "systems", "all", "comma list of systems to run (forward kinematics always runs)")
	flag.StringVar(&cfg.pprofAddr, "pprof", "", "serve net/http/pprof on this address while running, e.g. localhost:6060")
	flag.BoolVar(&cfg.camera, "camera", false, "a realistic camera: chains farther than 40 m from a camera at the grid's corner are disabled")
	flag.StringVar(&cfg.chains, "chains", "dynamic", "the 62 secondary joints as dynamic chains (dynamic) or VRM spring bones (vrm)")
	flag.StringVar(&cfg.rig, "rig", "standard", "standard, or skirt: the standard rig plus a 12-strand ring skirt, leg capsules and clips walking, running, kicking and sitting; the report adds the skirt's penetration and stretch")
	flag.IntVar(&cfg.skirtSample, "skirtsample", 64, "-rig skirt: characters whose skirt is measured every frame (evenly spread)")
	flag.BoolVar(&cfg.plainSkirt, "plainskirt", false, "-rig skirt: 12 independent strands colliding as particles (for contrast), not the linked skirt with segment collision")
	flag.Func("plot", "write frame and per-system times per frame (stacked) and a frame-time histogram to this .png or .svg", func(path string) error {
		_, err := plotFormat(path)
		cfg.plot = path
		return err
	})
	flag.Parse()
	if err := run(cfg, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "stress:", err)
		os.Exit(1)
	}
}

func run(cfg config, out io.Writer) error {
	if cfg.characters < 1 || cfg.frames < 1 || !(cfg.dt > 0) || cfg.workers < 0 {
		return fmt.Errorf("need -characters >= 1, -frames >= 1, -dt > 0, -workers >= 0")
	}
	switch cfg.chains {
	case "":
		cfg.chains = "dynamic"
	case "dynamic", "vrm":
	default:
		return fmt.Errorf("-chains %q: want dynamic or vrm", cfg.chains)
	}
	switch cfg.rig {
	case "":
		cfg.rig = scene.RigStandard
	case scene.RigStandard:
	case scene.RigSkirt:
		if cfg.chains != "dynamic" {
			return fmt.Errorf("-rig skirt: the skirt is dynamic chains (-chains dynamic)")
		}
		if cfg.skirtSample == 0 {
			cfg.skirtSample = 64
		}
	default:
		return fmt.Errorf("-rig %q: want standard or skirt", cfg.rig)
	}
	if cfg.pprofAddr != "" {
		ln, err := net.Listen("tcp", cfg.pprofAddr)
		if err != nil {
			return fmt.Errorf("-pprof: %w", err)
		}
		defer ln.Close()
		go func() { _ = http.Serve(ln, nil) }() // net/http/pprof registers on the default mux
		if !cfg.quiet {
			fmt.Fprintf(out, "pprof on http://%s/debug/pprof/\n", ln.Addr())
		}
	}
	if cfg.cpuprofile != "" {
		f, err := os.Create(cfg.cpuprofile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	if cfg.trace != "" {
		f, err := os.Create(cfg.trace)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := trace.Start(f); err != nil {
			return err
		}
		defer trace.Stop()
	}
	rep, err := simulate(cfg, out)
	if err != nil {
		return err
	}
	rep.print(out)
	if cfg.json != "" {
		if err := rep.writeJSON(cfg.json); err != nil {
			return err
		}
	}
	return nil
}
