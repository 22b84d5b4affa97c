package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"
	"time"

	"github.com/tvla-go/tvla/engine"
)

// progress shows a one-line status on stderr while a run goes on, but
// only when stderr is a terminal and -q was not given.
type progress struct {
	w       io.Writer
	enabled bool
	last    time.Time
	shown   bool
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

func (p *progress) update(st engine.Stats) {
	if !p.enabled || time.Since(p.last) < 200*time.Millisecond {
		return
	}
	p.last = time.Now()
	rate := 0.0
	if s := st.Elapsed.Seconds(); s > 0 {
		rate = float64(st.Examined) / s
	}
	fmt.Fprintf(p.w, "\r%d stored, %d examined, worklist %d, %.0f structures/s, %.1fs ", st.Stored, st.Examined, st.Worklist, rate, st.Elapsed.Seconds())
	p.shown = true
}

func (p *progress) done() {
	if p.shown {
		fmt.Fprint(p.w, "\r\033[K")
	}
}

// peakHeap samples the heap in use while a run goes on and keeps the
// largest value seen.
type peakHeap struct {
	mu   sync.Mutex
	peak uint64
	quit chan struct{}
	wg   sync.WaitGroup
}

func newPeakHeap() *peakHeap {
	h := &peakHeap{quit: make(chan struct{})}
	h.sample()
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-h.quit:
				return
			case <-t.C:
				h.sample()
			}
		}
	}()
	return h
}

func (h *peakHeap) sample() {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	h.mu.Lock()
	h.peak = max(h.peak, m.HeapInuse)
	h.mu.Unlock()
}

func (h *peakHeap) stop() uint64 {
	close(h.quit)
	h.wg.Wait()
	h.sample()
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.peak
}
