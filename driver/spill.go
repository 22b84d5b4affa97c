package driver

import (
	"runtime/metrics"
	"time"
)

// DefaultSpillPercent is the share of --max-memory at which a run with
// --spill-dir starts spilling: the live heap, as the last collection
// found it, past half the limit. The other half leaves the collector
// room (its target is twice the live heap at large sizes) and the run
// room to go on between spills.
const DefaultSpillPercent = 50

// spillThreshold is the live heap past which a run with a spill folder
// spills: SpillAt when given, else DefaultSpillPercent of MaxMemory, or
// of half the physical memory when there is no limit.
func (c *Config) spillThreshold() uint64 {
	switch {
	case c.SpillAt > 0:
		return uint64(c.SpillAt)
	case c.MaxMemory > 0:
		return uint64(c.MaxMemory) / 100 * DefaultSpillPercent
	}
	return physicalMemory() / 2 / 100 * DefaultSpillPercent
}

// spillTrigger tells the engine when to spill: the live heap past the
// threshold, and a collection since it last said so (a spill frees
// memory only once the collector has run, and the live heap is only
// measured then). The engine asks often; the heap is read at most every
// 20ms. Only the engine's goroutine asks.
type spillTrigger struct {
	threshold uint64
	last      time.Time
	cycles    uint64
	samples   []metrics.Sample
}

func newSpillTrigger(threshold uint64) *spillTrigger {
	return &spillTrigger{threshold: threshold, samples: []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}, {Name: "/gc/heap/live:bytes"}}}
}

// due reports whether the run should spill now.
func (t *spillTrigger) due() bool {
	now := time.Now()
	if now.Sub(t.last) < 20*time.Millisecond {
		return false
	}
	t.last = now
	metrics.Read(t.samples)
	cycles, live := t.samples[0].Value.Uint64(), t.samples[1].Value.Uint64()
	if cycles == t.cycles || live < t.threshold {
		return false
	}
	t.cycles = cycles
	return true
}
