package main

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A small run with -plot writes a PNG that decodes at the plot's size and
// is not blank; .svg writes an SVG document with the systems' legend; any
// other extension is refused (by the flag, before the run).
func TestPlotWritten(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "stress.png")
	cfg := config{characters: 16, frames: 20, dt: 1.0 / 60, workers: 1, seed: 3, quiet: true, plot: path}
	if err := run(cfg, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	// 10 x 9 inches at vgimg's 96 dots per inch.
	if s := img.Bounds().Size(); s.X != 960 || s.Y != 864 {
		t.Fatalf("plot is %v, want 960x864", s)
	}
	colours := map[uint32]bool{}
	for y := 0; y < img.Bounds().Dy(); y += 7 {
		for x := 0; x < img.Bounds().Dx(); x += 7 {
			r, g, b, _ := img.At(x, y).RGBA()
			colours[r>>8<<16|g>>8<<8|b>>8] = true
		}
	}
	if len(colours) < 5 {
		t.Fatalf("the plot has %d colours: blank?", len(colours))
	}

	svg := filepath.Join(dir, "stress.svg")
	cfg.plot = svg
	if err := run(cfg, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(svg); err != nil || !strings.Contains(string(b), "<svg") || !strings.Contains(string(b), "chain.step") {
		t.Fatalf("SVG: err %v, %d bytes without <svg or the chain.step legend", err, len(b))
	}
	if _, err := plotFormat("stress.jpg"); err == nil {
		t.Fatal(".jpg accepted")
	}
}

// writePlot refuses series that do not match the frames.
func TestPlotRejectsMismatchedSeries(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.png")
	if err := writePlot(path, []string{"a"}, [][]float64{{1, 2}}, []float64{1, 2, 3}); err == nil {
		t.Fatal("a 2-frame series with 3 frame times accepted")
	}
	if err := writePlot(path, []string{"a", "b"}, [][]float64{{1}}, []float64{1}); err == nil {
		t.Fatal("2 names for 1 series accepted")
	}
	if err := writePlot(path, nil, nil, nil); err == nil {
		t.Fatal("no frames accepted")
	}
	// One frame, one idle system: still a plot.
	if err := writePlot(path, []string{"idle"}, [][]float64{{0}}, []float64{0.5}); err != nil {
		t.Fatal(err)
	}
}
