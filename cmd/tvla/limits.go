package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"github.com/tvla-go/tvla/driver"
)

func addLimitFlags(f *pflag.FlagSet, c *driver.Config) {
	f.DurationVar(&c.Timeout, "timeout", 0, "stop (exit 3, outputs written) after this `DURATION` of analysis, e.g. 90s or 5m; 0 means no limit")
	c.MaxMemory = driver.DefaultMaxMemory()
	f.Var(&c.MaxMemory, "max-memory", "stop (exit 3, outputs written) once the live heap passes `SIZE`, e.g. 2GiB or 500MB (K, M, G are powers of 1024, KB, MB, GB of 1000); checked every 20ms, so a soft limit. "+
		defaultMemoryHelp+"; 0 means no limit")
}

// defaultMemoryHelp says how the default memory limit is computed.
var defaultMemoryHelp = fmt.Sprintf("The default is %d%% of the physical memory (MemTotal in /proc/meminfo; none where it cannot be read)", driver.DefaultMemoryPercent)

// startLimits is the context a run works under: it ends on Ctrl-C or
// SIGTERM (stop reason "interrupted"), at the time limit, or when the
// live heap passes the memory limit, with the limit as its cause. Once
// it ends, signals are no longer caught: a second Ctrl-C ends the
// process at once (outputs are written atomically, so no half file is
// left). stop ends the watchers.
func startLimits(timeout time.Duration, maxMemory driver.ByteSize) (context.Context, func()) {
	ctx, release := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	ctx, stopLimits := driver.WithLimits(ctx, timeout, maxMemory)
	stopAfter := context.AfterFunc(ctx, release)
	return ctx, func() {
		stopLimits()
		stopAfter()
		release()
	}
}
