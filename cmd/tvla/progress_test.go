package main

import (
	"testing"
	"time"

	"github.com/tvla-go/tvla/driver"
)

// The progress line says what a user needs to tell growth from
// convergence: stored, examined, the worklist, the rate and the heap.
func TestProgressLine(t *testing.T) {
	st := driver.Stats{Stored: 1200, Examined: 5000, Worklist: 7, Elapsed: 2 * time.Second}
	want := "1200 stored, 5000 examined, worklist 7, 2500 structures/s, heap 48.0MiB, 2.0s"
	if got := progressLine(st, 48<<20); got != want {
		t.Errorf("progress line %q, want %q", got, want)
	}
	st.Spill.Structures = 300
	if got := progressLine(st, 48<<20); got != want+", spilled 300" {
		t.Errorf("progress line %q, want %q", got, want+", spilled 300")
	}
}
