package slurm

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tvla-go/tvla/experiment"
)

// The tests here run the batch script for real, with bash, but neither
// Slurm nor tvla: a fake sbatch runs the array's tasks one after the
// other on this machine, and a fake tvla (a shell script) writes the
// summary a run of its options would. cmd/tvla/slurm_test.go runs real
// experiments on a real Slurm.

// fakeTVLA writes a JSON summary by the run's options: --nonabs t raises
// messages, --max-structures stops at the limit, --join rel is bad
// input (exit 2), anything else verifies with as many stored structures
// as it has arguments.
const fakeTVLA = `#!/bin/bash
for ((i = 1; i < $#; i++)); do
  if [ "${!i}" = --json ]; then j=$((i + 1)); json=${!j}; fi
done
case " $* " in
*" --join rel "*) echo "p.tvp:3:1: a bad input" >&2; exit 2 ;;
*" --nonabs t "*) echo '{"structures_stored": 82, "messages": 5}' >"$json"; exit 1 ;;
*" --max-structures "*) echo '{"structures_stored": 21, "incomplete": true, "stop_reason": "the structure limit (20) was exceeded"}' >"$json"; exit 3 ;;
esac
echo "{\"structures_stored\": $#, \"verified\": true}" >"$json"
`

// fakeSlurm answers as a cluster without accounting would: sbatch runs
// the tasks at once, one after the other; squeue lists nothing (the job
// is gone once it has ended).
type fakeSlurm struct {
	job   string
	calls [][]string
	// queue, when set, is squeue's answer.
	queue string
}

func (f *fakeSlurm) Output(ctx context.Context, name string, args ...string) ([]byte, error) {
	f.calls = append(f.calls, append([]string{name}, args...))
	switch name {
	case "sbatch":
		return []byte(f.job + "\n"), f.runArray(args)
	case "sacct":
		return nil, errors.New("sacct: Slurm accounting storage is disabled")
	case "squeue":
		if f.queue != "" {
			return []byte(f.queue), nil
		}
		return nil, errors.New("squeue: slurm_load_jobs error: Invalid job id specified")
	}
	return nil, fmt.Errorf("%s: not faked", name)
}

