package main

import (
	"encoding/json"
	"strings"
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

// --progress-every prints whole progress lines where a status line
// rewritten in place cannot go (a batch job's log), even with -q, and
// leaves stdout and the result alone.
func TestProgressEveryPrintsLinesToAFile(t *testing.T) {
	code, out, errOut := runCLI("run", sll("sort.tvp"), "-q", "--progress-every", "1ns", "--json", "-")
	if code != exitVerified {
		t.Fatalf("exit %d, stderr %s", code, errOut)
	}
	lines := 0
	for _, l := range strings.Split(errOut, "\n") {
		if strings.HasPrefix(l, "progress: ") && strings.Contains(l, " stored, ") && strings.Contains(l, " examined, ") {
			lines++
		}
	}
	if lines == 0 || strings.Contains(errOut, "\r") {
		t.Fatalf("want whole progress lines on stderr, got %q", errOut)
	}
	quiet := runSummary(t, exitVerified, "run", sll("sort.tvp"), "-q", "--json", "-")
	var withLines driver.Summary
	if err := json.Unmarshal([]byte(out), &withLines); err != nil {
		t.Fatalf("stdout is not the JSON summary: %v", err)
	}
	if withLines.StructuresStored != quiet.StructuresStored {
		t.Errorf("stored %d with progress lines, %d without", withLines.StructuresStored, quiet.StructuresStored)
	}
	if _, _, errOut := runCLI("run", sll("sort.tvp"), "-q"); strings.Contains(errOut, "progress: ") {
		t.Errorf("progress lines without --progress-every: %q", errOut)
	}
	if code, _, errOut := runCLI("run", sll("sort.tvp"), "--progress-every", "-1s"); code != exitInput || !strings.Contains(errOut, "--progress-every") {
		t.Errorf("negative interval: exit %d, stderr %q", code, errOut)
	}
}
