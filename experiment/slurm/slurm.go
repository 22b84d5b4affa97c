// Package slurm makes the runs of an experiment on a cluster managed by
// Slurm: one job array (`sbatch --array`), one task per run, each task a
// `tvla run` of the run's options writing its JSON summary, its error
// output and its exit status into a results folder the nodes share. The
// submitting tvla waits, following the tasks with `squeue` (and `sacct`
// where the cluster keeps accounting), and reads the results back as the
// experiment's outcomes; or it submits and exits, and `tvla experiment
// SPEC --collect DIR` reads them later (Backend.Collect). Slurm schedules;
// this package only writes the job, submits it and reads what it left.
//
// The results folder is the experiment's output folder; this package's
// files are under its slurm/ folder:
//
//	manifest.json   the submission: job id, sbatch command, per run its
//	                task (or its reused result) and its cache key
//	job.sh          the array's batch script: task N runs run N
//	tvla            a copy of the submitting executable, which the tasks run
//	runs/NAME.json  a run's JSON summary (tvla run --json)
//	runs/NAME.err   its error output
//	runs/NAME.status  its exit status, and the signal when Slurm stopped it
//	logs/N.out      task N's standard output and Slurm's messages about it
//	states.json     the tasks' last states seen by the waiting tvla
//
// Interrupting the submitting tvla loses nothing: the tasks go on, and
// whatever collects the folder later finds their results.
package slurm

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/tvla-go/tvla/experiment"
)

// Options are what each task asks of Slurm.
type Options struct {
	// Partition is sbatch's --partition ("": the cluster's default).
	Partition string
	// Time is each task's time limit, sbatch's --time (0: the
	// partition's default).
	Time time.Duration
	// Mem is each task's memory, sbatch's --mem (0: the partition's
	// default). The run's --max-memory is then DefaultMemoryPercent of it,
	// so that it stops with its figures before Slurm would kill it.
	Mem uint64
	// MaxRunning is how many tasks may run at once (sbatch --array's %N;
	// 0: as many as Slurm allows).
	MaxRunning int
	// CPUs is each task's --cpus-per-task and the run's --workers
	// (at least 1).
	CPUs int
	// Sbatch are more sbatch arguments, given last.
	Sbatch []string
}

// Backend makes an experiment's runs as a Slurm job array. It is an
// experiment.Backend: Run submits the runs the cache does not hold, waits
// for them and returns their outcomes.
type Backend struct {
	Options
	// Dir is the results folder (the experiment's output folder).
	Dir string
	// Exe is the tvla executable the tasks run (copied into Dir).
	Exe string
	// Timeout is the --timeout of each run that sets none (0: none).
	Timeout time.Duration
	// Cache, when not nil, gives the runs already made, which are not
	// submitted, and stores the results of the tasks as they are
	// collected.
	Cache *experiment.Cache
	// NoWait makes Run return once the job is submitted, with no
	// outcomes: Collect reads them later.
	NoWait bool
	// Poll is how often the waiting tvla asks squeue (0: 10 s).
	Poll time.Duration
	// Log gets the progress lines (nil: none).
	Log io.Writer
	// Commands runs Slurm's tools (nil: the installed ones).
	Commands Commands

	// JobID is the job array's id once submitted or collected.
	JobID string
	// noSacct is set once sacct has failed: the cluster keeps no
	// accounting, and it is not asked again.
	noSacct bool
}

var _ experiment.Backend = (*Backend)(nil)

// Where says where the runs were made, for the report.
func (b *Backend) Where() string {
	if b.JobID == "" {
		return "on Slurm, every result reused"
	}
	return "as Slurm job array " + b.JobID
}

func (b *Backend) slurmDir() string { return filepath.Join(b.Dir, "slurm") }

func (b *Backend) logf(format string, args ...any) {
	if b.Log != nil {
		fmt.Fprintf(b.Log, format, args...)
	}
}

func (b *Backend) commands() Commands {
	if b.Commands == nil {
		return Installed{}
	}
	return b.Commands
}

func (b *Backend) poll() time.Duration {
	if b.Poll <= 0 {
		return 10 * time.Second
	}
	return b.Poll
}

// Run submits the runs of s whose result the cache does not hold, as one
// job array, and unless NoWait waits for the tasks and returns every
// run's outcome, storing the new results in the cache. When ctx ends
// while it waits, the tasks go on: Run returns the outcomes so far (the
// tasks not finished Unfinished) with ctx's error, and a later Collect
// gives the rest. With NoWait, the outcomes are nil.
func (b *Backend) Run(ctx context.Context, s *experiment.Spec) ([]*experiment.Outcome, error) {
	m, err := b.submit(s)
	if err != nil {
		return nil, err
	}
	if m.JobID == "" {
		b.logf("experiment: every run's result is in the cache: nothing to submit\n")
		return b.outcomes(ctx, s, m)
	}
	hint := fmt.Sprintf("tvla experiment %s --collect %s", experiment.ShellLine([]string{s.File}), experiment.ShellLine([]string{b.Dir}))
	if b.NoWait {
		b.logf("experiment: not waiting; `%s` writes the report once the tasks have ended (`squeue -j %s` shows them)\n", hint, m.JobID)
		return nil, nil
	}
	if err := b.wait(ctx, m); err != nil {
		b.logf("experiment: interrupted; the job array %s goes on: `%s` writes the report once it ends (`scancel %s` cancels it)\n", m.JobID, hint, m.JobID)
		out, _ := b.outcomes(context.Background(), s, m)
		return out, err
	}
	return b.outcomes(ctx, s, m)
}

// Collect reads the results folder Dir of an earlier submission of s
// (Run, with NoWait or interrupted) and returns every run's outcome: the
// tasks' results, Slurm's word on those that left none (timed out,
// cancelled, failed, or still queued or running: Unfinished), and the
// reused results. It stores the new results in the cache the submission
// used (or Cache, when set). The error says when Dir holds no submission
// or one of another spec.
func (b *Backend) Collect(ctx context.Context, s *experiment.Spec) ([]*experiment.Outcome, error) {
	if _, err := os.Stat(filepath.Join(b.slurmDir(), "manifest.json")); err != nil && filepath.Base(b.Dir) == "slurm" {
		// The slurm folder itself named.
		b.Dir = filepath.Dir(b.Dir)
	}
	m, err := readManifest(b.slurmDir())
	if os.IsNotExist(err) {
		return nil, fmt.Errorf("no Slurm submission there (no %s)", filepath.Join(b.slurmDir(), "manifest.json"))
	}
	if err != nil {
		return nil, err
	}
	if err := m.matches(s); err != nil {
		return nil, err
	}
	b.Timeout = m.timeout()
	if b.Cache == nil && m.Cache != "" {
		b.Cache = &experiment.Cache{Dir: m.Cache}
	}
	return b.outcomes(ctx, s, m)
}
