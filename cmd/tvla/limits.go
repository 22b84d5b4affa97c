package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/pflag"
)

// limitOptions are the flags that stop a run cleanly: the outputs asked
// for are still written, and the exit status is 3.
type limitOptions struct {
	timeout   time.Duration
	maxMemory byteSize
}

func addLimitFlags(f *pflag.FlagSet, o *limitOptions) {
	f.DurationVar(&o.timeout, "timeout", 0, "stop (exit 3, outputs written) after this `DURATION` of analysis, e.g. 90s or 5m; 0 means no limit")
	f.Var(&o.maxMemory, "max-memory", "stop (exit 3, outputs written) once the live heap passes `SIZE`, e.g. 2GiB or 500MB (K, M, G are powers of 1024, KB, MB, GB of 1000); checked every 20ms, so a soft limit")
}

func (o *limitOptions) validate() error {
	if o.timeout < 0 {
		return usageError("--timeout must not be negative")
	}
	return nil
}

// byteSize is a flag value: a number of bytes with an optional unit.
type byteSize uint64

var byteUnits = []struct {
	suffix string
	factor uint64
}{
	{"KIB", 1 << 10}, {"MIB", 1 << 20}, {"GIB", 1 << 30}, {"TIB", 1 << 40},
	{"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12},
	{"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"T", 1 << 40},
	{"B", 1},
}

func (b *byteSize) String() string {
	if *b == 0 {
		return "0"
	}
	return formatBytes(uint64(*b))
}

func (b *byteSize) Type() string { return "size" }

func (b *byteSize) Set(s string) error {
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
	*b = byteSize(v * float64(factor))
	return nil
}

// formatBytes writes a size with a binary unit.
func formatBytes(n uint64) string {
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

// runLimits is the context a run works under: it ends on Ctrl-C or
// SIGTERM (stop reason "interrupted"), at the time limit, or when the live
// heap passes the memory limit, with the limit as its cause.
type runLimits struct {
	ctx     context.Context
	cancel  context.CancelCauseFunc
	signals func()
	quit    chan struct{}
	wg      sync.WaitGroup
	once    sync.Once
}

func startLimits(o limitOptions) *runLimits {
	ctx, cancel := context.WithCancelCause(context.Background())
	l := &runLimits{cancel: cancel, quit: make(chan struct{})}
	ctx, l.signals = signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	if o.timeout > 0 {
		var stop context.CancelFunc
		ctx, stop = context.WithTimeoutCause(ctx, o.timeout, fmt.Errorf("the time limit (%s) was reached", o.timeout))
		prev := l.signals
		l.signals = func() { stop(); prev() }
	}
	l.ctx = ctx
	// Once the run is told to stop, a second Ctrl-C ends the process at
	// once (the outputs are written atomically, so no half file is left).
	l.wg.Add(1)
	go func() {
		defer l.wg.Done()
		select {
		case <-ctx.Done():
			l.release()
		case <-l.quit:
		}
	}()
	l.wg.Add(1)
	go func() {
		defer l.wg.Done()
		tuneGC(o.maxMemory, l.quit)
	}()
	if o.maxMemory > 0 {
		l.wg.Add(1)
		go func() {
			defer l.wg.Done()
			l.watchMemory(uint64(o.maxMemory))
		}()
	}
	return l
}

// release stops catching signals.
func (l *runLimits) release() { l.once.Do(func() { l.signals() }) }

// stop ends the watchers; the context stays as it is, so that its stop
// reason can still be read.
func (l *runLimits) stop() {
	select {
	case <-l.quit:
	default:
		close(l.quit)
	}
	l.wg.Wait()
	l.release()
}

var heapSamples = []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/heap/live:bytes"}}

// watchMemory samples the heap every 20ms. When the heap's objects (live
// and not yet collected) pass the limit, it collects garbage and looks
// at the live heap: past the limit, the run is stopped.
func (l *runLimits) watchMemory(limit uint64) {
	samples := append([]metrics.Sample(nil), heapSamples...)
	t := time.NewTicker(20 * time.Millisecond)
	defer t.Stop()
	for {
		metrics.Read(samples)
		if samples[0].Value.Uint64() >= limit {
			runtime.GC()
			metrics.Read(samples)
			if live := samples[1].Value.Uint64(); live >= limit {
				l.cancel(fmt.Errorf("the memory limit (%s) was reached: %s live", formatBytes(limit), formatBytes(live)))
				return
			}
		}
		select {
		case <-l.quit:
			return
		case <-l.ctx.Done():
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
