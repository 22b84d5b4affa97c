package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tvla-go/tvla/driver"
)

// TestMain lets the tests run the command as a separate process (to send
// it a real Ctrl-C): with TVLA_TEST_MAIN=1 the test binary is tvla.
func TestMain(m *testing.M) {
	if os.Getenv("TVLA_TEST_MAIN") == "1" {
		if log := os.Getenv("TVLA_TEST_ARGS_LOG"); log != "" {
			// A test that wants to see how it was run (tvla experiment's
			// children): one line per run.
			f, _ := os.OpenFile(log, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
			fmt.Fprintln(f, strings.Join(os.Args[1:], " "))
			f.Close()
		}
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// forever is a program whose concrete runs do not end: 2^n states with
// lists of n nodes.
var forever = ownTestdata("robust", "forever.tvp")

// checkStoppedOutputs checks what a run stopped by a limit leaves: the
// JSON summary says incomplete with the reason, the TVS file is complete
// (it parses, with every location), and no temporary file is left.
func checkStoppedOutputs(t *testing.T, dir, reason string) {
	t.Helper()
	var s driver.Summary
	data, err := os.ReadFile(filepath.Join(dir, "s.json"))
	if err != nil {
		t.Fatal("no summary:", err)
	}
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatalf("summary: %v\n%s", err, data)
	}
	if !s.Incomplete || s.Verified || !strings.Contains(s.StopReason, reason) || s.StructuresStored == 0 {
		t.Errorf("summary: incomplete %v, reason %q, %d stored", s.Incomplete, s.StopReason, s.StructuresStored)
	}
	// The TVS file is whole: one universe per structure the summary
	// counts, and the closing brace of the last one. (Parsing thousands
	// of structures would make the test slow.)
	tvs, err := os.ReadFile(filepath.Join(dir, "out.tvs"))
	if err != nil {
		t.Fatal("no TVS output:", err)
	}
	if n := strings.Count(string(tvs), "%n = {"); n != s.StructuresStored || !strings.HasSuffix(string(tvs), "}\n") {
		t.Errorf("TVS output: %d structures, the summary says %d; ends %q", n, s.StructuresStored, tvs[max(0, len(tvs)-20):])
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp") {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
}

// --timeout stops a run that would not end: exit 3, the reason, what was
// explored, and the outputs written.
func TestTimeoutStopsCleanly(t *testing.T) {
	dir := t.TempDir()
	start := time.Now()
	code, out, errOut := runCLI("run", forever, "--join", "conc", "--max-structures", "100000000", "--timeout", "300ms",
		"--json", filepath.Join(dir, "s.json"), "--tvs", filepath.Join(dir, "out.tvs"))
	if code != exitLimit || !strings.Contains(errOut, "stopped early: the time limit (300ms) was reached") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v to stop", d)
	}
	if !regexp.MustCompile(`explored: \d+ structures at 1 of 1 locations`).MatchString(out) {
		t.Errorf("no note of what was explored:\n%s", out)
	}
	checkStoppedOutputs(t, dir, "the time limit (300ms) was reached")
	// tvla embed too: exit 3, and its summary says why.
	embedJSON := filepath.Join(dir, "embed.json")
	code, out, errOut = runCLI("embed", forever, "--max-depth", "0", "--max-structures", "100000000", "--timeout", "200ms", "-q", "--json", embedJSON)
	if code != exitLimit || !strings.Contains(errOut, "the time limit (200ms) was reached") ||
		!strings.Contains(out, "stopped early: the time limit (200ms) was reached; no failure among the") {
		t.Errorf("embed: exit %d, stderr %q\n%s", code, errOut, out)
	}
	var es driver.EmbedSummary
	if data, err := os.ReadFile(embedJSON); err != nil || json.Unmarshal(data, &es) != nil ||
		!es.Incomplete || es.ConcreteComplete || es.StopReason != "the time limit (200ms) was reached" || es.ConcreteStructures == 0 {
		t.Errorf("embed summary %+v (%v)", es, err)
	}
}

// --max-memory stops a run whose live heap passes the limit, cleanly.
func TestMaxMemoryStopsCleanly(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := runCLI("run", forever, "--join", "conc", "--max-structures", "100000000", "--max-memory", "24MiB",
		"--json", filepath.Join(dir, "s.json"), "--tvs", filepath.Join(dir, "out.tvs"), "--timeout", "60s")
	if code != exitLimit || !strings.Contains(errOut, "stopped early: the memory limit (24.0MiB) was reached") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if !strings.Contains(out, "explored: ") {
		t.Errorf("no note of what was explored:\n%s", out)
	}
	checkStoppedOutputs(t, dir, "the memory limit (24.0MiB) was reached")
}

// Ctrl-C (SIGINT) or SIGTERM during a run: exit 3, "interrupted", the
// outputs written. The command runs as a separate process so that the
// signal is real.
func TestInterruptStopsCleanly(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a process")
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) { interruptRun(t, sig) })
	}
}

