package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/color/palette"
	"image/draw"
	"image/gif"
	"image/png"
	"io"
	"net"
	"os"
	"os/exec"
	"time"

	"github.com/chromedp/chromedp"
)

// record serves the viewer, opens its page in a headless Chromium and
// assembles screenshots into a GIF: the README's picture of the demo
// avatar walking, its hair, skirt and tail swinging, is made with
//
//	go run ./cmd/sway record -out docs/viewer.gif
func record(stdout io.Writer, args []string) error {
	fl := flag.NewFlagSet("record", flag.ContinueOnError)
	fl.SetOutput(io.Discard)
	out := fl.String("out", "viewer.gif", "the GIF to write")
	frames := fl.Int("frames", 40, "frames of the GIF")
	every := fl.Duration("every", 100*time.Millisecond, "time between frames")
	width := fl.Int("width", 360, "width in pixels")
	height := fl.Int("height", 360, "height in pixels")
	query := fl.String("view", "dist=2.6&pitch=0.15&yaw=0.7&follow=1&ui=0", "the page's view parameters (camera, overlays; ui=0 hides the panel)")
	var file string
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		file, args = args[0], args[1:]
	}
	if err := fl.Parse(args); err != nil {
		return usageError{err}
	}
	if fl.NArg() > 0 {
		return usageError{fmt.Errorf("unexpected argument %q", fl.Arg(0))}
	}
	switch {
	case *frames < 1 || *frames > 1000:
		return usageError{fmt.Errorf("-frames %d: must be in [1, 1000]", *frames)}
	case *every < 10*time.Millisecond || *every > 10*time.Second:
		return usageError{fmt.Errorf("-every %v: must be in [10ms, 10s]", *every)}
	case *width < 64 || *width > 2048 || *height < 64 || *height > 2048:
		return usageError{fmt.Errorf("-width %d -height %d: each must be in [64, 2048]", *width, *height)}
	}
	exe, err := findChromium()
	if err != nil {
		return err
	}
	v, err := newViewer(file)
	if err != nil {
		return err
	}
	if v.loadErr != "" {
		return errors.New(v.loadErr)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	served := make(chan error, 1)
	go func() { served <- v.serve(ctx, ln) }()

	g, err := shoot(ctx, exe, "http://"+ln.Addr().String()+"/?"+*query, *frames, *every, *width, *height)
	stop()
	if serr := <-served; err == nil && serr != nil {
		err = serr
	}
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := gif.EncodeAll(&buf, g); err != nil {
		return err
	}
	if err := os.WriteFile(*out, buf.Bytes(), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "sway record: %d frames, %d bytes to %s\n", len(g.Image), buf.Len(), *out)
	return nil
}

// shoot opens url in a headless Chromium, waits for the page to run and
// takes frames screenshots every interval, each reduced to Plan 9's
// 256-colour palette.
func shoot(ctx context.Context, exe, url string, frames int, every time.Duration, width, height int) (*gif.GIF, error) {
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe),
		chromedp.Flag("headless", true), chromedp.Flag("no-sandbox", true),
		chromedp.Flag("use-gl", "angle"), chromedp.Flag("use-angle", "swiftshader"), chromedp.Flag("enable-unsafe-swiftshader", true),
		chromedp.WindowSize(width, height))
	actx, cancel := chromedp.NewExecAllocator(ctx, opts...)
	defer cancel()
	bctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	// The first Run starts the browser; the waits get their own timeout.
	if _, err := chromedp.Run(bctx, chromedp.EmulateViewport(int64(width), int64(height))); err != nil {
		return nil, fmt.Errorf("the browser: %w", err)
	}
	if _, err := chromedp.Run(bctx, chromedp.Navigate(url)); err != nil {
		return nil, fmt.Errorf("the browser: %w", err)
	}
	tctx, tcancel := context.WithTimeout(bctx, time.Minute+time.Duration(frames)*every)
	defer tcancel()
	if _, err := chromedp.Run(tctx, chromedp.Poll[bool](`(() => { const s = document.querySelector('#status');
		return !!s && (s.dataset.state === 'error' || (s.dataset.state === 'running' && Number(s.dataset.frames) >= 30)); })()`,
		chromedp.WithPollingInterval(100*time.Millisecond))); err != nil {
		return nil, fmt.Errorf("waiting for the page: %w", err)
	}
	if state, _ := chromedp.Run(tctx, chromedp.Evaluate[string](`document.querySelector('#status').dataset.state`)); state != "running" {
		msg, _ := chromedp.Run(tctx, chromedp.Evaluate[string](`(document.querySelector('#error') || {}).textContent || ''`))
		return nil, fmt.Errorf("the page is %q: %s", state, msg)
	}
	g := &gif.GIF{}
	delay := int(every / (10 * time.Millisecond)) // GIF delays are in 1/100 s
	next := time.Now()
	for range frames {
		time.Sleep(time.Until(next))
		next = next.Add(every)
		shot, err := chromedp.Run(tctx, chromedp.CaptureScreenshot())
		if err != nil {
			return nil, err
		}
		img, err := png.Decode(bytes.NewReader(shot))
		if err != nil {
			return nil, err
		}
		// Nearest colours, not dithered: flat areas stay flat, which
		// keeps the GIF small.
		p := image.NewPaletted(img.Bounds(), palette.Plan9)
		draw.Draw(p, img.Bounds(), img, image.Point{}, draw.Src)
		g.Image = append(g.Image, p)
		g.Delay = append(g.Delay, delay)
	}
	return g, nil
}

// findChromium returns the path of a Chromium (Debian's chromium, or
// Chrome) for the headless browser.
func findChromium() (string, error) {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", errors.New("no Chromium found (install Debian's chromium)")
}
