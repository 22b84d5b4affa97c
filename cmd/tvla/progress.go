package main

import (
	"fmt"
	"io"
	"os"
	"runtime/metrics"
	"strings"
	"time"

	"github.com/tvla-go/tvla/driver"
)

// progress shows how a run goes on stderr: a status line rewritten in
// place when stderr is a terminal and -q was not given, or, with
// --progress-every, whole lines at that interval wherever stderr goes (a
// batch job's log cannot take a rewritten line).
type progress struct {
	w       io.Writer
	enabled bool
	// every is --progress-every: print whole lines this often; 0 for the
	// terminal's status line.
	every time.Duration
	last  time.Time
	shown bool
}

func newProgress(w io.Writer, quiet bool) *progress {
	p := &progress{w: w}
	if f, ok := w.(*os.File); ok && !quiet {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			p.enabled = true
		}
	}
	return p
}

// newProgressLines prints a whole progress line every interval, the first
// one interval after the start.
func newProgressLines(w io.Writer, every time.Duration) *progress {
	return &progress{w: w, enabled: true, every: every, last: time.Now()}
}

// Update shows the statistics so far, at most five times a second on a
// terminal, once per interval as lines.
func (p *progress) Update(st driver.Stats) {
	if !p.enabled {
		return
	}
	if p.every > 0 {
		if time.Since(p.last) < p.every {
			return
		}
		p.last = time.Now()
		metrics.Read(heapSample)
		fmt.Fprintln(p.w, "progress: "+progressLine(st, heapSample[0].Value.Uint64()))
		return
	}
	if time.Since(p.last) < 200*time.Millisecond {
		return
	}
	p.last = time.Now()
	metrics.Read(heapSample)
	fmt.Fprint(p.w, "\r"+progressLine(st, heapSample[0].Value.Uint64())+" ")
	p.shown = true
}

// heapSample reads the heap's objects, live and not yet collected: what
// the process holds now, which is what a user watching for growth needs.
var heapSample = []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}

// progressLine is the status of a run so far: what is stored and examined,
// the rate, the heap and the worklist, so that a user can tell growth
// from convergence.
func progressLine(st driver.Stats, heap uint64) string {
	rate := 0.0
	if s := st.Elapsed.Seconds(); s > 0 {
		rate = float64(st.Examined) / s
	}
	line := fmt.Sprintf("%d stored, %d examined, worklist %d, %.0f structures/s, heap %s, %.1fs",
		st.Stored, st.Examined, st.Worklist, rate, driver.ReadableBytes(heap), st.Elapsed.Seconds())
	if st.Spill.Structures > 0 {
		line += fmt.Sprintf(", spilled %d", st.Spill.Structures)
	}
	return line
}

// Done clears the status line.
func (p *progress) Done() {
	if p.shown {
		fmt.Fprint(p.w, "\r\033[K")
	}
}

// renderBar shows how far rendering the pictures is, like progress does
// for the analysis: only on a terminal, only without -q.
type renderBar struct {
	p    *progress
	last time.Time
}

func newRenderBar(w io.Writer, quiet bool) *renderBar {
	return &renderBar{p: newProgress(w, quiet)}
}

func (b *renderBar) Update(done, total int) {
	if !b.p.enabled || total == 0 || (done < total && time.Since(b.last) < 100*time.Millisecond) {
		return
	}
	b.last = time.Now()
	const width = 30
	filled := width * done / total
	fmt.Fprintf(b.p.w, "\rrendering pictures [%s%s] %d/%d ", strings.Repeat("#", filled), strings.Repeat(".", width-filled), done, total)
	b.p.shown = true
}

func (b *renderBar) Done() { b.p.Done() }
