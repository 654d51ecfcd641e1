package main

import (
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Plot size: two panels, one above the other.
const (
	plotWidth  = 10 * vg.Inch
	plotHeight = 9 * vg.Inch
)

// layerColours tell up to 16 systems apart in the stacked plot (then they
// repeat).
var layerColours = []color.RGBA{
	{0x1f, 0x77, 0xb4, 0xff}, {0xff, 0x7f, 0x0e, 0xff}, {0x2c, 0xa0, 0x2c, 0xff}, {0xd6, 0x27, 0x28, 0xff},
	{0x94, 0x67, 0xbd, 0xff}, {0x8c, 0x56, 0x4b, 0xff}, {0xe3, 0x77, 0xc2, 0xff}, {0x7f, 0x7f, 0x7f, 0xff},
	{0xbc, 0xbd, 0x22, 0xff}, {0x17, 0xbe, 0xcf, 0xff}, {0xae, 0xc7, 0xe8, 0xff}, {0xff, 0xbb, 0x78, 0xff},
	{0x98, 0xdf, 0x8a, 0xff}, {0xff, 0x98, 0x96, 0xff}, {0xc5, 0xb0, 0xd5, 0xff}, {0xc4, 0x9c, 0x94, 0xff},
}

// plotFormat returns the image format path's extension names (png or
// svg).
func plotFormat(path string) (string, error) {
	switch ext := strings.ToLower(filepath.Ext(path)); ext {
	case ".png", ".svg":
		return ext[1:], nil
	default:
		return "", fmt.Errorf("-plot %q: the file must end in .png or .svg", path)
	}
}

// writePlot draws the run's timings to path (.png or .svg): above, every
// system's milliseconds per frame stacked (names[i] with series[i], one
// value per frame) under the whole frame's time (frameMs, as World.Step
// measured it); below, a histogram of the frame times with their median
// and 99th percentile. Systems that took no time in any frame (disabled)
// are left out of the stack and the legend.
func writePlot(path string, names []string, series [][]float64, frameMs []float64) error {
	format, err := plotFormat(path)
	if err != nil {
		return err
	}
	if len(names) != len(series) || len(frameMs) == 0 {
		return fmt.Errorf("plot: %d names for %d series, %d frames", len(names), len(series), len(frameMs))
	}
	for i, s := range series {
		if len(s) != len(frameMs) {
			return fmt.Errorf("plot: series %q has %d frames, the frame times %d", names[i], len(s), len(frameMs))
		}
	}
	top, err := stackedPlot(names, series, frameMs)
	if err != nil {
		return err
	}
	bottom, err := histogramPlot(frameMs)
	if err != nil {
		return err
	}
	var c vg.CanvasWriterTo
	if format == "svg" {
		c = vgsvg.New(plotWidth, plotHeight)
	} else {
		c = vgimg.PngCanvas{Canvas: vgimg.New(plotWidth, plotHeight)}
	}
	dc := draw.New(c)
	tiles := draw.Tiles{Rows: 2, Cols: 1, PadTop: vg.Points(4), PadBottom: vg.Points(4), PadY: vg.Points(12), PadLeft: vg.Points(4), PadRight: vg.Points(8)}
	panels := plot.Align([][]*plot.Plot{{top}, {bottom}}, tiles, dc)
	top.Draw(panels[0][0])
	bottom.Draw(panels[1][0])
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := c.WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// stackedPlot draws each system as the band between the running sum of
// the systems before it and that sum plus its own time, and the frame time
// as a line over them (the gap is the pipeline's own overhead).
func stackedPlot(names []string, series [][]float64, frameMs []float64) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Frame time per frame, stacked by system (%d frames)", len(frameMs))
	p.X.Label.Text = "frame"
	p.Y.Label.Text = "milliseconds"
	p.Y.Min = 0
	p.Legend.Top, p.Legend.Left = true, true
	p.Legend.TextStyle.Font.Size = vg.Points(8)
	p.Add(plotter.NewGrid())

	sum := make([]float64, len(frameMs))
	var layers []*plotter.Line
	var labels []string
	for i, s := range series {
		busy := false
		for f, ms := range s {
			sum[f] += ms
			busy = busy || ms > 0
		}
		if !busy {
			continue
		}
		xys := make(plotter.XYs, len(sum))
		for f := range sum {
			xys[f].X, xys[f].Y = float64(f), sum[f]
		}
		l, err := plotter.NewLine(xys)
		if err != nil {
			return nil, fmt.Errorf("plot: system %q: %w", names[i], err)
		}
		c := layerColours[len(layers)%len(layerColours)]
		l.FillColor, l.LineStyle.Width = c, 0
		layers = append(layers, l)
		labels = append(labels, names[i])
	}
	// The highest band first: each fill reaches down to zero, so every
	// lower band painted after it covers its share.
	for k := len(layers) - 1; k >= 0; k-- {
		p.Add(layers[k])
	}
	for k := range layers {
		p.Legend.Add(labels[k], layers[k])
	}
	xys := make(plotter.XYs, len(frameMs))
	for f, ms := range frameMs {
		xys[f].X, xys[f].Y = float64(f), ms
	}
	frame, err := plotter.NewLine(xys)
	if err != nil {
		return nil, fmt.Errorf("plot: frame times: %w", err)
	}
	frame.LineStyle.Width = vg.Points(1)
	frame.LineStyle.Color = color.Black
	p.Add(frame)
	p.Legend.Add("whole frame (Step)", frame)
	// Headroom above the highest frame for the legend, which would
	// otherwise hide the first frames' bands.
	top := 0.0
	for f := range frameMs {
		top = max(top, frameMs[f], sum[f])
	}
	if top > 0 {
		p.Y.Max = 1.8 * top
	}
	return p, nil
}

// histogramPlot bins the frame times, with vertical lines at the median
// and the 99th percentile.
func histogramPlot(frameMs []float64) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = "Frame times"
	p.X.Label.Text = "milliseconds per frame"
	p.Y.Label.Text = "frames"
	p.Legend.Top = true
	p.Legend.TextStyle.Font.Size = vg.Points(8)
	bins := min(60, max(5, len(frameMs)/10))
	h, err := plotter.NewHist(plotter.Values(frameMs), bins)
	if err != nil {
		return nil, fmt.Errorf("plot: histogram: %w", err)
	}
	h.FillColor = layerColours[0]
	p.Add(h)
	s := summarize(frameMs)
	top := 0.0
	for _, b := range h.Bins {
		top = max(top, b.Weight)
	}
	for _, q := range []struct {
		name string
		ms   float64
		c    color.RGBA
	}{{"median", s.P50, layerColours[2]}, {"p99", s.P99, layerColours[3]}} {
		l, err := plotter.NewLine(plotter.XYs{{X: q.ms, Y: 0}, {X: q.ms, Y: top}})
		if err != nil {
			return nil, fmt.Errorf("plot: %s: %w", q.name, err)
		}
		l.LineStyle.Width, l.LineStyle.Color = vg.Points(1.5), q.c
		l.LineStyle.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		p.Add(l)
		p.Legend.Add(fmt.Sprintf("%s %.3f ms", q.name, q.ms), l)
	}
	if top > 0 {
		p.Y.Max = 1.25 * top // the legend above the bars and the lines
	}
	return p, nil
}
