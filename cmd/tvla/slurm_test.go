package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tvla-go/tvla/experiment"
)

// The experiment's Slurm back end against a real Slurm: a one-node
// cluster on this machine (scripts/slurm-single-node, which .ci/run
// starts). The test skips only where Slurm is not installed, and fails
// there too under TVLA_SLURM_REQUIRED=1 (CI sets it). Where Slurm is
// installed but no cluster answers, it starts the one-node cluster when
// it can (as root) and stops it at the end, once no other test run of
// this machine is using it (slurmLockPath: several go test runs at once
// share one cluster).
func needSlurm(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("sbatch"); err != nil {
		if os.Getenv("TVLA_SLURM_REQUIRED") == "1" {
			t.Fatal("TVLA_SLURM_REQUIRED=1 but Slurm is not installed (no sbatch in PATH): apt-get install slurm-wlm munge")
		}
		t.Skip("Slurm is not installed (no sbatch in PATH); to run this test: apt-get install slurm-wlm munge, then sudo scripts/slurm-single-node start")
	}
	const wait = 5 * time.Minute
	l, err := openSlurmLock()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(l.close)
	if err := l.lock(false, wait); err != nil {
		t.Fatal(err)
	}
	if slurmNodeUp() {
		return
	}
	script := filepath.Join("..", "..", "scripts", "slurm-single-node")
	if os.Getuid() != 0 {
		t.Fatalf("Slurm is installed but no cluster answers with a node up: start one (sudo %s start)", script)
	}
	if err := l.lock(true, wait); err != nil {
		t.Fatal(err)
	}
	if !slurmNodeUp() { // another run may have started it meanwhile
		if out, err := exec.Command(script, "start").CombinedOutput(); err != nil {
			t.Fatalf("%s start: %v\n%s", script, err, out)
		}
		t.Cleanup(func() {
			if err := l.lock(true, wait); err != nil {
				t.Errorf("the one-node cluster this test started is left running: %v", err)
				return
			}
			if out, err := exec.Command(script, "stop").CombinedOutput(); err != nil {
				t.Errorf("%s stop: %v\n%s", script, err, out)
			}
		})
		if !slurmNodeUp() {
			t.Fatalf("%s started a cluster, but no node is up", script)
		}
	}
	if err := l.lock(false, wait); err != nil {
		t.Fatal(err)
	}
}

// slurmNodeUp reports whether Slurm answers with a node that takes jobs.
func slurmNodeUp() bool {
	out, err := exec.Command("sinfo", "-h", "-o", "%T").Output()
	if err != nil {
		return false
	}
	for _, st := range strings.Fields(string(out)) {
		switch strings.TrimRight(st, "*~#$@+") {
		case "idle", "mixed", "allocated", "completing":
			return true
		}
	}
	return false
}

// jobOf is the job array id a submission's manifest holds.
func jobOf(t *testing.T, out string) string {
	t.Helper()
	var m struct {
		JobID string `json:"job_id"`
	}
	if err := json.Unmarshal(mustRead(t, filepath.Join(out, "slurm", "manifest.json")), &m); err != nil || m.JobID == "" {
		t.Fatalf("manifest: %v, job %q", err, m.JobID)
	}
	return m.JobID
}

// waitJobEnded waits until Slurm has no task of job queued or running.
func waitJobEnded(t *testing.T, job string) {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(200 * time.Millisecond) {
		out, err := exec.Command("squeue", "-h", "-j", job).Output()
		if err == nil && strings.TrimSpace(string(out)) == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("job %s still in the queue after 2 minutes:\n%s", job, out)
		}
	}
}

