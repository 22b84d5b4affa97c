package driver

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"time"
)

// ByteSize is a number of bytes, read with an optional unit; it is a
// command-line flag value (pflag.Value).
type ByteSize uint64

var byteUnits = []struct {
	suffix string
	factor uint64
}{
	{"KIB", 1 << 10}, {"MIB", 1 << 20}, {"GIB", 1 << 30}, {"TIB", 1 << 40},
	{"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12},
	{"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"T", 1 << 40},
	{"B", 1},
}

func (b *ByteSize) String() string {
	if *b == 0 {
		return "0"
	}
	return FormatBytes(uint64(*b))
}

// Type names the flag's kind in help texts.
func (b *ByteSize) Type() string { return "size" }

// Set reads a size such as 512MiB, 2G or 1500000.
func (b *ByteSize) Set(s string) error {
	t := strings.ToUpper(strings.TrimSpace(s))
	factor := uint64(1)
	for _, u := range byteUnits {
		if strings.HasSuffix(t, u.suffix) {
			t, factor = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.factor
			break
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || v < 0 {
		return fmt.Errorf("want a size such as 512MiB, 2G or 1500000, not %q", s)
	}
	*b = ByteSize(v * float64(factor))
	return nil
}

// ReadableBytes writes a size for a person to read: a binary unit and at
// most two decimals (FormatBytes is exact, for sizes that are read back).
func ReadableBytes(n uint64) string {
	if n < 1<<30 {
		return FormatBytes(n)
	}
	return strconv.FormatFloat(float64(n)/(1<<30), 'f', 2, 64) + "GiB"
}

// FormatBytes writes a size with a binary unit.
func FormatBytes(n uint64) string {
	switch {
	case n >= 1<<30:
		return strconv.FormatFloat(float64(n)/(1<<30), 'f', -1, 64) + "GiB"
	case n >= 1<<20:
		return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + "MiB"
	case n >= 1<<10:
		return strconv.FormatFloat(float64(n)/(1<<10), 'f', 1, 64) + "KiB"
	}
	return strconv.FormatUint(n, 10) + "B"
}

// WithLimits returns a context that ends, with the limit as its cause,
// once timeout has passed or the live heap passes maxMemory (0: no
// limit), and tunes the collector meanwhile (gc.go). stop ends the
// watchers and ends the context; one ended by a limit keeps its cause.
func WithLimits(parent context.Context, timeout time.Duration, maxMemory ByteSize) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	stopTimer := func() {}
	if timeout > 0 {
		ctx, stopTimer = context.WithTimeoutCause(ctx, timeout, fmt.Errorf("the time limit (%s) was reached", timeout))
	}
	quit := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tuneGC(maxMemory, quit)
	}()
	if maxMemory > 0 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			watchMemory(ctx, cancel, uint64(maxMemory), quit)
		}()
	}
	var once sync.Once
	return ctx, func() {
		once.Do(func() { close(quit) })
		wg.Wait()
		stopTimer()
		cancel(nil) // no-op when a limit ended ctx: its cause stays
	}
}

var heapSamples = []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/heap/live:bytes"}}

// watchMemory samples the heap every 20ms. When the heap's objects (live
// and not yet collected) pass the limit, it collects garbage and looks
// at the live heap: past the limit, the run is stopped.
func watchMemory(ctx context.Context, cancel context.CancelCauseFunc, limit uint64, quit <-chan struct{}) {
	samples := append([]metrics.Sample(nil), heapSamples...)
	t := time.NewTicker(20 * time.Millisecond)
	defer t.Stop()
	for {
		metrics.Read(samples)
		if samples[0].Value.Uint64() >= limit {
			runtime.GC()
			metrics.Read(samples)
			if live := samples[1].Value.Uint64(); live >= limit {
				cancel(fmt.Errorf("the memory limit (%s) was reached: %s live", FormatBytes(limit), ReadableBytes(live)))
				return
			}
		}
		select {
		case <-quit:
			return
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// stopped reports whether err is the engine's way of saying that ctx
// ended (engines return a result instead, but the concretizer returns
// ctx's error).
func stopped(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// DefaultMemoryPercent is the share of the machine's physical memory a
// run may hold as live heap when it is given no memory limit
// (DefaultMaxMemory): enough for any run the machine can finish, and
// short of the point where the machine starts to swap or the kernel
// kills processes (a relational stack run grows past 5.7 GB otherwise).
const DefaultMemoryPercent = 75

// DefaultMaxMemory is the memory limit of a run given none: 75% of the
// physical memory (MemTotal in /proc/meminfo), rounded down to a quarter
// of a GiB so that help texts show a short figure; 0 (no limit) where
// the physical memory cannot be read.
func DefaultMaxMemory() ByteSize {
	return defaultMaxMemory(physicalMemory())
}

func defaultMaxMemory(total uint64) ByteSize {
	limit := total * DefaultMemoryPercent / 100 // no overflow below 2^57 bytes
	if limit >= 1<<30 {
		limit &^= 1<<28 - 1
	}
	return ByteSize(limit)
}
