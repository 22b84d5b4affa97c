package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/tvla-go/tvla/driver"
	"github.com/tvla-go/tvla/experiment"
	"github.com/tvla-go/tvla/experiment/slurm"
)

// experimentOptions are the flags of `tvla experiment`.
type experimentOptions struct {
	out       string
	jobs      int
	maxMemory driver.ByteSize
	timeout   time.Duration
	workers   int
	quiet     bool
	dryRun    bool
	cache     string
	fresh     bool
	// On a Slurm cluster (experiment/slurm).
	slurm      bool
	partition  string
	slurmTime  time.Duration
	slurmMem   driver.ByteSize
	sbatchArgs []string
	noWait     bool
	poll       time.Duration
	collect    string
}

// slurmOnlyFlags need --slurm; collectExcluded say how a submission is
// made, which --collect only reads.
var (
	slurmOnlyFlags  = []string{"partition", "slurm-time", "slurm-mem", "sbatch-arg", "no-wait", "poll"}
	collectExcluded = []string{"partition", "slurm-time", "slurm-mem", "sbatch-arg", "no-wait", "jobs", "max-memory",
		"timeout", "workers", "fresh", "dry-run", "out"}
)

func newExperimentCommand() *cobra.Command {
	var o experimentOptions
	cmd := &cobra.Command{
		Use:     "experiment SPEC.toml",
		Short:   "Run a program under several configurations and compare them with a baseline",
		Long:    helpText("experiment.long.txt", "{{spec format}}", experiment.SpecFormat(), "{{example spec}}", experiment.ExampleSpec),
		Example: helpText("experiment.example.txt"),
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runExperiment(cmd, &o, args[0])
		},
	}
	addExperimentFlags(cmd.Flags(), &o)
	return cmd
}

// addExperimentFlags declares experiment's flags into o.
func addExperimentFlags(f *pflag.FlagSet, o *experimentOptions) {
	f.StringVarP(&o.out, "out", "o", "", "write the results into `DIR` (default: SPEC-results beside the SPEC)")
	f.IntVar(&o.jobs, "jobs", 1, "run `N` configurations at once")
	o.maxMemory = driver.DefaultMaxMemory()
	f.Var(&o.maxMemory, "max-memory", "the memory budget of the runs going at once, shared equally: each run gets `SIZE`/jobs as its --max-memory (e.g. 8GiB). "+
		strings.Replace(defaultMemoryHelp, "default", "default budget", 1)+", as for tvla run; 0 means no limit")
	f.DurationVar(&o.timeout, "timeout", 0, "stop each run that sets no timeout of its own after this `DURATION` (e.g. 10m; 0: no limit)")
	f.IntVar(&o.workers, "workers", 0, "each run's --workers (0: the CPUs shared among the jobs); figures do not depend on it")
	f.BoolVarP(&o.quiet, "quiet", "q", false, "no progress lines")
	f.StringVar(&o.cache, "cache", "", "keep the runs' results in `DIR`, reused by later experiments (default: cache in the --out folder)")
	f.BoolVar(&o.fresh, "fresh", false, "make every run again, reusing no stored result (the new results are stored)")
	f.BoolVar(&o.dryRun, "dry-run", false, "check the SPEC (the program loads under every run's options) and print each run's command, without running")
	f.BoolVar(&o.slurm, "slurm", false, "submit the runs to Slurm as one job array (sbatch --array), wait for them and write the report")
	f.StringVar(&o.partition, "partition", "", "with --slurm: the Slurm `PARTITION` of the tasks (default: the cluster's)")
	f.DurationVar(&o.slurmTime, "slurm-time", 0, "with --slurm: each task's time limit `DURATION`, sbatch --time (e.g. 30m; default: the partition's)")
	f.Var(&o.slurmMem, "slurm-mem", "with --slurm: each task's memory `SIZE`, sbatch --mem (e.g. 8GiB; its tvla run stops at 75% of it; default: the partition's)")
	f.StringArrayVar(&o.sbatchArgs, "sbatch-arg", nil, "with --slurm: one more sbatch argument `ARG`, e.g. --sbatch-arg=--account=lab (repeatable)")
	f.BoolVar(&o.noWait, "no-wait", false, "with --slurm: submit and exit; --collect writes the report later")
	f.DurationVar(&o.poll, "poll", 10*time.Second, "with --slurm: how often to ask squeue about the tasks, a `DURATION`")
	f.StringVar(&o.collect, "collect", "", "write the report of a Slurm submission from its results folder `DIR` (the --out of tvla experiment --slurm)")
}

