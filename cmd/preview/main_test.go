package main

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/gif"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/internal/render"
)

func small(t *testing.T, scene string) config {
	dir := t.TempDir()
	return config{scene: scene, seconds: 1, every: 3, size: 64, sheet: 4, seed: 1,
		gif: filepath.Join(dir, "p.gif"), png: filepath.Join(dir, "p.png")}
}

func nonBackground(img *image.Paletted) int {
	n := 0
	for _, p := range img.Pix {
		if p != render.Background {
			n++
		}
	}
	return n
}

// The GIF decodes with one frame per three steps of one second (20), each
// two 64-pixel views wide, shown for 5/100 s (three 60 Hz steps), each with
// something drawn on it; the PNG contact sheet decodes as 2×2 frames.
func TestGIFAndSheetDecode(t *testing.T) {
	cfg := small(t, "hang")
	if err := run(cfg, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(cfg.gif)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g, err := gif.DecodeAll(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Image) != 20 || g.Config.Width != 128 || g.Config.Height != 64 {
		t.Fatalf("GIF: %d frames of %dx%d, want 20 of 128x64", len(g.Image), g.Config.Width, g.Config.Height)
	}
	for i, img := range g.Image {
		// The seams and the time bar alone are 2*64 + 3*128*(i+1)/20 pixels;
		// the chain and colliders add more.
		if g.Delay[i] != 5 || nonBackground(img) < 2*64+3*128*(i+1)/20+20 {
			t.Fatalf("frame %d: delay %d, %d pixels drawn", i, g.Delay[i], nonBackground(img))
		}
	}
	p, err := os.ReadFile(cfg.png)
	if err != nil {
		t.Fatal(err)
	}
	sheet, err := png.Decode(bytes.NewReader(p))
	if err != nil {
		t.Fatal(err)
	}
	if sheet.Bounds() != image.Rect(0, 0, 256, 128) {
		t.Fatalf("sheet bounds %v, want 256x128", sheet.Bounds())
	}
}

// The same flags write the same bytes; a changed chain flag changes them.
func TestOutputIsDeterministic(t *testing.T) {
	read := func(cfg config) []byte {
		t.Helper()
		if err := run(cfg, &bytes.Buffer{}); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(cfg.gif)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	a, b := read(small(t, "run")), read(small(t, "run"))
	if !bytes.Equal(a, b) {
		t.Fatal("two runs with the same flags wrote different GIFs")
	}
	cfg := small(t, "run")
	stiff := 0.9
	cfg.chain.stiffness = &stiff
	if bytes.Equal(a, read(cfg)) {
		t.Fatal("-stiffness 0.9 changed nothing")
	}
}

// Every scene builds and steps two seconds; its bones stay finite and
// drawn, and its chain particles move away from where they started.
func TestEveryScene(t *testing.T) {
	for _, name := range sceneNames() {
		t.Run(name, func(t *testing.T) {
			d, err := scenes[name].build(config{seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			defer d.w.Close()
			c := newCapturer(d)
			if err := c.capture(d); err != nil {
				t.Fatal(err)
			}
			start := append([]mgl32.Vec3(nil), c.frame.Particles...)
			if len(start) == 0 || len(c.frame.Colliders) == 0 {
				t.Fatalf("%d particles, %d colliders", len(start), len(c.frame.Colliders))
			}
			for s := 1; s <= 120; s++ {
				if err := d.steer(float64(s) / stepRate); err != nil {
					t.Fatal(err)
				}
				if err := d.w.Step(1.0 / stepRate); err != nil {
					t.Fatal(err)
				}
			}
			if err := c.capture(d); err != nil {
				t.Fatal(err)
			}
			moved := 0
			for i, p := range c.frame.Particles {
				for _, v := range p {
					if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
						t.Fatalf("particle %d at %v", i, p)
					}
				}
				if p.Sub(start[i]).Len() > 0.01 {
					moved++
				}
			}
			if moved < len(start)/2 {
				t.Fatalf("only %d of %d particles moved", moved, len(start))
			}
			if len(c.frame.Bones) == 0 || len(c.frame.Chains) == 0 || d.lookAt != (len(c.frame.Targets) == 1) {
				t.Fatalf("frame: %d bones, %d chain links, %d targets", len(c.frame.Bones), len(c.frame.Chains), len(c.frame.Targets))
			}
		})
	}
}

// The default scene shows what it claims: while the character turns, the
// hair points behind where the head pointed, against the turn, by more
// than 15 degrees; running straight, it streams straight back (within 8).
// The hair's direction is the horizontal direction from the head to the
// mean of the eight hair tips, compared with the head's backward one.
func TestHairLagsWhenTurning(t *testing.T) {
	d, err := buildRun(config{seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer d.w.Close()
	head := d.skel.Index("head")
	var tips []int
	for k := 0; k < 8; k++ {
		tips = append(tips, d.skel.Index(fmt.Sprintf("hair%d.5", k)))
	}
	lag := func() float64 {
		h, _ := d.w.BoneWorld(d.e, head)
		fwd := h.Rot.Rotate(mgl32.Vec3{0, 0, 1})
		var c mgl32.Vec3
		for _, b := range tips {
			tip, _ := d.w.BoneWorld(d.e, b)
			c = c.Add(tip.Pos.Sub(h.Pos))
		}
		back := math.Atan2(float64(fwd[0]), float64(fwd[2])) + math.Pi
		return math.Remainder(math.Atan2(float64(c[0]), float64(c[2]))-back, 2*math.Pi) * 180 / math.Pi
	}
	// The turns of buildRun: start, duration, sign.
	turns := []struct{ start, dur, sign float64 }{{1.0, 0.3, 1}, {2.2, 0.35, -1}, {3.4, 0.25, 1}, {4.6, 0.4, -1}}
	worst := make([]float64, len(turns)) // most negative sign*lag within each turn
	straight := 0.0
	for s := 1; s <= 300; s++ {
		tt := float64(s) / stepRate
		if err := d.steer(tt); err != nil {
			t.Fatal(err)
		}
		if err := d.w.Step(1.0 / stepRate); err != nil {
			t.Fatal(err)
		}
		l := lag()
		if tt >= 0.3 && tt <= 1.0 {
			straight = math.Max(straight, math.Abs(l))
		}
		for k, tr := range turns {
			if tt >= tr.start && tt <= tr.start+tr.dur {
				worst[k] = math.Min(worst[k], tr.sign*l)
			}
		}
	}
	if straight > 8 {
		t.Errorf("running straight, the hair points %.1f degrees off straight back", straight)
	}
	for k, w := range worst {
		if w > -15 {
			t.Errorf("turn %d: the hair lags the head by at most %.1f degrees, want more than 15", k, -w)
		}
	}
}

func TestRunRejectsBadFlags(t *testing.T) {
	for _, cfg := range []config{
		{scene: "nope", seconds: 1, every: 1, size: 64},
		{scene: "run", seconds: 0, every: 1, size: 64},
		{scene: "run", seconds: math.NaN(), every: 1, size: 64},
		{scene: "run", seconds: 1, every: 0, size: 64},
		{scene: "run", seconds: 1, every: 1, size: 8},
		{scene: "run", seconds: 1, every: 1, size: 64, scale: -1},
		{scene: "run", seconds: 1, every: 1000, size: 64},
	} {
		if err := run(cfg, &bytes.Buffer{}); err == nil {
			t.Fatalf("%+v accepted", cfg)
		}
	}
	// A non-finite chain setting comes back as the settings' FieldError.
	nan := math.NaN()
	for _, name := range sceneNames() {
		cfg := small(t, name)
		cfg.chain.damping = &nan
		var fe *check.FieldError
		if err := run(cfg, &bytes.Buffer{}); !errors.As(err, &fe) || fe.Field != "Damping" {
			t.Fatalf("%s with damping NaN: err %v, want a FieldError on Damping", name, err)
		}
	}
}