// The reversal's experiment through --slurm gives the local run's table
// (times and memory aside); run again, nothing is submitted; interrupted
// while it waits, the tasks go on and --collect gives the whole report;
// a task cancelled shows as cancelled.
func TestExperimentOnSlurm(t *testing.T) {
	needSlurm(t)
	t.Setenv("TVLA_TEST_MAIN", "1") // the tasks run this test binary as tvla
	spec := ownTestdata("experiment", "reverse.toml")
	code, local, stderr := runCLI("experiment", spec, "--out", t.TempDir(), "-q")
	if code != 0 {
		t.Fatalf("local: exit %d\n%s", code, stderr)
	}
	want := maskTimes(local)

	t.Run("same counts as locally, then all reused", func(t *testing.T) {
		out := t.TempDir()
		code, table, stderr := runCLI("experiment", spec, "--slurm", "--out", out, "--poll", "200ms")
		if code != 0 || maskTimes(table) != want {
			t.Fatalf("exit %d, table:\n%s\nwant:\n%s\n%s", code, table, want, stderr)
		}
		if md := string(mustRead(t, filepath.Join(out, "results.md"))); !strings.Contains(md, "; 5 runs as Slurm job array ") {
			t.Errorf("results.md does not say where the runs were made:\n%s", md)
		}
		code, table, stderr = runCLI("experiment", spec, "--slurm", "--out", out, "--poll", "200ms")
		if code != 0 || unmark(maskTimes(table)) != want || !strings.Contains(stderr, "nothing to submit") {
			t.Errorf("again: exit %d, table:\n%s\n%s", code, table, stderr)
		}
	})

	t.Run("interrupted, then collected", func(t *testing.T) {
		out := t.TempDir()
		cmd, _, lines := signalChild(t, "experiment: submitted", 0, os.Interrupt, "experiment", spec, "--slurm", "--out", out, "--poll", "200ms")
		if code := cmd.ProcessState.ExitCode(); code != exitLimit {
			t.Fatalf("interrupted: exit %d\n%s", code, strings.Join(lines, "\n"))
		}
		if l := strings.Join(lines, "\n"); !strings.Contains(l, "--collect "+experiment.ShellLine([]string{out})) {
			t.Errorf("the interrupted experiment does not say how to collect:\n%s", l)
		}
		waitJobEnded(t, jobOf(t, out))
		code, table, stderr := runCLI("experiment", spec, "--collect", out)
		if code != 0 || maskTimes(table) != want {
			t.Errorf("collected: exit %d, table:\n%s\nwant:\n%s\n%s", code, table, want, stderr)
		}
	})

	t.Run("no wait, a task cancelled", func(t *testing.T) {
		out := t.TempDir()
		slow := ownTestdata("experiment", "slow.toml")
		code, table, stderr := runCLI("experiment", slow, "--slurm", "--no-wait", "--slurm-mem", "2GiB", "--out", out)
		if code != 0 || table != "" || !strings.Contains(stderr, "--collect "+experiment.ShellLine([]string{out})) {
			t.Fatalf("--no-wait: exit %d, %q\n%s", code, table, stderr)
		}
		job := jobOf(t, out)
		// The endless run: cancelled once it runs; the other stops at
		// its own time limit.
		for deadline := time.Now().Add(time.Minute); ; time.Sleep(100 * time.Millisecond) {
			if st, _ := exec.Command("squeue", "-h", "-j", job+"_0", "-o", "%T").Output(); strings.TrimSpace(string(st)) == "RUNNING" {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("task 0 does not start")
			}
		}
		time.Sleep(time.Second)
		if out, err := exec.Command("scancel", job).CombinedOutput(); err != nil {
			t.Fatalf("scancel: %v %s", err, out)
		}
		waitJobEnded(t, job)
		code, table, stderr = runCLI("experiment", slow, "--collect", out)
		if code != exitLimit || !strings.Contains(stderr, "1 run(s) did not end") {
			t.Errorf("collected: exit %d\n%s", code, stderr)
		}
		rows := strings.Split(table, "\n")
		if len(rows) < 4 || !strings.HasSuffix(rows[2], "| cancelled: in Slurm |") || !strings.HasSuffix(rows[3], "| stopped: timeout (200ms) |") {
			t.Errorf("table:\n%s", table)
		}
	})
}

// The Slurm flags are checked before anything is submitted (exit 2).
func TestExperimentSlurmFlags(t *testing.T) {
	spec := ownTestdata("experiment", "reverse.toml")
	empty := t.TempDir()
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--partition", "p"}, "--partition needs --slurm"},
		{[]string{"--no-wait"}, "--no-wait needs --slurm"},
		{[]string{"--slurm", "--max-memory", "1GiB"}, "with --slurm, --slurm-mem sets each task's memory"},
		{[]string{"--slurm", "--slurm-time", "-1s"}, "--slurm-time must not be negative"},
		{[]string{"--collect", empty, "--jobs", "2"}, "--collect reads a submission's results folder: --jobs does not apply"},
		{[]string{"--collect", empty}, "--collect " + empty + ": no Slurm submission there"},
	} {
		code, _, stderr := runCLI(append([]string{"experiment", spec}, c.args...)...)
		if code != exitInput || !strings.Contains(stderr, c.msg) {
			t.Errorf("%v: exit %d, %q; want exit 2 with %q", c.args, code, stderr, c.msg)
		}
	}
}
