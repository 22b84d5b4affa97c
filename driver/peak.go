package driver

import (
	"runtime"
	"sync"
	"time"
)

// peakHeap samples the heap in use while a run goes on and keeps the
// largest value seen (the JSON summary's peak_heap_bytes).
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
