package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/tvla-go/tvla/driver"
	"github.com/tvla-go/tvla/soundness"
	"github.com/tvla-go/tvla/tvl"
)

// embedOptions are the flags of `tvla embed`.
type embedOptions struct {
	cfg           driver.Config // the flags embed shares with run
	quiet         bool
	maxStructures int
	jsonOut       string
	explain       int
}

// Defaults that keep an embedding check of a small program to seconds.
const (
	embedDefaultDepth      = 100
	embedDefaultStructures = 20000
)

func newEmbedCommand() *cobra.Command {
	o := embedOptions{cfg: driver.Defaults("")}
	cmd := &cobra.Command{
		Use:     "embed PROGRAM.tvp [INPUT.tvs ...]",
		Short:   "Check the analysis against concrete runs (Embedding Theorem)",
		Long:    helpText("embed.long.txt"),
		Example: helpText("embed.example.txt"),
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runEmbed(cmd, &o, args)
		},
	}
	f := cmd.Flags()
	r := &o.cfg
	f.StringArrayVarP(&r.Defines, "define", "D", nil, "define a preprocessor macro: NAME or NAME=VALUE (TVLA: -DNAME, -DNAME(VALUE))")
	f.StringArrayVar(&r.SearchPath, "path", nil, "add `DIR` to the #include search path")
	f.StringVar(&r.Join, "join", driver.DefaultJoin, "the abstract run's join: "+driver.OrList(driver.AbstractJoins(true), false))
	f.StringVar(&r.ActionOrder, "action", "fcpucb", "order of the steps of an action: [f][c]pu[c]b")
	f.StringVar(&r.Properties, "props", "", "a TVLA .properties `FILE` (join, action order, differencing)")
	f.BoolVar(&r.CollapseThreads, "collapse-threads", false, "define the macro COLLAPSE_THREADS, as tvla run --collapse-threads does")
	addAbstractionFlags(f, r)
	f.IntVar(&r.Workers, "workers", 0, "use `N` goroutines; 0 means one per CPU (the result is the same for any N)")
	f.BoolVar(&r.SkipSuperseded, "skip-superseded", false, "the abstract run processes only the latest version of a structure that grew while queued, as tvla run --skip-superseded does")
	f.BoolVarP(&o.quiet, "quiet", "q", false, "no progress output")
	addConcreteFlags(f, &r.Concrete, embedDefaultDepth)
	f.IntVar(&o.maxStructures, "max-structures", embedDefaultStructures, "stop the concrete run after this many structures (the check covers those)")
	addLimitFlags(f, r)
	f.StringVar(&o.jsonOut, "json", "", "write the check's summary as JSON to `FILE` (- for standard output)")
	f.IntVar(&o.explain, "explain", 3, "explain at most `N` failures (trace, concrete structure, closest abstract ones); the rest are counted")
	return cmd
}

func runEmbed(cmd *cobra.Command, o *embedOptions, args []string) error {
	stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
	cfg := &o.cfg
	cfg.Program, cfg.Inputs, cfg.Explicit = args[0], args[1:], changedFlags(cmd)
	if err := cfg.Validate(); err != nil {
		return inputError(err)
	}
	if o.maxStructures < 0 || o.explain < 0 {
		return usageError("--max-structures and --explain must not be negative")
	}
	if err := driver.CheckOutputFile("--json", o.jsonOut, false); err != nil {
		return inputError(err)
	}
	// The limits and the signals hold from the first byte read (as for
	// tvla run): a load they cut short ends with exit 3, nothing checked.
	ctx, stop := startLimits(cfg.Timeout, cfg.MaxMemory)
	defer stop()
	if err := cfg.ApplyProperties(stderr); err != nil {
		return inputError(err)
	}
	if driver.IsConcrete(cfg.Join) {
		return usageError("--join conc is the concrete side already: give the abstract run's join, part, rel or ind")
	}
	if cfg.Join == driver.JoinDecompose {
		return usageError("%v", driver.ErrDecomposeEmbed)
	}
	opts := driver.EmbedOptions{MaxStructures: o.maxStructures, Explain: o.explain}
	var e *driver.EmbedOutcome
	var stopped *driver.StoppedError
	s, err := driver.OpenContext(ctx, *cfg, driver.Hooks{Warnings: stderr, Log: logWriter(stderr, o.quiet)})
	switch {
	case errors.As(err, &stopped):
		e = driver.StoppedEmbedOutcome(cfg, opts, stopped)
	case err != nil:
		return inputError(err)
	default:
		if e, err = s.Embed(ctx, opts); err != nil {
			return inputError(err)
		}
	}
	stop()
	out := stdout
	if o.jsonOut == "-" {
		out = stderr
	}
	printEmbedReport(out, e)
	if o.jsonOut != "" {
		if err := driver.WriteJSON(o.jsonOut, e.Summary(versionString()), stdout); err != nil {
			return inputError(err)
		}
	}
	return embedStatus(e)
}

