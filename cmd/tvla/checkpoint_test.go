package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// A run stopped by a limit with --checkpoint, then resumed with
// --resume, writes the table, TVS output and JSON summary (but for times
// and memory) of the run that never stopped; stderr says what was
// written and resumed. The DGLM queue's soft-invariant rounds stop in
// round 2 (round 1 stops at a message after 150 structures): the resumed
// run does round 1 again, then goes on in round 2 from the checkpoint.
func TestResumeGivesTheRunWithoutAStop(t *testing.T) {
	if testing.Short() {
		t.Skip("runs processes")
	}
	for _, c := range []struct {
		name  string
		args  []string
		limit string
		// stored is the pattern of the structures the checkpoint holds.
		stored string
	}{
		{"stack", []string{"../../programs/stack/stack.tvp", "-D", "THREADS=2"}, "300", "30[0-9]"},
		{"dglm", []string{"../../programs/queue/dglm.alg", "--collapse-threads", "--soft-from", "none"}, "400", "40[0-9]"},
	} {
		dir := t.TempDir()
		ckpt := filepath.Join(dir, "run.ckpt")
		run := func(name string, wantCode int, extra ...string) (stdout, stderr string, tvs []byte, summary map[string]any) {
			args := append(append(append([]string{"run"}, c.args...), "--workers", "2"), extra...)
			return comparableRun(t, dir, name, wantCode, args...)
		}
		wantOut, _, wantTVS, wantSummary := run("straight", exitVerified)
		_, errOut, _, _ := run("first", exitLimit, "--max-structures", c.limit, "--checkpoint", ckpt)
		if !regexp.MustCompile(`checkpoint: ` + regexp.QuoteMeta(ckpt) + ` written \(` + c.stored + ` structures, [0-9.]+ MB, [0-9.]+s\)`).MatchString(errOut) {
			t.Errorf("%s: stderr does not say the checkpoint was written: %q", c.name, errOut)
		}
		out, errOut, tvs, summary := run("resumed", exitVerified, "--resume", ckpt)
		if !regexp.MustCompile(`resuming from the checkpoint ` + regexp.QuoteMeta(ckpt) + ` \(` + c.stored + ` structures stored, [0-9]+ examined, `).MatchString(errOut) {
			t.Errorf("%s: stderr does not say the run resumed: %q", c.name, errOut)
		}
		// The times: the table's line, the soft-invariant rounds' column.
		times := regexp.MustCompile(`(?m)^time .*$`)
		roundTimes := regexp.MustCompile(`(?m)^(\s+[0-9]+\s+[0-9]+\s+[0-9]+\s+[0-9]+\s+[0-9]+\s+)[0-9.]+`)
		noTimes := func(s string) string { return roundTimes.ReplaceAllString(times.ReplaceAllString(s, ""), "$1") }
		if noTimes(out) != noTimes(wantOut) {
			t.Errorf("%s: table:\n%s\nwant:\n%s", c.name, out, wantOut)
		}
		if !bytes.Equal(tvs, wantTVS) {
			t.Errorf("%s: the TVS output differs from the run without a stop", c.name)
		}
		if !reflect.DeepEqual(summary, wantSummary) {
			t.Errorf("%s: summary %v\nwant %v", c.name, summary, wantSummary)
		}
	}
}

// comparableRun runs tvla with args and --tvs and --json files named
// name in dir, expecting the exit status wantCode, and returns its output,
// its TVS output and its JSON summary without what differs from run to
// run (times, memory).
func comparableRun(t *testing.T, dir, name string, wantCode int, args ...string) (stdout, stderr string, tvs []byte, summary map[string]any) {
	t.Helper()
	args = append(args, "--tvs", filepath.Join(dir, name+".tvs"), "--json", filepath.Join(dir, name+".json"))
	code, stdout, stderr := runChild(t, args...)
	if code != wantCode {
		t.Fatalf("%v: exit %d, want %d; stderr %q", args, code, wantCode, stderr)
	}
	tvs, err := os.ReadFile(filepath.Join(dir, name+".tvs"))
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, name+".json"))
	if err != nil || json.Unmarshal(data, &summary) != nil {
		t.Fatalf("summary: %v\n%s", err, data)
	}
	dropTimes(summary)
	return stdout, stderr, tvs, summary
}

// dropTimes removes what differs from run to run from a JSON summary:
// times, memory, at any depth.
func dropTimes(v any) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if strings.Contains(k, "time") || strings.Contains(k, "seconds") || strings.Contains(k, "peak") || strings.Contains(k, "memory") {
				delete(x, k)
				continue
			}
			dropTimes(e)
		}
	case []any:
		for _, e := range x {
			dropTimes(e)
		}
	}
}

// Bad checkpoint flags are bad input, reported before anything is read
// (a checkpoint of another program when the engine is built).
func TestBadCheckpointFlagsAreBadInput(t *testing.T) {
	dir := t.TempDir()
	ckpt := filepath.Join(dir, "two.ckpt")
	stack := "../../programs/stack/stack.tvp"
	if code, _, errOut := runCLI("run", stack, "-D", "THREADS=2", "--max-structures", "50", "--checkpoint", ckpt, "-q"); code != exitLimit {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	notCkpt := filepath.Join(dir, "x.tvs")
	if err := os.WriteFile(notCkpt, []byte("%n = {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--resume", filepath.Join(dir, "none")}, "tvla: --resume: checkpoint: open " + filepath.Join(dir, "none") + ": no such file or directory\n"},
		{[]string{"--resume", notCkpt}, "tvla: --resume: checkpoint " + notCkpt + ": not a checkpoint file of this version of tvla (\"tvla checkpoint 2\" expected)\n"},
		{[]string{"--checkpoint-every", "1m"}, "tvla: --checkpoint-every needs --checkpoint FILE\n"},
		{[]string{"--checkpoint", filepath.Join(dir, "none", "c")}, "tvla: --checkpoint " + filepath.Join(dir, "none", "c") + ": open " + filepath.Join(dir, "none") + "/c."},
		{[]string{"--checkpoint", ckpt, "--join", "conc"}, "tvla: --checkpoint and --resume are for abstract runs, not --join conc\n"},
		{[]string{"-D", "THREADS=1", "--resume", ckpt}, "tvla: checkpoint " + ckpt + ": the checkpoint was written by a run of another program or with other options\n"},
	} {
		args := append([]string{"run", stack, "-q"}, c.args...)
		code, out, errOut := runCLI(args...)
		if code != exitInput || !strings.HasPrefix(errOut, c.msg) || out != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q, want %q", c.args, code, out, errOut, c.msg)
		}
	}
}
