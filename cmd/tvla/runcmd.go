package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/tvla-go/tvla/driver"
	"github.com/tvla-go/tvla/predicates"
)

// runOptions are the flags of `tvla run`, named as in the command-line
// contract (docs/cli-contract.md): the run's Config, and what to print
// and write.
type runOptions struct {
	cfg     driver.Config
	tvsOut  string
	dotOut  string
	svgDir  string
	htmlOut string
	jsonOut string
	quiet   bool
	// progressEvery is --progress-every: progress as whole lines.
	progressEvery time.Duration
	// explainUpdates names an action whose derived updates to print.
	explainUpdates string
	trace          bool
	traceTVS       string
	// decompose is --decompose: --join decomp.
	decompose bool
}

func newRunCommand() *cobra.Command {
	o := runOptions{cfg: driver.Defaults("")}
	cmd := &cobra.Command{
		Use:     "run PROGRAM.tvp [INPUT.tvs ...]",
		Short:   "Analyse a TVP program to a fixpoint",
		Long:    helpText("run.long.txt", "{{memory percent}}", fmt.Sprint(driver.DefaultMemoryPercent), "{{spill percent}}", fmt.Sprint(driver.DefaultSpillPercent)),
		Example: helpText("run.example.txt"),
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runAnalysis(cmd, &o, args)
		},
	}
	addRunFlags(cmd.Flags(), &o)
	return cmd
}

