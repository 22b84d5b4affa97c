package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tvla-go/tvla/driver"
)

// slowToLoad writes a program that takes a second or more to load (a CFG
// of 200,000 edges, 4 MB) into dir, with a .properties file whose key
// without effect makes tvla print a warning just before it loads the
// program: the moment to signal it.
func slowToLoad(t *testing.T, dir string) (prog, props string) {
	t.Helper()
	var b bytes.Buffer
	b.WriteString("%p x(v)\n%%\n%action skip() {\n  %t \"skip\"\n}\n%%\n")
	for i := range 200000 {
		fmt.Fprintf(&b, "L%d skip() L%d\n", i, i+1)
	}
	prog, props = filepath.Join(dir, "big.tvp"), filepath.Join(dir, "x.properties")
	if err := os.WriteFile(prog, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(props, []byte("tvla.dot.rotate = true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return prog, props
}

// runChild runs tvla (this test binary, as main) as a child process: a
// load that a limit abandons goes on in its process, not in the tests'.
func runChild(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "TVLA_TEST_MAIN=1")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatal(err)
	}
	return cmd.ProcessState.ExitCode(), out.String(), errb.String()
}

// checkStoppedWhileLoading checks what a run stopped while it loaded
// leaves in dir: a summary that says incomplete, why and while what,
// with nothing explored; an empty TVS file; no temporary file.
func checkStoppedWhileLoading(t *testing.T, dir, reason string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "s.json"))
	if err != nil {
		t.Fatal("no summary:", err)
	}
	var s driver.Summary
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatalf("summary: %v\n%s", err, data)
	}
	want := reason + " while loading the program and its inputs"
	if !s.Incomplete || s.Verified || s.StopReason != want || !s.NothingExplored || s.StructuresStored != 0 {
		t.Errorf("summary: incomplete %v, verified %v, reason %q (want %q), nothing explored %v, %d stored",
			s.Incomplete, s.Verified, s.StopReason, want, s.NothingExplored, s.StructuresStored)
	}
	if tvs, err := os.ReadFile(filepath.Join(dir, "out.tvs")); err != nil || len(tvs) != 0 {
		t.Errorf("TVS output %q, %v: want an empty file (no location explored)", tvs, err)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp") {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
}

// --timeout holds from the first byte read: a load longer than the limit
// ends at the limit with exit 3, the reason saying what was stopped, and
// the outputs of an empty run.
func TestTimeoutHoldsWhileLoading(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a process")
	}
	dir := t.TempDir()
	prog, _ := slowToLoad(t, dir)
	start := time.Now()
	code, out, errOut := runChild(t, "run", prog, "--timeout", "100ms", "--json", filepath.Join(dir, "s.json"), "--tvs", filepath.Join(dir, "out.tvs"))
	if code != exitLimit || !strings.Contains(errOut, "tvla: stopped early: the time limit (100ms) was reached while loading the program and its inputs") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if !strings.Contains(out, "explored: 0 structures at 0 of 0 locations") {
		t.Errorf("no note of what was explored:\n%s", out)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v to stop", d)
	}
	checkStoppedWhileLoading(t, dir, "the time limit (100ms) was reached")

	// tvla embed too: exit 3, nothing checked, its summary says why.
	embedJSON := filepath.Join(dir, "embed.json")
	code, out, errOut = runChild(t, "embed", prog, "--timeout", "100ms", "-q", "--json", embedJSON)
	if code != exitLimit || !strings.Contains(errOut, "stopped early: the time limit (100ms) was reached while loading the program") {
		t.Errorf("embed: exit %d, stderr %q\n%s", code, errOut, out)
	}
	var es driver.EmbedSummary
	if data, err := os.ReadFile(embedJSON); err != nil || json.Unmarshal(data, &es) != nil ||
		!es.Incomplete || es.Sound || !strings.HasSuffix(es.StopReason, "while loading the program and its inputs") {
		t.Errorf("embed summary %+v (%v)", es, err)
	}
}

// --max-memory holds while loading too.
func TestMaxMemoryHoldsWhileLoading(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a process")
	}
	dir := t.TempDir()
	prog, _ := slowToLoad(t, dir)
	code, _, errOut := runChild(t, "run", prog, "--max-memory", "24MiB", "--json", filepath.Join(dir, "s.json"), "--tvs", filepath.Join(dir, "out.tvs"))
	if code != exitLimit || !strings.Contains(errOut, "stopped early: the memory limit (24.0MiB) was reached") ||
		!strings.Contains(errOut, "while loading the program") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
}

// Ctrl-C (SIGINT) or SIGTERM while the program loads: exit 3, the outputs
// written (before, the signal killed the process: no outputs).
func TestInterruptHoldsWhileLoading(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a process")
	}
	dir := t.TempDir()
	prog, props := slowToLoad(t, dir)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			out := t.TempDir()
			cmd, stdout, rest := signalChild(t, "warning: properties ignored", 50*time.Millisecond, sig,
				"run", prog, "--props", props, "--json", filepath.Join(out, "s.json"), "--tvs", filepath.Join(out, "out.tvs"))
			if code := cmd.ProcessState.ExitCode(); code != exitLimit {
				t.Fatalf("exit %d (%v), stderr %q", code, cmd.ProcessState, rest)
			}
			if !strings.Contains(strings.Join(rest, "\n"), "stopped early: interrupted while loading the program") {
				t.Errorf("stderr %q\nstdout %s", rest, stdout.String())
			}
			checkStoppedWhileLoading(t, out, "interrupted")
		})
	}
}
