package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progress shows the run's advance: a bar with frames per second and ETA
// on a terminal, a plain line every few seconds otherwise (logs, CI).
type progress struct {
	out   io.Writer
	quiet bool
	bar   *progressbar.ProgressBar
	start time.Time
	last  time.Time
	total int
}

func newProgress(out io.Writer, quiet bool, total int) *progress {
	p := &progress{out: out, quiet: quiet, start: time.Now(), total: total}
	if quiet {
		return p
	}
	if f, ok := out.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.bar = progressbar.NewOptions(total,
			progressbar.OptionSetWriter(os.Stderr),
			progressbar.OptionSetDescription("stepping"),
			progressbar.OptionShowCount(),
			progressbar.OptionShowIts(),
			progressbar.OptionSetItsString("frames"),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish(),
		)
	}
	return p
}

func (p *progress) update(frame int) {
	if p.quiet {
		return
	}
	if p.bar != nil {
		_ = p.bar.Set(frame)
		return
	}
	now := time.Now()
	if now.Sub(p.last) < 2*time.Second && frame != p.total {
		return
	}
	p.last = now
	el := now.Sub(p.start).Seconds()
	fps := float64(frame) / el
	fmt.Fprintf(p.out, "frame %d/%d  %.1f frames/s  eta %.0fs\n", frame, p.total, fps, float64(p.total-frame)/fps)
}

func (p *progress) finish() {
	if p.bar != nil {
		_ = p.bar.Finish()
	}
}
