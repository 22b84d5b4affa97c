package main

import (
	"bufio"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
)

// gcPercent is the garbage collector's target when GOGC is not set. A run
// allocates many short-lived structures (Focus splits, update results)
// and keeps a live heap far smaller than the machine's memory; collecting
// at 4x the live heap instead of Go's 2x takes the collector's share of
// the CPU down, which matters most with several workers, where it
// competes with them (unbounded stack: 8.9 s -> 8.0 s on 2 workers, with
// 325 MB instead of 150 MB peak).
const gcPercent = 400

// tuneGC sets the collector's target, unless GOGC says otherwise, and a
// soft memory limit, unless GOMEMLIMIT does: the run's --max-memory when
// given, else half the machine's memory, so that a large run collects
// more often rather than grow 4x past its live heap.
func tuneGC(maxMemory byteSize) {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	if maxMemory > 0 {
		debug.SetMemoryLimit(int64(maxMemory))
	} else if total := physicalMemory(); total > 0 {
		debug.SetMemoryLimit(int64(total / 2))
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