// embedStatus is the exit status of an embedding check.
func embedStatus(e *driver.EmbedOutcome) error {
	rep := e.Report
	switch {
	case rep != nil && !rep.Sound():
		return &exitError{code: exitMessages}
	case e.StopReason != "":
		return &exitError{code: exitLimit, err: fmt.Errorf("stopped early: %s", e.StopReason)}
	case e.Abstract.Incomplete:
		return &exitError{code: exitLimit, err: fmt.Errorf("the abstract run stopped early (%s): no check without its fixpoint", e.Abstract.StopReason)}
	case rep.Incomplete || rep.UndecidedCount() > 0:
		return &exitError{code: exitLimit, err: fmt.Errorf("the check is incomplete")}
	}
	return nil
}

// printEmbedReport writes the per-location table, the totals, the notes,
// false claims, missed messages and explained failures, and the verdict.
func printEmbedReport(w io.Writer, e *driver.EmbedOutcome) {
	rep := e.Report
	if rep != nil {
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "location\tconcrete\tabstract\tfailed\t")
		for _, l := range rep.Locations {
			fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t\n", l.Label, l.Concrete, l.Abstract, l.Failed)
		}
		tw.Flush()
		fmt.Fprintln(w)
	}
	runState := func(r *driver.Result) string {
		if r.Incomplete {
			return "stopped: " + r.StopReason
		}
		return "fixpoint"
	}
	abs, conc := e.Abstract, e.Concrete
	fmt.Fprintf(w, "concrete run   %d structures from %d concrete inputs, %d messages (%s)\n",
		conc.Stats.Stored, e.ConcreteInputs, conc.Stats.Messages, runState(conc))
	fmt.Fprintf(w, "abstract run   %d structures, %d messages (%s)\n", abs.Stats.Stored, abs.Stats.Messages, runState(abs))
	if rep == nil {
		fmt.Fprintf(w, "\nnot checked: the abstract run did not reach its fixpoint (%s)\n", abs.StopReason)
		return
	}
	fmt.Fprintf(w, "checked        %d of %d concrete structures: %d embed nowhere, %d undecided\n",
		rep.Checked, conc.Stats.Stored, rep.FailedCount(), rep.UndecidedCount())
	fmt.Fprintf(w, "time           %.3fs (check %.3fs)\n", e.Elapsed.Seconds(), rep.Elapsed.Seconds())
	printEmbedClaims(w, rep)
	printEmbedFailures(w, rep, abs)
	fmt.Fprintln(w)
	switch {
	case !rep.Sound():
		fmt.Fprintf(w, "NOT SOUND: %d concrete structure(s) embed into no abstract structure at their location, %d concrete message(s) missed, %d claim(s) of the program false on a reached state\n",
			rep.FailedCount(), len(rep.Missed), len(rep.Broken))
	case e.StopReason != "":
		fmt.Fprintf(w, "stopped early: %s; no failure among the %d concrete structures checked\n", e.StopReason, rep.Checked)
	case rep.UndecidedCount() > 0:
		fmt.Fprintf(w, "undecided: %d concrete structures could not be decided within the search budget\n", rep.UndecidedCount())
	default:
		fmt.Fprintf(w, "sound on these inputs: every concrete structure embeds into an abstract structure at its location\n")
	}
}

