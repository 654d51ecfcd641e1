package main

import (
	"image"
	"image/gif"
	"image/png"
	"math"
	"os"

	"github.com/sway-anim/sway/internal/render"
)

// writeGIF writes frames as a looping GIF, each shown for the time it
// covers (every steps at stepRate, in GIF's hundredths of a second).
func writeGIF(path string, frames []*image.Paletted, every int) error {
	delay := max(1, int(math.Round(100*float64(every)/stepRate)))
	g := &gif.GIF{Image: frames, Delay: make([]int, len(frames))}
	for i := range g.Delay {
		g.Delay[i] = delay
	}
	return writeFile(path, func(f *os.File) error { return gif.EncodeAll(f, g) })
}

// writeSheet writes n frames evenly spaced in time (the first and the
// last among them) as a PNG, two frames a row.
func writeSheet(path string, frames []*image.Paletted, n int) error {
	return writeFile(path, func(f *os.File) error {
		enc := png.Encoder{CompressionLevel: png.BestCompression}
		return enc.Encode(f, sheet(frames, n))
	})
}

// sheetColumns is the number of frames in a contact sheet's row.
const sheetColumns = 2

func sheet(frames []*image.Paletted, n int) *image.Paletted {
	n = min(n, len(frames))
	fs := frames[0].Rect.Size()
	rows := (n + sheetColumns - 1) / sheetColumns
	out := image.NewPaletted(image.Rect(0, 0, fs.X*min(n, sheetColumns), fs.Y*rows), render.Palette)
	for j := 0; j < n; j++ {
		k := 0
		if n > 1 {
			k = j * (len(frames) - 1) / (n - 1)
		}
		src := frames[k]
		o := image.Pt(j%sheetColumns*fs.X, j/sheetColumns*fs.Y)
		for y := 0; y < fs.Y; y++ {
			copy(out.Pix[out.PixOffset(o.X, o.Y+y):], src.Pix[src.PixOffset(src.Rect.Min.X, src.Rect.Min.Y+y):][:fs.X])
		}
	}
	return out
}

func writeFile(path string, write func(*os.File) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
