package driver

import (
	"bufio"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"time"
)

// A run allocates many short-lived structures (Focus splits, update
// results) and, on most programs, keeps a live heap far smaller than the
// machine's memory. Collecting at 5x the live heap instead of Go's 2x
// takes the collector's share of the CPU down, which matters most with
// several workers, where it competes with them (unbounded stack on 2
// workers: 8.9 s -> 7.8 s). A large run would then hold 5x its live heap,
// so the target comes down as the live heap grows: 400% below 128 MiB,
// 200% below 512 MiB, Go's 100% beyond (four_trees, 52,624 structures:
// 470 MB peak at 100%, 950 MB at 400%).
var gcSteps = []struct {
	below   uint64
	percent int
}{{128 << 20, 400}, {512 << 20, 200}, {^uint64(0), 100}}

// gcPercentFor is the collector's target for a live heap.
func gcPercentFor(live uint64) int {
	for _, s := range gcSteps {
		if live < s.below {
			return s.percent
		}
	}
	return 100
}

// tuneGC adapts the collector's target to the live heap until quit is
// closed, unless GOGC is set; and sets a soft memory limit, unless
// GOMEMLIMIT is set: the run's --max-memory when given, else half the
// machine's memory.
func tuneGC(maxMemory ByteSize, quit <-chan struct{}) {
	if os.Getenv("GOMEMLIMIT") == "" {
		if maxMemory > 0 {
			debug.SetMemoryLimit(int64(maxMemory))
		} else if total := physicalMemory(); total > 0 {
			debug.SetMemoryLimit(int64(total / 2))
		}
	}
	if os.Getenv("GOGC") != "" {
		return
	}
	current := debug.SetGCPercent(gcSteps[0].percent)
	defer debug.SetGCPercent(current)
	current = gcSteps[0].percent
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	t := time.NewTicker(50 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-quit:
			return
		case <-t.C:
		}
		metrics.Read(sample)
		if p := gcPercentFor(sample[0].Value.Uint64()); p != current {
			debug.SetGCPercent(p)
			current = p
		}
	}
}

// physicalMemory reads MemTotal from /proc/meminfo (0 where there is
// none).
func physicalMemory() uint64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "MemTotal:" {
			kb, err := strconv.ParseUint(fields[1], 10, 64)
			if err != nil {
				return 0
			}
			return kb * 1024
		}
	}
	return 0
}