func interruptRun(t *testing.T, sig syscall.Signal) {
	dir := t.TempDir()
	// An older summary must be replaced whole, never left half written.
	os.WriteFile(filepath.Join(dir, "s.json"), []byte(`{"old": true}`), 0o644)
	cmd, stdout, rest := signalChild(t, "concrete inputs:", 300*time.Millisecond, sig,
		"run", forever, "--join", "conc", "--max-structures", "100000000", "--timeout", "60s",
		"--json", filepath.Join(dir, "s.json"), "--tvs", filepath.Join(dir, "out.tvs"))
	code := cmd.ProcessState.ExitCode()
	if code != exitLimit {
		t.Fatalf("exit %d, stderr %q", code, rest)
	}
	if !strings.Contains(strings.Join(rest, "\n"), "stopped early: interrupted") || !strings.Contains(stdout.String(), "explored: ") {
		t.Errorf("stderr %q\nstdout %s", rest, stdout.String())
	}
	checkStoppedOutputs(t, dir, "interrupted")
}

// The same inputs give byte-identical outputs: TVS, DOT, the table and
// the JSON summary (but for times and heap sizes), for abstract runs,
// concrete runs and embedding checks.
func TestOutputsAreReproducible(t *testing.T) {
	timing := regexp.MustCompile(`(?m)^time .*$|"time_seconds": [0-9.e+-]+|"peak_heap_bytes": \d+|in [0-9.]+s;`)
	runs := [][]string{
		{"run", sll("merge.tvp"), "--trace"},
		{"run", sll("insert.tvp"), "--join", "conc", "--copies", "2", "--trace"},
		{"run", forever, "--join", "conc", "--max-depth", "6"},
		{"embed", testdata("embed", "unsound_silent.tvp"), "--explain", "5"},
	}
	for _, args := range runs {
		var first []string
		for i := 0; i < 2; i++ {
			dir := t.TempDir()
			a := append(append([]string(nil), args...), "-q", "--json", filepath.Join(dir, "s.json"))
			if args[0] == "run" {
				a = append(a, "--tvs", filepath.Join(dir, "out.tvs"), "--dot", filepath.Join(dir, "out.dot"))
			}
			if i == 1 {
				a = append(a, "--workers", "3")
			}
			_, out, _ := runCLI(a...)
			got := []string{timing.ReplaceAllString(out, "")}
			for _, f := range []string{"s.json", "out.tvs", "out.dot"} {
				data, err := os.ReadFile(filepath.Join(dir, f))
				if err == nil {
					got = append(got, timing.ReplaceAllString(string(data), ""))
				}
			}
			if i == 0 {
				first = got
				continue
			}
			if len(got) != len(first) {
				t.Fatalf("%v: %d outputs, then %d", args, len(first), len(got))
			}
			for j := range got {
				if got[j] != first[j] {
					t.Errorf("%v: output %d differs between runs", args, j)
				}
			}
		}
	}
}

// signalChild runs tvla (this test binary, as main) with args as a child
// process, reads its stderr until a line starting with ready (not kept),
// waits pause, sends sig, and returns once the child has exited, with its
// stdout and the other lines of its stderr.
func signalChild(t *testing.T, ready string, pause time.Duration, sig os.Signal, args ...string) (*exec.Cmd, *strings.Builder, []string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "TVLA_TEST_MAIN=1")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout := &strings.Builder{}
	cmd.Stdout = stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stderr)
	var lines []string
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), ready) {
			break
		}
		lines = append(lines, sc.Text())
	}
	time.Sleep(pause)
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	cmd.Wait()
	return cmd, stdout, lines
}