// printEmbedClaims writes the concrete run's notes, the program's claims
// it found false, and the messages the analysis missed.
func printEmbedClaims(w io.Writer, rep *soundness.Report) {
	if notes := driver.DistinctNotes(rep); len(notes) > 0 {
		fmt.Fprintln(w, "\nnotes from the concrete run:")
		for _, m := range notes {
			fmt.Fprintf(w, "  %s: %s (action %s)\n", m.Location, strings.TrimPrefix(m.Text, driver.ConcreteCheck), m.Action)
		}
	}
	for _, m := range rep.Broken {
		rule := strings.HasPrefix(m.Text, driver.BrokenRule)
		fmt.Fprintf(w, "\nFALSE CLAIM at %s: %s (action %s)\n", m.Location, strings.TrimPrefix(m.Text, driver.ConcreteCheck), m.Action)
		printConcreteTrace(w, m.Trace, true)
		if n := len(m.Trace); n > 0 {
			if rule {
				fmt.Fprintf(w, "  the state %s reaches, which breaks the constraint:\n", m.Action)
			} else {
				fmt.Fprintf(w, "  the state %s starts from:\n", m.Action)
			}
			fmt.Fprint(w, indentTVS(m.Trace[n-1].Structure, "    "))
		}
	}
	for _, m := range rep.Missed {
		fmt.Fprintf(w, "\nMISSED MESSAGE at %s: the concrete run raises %q (action %s), the analysis does not raise it there\n",
			m.Location, driver.OneLine(m.Text), m.Action)
		printConcreteTrace(w, m.Trace, true)
	}
}

// printEmbedFailures explains the failures the check explained: a trace,
// the concrete structure, the closest abstract ones and their mismatches.
func printEmbedFailures(w io.Writer, rep *soundness.Report, abs *driver.Result) {
	explained := 0
	for i, f := range rep.Failures {
		if f.Candidates == nil && f.Trace == nil {
			continue
		}
		explained++
		what := "embeds into none of the"
		if f.Undecided {
			what = "was not decided (search budget) against the"
		}
		fmt.Fprintf(w, "\nFAILURE %d of %d: at %s, concrete structure %d %s %d abstract structures there\n",
			i+1, len(rep.Failures), f.Location, f.Index+1, what, abs.Location(f.Location).Structures.Len())
		printConcreteTrace(w, f.Trace, false)
		fmt.Fprintln(w, "  concrete structure:")
		fmt.Fprint(w, indentTVS(f.Concrete, "    "))
		if len(f.Candidates) == 0 {
			fmt.Fprintf(w, "  the analysis keeps no structure at %s\n", f.Location)
			continue
		}
		fmt.Fprintln(w, "  closest abstract structures:")
		for _, c := range f.Candidates {
			fmt.Fprintf(w, "    abstract structure %d at %s: %d mismatch(es) under %s\n", c.Index+1, f.Location, len(c.Mismatches), mapString(c.Map))
			for j, m := range c.Mismatches {
				if j == 8 {
					fmt.Fprintf(w, "      ... and %d more\n", len(c.Mismatches)-8)
					break
				}
				fmt.Fprintf(w, "      %s\n", m)
			}
			fmt.Fprint(w, indentTVS(c.Structure, "      "))
		}
	}
	if n := len(rep.Failures) - explained; n > 0 {
		fmt.Fprintf(w, "\n(%d more failures not explained; see --explain)\n", n)
	}
}

// printConcreteTrace writes a concrete trace; for a message, its last
// step is the action that raises it.
func printConcreteTrace(w io.Writer, steps []driver.TraceStep, message bool) {
	fmt.Fprintln(w, "  how the concrete run got there:")
	for i, st := range steps {
		switch {
		case i == 0:
			fmt.Fprintf(w, "    %2d  %-8s input structure (%d individuals)\n", i, st.Location, st.Structure.Size())
		case message && i == len(steps)-1:
			fmt.Fprintf(w, "    %2d  %-8s %s raises the message\n", i, st.Location, st.Action)
		default:
			fmt.Fprintf(w, "    %2d  %-8s after %s\n", i, st.Location, st.Action)
		}
	}
}

func indentTVS(s *tvl.Structure, indent string) string {
	var b strings.Builder
	s.WriteTVS(&b, indent)
	return b.String()
}

// mapString writes a map of individuals as u0→u1, u1→u1.
func mapString(f []int) string {
	var parts []string
	for u, w := range f {
		parts = append(parts, fmt.Sprintf("%s→%s", tvl.IndividualName(u), tvl.IndividualName(w)))
	}
	if len(parts) == 0 {
		return "the empty map"
	}
	return strings.Join(parts, ", ")
}
