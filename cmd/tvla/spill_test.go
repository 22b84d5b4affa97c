package main

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"testing"
)

// A run told to spill at once (--spill-at 1: at every collection) writes
// the in-memory run's table, TVS output and JSON summary (but for times
// and memory), says how much it spilled, and leaves its spill folder
// empty.
func TestSpillDirGivesTheInMemoryRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs processes")
	}
	dir, spill := t.TempDir(), t.TempDir()
	run := func(name string, extra ...string) (stdout, stderr string, tvs []byte, summary map[string]any) {
		args := append([]string{"run", "../../programs/stack/stack.tvp", "-D", "THREADS=2", "--workers", "2"}, extra...)
		return comparableRun(t, dir, name, exitVerified, args...)
	}
	wantOut, _, wantTVS, wantSummary := run("memory")
	out, errOut, tvs, summary := run("spill", "--spill-dir", spill, "--spill-at", "1")
	if !regexp.MustCompile(`spilled [1-9][0-9]* structures \(.*\) to .* in [1-9][0-9]* rounds; [1-9][0-9]* read back`).MatchString(errOut) {
		t.Errorf("stderr does not say what was spilled: %q", errOut)
	}
	times := regexp.MustCompile(`(?m)^time .*$`)
	if times.ReplaceAllString(out, "") != times.ReplaceAllString(wantOut, "") {
		t.Errorf("table:\n%s\nwant:\n%s", out, wantOut)
	}
	if !bytes.Equal(tvs, wantTVS) {
		t.Error("the TVS output differs from the in-memory run's")
	}
	if !reflect.DeepEqual(summary, wantSummary) {
		t.Errorf("summary %v\nwant %v", summary, wantSummary)
	}
	if left, _ := os.ReadDir(spill); len(left) > 0 {
		t.Errorf("%d files left in the spill folder", len(left))
	}
}

// A spill folder that is not one, or cannot be written, is bad input,
// reported before anything is read or written.
func TestBadSpillDirIsBadInput(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--spill-dir", filepath.Join(dir, "none")}, "tvla: --spill-dir: stat " + filepath.Join(dir, "none") + ": no such file or directory\n"},
		{[]string{"--spill-dir", file}, "tvla: --spill-dir: " + file + " is not a folder\n"},
		{[]string{"--spill-at", "1MiB"}, "tvla: --spill-at needs --spill-dir\n"},
	} {
		json := filepath.Join(dir, "s.json")
		args := append([]string{"run", sll("reverse.tvp"), "--json", json}, c.args...)
		code, out, errOut := runCLI(args...)
		if code != exitInput || errOut != c.msg || out != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q, want %q", c.args, code, out, errOut, c.msg)
		}
		if _, err := os.Stat(json); err == nil {
			t.Errorf("%v: the summary was written", c.args)
		}
	}
}
