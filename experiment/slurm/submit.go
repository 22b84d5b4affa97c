package slurm

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/tvla-go/tvla/driver"
	"github.com/tvla-go/tvla/experiment"
	"github.com/tvla-go/tvla/internal/atomicfile"
)

// submit writes the results folder's Slurm files for the runs of s the
// cache does not hold and submits them as one job array. The manifest it
// returns has no JobID when there was nothing to submit.
func (b *Backend) submit(s *experiment.Spec) (*manifest, error) {
	sd := b.slurmDir()
	if err := b.clearEarlier(sd); err != nil {
		return nil, err
	}
	out := make([]*experiment.Outcome, len(s.Runs))
	for i, r := range s.Runs {
		out[i] = &experiment.Outcome{Run: r, Status: experiment.NotRun, Command: b.command(s, r)}
	}
	todo, keys := b.Cache.Consult(s, out, b.logf)
	m := &manifest{Format: manifestFormat, Spec: absPath(s.File), Timeout: durationText(b.Timeout)}
	if b.Cache != nil {
		m.Cache = absPath(b.Cache.Dir)
	}
	for i, o := range out {
		mr := manifestRun{Name: o.Run.Name, Command: o.Command, Key: keys[i]}
		if o.Reused {
			mr.Reused = &reusedResult{ExitCode: o.ExitCode, Summary: o.RawSummary}
		}
		m.Runs = append(m.Runs, mr)
	}
	for t, i := range todo {
		m.Runs[i].Task = &t
	}
	for _, d := range []string{sd, filepath.Join(sd, "runs"), filepath.Join(sd, "logs")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	if len(todo) == 0 {
		return m, m.write(sd)
	}
	if err := b.writeJob(s, m); err != nil {
		return nil, err
	}
	if err := m.write(sd); err != nil {
		return nil, err
	}
	// Not under the experiment's context: an interrupt must not stop
	// sbatch half way, leaving a job we would not know of.
	answer, err := b.commands().Output(context.Background(), m.Sbatch[0], m.Sbatch[1:]...)
	if err != nil {
		// Nothing was submitted: no manifest, so that no collect waits
		// for it.
		os.Remove(filepath.Join(sd, "manifest.json"))
		return nil, fmt.Errorf("submitting the runs: %w", err)
	}
	// --parsable prints "JOBID" or "JOBID;CLUSTER".
	m.JobID, _, _ = strings.Cut(strings.TrimSpace(string(answer)), ";")
	m.Submitted = time.Now().UTC().Format(time.RFC3339)
	b.JobID = m.JobID
	if err := m.write(sd); err != nil {
		return nil, fmt.Errorf("job array %s submitted, but its manifest was not written: %w", m.JobID, err)
	}
	b.logf("experiment: submitted %d runs as Slurm job array %s (%d reused); results in %s\n",
		len(todo), m.JobID, len(s.Runs)-len(todo), sd)
	return m, nil
}

// command is the run's command line as the report shows it.
func (b *Backend) command(s *experiment.Spec, r experiment.Run) []string {
	return (&experiment.Runner{Timeout: b.Timeout}).Command(s, r)
}

// clearEarlier makes room in sd for a new submission. A job array of an
// earlier submission still queued or running there is an error; the
// results an earlier one left (collected or not) are stored in the cache
// first, so that the new submission reuses them.
func (b *Backend) clearEarlier(sd string) error {
	old, err := readManifest(sd)
	if err != nil {
		if os.IsNotExist(err) {
			return nil
		}
		return err
	}
	if old.JobID != "" && !old.Collected {
		q := b.query(context.Background(), old.JobID)
		for _, st := range q.states {
			if active(st.State) {
				return fmt.Errorf("%s holds the Slurm job array %s, not ended yet: collect it when it ends (--collect %s), cancel it (scancel %s), or choose another --out",
					sd, old.JobID, b.Dir, old.JobID)
			}
		}
		if n := b.storeResults(old, old.results(sd, nil)); n > 0 {
			b.logf("experiment: stored %d results of the earlier job array %s in the cache\n", n, old.JobID)
		}
	}
	for _, f := range []string{"runs", "logs"} {
		if err := os.RemoveAll(filepath.Join(sd, f)); err != nil {
			return err
		}
	}
	for _, f := range []string{"states.json", "manifest.json", "job.sh", "tvla"} {
		if err := os.Remove(filepath.Join(sd, f)); err != nil && !os.IsNotExist(err) {
			return err
		}
	}
	return nil
}

// writeJob copies the executable into the results folder, writes the
// batch script and sets the sbatch command in m.
func (b *Backend) writeJob(s *experiment.Spec, m *manifest) error {
	sd := absPath(b.slurmDir())
	exe := filepath.Join(sd, "tvla")
	if err := copyExecutable(b.Exe, exe); err != nil {
		return fmt.Errorf("copying tvla into the results folder: %w", err)
	}
	var tasks []jobTask
	for i, mr := range m.Runs {
		if mr.Task == nil {
			continue
		}
		args := []string{"run", absPath(s.ProgramPath())}
		if in := s.InputPath(); in != "" {
			args = append(args, absPath(in))
		}
		tasks = append(tasks, jobTask{name: mr.Name, args: append(args, s.Runs[i].Flags(b.Timeout)...)})
	}
	script := jobScript(sd, tasks, b.runFlags())
	if err := atomicfile.Write(filepath.Join(sd, "job.sh"), []byte(script), true); err != nil {
		return err
	}
	if err := os.Chmod(filepath.Join(sd, "job.sh"), 0o755); err != nil {
		return err
	}
	m.Sbatch = b.sbatchArgs(s, sd, len(tasks))
	return nil
}

// runFlags are the flags every task's tvla run gets after the run's own
// (and --json, which names the run's file). A progress line a minute goes
// to the task's error file, so that a user can tell a long task that
// grows from one that hangs.
func (b *Backend) runFlags() []string {
	flags := []string{"-q", "--progress-every", "1m", "--workers", strconv.Itoa(max(b.CPUs, 1))}
	if b.Mem > 0 {
		flags = append(flags, "--max-memory", strconv.FormatUint(b.Mem*driver.DefaultMemoryPercent/100, 10))
	}
	return flags
}

// sbatchArgs is the sbatch command of the job array of n tasks.
func (b *Backend) sbatchArgs(s *experiment.Spec, sd string, n int) []string {
	array := fmt.Sprintf("0-%d", n-1)
	if b.MaxRunning > 0 {
		array += fmt.Sprintf("%%%d", b.MaxRunning)
	}
	name := strings.TrimSuffix(filepath.Base(s.File), filepath.Ext(s.File))
	args := []string{"sbatch", "--parsable", "--array=" + array, "--job-name=tvla-" + name,
		"--output=" + filepath.Join(sd, "logs", "%a.out"), "--chdir=" + sd,
		"--cpus-per-task=" + strconv.Itoa(max(b.CPUs, 1))}
	if b.Partition != "" {
		args = append(args, "--partition="+b.Partition)
	}
	if b.Time > 0 {
		args = append(args, "--time="+slurmTime(b.Time))
	}
	if b.Mem > 0 {
		args = append(args, fmt.Sprintf("--mem=%dM", (b.Mem+1<<20-1)>>20))
	}
	args = append(args, b.Sbatch...)
	return append(args, filepath.Join(sd, "job.sh"))
}

// slurmTime writes a duration as sbatch's --time reads it,
// DAYS-HOURS:MINUTES:SECONDS, rounded up to the second.
func slurmTime(d time.Duration) string {
	secs := int64((d + time.Second - 1) / time.Second)
	return fmt.Sprintf("%d-%02d:%02d:%02d", secs/86400, secs/3600%24, secs/60%60, secs%60)
}

// jobTask is one task of the array: the run's name and tvla's arguments.
type jobTask struct {
	name string
	args []string
}

// jobScript is the array's batch script. Task N runs tvla with task N's
// arguments, writing into dir/runs the run's JSON summary, error output
// and exit status. The status is written when tvla has ended, also when
// Slurm stopped the task (time limit, scancel): Slurm sends every process
// of the task SIGTERM, tvla stops as on Ctrl-C and writes its summary,
// and the script, which runs it in the foreground and notes the signal,
// waits for it.
func jobScript(dir string, tasks []jobTask, flags []string) string {
	var b strings.Builder
	b.WriteString(`#!/bin/bash
# The Slurm job array of a tvla experiment, written by tvla experiment --slurm.
# Task N runs tvla run with the options of run N and writes, in runs/:
# NAME.json (its JSON summary), NAME.err (its error output) and NAME.status
# (its exit status, and the signal when Slurm stopped the task).
set -u
`)
	fmt.Fprintf(&b, "dir=%s\n", experiment.ShellLine([]string{dir}))
	b.WriteString(`case "${SLURM_ARRAY_TASK_ID:-}" in
`)
	for i, t := range tasks {
		fmt.Fprintf(&b, "%d) name=%s; set -- %s ;;\n", i, experiment.ShellLine([]string{t.name}), experiment.ShellLine(t.args))
	}
	b.WriteString(`*) echo "tvla: this job array has no task '${SLURM_ARRAY_TASK_ID:-}'" >&2; exit 2 ;;
esac
signal=
trap 'signal=TERM' TERM
trap 'signal=INT' INT
started=$(date +%s.%N)
`)
	// tvla runs in the foreground: a signal Slurm sends the task's
	// processes reaches tvla too, which writes its summary and exits; the
	// trap runs once tvla has ended, and $? is tvla's status. (With tvla
	// in the background, a wait that the trapped signal interrupted
	// returns 128+n; when tvla ended at that moment, that was taken for
	// its status, and TestJobScriptOnSIGTERM failed one time in three.)
	fmt.Fprintf(&b, "\"$dir/tvla\" \"$@\" --json \"$dir/runs/$name.json\" %s 2>\"$dir/runs/$name.err\"\n", experiment.ShellLine(flags))
	b.WriteString(`code=$?
printf '{"exit_code": %d, "signal": "%s", "task": "%s", "node": "%s", "started": "%s", "ended": "%s"}\n' \
  "$code" "$signal" "${SLURM_ARRAY_JOB_ID:-}_${SLURM_ARRAY_TASK_ID:-}" "$(hostname -s)" "$started" "$(date +%s.%N)" \
  >"$dir/runs/$name.status.tmp"
mv -f "$dir/runs/$name.status.tmp" "$dir/runs/$name.status"
# A run made (verified, messages, stopped by a limit) is a task that
# completed; tvla's other statuses (bad input, a crash) make it fail.
case $code in 0|1|3) exit 0 ;; *) exit "$code" ;; esac
`)
	return b.String()
}

// copyExecutable copies the executable to dst. The tasks run this copy,
// so that rebuilding tvla while they wait changes nothing (the cache's
// keys name the submitting executable). Not a hard link: a build that
// rewrites the file in place would change it.
func copyExecutable(exe, dst string) error {
	in, err := os.Open(exe)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

func durationText(d time.Duration) string {
	if d <= 0 {
		return ""
	}
	return d.String()
}
