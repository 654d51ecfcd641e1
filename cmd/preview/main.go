// Command preview steps a small sway scene and draws it: orthographic
// front (X-Y) and side (Z-Y) views with the bones as lines, the dynamic
// chains' particles as dots, colliders as circles and capsule outlines and
// the look-at target as a cross, into an animated GIF and a PNG contact
// sheet of frames.
//
//	go run ./cmd/preview                          # the stress rig running and turning: hair lags
//	go run ./cmd/preview -scene hang -gif hang.gif
//	go run ./cmd/preview -scene tail -stiffness 0.02 -damping 0.05
//	go run ./cmd/preview -scene skirt -gif skirt.gif  # a ring skirt through high kicks
//	go run ./cmd/preview -list                    # the scenes
//
// The chain flags (-damping, -elasticity, -stiffness, -inert, -gravity)
// override the scene's own settings on every chain when given. Output
// depends only on the flags: the same flags write the same bytes.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

type config struct {
	scene   string
	seconds float64
	every   int     // capture one frame every this many 60 Hz steps
	size    int     // one view's panel, pixels
	scale   float64 // pixels per metre; 0 = the scene's
	gif     string
	png     string
	sheet   int // frames on the contact sheet
	seed    int64
	chain   chainFlags
}

// chainFlags are the chain settings given on the command line; nil keeps
// the scene's value.
type chainFlags struct {
	damping, elasticity, stiffness, inert, gravity *float64
}

func main() {
	var cfg config
	var list bool
	var damping, elasticity, stiffness, inert, gravity float64
	flag.StringVar(&cfg.scene, "scene", "run", "scene to draw: "+strings.Join(sceneNames(), ", "))
	flag.BoolVar(&list, "list", false, "list the scenes and exit")
	flag.Float64Var(&cfg.seconds, "seconds", 6, "simulated seconds (stepped at 60 Hz)")
	flag.IntVar(&cfg.every, "every", 3, "draw one frame every this many steps (3: 20 frames per second)")
	flag.IntVar(&cfg.size, "size", 320, "pixels per view (each frame is two views side by side)")
	flag.Float64Var(&cfg.scale, "scale", 0, "pixels per metre (0: the scene's)")
	flag.StringVar(&cfg.gif, "gif", "preview.gif", "animated GIF to write (\"\" for none)")
	flag.StringVar(&cfg.png, "png", "preview.png", "PNG contact sheet to write (\"\" for none)")
	flag.IntVar(&cfg.sheet, "sheet", 8, "frames on the contact sheet, evenly spaced in time")
	flag.Int64Var(&cfg.seed, "seed", 1, "seed of the stress rig's chain settings")
	flag.Float64Var(&damping, "damping", 0, "chain damping, 0..1 (default: the scene's)")
	flag.Float64Var(&elasticity, "elasticity", 0, "chain elasticity, 0..1 (default: the scene's)")
	flag.Float64Var(&stiffness, "stiffness", 0, "chain stiffness, 0..1 (default: the scene's)")
	flag.Float64Var(&inert, "inert", 0, "chain inertia against the character's movement, 0..1 (default: the scene's)")
	flag.Float64Var(&gravity, "gravity", 0, "chain gravity's Y component in m/s², e.g. -9.81 (default: the scene's)")
	flag.Parse()
	if list {
		for _, name := range sceneNames() {
			fmt.Printf("%-9s %s\n", name, scenes[name].about)
		}
		return
	}
	flag.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "damping":
			cfg.chain.damping = &damping
		case "elasticity":
			cfg.chain.elasticity = &elasticity
		case "stiffness":
			cfg.chain.stiffness = &stiffness
		case "inert":
			cfg.chain.inert = &inert
		case "gravity":
			cfg.chain.gravity = &gravity
		}
	})
	if err := run(cfg, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "preview:", err)
		os.Exit(1)
	}
}

func sceneNames() []string {
	names := make([]string, 0, len(scenes))
	for name := range scenes {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// MaxSeconds bounds a preview: every frame is kept in memory for the GIF.
const MaxSeconds = 60

func run(cfg config, out io.Writer) error {
	sc, ok := scenes[cfg.scene]
	if !ok {
		return fmt.Errorf("-scene %q: no such scene (have: %s)", cfg.scene, strings.Join(sceneNames(), ", "))
	}
	if !(cfg.seconds > 0 && cfg.seconds <= MaxSeconds) || cfg.every < 1 || cfg.size < 16 || cfg.size > 2048 ||
		!(cfg.scale >= 0 && cfg.scale < 1e5) || cfg.sheet < 0 {
		return fmt.Errorf("need 0 < -seconds <= %d, -every >= 1, 16 <= -size <= 2048, 0 <= -scale < 1e5, -sheet >= 0", MaxSeconds)
	}
	d, err := sc.build(cfg)
	if err != nil {
		return err
	}
	defer d.w.Close()
	frames, err := record(d, cfg)
	if err != nil {
		return err
	}
	if cfg.gif != "" {
		if err := writeGIF(cfg.gif, frames, cfg.every); err != nil {
			return err
		}
		fmt.Fprintf(out, "wrote %s: %d frames of %v\n", cfg.gif, len(frames), frames[0].Rect.Size())
	}
	if cfg.png != "" && cfg.sheet > 0 {
		if err := writeSheet(cfg.png, frames, cfg.sheet); err != nil {
			return err
		}
		fmt.Fprintf(out, "wrote %s: %d frames\n", cfg.png, min(cfg.sheet, len(frames)))
	}
	return nil
}
