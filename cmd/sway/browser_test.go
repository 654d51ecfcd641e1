package main

import (
	"bytes"
	"context"
	"image"
	"image/gif"
	"image/png"
	"os"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// chromium finds a Chromium for the browser test. Without one the test
// cannot run: it says so loudly and skips, except in CI (SWAY_CI set),
// where .ci/run installs Debian's chromium and a missing one fails.
func chromium(t *testing.T) string {
	t.Helper()
	if p, err := findChromium(); err == nil {
		return p
	}
	if os.Getenv("SWAY_CI") != "" {
		t.Fatal("no Chromium on this CI machine: .ci/run installs Debian's chromium")
	}
	t.Skip("SKIPPED: no Chromium on this machine (install Debian's chromium to run the viewer's browser test; CI does)")
	return ""
}

// sway view in a real browser: headless Chromium loads the page, which
// fetches the demo avatar, connects, receives frames (the page's status
// counts them) and draws the skinned mesh: the canvas holds pixels of the
// avatar's colours, not the background alone.
func TestViewInABrowser(t *testing.T) {
	exe := chromium(t)
	addr, _ := startViewer(t, "")
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe),
		chromedp.Flag("headless", true), chromedp.Flag("no-sandbox", true),
		chromedp.Flag("use-gl", "angle"), chromedp.Flag("use-angle", "swiftshader"), chromedp.Flag("enable-unsafe-swiftshader", true),
		chromedp.WindowSize(640, 480))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	// The first Run starts the browser; a timeout on it would stop the
	// browser, so the waits below get their own.
	if _, err := chromedp.Run(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatalf("the browser: %v", err)
	}
	// The same view without the mesh and with it: the difference is the
	// avatar drawn (the camera stays put; the grid and panels do not
	// change).
	empty := viewShot(t, ctx, "http://"+addr+"/?dist=4&follow=0&mesh=0")
	full := viewShot(t, ctx, "http://"+addr+"/?dist=4&follow=0&mesh=1")
	if n, all := differing(empty, full), empty.Bounds().Dx()*empty.Bounds().Dy(); n < all/100 {
		t.Fatalf("%d of %d pixels differ with the mesh drawn and without: the mesh was not drawn", n, all)
	}
}

// viewShot loads the viewer page at url, waits until it has received 30
// frames and returns a screenshot.
func viewShot(t *testing.T, ctx context.Context, url string) image.Image {
	t.Helper()
	tctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	if _, err := chromedp.Run(tctx, chromedp.Navigate(url)); err != nil {
		t.Fatalf("%s: %v", url, err)
	}
	if _, err := chromedp.Run(tctx, chromedp.Poll[bool](`(() => { const s = document.querySelector('#status');
		return !!s && (s.dataset.state === 'error' || (s.dataset.state === 'running' && Number(s.dataset.frames) >= 30)); })()`,
		chromedp.WithPollingInterval(100*time.Millisecond))); err != nil {
		t.Fatalf("%s: waiting for the page to run: %v", url, err)
	}
	state, err := chromedp.Run(tctx, chromedp.Evaluate[string](`document.querySelector('#status').dataset.state`))
	if err != nil {
		t.Fatal(err)
	}
	if state != "running" {
		errText, _ := chromedp.Run(tctx, chromedp.Evaluate[string](`(document.querySelector('#error') || {}).textContent || ''`))
		t.Fatalf("%s: the page is %q (error %q), want running", url, state, errText)
	}
	shot, err := chromedp.Run(tctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// differing counts the pixels whose colours differ clearly between a and
// b (the same size).
func differing(a, b image.Image) int {
	n := 0
	r := a.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			r1, g1, b1, _ := a.At(x, y).RGBA()
			r2, g2, b2, _ := b.At(x, y).RGBA()
			if d := absDiff(r1, r2) + absDiff(g1, g2) + absDiff(b1, b2); d > 3*0x1000 {
				n++
			}
		}
	}
	return n
}

func absDiff(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}

// sway record writes a GIF of the viewer: as many frames as asked, each
// of the size asked, showing more than the background.
func TestRecordWritesAGIF(t *testing.T) {
	chromium(t)
	out := t.TempDir() + "/view.gif"
	var stdout, stderr bytes.Buffer
	if code := run([]string{"record", "-out", out, "-frames", "3", "-every", "50ms", "-width", "160", "-height", "120"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g, err := gif.DecodeAll(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Image) != 3 {
		t.Fatalf("%d frames, want 3", len(g.Image))
	}
	for i, im := range g.Image {
		if b := im.Bounds(); b.Dx() != 160 || b.Dy() != 120 {
			t.Fatalf("frame %d is %v, want 160x120", i, b)
		}
	}
	if colours := len(usedColours(g.Image[2])); colours < 8 {
		t.Fatalf("the last frame uses %d colours: nothing was drawn", colours)
	}
	if code := run([]string{"record", "-frames", "0"}, &stdout, &stderr); code != 2 {
		t.Fatalf("-frames 0: exit %d, want 2", code)
	}
}

// usedColours returns the palette indices a frame uses.
func usedColours(p *image.Paletted) map[uint8]bool {
	used := map[uint8]bool{}
	for _, c := range p.Pix {
		used[c] = true
	}
	return used
}
