package driver

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestByteSizes(t *testing.T) {
	for in, want := range map[string]uint64{"1500": 1500, "2K": 2048, "2KB": 2000, "1.5GiB": 3 << 29, "512mib": 512 << 20, "3G": 3 << 30, "7 MB": 7e6} {
		var b ByteSize
		if err := b.Set(in); err != nil || uint64(b) != want {
			t.Errorf("%q: %d, %v; want %d", in, b, err, want)
		}
	}
	for _, bad := range []string{"", "MiB", "-1", "ten"} {
		var b ByteSize
		if err := b.Set(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// A run under WithLimits ends at the time limit with the limit as its
// cause, which is the stop reason the run reports; stop keeps it.
func TestWithLimitsGivesTheCause(t *testing.T) {
	ctx, stop := WithLimits(context.Background(), 10*time.Millisecond, 0)
	<-ctx.Done()
	stop()
	if got := stopReason(ctx); got != "the time limit (10ms) was reached" {
		t.Errorf("stop reason %q", got)
	}
	ctx, stop = WithLimits(context.Background(), 0, 0)
	stop()
	if got := stopReason(ctx); !errors.Is(ctx.Err(), context.Canceled) || got != "interrupted" {
		t.Errorf("after stop: %v, %q", ctx.Err(), got)
	}
}

// The default memory limit is 75% of the physical memory, rounded down
// to a quarter GiB; none where the physical memory is unknown.
func TestDefaultMaxMemory(t *testing.T) {
	for total, want := range map[uint64]ByteSize{0: 0, 16 << 30: 12 << 30, 24684096 << 10: 17<<30 + 1<<29, 1 << 30: 805306368} {
		if got := defaultMaxMemory(total); got != want {
			t.Errorf("%d bytes of memory: limit %d (%s), want %d", total, got, FormatBytes(uint64(got)), want)
		}
	}
	if total := physicalMemory(); total > 0 && (DefaultMaxMemory() == 0 || uint64(DefaultMaxMemory()) > total) {
		t.Errorf("default %d of %d", DefaultMaxMemory(), total)
	}
}

func TestReadableBytes(t *testing.T) {
	for n, want := range map[uint64]string{1500: "1.5KiB", 3 << 29: "1.50GiB", 2104868966: "1.96GiB", 5 << 20: "5.0MiB"} {
		if got := ReadableBytes(n); got != want {
			t.Errorf("ReadableBytes(%d) = %q, want %q", n, got, want)
		}
	}
}

// The loader refuses a TVS structure whose tables pass the memory limit,
// or with none the machine's memory, naming which.
func TestLoadConfigBoundsAStructure(t *testing.T) {
	c := &Config{MaxMemory: 3 << 20}
	if cfg := c.LoadConfig(); cfg.MaxStructureBytes != 3<<20 || cfg.MaxStructureLimit != "--max-memory" {
		t.Errorf("--max-memory 3MiB: %d, %q", cfg.MaxStructureBytes, cfg.MaxStructureLimit)
	}
	c.MaxMemory = 0
	cfg := c.LoadConfig()
	if m := physicalMemory(); cfg.MaxStructureBytes != m || (m > 0) != (cfg.MaxStructureLimit == "the machine's memory") {
		t.Errorf("--max-memory 0: %d, %q; physical memory %d", cfg.MaxStructureBytes, cfg.MaxStructureLimit, m)
	}
}