// addRunFlags declares tvla run's flags.
func addRunFlags(f *pflag.FlagSet, o *runOptions) {
	c := &o.cfg
	f.StringArrayVarP(&c.Defines, "define", "D", nil, "define a preprocessor macro: NAME or NAME=VALUE (TVLA: -DNAME, -DNAME(VALUE))")
	f.StringVar(&c.Join, "join", driver.DefaultJoin, "how structures at a location are joined: "+
		strings.Join(driver.AbstractJoins(false), ", ")+", or "+driver.OrList(driver.ConcreteJoins(), false)+" for a concrete run")
	f.BoolVar(&o.decompose, "decompose", false, "graph decomposition, TVLA 3's dtvla engine (the same as --join decomp): each location keeps the components the program's %dname declarations name, composed per action by its %compose")
	f.StringVar(&c.ActionOrder, "action", "fcpucb", "order of the steps of an action: [f][c]pu[c]b")
	f.StringVar(&c.Properties, "props", "", "a TVLA .properties `FILE` whose result-changing keys are honoured")
	f.IntVar(&c.MaxStructures, "max-structures", 0, "stop (exit 3) after this many structures; 0 means no limit")
	f.IntVar(&c.MaxMessages, "max-messages", 0, "stop after this many messages; 0 means no limit")
	f.BoolVar(&c.CollapseThreads, "collapse-threads", false, "merge unscheduled threads into one summary object (thesis Chapter 8): defines the macro COLLAPSE_THREADS, under which a model makes its thread predicates nonabs and adds its soft invariants")
	addAbstractionFlags(f, c)
	f.StringVar(&c.Soft.Mode, "soft-invariants", driver.SoftOff, "with --collapse-threads, generate the soft invariants if[L,p] and nif[L,p] for every location L and thread predicate p (auto), run, and report which held; report also prints those that held as TVP declarations: off, auto or report")
	f.StringVar(&c.Soft.LocationPattern, "soft-locations", predicates.DefaultLocationPattern, "the location predicates of --soft-invariants: unary predicates whose name matches `PATTERN`, * standing for the location")
	f.StringArrayVar(&c.Soft.Preds, "soft-pred", nil, "the thread predicates of --soft-invariants are these `PREDICATE`s instead of the non-abstraction unary ones; repeatable")
	f.StringArrayVar(&c.Soft.Skip, "soft-skip", nil, "leave `PREDICATE` out of the thread predicates of --soft-invariants; repeatable")
	f.IntVar(&c.Soft.Rounds, "soft-rounds", driver.DefaultSoftRounds, "at most `N` runs of --soft-invariants (or of an algorithm's generated soft invariants, with --collapse-threads): while one does not verify, the next adds conditional soft invariants for the thread predicates left 1/2 at a location")
	f.StringVar(&c.Soft.Out, "soft-invariants-out", "", "write the soft invariants that held as TVP declarations to `FILE`")
	f.StringVar(&c.Soft.From, "soft-from", "", "start from the saved soft-invariant set in `FILE` (default PROGRAM.soft beside the program, when it exists; none: no set); a set of pair lines alone generates them all with its pairs")
	f.StringVar(&c.Soft.Save, "soft-save", "", "when the run verifies, save the soft invariants that held as a set to `FILE`, for --soft-from")
	f.StringVar(&o.tvsOut, "tvs", "", "write the final structures per location as TVS to `FILE`")
	f.StringVar(&o.traceTVS, "trace-tvs", "", "write, for every message, the structures of its shortest abstract trace (one per step, as --trace lists them) as TVS to `FILE`")
	f.StringVar(&o.dotOut, "dot", "", "write the final structures per location as Graphviz DOT to `FILE`")
	f.StringVar(&o.svgDir, "svg", "", "render every structure and the CFG as SVG into `DIR`")
	f.StringVar(&o.htmlOut, "html", "", "write a self-contained HTML report to `FILE`")
	f.StringVar(&o.jsonOut, "json", "", "write the JSON summary to `FILE` (- for standard output)")
	f.BoolVarP(&o.quiet, "quiet", "q", false, "no progress output")
	f.DurationVar(&o.progressEvery, "progress-every", 0, "print a progress line on stderr every `DURATION` (e.g. 1m), as whole lines even when stderr is a file, for the logs of batch jobs; given with -q it still prints them; 0: a status line on a terminal only")
	f.IntVar(&c.Workers, "workers", 0, "apply actions on `N` goroutines; 0 means one per CPU (the result is the same for any N)")
	f.StringArrayVar(&c.SearchPath, "path", nil, "add `DIR` to the #include search path")
	f.StringVar(&c.Closure, "closure", "full", "which contrapositives of instrumentation definitions Coerce enforces: full (sharper, sound) or tvla (only for bodies of two or more conjuncts, as TVLA 3)")
	f.BoolVar(&o.trace, "trace", false, "print, for every message, a shortest abstract trace from an input structure")
	f.StringArrayVar(&c.Watch, "watch", nil, "raise a message after every application that leaves the unary `PREDICATE` (a soft invariant such as 'if[L,p]') not 1 on some thread, to find where the abstraction first loses a fact (with --max-messages 1 --trace: the shortest path there); repeatable. These are messages like the program's: the run does not verify")
	f.BoolVar(&c.SkipSuperseded, "skip-superseded", false, "process only the latest version of a stored structure that grew by a join while it waited (TVLA processes every version): sound, often far fewer actions applied on collapsed-thread models, but the stored counts may differ from TVLA's")
	f.StringVar(&o.explainUpdates, "explain-updates", "", "print the update formulas finite differencing derives for `ACTION` (a name, or a use such as \"Copy(x, y)\"), and stop")
	addLimitFlags(f, c)
	f.StringVar(&c.SpillDir, "spill-dir", "", "when the live heap passes half of --max-memory, write the stored structures used least recently to a file in `DIR` (removed as it is made) and go on; the result is the same")
	f.StringVar(&c.Checkpoint, "checkpoint", "", "write the run's state to `FILE` when a limit or an interrupt stops it (and every --checkpoint-every), for --resume")
	f.DurationVar(&c.CheckpointEvery, "checkpoint-every", 0, "with --checkpoint, also write it every `DURATION` of the run (e.g. 30m): a run killed outright loses at most that much")
	f.StringVar(&c.Resume, "resume", "", "go on from the checkpoint `FILE` of an earlier run of the same program with the same options, instead of from the inputs; the result is the one run without a stop would give")
	f.Var(&c.SpillAt, "spill-at", "with --spill-dir, spill once the live heap passes `SIZE` instead of half of --max-memory (for tests)")
	f.MarkHidden("spill-at")
	addConcreteFlags(f, &c.Concrete, 0)
	f.StringVar(&c.CPUProfile, "cpuprofile", "", "write a CPU profile of the analysis to `FILE` (for developers)")
	f.MarkHidden("cpuprofile")
	f.StringVar(&c.MemProfile, "memprofile", "", "after the analysis, write a heap profile of what its result keeps live to `FILE` (for developers)")
	f.MarkHidden("memprofile")
}