// checkExperimentFlags rejects flags that do not go together.
func checkExperimentFlags(cmd *cobra.Command, o *experimentOptions) error {
	changed := cmd.Flags().Changed
	switch {
	case o.jobs < 1:
		return usageError("--jobs must be at least 1")
	case o.timeout < 0:
		return usageError("--timeout must not be negative")
	case o.workers < 0:
		return usageError("--workers must not be negative")
	case o.slurmTime < 0:
		return usageError("--slurm-time must not be negative")
	case o.poll <= 0:
		return usageError("--poll must be positive")
	case o.slurm && changed("max-memory"):
		return usageError("with --slurm, --slurm-mem sets each task's memory (and its tvla run's --max-memory)")
	}
	if o.collect != "" {
		for _, f := range collectExcluded {
			if changed(f) {
				return usageError("--collect reads a submission's results folder: --%s does not apply", f)
			}
		}
		return nil
	}
	for _, f := range slurmOnlyFlags {
		if changed(f) && !o.slurm {
			return usageError("--%s needs --slurm", f)
		}
	}
	return nil
}

func runExperiment(cmd *cobra.Command, o *experimentOptions, specPath string) error {
	if err := checkExperimentFlags(cmd, o); err != nil {
		return err
	}
	stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
	spec, err := experiment.LoadSpec(specPath)
	if err != nil {
		return &exitError{code: exitInput, err: err}
	}
	if err := experiment.Check(spec); err != nil {
		return &exitError{code: exitInput, err: err}
	}
	runner := &experiment.Runner{Jobs: o.jobs, MaxMemory: uint64(o.maxMemory), Timeout: o.timeout, Workers: o.workers}
	if o.dryRun {
		for _, r := range spec.Runs {
			fmt.Fprintf(stdout, "%s: %s\n", r.Name, experiment.ShellLine(runner.Command(spec, r)))
		}
		return nil
	}
	log := stderr
	if o.quiet {
		log = io.Discard
	}
	if o.collect != "" {
		return collectExperiment(cmd, o, spec, log)
	}
	out := o.out
	if out == "" {
		out = strings.TrimSuffix(specPath, filepath.Ext(specPath)) + "-results"
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return usageError("--out: %v", err)
	}
	exe, err := experiment.Executable()
	if err != nil {
		return usageError("cannot find the tvla executable to run: %v", err)
	}
	runner.Exe, runner.Log = exe, log
	cacheDir := o.cache
	if cacheDir == "" {
		cacheDir = filepath.Join(out, "cache")
	}
	tool, err := experiment.ToolIdentity(versionString(), exe)
	if err != nil {
		return usageError("cannot identify the tvla executable for the cache: %v", err)
	}
	runner.Cache = &experiment.Cache{Dir: cacheDir, Tool: tool, Fresh: o.fresh}
	var backend experiment.Backend = runner
	kill := runner.Kill
	interruptNote := "experiment: interrupted; stopping the runs (Ctrl-C again ends them at once)"
	where := func() string { return "" } // where the runs were made, for the report
	report := &experiment.Report{Spec: spec, Tool: "tvla", Version: versionString(), Jobs: o.jobs, Timeout: o.timeout}
	if o.slurm {
		sb := o.slurmBackend(out, exe, runner.Cache, log)
		backend, kill, where = sb, func() {}, sb.Where
		interruptNote = "experiment: interrupted; no longer waiting (the tasks go on)"
		fmt.Fprintf(log, "experiment: %d runs of %s on Slurm; results in %s, cache in %s\n", len(spec.Runs), spec.Program, out, cacheDir)
	} else {
		// The report records the budget given (0: none given, the
		// default's figure depends on the machine, or no limit).
		if cmd.Flags().Changed("max-memory") {
			report.MaxMemory = uint64(o.maxMemory)
		}
		fmt.Fprintf(log, "experiment: %d runs of %s, %d at a time; results in %s, cache in %s\n", len(spec.Runs), spec.Program, o.jobs, out, cacheDir)
	}
	ctx, stopWatching := watchInterrupts(kill, log, interruptNote)
	defer stopWatching()
	outcomes, runErr := backend.Run(ctx, spec)
	if outcomes == nil && runErr == nil {
		return nil // submitted, not waited for (--no-wait)
	}
	if runErr != nil && ctx.Err() == nil {
		return usageError("%v", runErr)
	}
	report.Outcomes, report.Interrupted, report.Backend = outcomes, runErr != nil, where()
	return writeExperimentReport(report, out, stdout, log)
}

