package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/tvla-go/tvla/driver"
	"github.com/tvla-go/tvla/experiment"
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
}

const exampleSpec = `  # stack.toml, beside stack.tvp
  title = "Treiber's stack: collapsed threads against bounded ones"
  program = "stack.tvp"            # relative to this file
  input = "stack.tvs"              # optional: PROGRAM.tvs beside it by default

  [baseline]
  name = "collapsed"
  collapse_threads = true

  [[variant]]
  name = "threads-2"
  description = "two threads, not collapsed"
  collapse_threads = false
  defines = { THREADS = 2 }

  [[variant]]
  name = "rel-join"
  join = "rel"
  max_structures = 20000           # the run stops there: marked >N
  timeout = "2m"

  [[variant]]
  name = "doneLP-abs"
  abs = ["doneLP"]                 # also: nonabs = ["p", "q"]`

func newExperimentCommand() *cobra.Command {
	var o experimentOptions
	cmd := &cobra.Command{
		Use:   "experiment SPEC.toml",
		Short: "Run a program under several configurations and compare them with a baseline",
		Long: `Experiment runs one TVP program under the configurations a SPEC file lists — a
baseline and its variants — and compares their state spaces, as the tables of
Friggens' thesis compare predicate choices, thread bounds, interleavings and
joins.

The SPEC is TOML: program (a path relative to the SPEC), optionally input,
title and description, a [baseline] table and any number of [[variant]]
tables. The baseline and each variant may set:

  name              letters, digits and - _ . + (required for a variant;
                    the baseline's defaults to "baseline")
  description       a sentence for the report
  defines           macros: { THREADS = 2, FULL_INTERLEAVING = true, X = "v" };
                    false leaves a macro undefined
  join              ` + experimentJoins() + `
  collapse_threads  true or false (tvla run --collapse-threads)
  abs, nonabs       lists of predicates (tvla run --abs, --nonabs)
  max_structures    stop the run after this many structures (0: no limit)
  timeout           stop the run after this long, e.g. "90s" (0s: no limit)

A variant is the baseline with what it sets: each key replaces the
baseline's, except defines, which change the baseline's macros one by one.
Unknown keys and values of the wrong kind are errors (SPEC:line:col).

Each run is a "tvla run" of this executable with the run's options (the
command is in the report), so its figures are exactly what tvla run reports.
--jobs runs go at once; --max-memory is shared among them (each gets
SIZE/jobs as its tvla run --max-memory; by default the budget is tvla run's
default limit, so that the runs together stay within it, and
--max-memory 0 gives every run no limit); --timeout bounds every run that sets
no timeout. A run stopped by a limit shows its figures as >N (lower bounds)
and its verdict names the limit.

Outputs, in --out (default: SPEC-results/ beside the SPEC, e.g.
experiments-results/ for experiments.toml): results.md (a Markdown table:
per run the unscheduled, stored and examined structures, constraint
breaches, time and peak memory, each also as a percentage of the baseline's,
and the verdict; then each run's command line), results.csv, results.json
(with every run's own JSON summary) and chart.svg (bars of stored
structures and time per run). The table is printed on standard output too;
a line per run started and ended goes to standard error.

Runs already made are not made again: each run's result is stored in a
cache (--cache, default OUT/cache) under a key of everything that decides it
— the run's options, the text of every file it reads (the program, what it
includes, the input, PROGRAM.properties) and the tvla that runs it (its
version; for a development build, the executable's SHA-256) — and a later
experiment with a run of the same key reuses the result: the table marks it
"(reused)". So adding a variant makes one run, and an interrupted experiment
started again makes only the runs it did not finish. A run stopped by the
time or memory limit, or interrupted, is not stored; one stopped by
max_structures is (it stops at the same point every time). --fresh makes
every run again (and stores the new results).

Ctrl-C (or SIGTERM) stops the runs going on as Ctrl-C stops tvla run (their
figures become lower bounds), starts no more, writes the outputs and exits
3; a second Ctrl-C ends the runs at once.

Exit status: 0 every run ran (whatever its verdict), 2 a bad SPEC (or a run
that failed on bad input), 3 interrupted.

A SPEC:

` + exampleSpec,
		Example: `  tvla experiment programs/stack/experiments.toml
  tvla experiment programs/queue/experiments.toml --jobs 2 --max-memory 8GiB --timeout 10m
  tvla experiment programs/stack/experiments.toml --dry-run
  tvla experiment programs/stack/experiments.toml --out stack-results -q`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runExperiment(cmd, &o, args[0])
		},
	}
	f := cmd.Flags()
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
	return cmd
}

func runExperiment(cmd *cobra.Command, o *experimentOptions, specPath string) error {
	switch {
	case o.jobs < 1:
		return usageError("--jobs must be at least 1")
	case o.timeout < 0:
		return usageError("--timeout must not be negative")
	case o.workers < 0:
		return usageError("--workers must not be negative")
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
	log := stderr
	if o.quiet {
		log = io.Discard
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

	ctx, stopWatching := watchInterrupts(runner, log)
	defer stopWatching()

	fmt.Fprintf(log, "experiment: %d runs of %s, %d at a time; results in %s, cache in %s\n", len(spec.Runs), spec.Program, o.jobs, out, cacheDir)
	outcomes, runErr := runner.Run(ctx, spec)
	// The report records the budget given (0: none given, the default's
	// figure depends on the machine, or no limit).
	budget := uint64(o.maxMemory)
	if !cmd.Flags().Changed("max-memory") {
		budget = 0
	}
	report := &experiment.Report{Spec: spec, Outcomes: outcomes, Tool: "tvla", Version: versionString(),
		Jobs: o.jobs, MaxMemory: budget, Timeout: o.timeout, Interrupted: runErr != nil}
	if err := report.WriteFiles(out); err != nil {
		return usageError("%v", err)
	}
	fmt.Fprint(stdout, report.Table())
	made, reused := report.Tally()
	fmt.Fprintf(log, "experiment: %d runs made, %d reused; wrote %s in %s\n", made, reused, experiment.ReportFiles, out)
	if runErr != nil {
		return &exitError{code: exitLimit, err: fmt.Errorf("experiment interrupted: the outputs hold what the runs found")}
	}
	var failed []string
	for _, oc := range outcomes {
		if oc.Status == experiment.Failed {
			failed = append(failed, fmt.Sprintf("%s: %s", oc.Run.Name, oc.Error))
		}
	}
	if len(failed) > 0 {
		return usageError("%d run(s) failed:\n%s", len(failed), strings.Join(failed, "\n"))
	}
	return nil
}

// watchInterrupts returns the context the runs go under: the first
// Ctrl-C (or SIGTERM) ends it, which stops the runs cleanly; a second one
// kills them. stop stops watching.
func watchInterrupts(runner *experiment.Runner, log io.Writer) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	watchDone := make(chan struct{})
	go func() {
		for n := 0; ; n++ {
			select {
			case <-signals:
				if n == 0 {
					fmt.Fprintln(log, "experiment: interrupted; stopping the runs (Ctrl-C again ends them at once)")
					cancel()
				} else {
					runner.Kill()
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

// experimentJoins lists the joins a spec may choose: the abstract ones,
// the default first.
func experimentJoins() string {
	joins := driver.AbstractJoins(true)
	return strconv.Quote(joins[0]) + " (default), " + driver.OrList(joins[1:], true)
}