func runAnalysis(cmd *cobra.Command, o *runOptions, args []string) error {
	stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
	cfg := &o.cfg
	cfg.Program, cfg.Inputs, cfg.Explicit = args[0], args[1:], changedFlags(cmd)
	if o.decompose {
		if cfg.Explicit["join"] && cfg.Join != driver.JoinDecompose {
			return inputError(fmt.Errorf("--decompose is --join %s: it cannot go with --join %s", driver.JoinDecompose, cfg.Join))
		}
		cfg.Join = driver.JoinDecompose
		cfg.Explicit["join"] = true
	}
	if err := cfg.Validate(); err != nil {
		return inputError(err)
	}
	if o.progressEvery < 0 {
		return inputError(fmt.Errorf("--progress-every %s: the interval must not be negative", o.progressEvery))
	}
	// Every output is checked before anything is read: a path that could
	// not be written is bad input now, not after the analysis.
	out := &driver.Outputs{TVS: o.tvsOut, TraceTVS: o.traceTVS, DOT: o.dotOut, SVG: o.svgDir, HTML: o.htmlOut, JSON: o.jsonOut,
		SoftTVP: cfg.Soft.Out, SoftSet: cfg.Soft.Save, Stdout: stdout, Version: versionString(), Render: newRenderBar(stderr, o.quiet)}
	if err := out.Check(); err != nil {
		return inputError(err)
	}
	// The limits and the signals hold from the first byte read: a load or
	// an engine build they cut short ends as a run stopped early would,
	// with nothing explored (exit 3, outputs written).
	ctx, stop := startLimits(cfg.Timeout, cfg.MaxMemory)
	defer stop()
	if err := cfg.ApplyProperties(stderr); err != nil {
		return inputError(err)
	}
	progress := newProgress(stderr, o.quiet)
	if o.progressEvery > 0 {
		progress = newProgressLines(stderr, o.progressEvery)
	}
	s, err := driver.OpenContext(ctx, *cfg, driver.Hooks{Warnings: stderr, Log: logWriter(stderr, o.quiet), Progress: progress})
	if err == nil {
		err = s.CompileContext(ctx)
	}
	var outcome *driver.Outcome
	var stopped *driver.StoppedError
	switch {
	case errors.As(err, &stopped):
		outcome = driver.StoppedOutcome(cfg, stopped)
	case err != nil:
		return inputError(err)
	case o.explainUpdates != "":
		return explainUpdates(stdout, s, o.explainUpdates)
	default:
		if outcome, err = s.Run(ctx); err != nil {
			return inputError(err)
		}
		reportSpill(stderr, logWriter(stderr, o.quiet), cfg.SpillDir, outcome.Result.Stats.Spill)
		for _, name := range s.Unwatched() {
			fmt.Fprintf(stderr, "warning: --watch %s: no soft-invariant round declared a unary predicate of that name\n", name)
		}
	}
	stop()
	if err := o.report(outcome, out, stdout, stderr); err != nil {
		return inputError(err)
	}
	return runStatus(outcome.Result)
}