// runArray runs the batch script (the last argument) once per task of
// --array, as Slurm would, with its output in --output.
func (f *fakeSlurm) runArray(args []string) error {
	var n int
	var output string
	for _, a := range args {
		if v, ok := strings.CutPrefix(a, "--array=0-"); ok {
			v, _, _ = strings.Cut(v, "%")
			n, _ = strconv.Atoi(v)
		}
		if v, ok := strings.CutPrefix(a, "--output="); ok {
			output = v
		}
	}
	for task := 0; task <= n; task++ {
		cmd := exec.Command(args[len(args)-1])
		cmd.Env = append(os.Environ(), "SLURM_ARRAY_JOB_ID="+f.job, "SLURM_ARRAY_TASK_ID="+strconv.Itoa(task))
		out, err := cmd.CombinedOutput()
		if err != nil && cmd.ProcessState.ExitCode() < 0 {
			return err
		}
		log := strings.ReplaceAll(output, "%a", strconv.Itoa(task))
		if err := os.WriteFile(log, out, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// testSpec is an experiment of five runs over the list reversal.
func testSpec(t *testing.T, dir string) *experiment.Spec {
	t.Helper()
	prog, _ := filepath.Abs(filepath.Join("..", "..", "programs", "sll", "reverse.tvp"))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "spec.toml")
	spec := fmt.Sprintf("program = %q\n[baseline]\nname = \"base\"\n", prog) +
		"[[variant]]\nname = \"nonabs-t\"\nnonabs = [\"t\"]\n" +
		"[[variant]]\nname = \"rel\"\njoin = \"rel\"\n" +
		"[[variant]]\nname = \"limit\"\nmax_structures = 20\n" +
		"[[variant]]\nname = \"nonabs-y\"\nnonabs = [\"y\"]\n"
	if err := os.WriteFile(path, []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := experiment.LoadSpec(path)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func writeExe(t *testing.T, dir, text string) string {
	t.Helper()
	exe := filepath.Join(dir, "fake-tvla")
	if err := os.WriteFile(exe, []byte(text), 0o755); err != nil {
		t.Fatal(err)
	}
	return exe
}

// testBackend is a back end on the fake cluster, its results in a fresh
// folder, with a cache.
func testBackend(t *testing.T, job string) (*Backend, *fakeSlurm, *bytes.Buffer) {
	t.Helper()
	dir := t.TempDir()
	fake := &fakeSlurm{job: job}
	var log bytes.Buffer
	b := &Backend{Dir: filepath.Join(dir, "out"), Exe: writeExe(t, dir, fakeTVLA), Commands: fake, Log: &log,
		Poll: time.Millisecond, Cache: &experiment.Cache{Dir: filepath.Join(dir, "cache"), Tool: "test"},
		Options: Options{Partition: "short", Time: 90 * time.Minute, Mem: 1 << 30, MaxRunning: 2, Sbatch: []string{"--account=lab"}}}
	return b, fake, &log
}

// Each run's outcome comes from what its task wrote: figures, messages,
// a limit, bad input with tvla's error; results are stored in the cache,
// and the experiment made again submits only what the cache lacks.
func TestRunSubmitsOneArrayAndReadsTheResults(t *testing.T) {
	b, fake, log := testBackend(t, "42")
	s := testSpec(t, b.Dir+"-spec")
	out, err := b.Run(context.Background(), s)
	if err != nil {
		t.Fatal(err, log)
	}
	want := []struct {
		status experiment.Status
		stored int
		text   string
	}{
		{experiment.Verified, 11, "verified"},
		{experiment.Messages, 82, "5 messages"},
		{experiment.Failed, 0, "error: p.tvp:3:1: a bad input"},
		{experiment.Limit, 21, "stopped: max structures (20)"},
		{experiment.Verified, 13, "verified"},
	}
	for i, w := range want {
		o := out[i]
		stored := 0
		if o.Summary != nil {
			stored = o.Summary.Stored
		}
		if o.Status != w.status || stored != w.stored || o.Verdict() != w.text || o.Reused {
			t.Errorf("%s: %s, %d stored, %q, reused %v; want %s, %d, %q", o.Run.Name, o.Status, stored, o.Verdict(), o.Reused, w.status, w.stored, w.text)
		}
	}
	if b.JobID != "42" || b.Where() != "as Slurm job array 42" {
		t.Errorf("job %q, %q", b.JobID, b.Where())
	}
	sbatch := fake.calls[0]
	sd, _ := filepath.Abs(filepath.Join(b.Dir, "slurm"))
	wantArgs := []string{"sbatch", "--parsable", "--array=0-4%2", "--job-name=tvla-spec", "--output=" + sd + "/logs/%a.out",
		"--chdir=" + sd, "--cpus-per-task=1", "--partition=short", "--time=0-01:30:00", "--mem=1024M", "--account=lab", sd + "/job.sh"}
	if !reflect.DeepEqual(sbatch, wantArgs) {
		t.Errorf("sbatch\n%q\nwant\n%q", sbatch, wantArgs)
	}
	// --max-memory: 75% of the task's memory.
	if script, _ := os.ReadFile(filepath.Join(sd, "job.sh")); !strings.Contains(string(script), "-q --progress-every 1m --workers 1 --max-memory 805306368 ") {
		t.Errorf("job.sh:\n%s", script)
	}
	for _, l := range []string{"submitted 5 runs as Slurm job array 42 (0 reused)", "[2/5] nonabs-t: 82 stored, 5 messages", "4 results stored in the cache"} {
		if !strings.Contains(log.String(), l) {
			t.Errorf("log lacks %q:\n%s", l, log)
		}
	}

	// Again: the results stored are reused (the run stopped by
	// max_structures too: it stops at the same point every time); the
	// failed run, rel, is submitted again.
	fake.calls, fake.job = nil, "43"
	out, err = b.Run(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	var sbatches [][]string
	for _, c := range fake.calls {
		if c[0] == "sbatch" {
			sbatches = append(sbatches, c)
		}
	}
	if len(sbatches) != 1 || sbatches[0][2] != "--array=0-0%2" {
		t.Errorf("second submission: %q", sbatches)
	}
	for i, o := range out {
		if o.Reused != (i != 2) {
			t.Errorf("%s: reused %v", o.Run.Name, o.Reused)
		}
	}
}

// --no-wait submits and returns no outcomes; Collect reads them later,
// from the folder alone.
func TestNoWaitThenCollect(t *testing.T) {
	b, _, _ := testBackend(t, "7")
	b.NoWait = true
	s := testSpec(t, b.Dir+"-spec")
	out, err := b.Run(context.Background(), s)
	if out != nil || err != nil {
		t.Fatalf("Run with NoWait: %v, %v", out, err)
	}
	c := &Backend{Dir: b.Dir, Commands: &fakeSlurm{}}
	out, err = c.Collect(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 5 || out[1].Verdict() != "5 messages" || c.JobID != "7" {
		t.Errorf("collected %d outcomes, %q, job %q", len(out), out[1].Verdict(), c.JobID)
	}
	// The slurm folder named instead of the results folder.
	c = &Backend{Dir: filepath.Join(b.Dir, "slurm"), Commands: &fakeSlurm{}}
	if _, err := c.Collect(context.Background(), s); err != nil || c.Dir != b.Dir {
		t.Errorf("collecting the slurm folder: %v, %s", err, c.Dir)
	}
}

// Collect refuses a folder with no submission, and a spec whose runs
// differ from those submitted.
func TestCollectChecksTheSubmission(t *testing.T) {
	b, _, _ := testBackend(t, "7")
	s := testSpec(t, b.Dir+"-spec")
	c := &Backend{Dir: b.Dir, Commands: &fakeSlurm{}}
	if _, err := c.Collect(context.Background(), s); err == nil || !strings.Contains(err.Error(), "no Slurm submission there") {
		t.Errorf("empty folder: %v", err)
	}
	b.NoWait = true
	if _, err := b.Run(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	s.Runs[1].NonAbs = []string{"y"}
	_, err := c.Collect(context.Background(), s)
	if err == nil || !strings.Contains(err.Error(), "run nonabs-t was submitted as `tvla run") {
		t.Errorf("changed spec: %v", err)
	}
}

// A submission into a folder whose job array is still queued or running
// is refused.
func TestSubmitRefusesAFolderInUse(t *testing.T) {
	b, fake, _ := testBackend(t, "7")
	b.NoWait = true
	s := testSpec(t, b.Dir+"-spec")
	if _, err := b.Run(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	fake.queue = "3|PENDING|(Resources)\n"
	_, err := b.Run(context.Background(), s)
	if err == nil || !strings.Contains(err.Error(), "holds the Slurm job array 7, not ended yet") {
		t.Errorf("second submission: %v", err)
	}
}

func TestParseSlurmAnswers(t *testing.T) {
	states := map[int]taskState{}
	parseSacct([]byte("12_0|COMPLETED\n12_1|CANCELLED by 1000\n12_[3-5,8%2]|PENDING\n13_0|FAILED\n"), "12", states)
	parseSqueue([]byte("1|RUNNING|node7\n3|PENDING|(Resources)\n"), states)
	want := map[int]taskState{0: {State: "COMPLETED"}, 1: {State: "RUNNING", Reason: "node7"}, 3: {State: "PENDING", Reason: "Resources"},
		4: {State: "PENDING"}, 5: {State: "PENDING"}, 8: {State: "PENDING"}}
	if !reflect.DeepEqual(states, want) {
		t.Errorf("states %v\nwant %v", states, want)
	}
	if got := slurmTime(25*time.Hour + 90*time.Second + time.Millisecond); got != "1-01:01:31" {
		t.Errorf("slurmTime = %s", got)
	}
}

// What a task left, with what Slurm says, makes the outcome.
func TestClassify(t *testing.T) {
	interrupted := []byte(`{"structures_stored": 900, "incomplete": true, "stop_reason": "interrupted"}`)
	complete := []byte(`{"structures_stored": 66, "verified": true}`)
	term := &taskStatus{ExitCode: 3, Signal: "TERM"}
	timeLimit := "*** JOB 12 ON node7 CANCELLED AT 2026-01-02T03:04:05 DUE TO TIME LIMIT ***\n"
	cases := []struct {
		name     string
		t        taskResult
		status   experiment.Status
		verdict  string
		complete bool
	}{
		{"verified", taskResult{status: &taskStatus{}, summary: complete}, experiment.Verified, "verified", true},
		{"finished as the time limit came", taskResult{status: &taskStatus{Signal: "TERM"}, summary: complete, state: taskState{State: "TIMEOUT"}},
			experiment.Verified, "verified", true},
		{"time limit", taskResult{status: term, summary: interrupted, state: taskState{State: "TIMEOUT"}},
			experiment.TimedOut, "timed out: Slurm's time limit", false},
		{"time limit, from the log", taskResult{status: term, summary: interrupted, log: timeLimit, gone: true},
			experiment.TimedOut, "timed out: Slurm's time limit, at 2026-01-02T03:04:05", false},
		{"cancelled", taskResult{status: term, summary: interrupted, state: taskState{State: "CANCELLED"}},
			experiment.Cancelled, "cancelled: in Slurm", false},
		{"cancelled, from the log", taskResult{log: "*** JOB 12 ON n CANCELLED AT 2026-01-02T03:04:05 ***", gone: true},
			experiment.Cancelled, "cancelled: in Slurm at 2026-01-02T03:04:05", false},
		{"cancelled while queued, forgotten", taskResult{gone: true},
			experiment.Cancelled, "cancelled: never started, and Slurm no longer knows the task (cancelled while queued?)", false},
		{"queued", taskResult{state: taskState{State: "PENDING", Reason: "Priority"}}, experiment.Unfinished, "unfinished: pending (Priority)", false},
		{"running", taskResult{state: taskState{State: "RUNNING", Reason: "node7"}}, experiment.Unfinished, "unfinished: running on node7", false},
		{"squeue failed", taskResult{unknown: errors.New("squeue: timeout")}, experiment.Unfinished, "unfinished: Slurm did not answer: squeue: timeout", false},
		{"node failure", taskResult{state: taskState{State: "NODE_FAIL"}, log: "a\nb\n"}, experiment.Failed, "error: Slurm: NODE_FAIL; its log ends: a / b", false},
		{"out of memory", taskResult{state: taskState{State: "OUT_OF_MEMORY"}}, experiment.Failed, "error: Slurm: out of memory (the task's --mem)", false},
		{"crash", taskResult{status: &taskStatus{ExitCode: 2}, errText: "p.tvp:1:1: bad"}, experiment.Failed, "error: p.tvp:1:1: bad", false},
		{"no exit status", taskResult{state: taskState{State: "COMPLETED"}, log: "x"}, experiment.Failed, "error: the task ended without tvla's exit status; its log ends: x", false},
	}
	for _, c := range cases {
		o := &experiment.Outcome{}
		classify(o, &c.t)
		if o.Status != c.status || o.Verdict() != c.verdict || o.Complete() != c.complete {
			t.Errorf("%s: %s, %q, complete %v; want %s, %q, %v", c.name, o.Status, o.Verdict(), o.Complete(), c.status, c.verdict, c.complete)
		}
	}
}

// Slurm stops a task by sending SIGTERM to its processes: the batch
// script waits for tvla, which writes its summary as it stops, and
// notes the signal in the task's status.
func TestJobScriptOnSIGTERM(t *testing.T) {
	dir := t.TempDir()
	started := filepath.Join(dir, "started")
	exe := writeExe(t, dir, `#!/bin/bash
for ((i = 1; i < $#; i++)); do
  if [ "${!i}" = --json ]; then j=$((i + 1)); json=${!j}; fi
done
trap 'echo "{\"structures_stored\": 900, \"incomplete\": true, \"stop_reason\": \"interrupted\"}" >"$json"; exit 3' TERM
touch `+started+`
while :; do sleep 0.05; done
`)
	sd := filepath.Join(dir, "slurm")
	os.MkdirAll(filepath.Join(sd, "runs"), 0o755)
	if err := copyExecutable(exe, filepath.Join(sd, "tvla")); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(sd, "job.sh")
	os.WriteFile(script, []byte(jobScript(sd, []jobTask{{"slow", []string{"run", "p.tvp"}}}, []string{"-q"})), 0o755)
	cmd := exec.Command(script)
	cmd.Env = append(os.Environ(), "SLURM_ARRAY_JOB_ID=9", "SLURM_ARRAY_TASK_ID=0")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(started); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the fake tvla did not start")
		}
	}
	syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM) // as Slurm does: every process of the task
	if err := cmd.Wait(); err != nil {
		t.Fatalf("job.sh: %v", err)
	}
	res := result(sd, "slow", 0)
	if res.status == nil || res.status.ExitCode != 3 || res.status.Signal != "TERM" || res.status.Task != "9_0" {
		t.Fatalf("status %+v", res.status)
	}
	res.state = taskState{State: "TIMEOUT"}
	o := &experiment.Outcome{}
	classify(o, res)
	if o.Status != experiment.TimedOut || o.Summary == nil || o.Summary.Stored != 900 || o.Complete() {
		t.Errorf("outcome %s %+v", o.Status, o.Summary)
	}
}

// The batch script quotes what a shell would read otherwise.
func TestJobScriptQuotes(t *testing.T) {
	s := jobScript("/r s/slurm", []jobTask{{"a", []string{"run", "/p q/x.tvp", "--nonabs", "has[n]"}}}, []string{"-q"})
	for _, want := range []string{"dir='/r s/slurm'\n", "0) name=a; set -- run '/p q/x.tvp' --nonabs 'has[n]' ;;\n"} {
		if !strings.Contains(s, want) {
			t.Errorf("script lacks %q:\n%s", want, s)
		}
	}
	if !regexp.MustCompile(`(?m)^\*\) echo .* exit 2 ;;$`).MatchString(s) {
		t.Errorf("no task outside the array:\n%s", s)
	}
}

// A submission not collected (--no-wait, or the submitter interrupted)
// loses nothing: the next submission into the folder stores its results
// in the cache first, and submits only what they lack.
func TestResubmissionKeepsUncollectedResults(t *testing.T) {
	b, fake, log := testBackend(t, "7")
	b.NoWait = true
	s := testSpec(t, b.Dir+"-spec")
	if _, err := b.Run(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	b.NoWait, fake.job, fake.calls = false, "8", nil
	out, err := b.Run(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "stored 4 results of the earlier job array 7 in the cache") {
		t.Errorf("log:\n%s", log)
	}
	n := 0
	for _, c := range fake.calls {
		if c[0] == "sbatch" {
			n++
			if c[2] != "--array=0-0%2" {
				t.Errorf("submitted %q", c)
			}
		}
	}
	if n != 1 || !out[0].Reused || out[2].Reused || out[2].Status != experiment.Failed {
		t.Errorf("%d submissions; reused %v, %v", n, out[0].Reused, out[2].Reused)
	}
}