// slurmBackend is the Slurm back end the flags describe.
func (o *experimentOptions) slurmBackend(out, exe string, cache *experiment.Cache, log io.Writer) *slurm.Backend {
	opts := slurm.Options{Partition: o.partition, Time: o.slurmTime, Mem: uint64(o.slurmMem), CPUs: max(o.workers, 1), Sbatch: o.sbatchArgs}
	if o.jobs > 1 {
		opts.MaxRunning = o.jobs
	}
	return &slurm.Backend{Options: opts, Dir: out, Exe: exe, Timeout: o.timeout, Cache: cache, NoWait: o.noWait, Poll: o.poll, Log: log}
}

// collectExperiment writes the report of a Slurm submission from its
// results folder (--collect).
func collectExperiment(cmd *cobra.Command, o *experimentOptions, spec *experiment.Spec, log io.Writer) error {
	sb := &slurm.Backend{Dir: o.collect, Log: log}
	if o.cache != "" {
		sb.Cache = &experiment.Cache{Dir: o.cache}
	}
	outcomes, err := sb.Collect(context.Background(), spec)
	if err != nil {
		return usageError("--collect %s: %v", o.collect, err)
	}
	report := &experiment.Report{Spec: spec, Outcomes: outcomes, Tool: "tvla", Version: versionString(),
		Jobs: 1, Timeout: sb.Timeout, Backend: sb.Where()}
	return writeExperimentReport(report, sb.Dir, cmd.OutOrStdout(), log)
}

// writeExperimentReport writes the report's files into out and its table
// on stdout, and returns the experiment's exit status.
func writeExperimentReport(report *experiment.Report, out string, stdout, log io.Writer) error {
	if err := report.WriteFiles(out); err != nil {
		return usageError("%v", err)
	}
	fmt.Fprint(stdout, report.Table())
	made, reused := report.Tally()
	fmt.Fprintf(log, "experiment: %d runs made, %d reused; wrote %s in %s\n", made, reused, experiment.ReportFiles, out)
	switch {
	case report.Interrupted && report.Backend != "":
		return &exitError{code: exitLimit, err: fmt.Errorf("experiment interrupted: the outputs hold the runs ended so far; the others go on")}
	case report.Interrupted:
		return &exitError{code: exitLimit, err: fmt.Errorf("experiment interrupted: the outputs hold what the runs found")}
	}
	failed, unended := report.Problems()
	if len(failed) > 0 {
		return usageError("%d run(s) failed:\n%s", len(failed), strings.Join(failed, "\n"))
	}
	if len(unended) > 0 {
		return &exitError{code: exitLimit, err: fmt.Errorf("%d run(s) did not end:\n%s", len(unended), strings.Join(unended, "\n"))}
	}
	return nil
}

// watchInterrupts returns the context the runs go under: the first
// Ctrl-C (or SIGTERM) ends it, which stops the runs cleanly, and writes
// note; a second one kills them. stop stops watching.
func watchInterrupts(kill func(), log io.Writer, note string) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	watchDone := make(chan struct{})
	go func() {
		for n := 0; ; n++ {
			select {
			case <-signals:
				if n == 0 {
					fmt.Fprintln(log, note)
					cancel()
				} else {
					kill()
				}
			case <-watchDone:
				return
			}
		}
	}()
	return ctx, func() {
		close(watchDone)
		signal.Stop(signals)
		cancel()
	}
}