// report prints the run's table (on stderr when the JSON summary goes to
// stdout) and writes the outputs asked for.
func (o *runOptions) report(oc *driver.Outcome, out *driver.Outputs, stdout, stderr io.Writer) error {
	table := stdout
	if o.jsonOut == "-" {
		table = stderr
	}
	if !(o.quiet && o.jsonOut == "-") {
		printTable(table, oc.Result, oc.Constraints)
		if oc.Soft != nil {
			printSoftTable(table, oc.Soft)
			if o.cfg.Soft.Mode == driver.SoftReport {
				fmt.Fprintln(table)
				oc.Soft.WriteTVP(table)
			}
		}
	}
	if err := out.WriteSoftTVP(oc); err != nil {
		return err
	}
	if err := out.WriteSoftSet(oc, stderr); err != nil {
		return err
	}
	if o.trace {
		printTraces(table, oc.Result)
	}
	if err := out.WriteTVS(oc); err != nil {
		return err
	}
	if err := out.WriteTraceTVS(oc); err != nil {
		return err
	}
	if err := out.WriteDOT(oc); err != nil {
		return err
	}
	if out.Pictures() {
		// Ctrl-C while the pictures render stops them: no half report.
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		err := out.WritePictures(ctx, oc)
		stop()
		if err != nil {
			return err
		}
	}
	return out.WriteSummary(oc)
}

// runStatus is the exit status of a run that ended as res did.
func runStatus(res *driver.Result) error {
	switch {
	case res.StoppedOnMessage:
		return &exitError{code: exitMessages, err: fmt.Errorf("stopped: %s", res.StopReason)}
	case res.Incomplete:
		return &exitError{code: exitLimit, err: fmt.Errorf("stopped early: %s", res.StopReason)}
	case res.Stats.Messages > 0:
		return &exitError{code: exitMessages}
	}
	return nil
}

// changedFlags names the flags given on the command line: a .properties
// file does not override them.
func changedFlags(cmd *cobra.Command) map[string]bool {
	given := map[string]bool{}
	cmd.Flags().Visit(func(f *pflag.Flag) { given[f.Name] = true })
	return given
}

// reportSpill says what a run spilled: a line on log, and a warning on
// stderr when spilling stopped early.
func reportSpill(stderr, log io.Writer, dir string, sp driver.SpillStats) {
	if sp.Err != "" {
		fmt.Fprintf(stderr, "warning: spilling to %s stopped: %s\n", dir, sp.Err)
	}
	if sp.Structures > 0 {
		fmt.Fprintf(log, "spilled %d structures (%s) to %s in %d rounds; %d read back\n",
			sp.Structures, driver.ReadableBytes(uint64(sp.Bytes)), dir, sp.Rounds, sp.Reads)
	}
}

// logWriter is where the notes -q leaves out go.
func logWriter(stderr io.Writer, quiet bool) io.Writer {
	if quiet {
		return io.Discard
	}
	return stderr
}

// tvlaFlags maps TVLA 3's single-dash long options to ours.
var tvlaFlags = map[string]string{
	"-join": "--join", "-action": "--action", "-props": "--props",
	"-ms": "--max-structures", "-mm": "--max-messages", "-tvs": "--tvs",
	"-dot": "--dot", "-path": "--path", "-terse": "--quiet",
}

// normalizeTVLAFlags rewrites TVLA's spellings into ours, so that scripts
// written for TVLA 3 keep working. -DNAME and -DNAME(VALUE) already parse
// as the -D shorthand with an attached value.
func normalizeTVLAFlags(args []string) []string {
	out := make([]string, 0, len(args))
	for i, a := range args {
		if a == "--" {
			return append(out, args[i:]...)
		}
		if long, ok := tvlaFlags[a]; ok {
			out = append(out, long)
			continue
		}
		if name, val, ok := strings.Cut(a, "="); ok {
			if long, ok := tvlaFlags[name]; ok {
				out = append(out, long+"="+val)
				continue
			}
		}
		out = append(out, a)
	}
	return out
}

// addAbstractionFlags registers --abs and --nonabs, which change the
// model: run and embed take them alike, so that embed checks the model
// run analysed.
func addAbstractionFlags(f *pflag.FlagSet, c *driver.Config) {
	f.StringArrayVar(&c.Abs, "abs", nil, "make `PREDICATE` (unary or nullary) an abstraction predicate, whatever its declaration says; repeatable")
	f.StringArrayVar(&c.NonAbs, "nonabs", nil, "make `PREDICATE` a non-abstraction predicate, whatever its declaration says; repeatable")
}
