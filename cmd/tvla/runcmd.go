package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime/pprof"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tvla-go/tvla/engine"
	"github.com/tvla-go/tvla/predicates"
	"github.com/tvla-go/tvla/tvp"
)

// runOptions are the flags of `tvla run`, named as in the command-line
// contract (docs: ../shared/docs/cli-contract.md).
type runOptions struct {
	defines         []string
	join            string
	action          string
	props           string
	maxStructures   int
	maxMessages     int
	collapseThreads bool
	// abs and nonabs name predicates made abstraction predicates, or not,
	// whatever their declarations say.
	abs     []string
	nonabs  []string
	tvsOut  string
	dotOut  string
	svgDir  string
	htmlOut string
	jsonOut string
	quiet   bool
	paths   []string
	// breakIfCoerceFails mirrors TVLA's breakIfCoerceAfterUpdateFailed
	// property (default on).
	breakIfCoerceFails bool
	// differencing mirrors tvla.differencing.difference (default on).
	differencing bool
	cpuProfile   string
	// explainUpdates names an action whose derived updates to print.
	explainUpdates string
	trace          bool
	workers        int
	closure        string
	limits         limitOptions
	concrete       concreteOptions
	soft           softOptions
}

var actionOrder = regexp.MustCompile(`^f?c?puc?b$`)

// collapseMacro is the preprocessor macro --collapse-threads defines.
const collapseMacro = "COLLAPSE_THREADS"

func newRunCommand() *cobra.Command {
	var o runOptions
	cmd := &cobra.Command{
		Use:   "run PROGRAM.tvp [INPUT.tvs ...]",
		Short: "Analyse a TVP program to a fixpoint",
		Long: `Run explores the abstract state space of a TVP program from its input
structures until a fixpoint, and reports per location the structures reached
and any messages raised.

Without INPUT.tvs, PROGRAM.tvs beside the program is used when it exists,
else the empty structure. TVLA 3's spellings of the flags (-join part, -ms 100,
-DNAME(VALUE), -props FILE, -terse) are accepted too.

With --join conc the program runs on concrete (two-valued) structures, without
Blur: each summary individual of an input stands for 1 to --copies individuals
(--threads for threads), every 1/2 is tried as 0 and as 1, and the run goes
breadth first up to --max-depth actions and --max-structures structures
(100000 unless given). Instrumentation predicates follow their definitions
and consistency rules are checked, not enforced: messages starting with
"concrete check:" report update formulas or rules that a reached state
contradicts.

--timeout, --max-memory and Ctrl-C (or SIGTERM) stop the run cleanly: the
table says what was explored, the outputs asked for are written (each file
atomically), and the exit status is 3. A second Ctrl-C quits at once.

Exit status: 0 verified (no message), 1 messages raised, 2 bad input,
3 stopped by a limit or an interrupt.

--abs P and --nonabs P (each repeatable) make the unary or nullary predicate
P an abstraction predicate, or not one, whatever its declaration says: Blur
then tells individuals apart by P, or no longer does (for nullary
predicates, the partial join's key). A predicate that does not exist, or has
two or more arguments, is bad input (exit 2). The JSON summary lists them
under options.abs and options.nonabs.

--soft-invariants auto (with --collapse-threads) generates soft invariants
(Friggens 2013, Chapter 8) instead of asking the model for them: for every
location predicate at[L] (--soft-locations, default at[*]) and every thread
predicate p, if[L,p] = isthread(v) & (at[L](v) -> p(v)) and nif[L,p] (the
same with !p), nonabs instrumentation predicates, each with the rule
if[L,p](v) & at[L](v) ==> p(v). The thread predicates are the unary
predicates that are not abstraction predicates, other than the location
predicates, tr_scheduled and those whose definitions read a location
predicate (--soft-pred P names them instead, --soft-skip P leaves one out).
A name the model already has is not generated. While a run does not verify
(up to --soft-rounds runs, default 8), the next adds, at each location, the
conditional soft invariants if[L,q,p] = "at L, q implies p" (with not[q],
not[p]) for the pairs of thread predicates that stayed 1/2 there. After the
table: the rounds, the value of each thread predicate at each location (1:
if held, 0: nif held) and the conditional ones that held: held means 1 on
every thread of every structure stored. --soft-invariants report also
prints those that held as TVP declarations to paste into a model
(--soft-invariants-out FILE writes them to FILE); the JSON summary has them
under soft_invariants.`,
		Example: `  tvla run programs/stack/stack.tvp --collapse-threads
  tvla run reverse.tvp sll.tvs --join rel --tvs out.tvs --json summary.json
  tvla run stack.tvp stack.tvs -D GNUM=2 --props stack.properties
  tvla run merge.tvp --timeout 30s --max-memory 2GiB --json summary.json
  tvla run reverse.tvp --join conc --copies 4 --tvs concrete.tvs
  tvla run programs/stack/stack.tvp -D THREADS=2 --nonabs 'r_by[spec]'
  tvla run programs/stack/stack.tvp --collapse-threads -D NO_SOFT_INVARIANTS --soft-invariants report`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runAnalysis(cmd, &o, args)
		},
	}
	f := cmd.Flags()
	f.StringArrayVarP(&o.defines, "define", "D", nil, "define a preprocessor macro: NAME or NAME=VALUE (TVLA: -DNAME, -DNAME(VALUE))")
	f.StringVar(&o.join, "join", "part", "how structures at a location are joined: rel, part, ind, or conc for a concrete run")
	f.StringVar(&o.action, "action", "fcpucb", "order of the steps of an action: [f][c]pu[c]b")
	f.StringVar(&o.props, "props", "", "a TVLA .properties `FILE` whose result-changing keys are honoured")
	f.IntVar(&o.maxStructures, "max-structures", 0, "stop (exit 3) after this many structures; 0 means no limit")
	f.IntVar(&o.maxMessages, "max-messages", 0, "stop after this many messages; 0 means no limit")
	f.BoolVar(&o.collapseThreads, "collapse-threads", false, "merge unscheduled threads into one summary object (thesis Chapter 8): defines the macro COLLAPSE_THREADS, under which a model makes its thread predicates nonabs and adds its soft invariants")
	f.StringArrayVar(&o.abs, "abs", nil, "make `PREDICATE` (unary or nullary) an abstraction predicate, whatever its declaration says; repeatable")
	f.StringArrayVar(&o.nonabs, "nonabs", nil, "make `PREDICATE` a non-abstraction predicate, whatever its declaration says; repeatable")
	f.StringVar(&o.soft.mode, "soft-invariants", softOff, "with --collapse-threads, generate the soft invariants if[L,p] and nif[L,p] for every location L and thread predicate p (auto), run, and report which held; report also prints those that held as TVP declarations: off, auto or report")
	f.StringVar(&o.soft.pattern, "soft-locations", predicates.DefaultLocationPattern, "the location predicates of --soft-invariants: unary predicates whose name matches `PATTERN`, * standing for the location")
	f.StringArrayVar(&o.soft.preds, "soft-pred", nil, "the thread predicates of --soft-invariants are these `PREDICATE`s instead of the non-abstraction unary ones; repeatable")
	f.StringArrayVar(&o.soft.skip, "soft-skip", nil, "leave `PREDICATE` out of the thread predicates of --soft-invariants; repeatable")
	f.IntVar(&o.soft.rounds, "soft-rounds", defaultSoftRounds, "at most `N` runs of --soft-invariants: while one does not verify, the next adds conditional soft invariants for the thread predicates left 1/2 at a location")
	f.StringVar(&o.soft.out, "soft-invariants-out", "", "write the soft invariants that held as TVP declarations to `FILE`")
	f.StringVar(&o.tvsOut, "tvs", "", "write the final structures per location as TVS to `FILE`")
	f.StringVar(&o.dotOut, "dot", "", "write the final structures per location as Graphviz DOT to `FILE`")
	f.StringVar(&o.svgDir, "svg", "", "render every structure and the CFG as SVG into `DIR`")
	f.StringVar(&o.htmlOut, "html", "", "write a self-contained HTML report to `FILE`")
	f.StringVar(&o.jsonOut, "json", "", "write the JSON summary to `FILE` (- for standard output)")
	f.BoolVarP(&o.quiet, "quiet", "q", false, "no progress output")
	f.IntVar(&o.workers, "workers", 0, "apply actions on `N` goroutines; 0 means one per CPU (the result is the same for any N)")
	f.StringArrayVar(&o.paths, "path", nil, "add `DIR` to the #include search path")
	f.StringVar(&o.closure, "closure", "full", "which contrapositives of instrumentation definitions Coerce enforces: full (sharper, sound) or tvla (only for bodies of two or more conjuncts, as TVLA 3)")
	f.BoolVar(&o.trace, "trace", false, "print, for every message, a shortest abstract trace from an input structure")
	f.StringVar(&o.explainUpdates, "explain-updates", "", "print the update formulas finite differencing derives for `ACTION` (a name, or a use such as \"Copy(x, y)\"), and stop")
	addLimitFlags(f, &o.limits)
	addConcreteFlags(f, &o.concrete, 0)
	f.StringVar(&o.cpuProfile, "cpuprofile", "", "write a CPU profile of the analysis to `FILE` (for developers)")
	f.MarkHidden("cpuprofile")
	return cmd
}

func (o *runOptions) validate() error {
	switch o.join {
	case "rel", "part", "ind", "conc":
	default:
		return usageError("--join must be rel, part, ind or conc, not %q", o.join)
	}
	if o.closure == "" { // commands without the flag (embed) use the default
		o.closure = "full"
	}
	if _, err := predicates.ParseClosure(o.closure); err != nil {
		return usageError("--closure: %v", err)
	}
	if !actionOrder.MatchString(o.action) {
		return usageError("--action must match [f][c]pu[c]b, not %q", o.action)
	}
	if o.maxStructures < 0 || o.maxMessages < 0 {
		return usageError("limits must not be negative")
	}
	if o.workers < 0 {
		return usageError("--workers must not be negative")
	}
	if err := o.limits.validate(); err != nil {
		return err
	}
	if err := o.concrete.validate(); err != nil {
		return err
	}
	for _, d := range o.defines {
		if _, _, err := parseDefine(d); err != nil {
			return err
		}
	}
	if _, err := abstractionOverrides(o.abs, o.nonabs); err != nil {
		return err
	}
	return o.soft.validate(o)
}

// abstractionOverrides turns --abs and --nonabs into the loader's map; a
// predicate named by both is an error.
func abstractionOverrides(abs, nonabs []string) (map[string]bool, error) {
	m := map[string]bool{}
	for _, p := range abs {
		m[p] = true
	}
	for _, p := range nonabs {
		if m[p] {
			return nil, usageError("predicate %s is given to both --abs and --nonabs", p)
		}
		m[p] = false
	}
	return m, nil
}

var defineSyntax = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*)(?:=(.*)|\((.*)\))?$`)

// parseDefine reads NAME, NAME=VALUE or TVLA's NAME(VALUE).
func parseDefine(d string) (name, value string, err error) {
	m := defineSyntax.FindStringSubmatch(d)
	if m == nil {
		return "", "", usageError("bad macro definition %q: want NAME, NAME=VALUE or NAME(VALUE)", d)
	}
	value = m[2]
	if m[3] != "" {
		value = m[3]
	}
	return m[1], value, nil
}

func runAnalysis(cmd *cobra.Command, o *runOptions, args []string) error {
	if err := o.validate(); err != nil {
		return err
	}
	stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
	program, inputs := args[0], args[1:]
	defines := defineMap(o.defines)
	if o.collapseThreads {
		// The model decides what collapsing means: under this macro it
		// makes its thread predicates nonabs and adds its soft invariants
		// (the same file runs on TVLA 3 with -DCOLLAPSE_THREADS).
		defines[collapseMacro] = "1"
	}
	if err := o.applyProperties(cmd, program, stderr); err != nil {
		return err
	}
	join, err := engine.ParseJoin(o.join)
	if err != nil {
		return usageError("%v", err)
	}
	overrides, _ := abstractionOverrides(o.abs, o.nonabs)
	softCfg := o.soft.config()
	loadCfg := tvp.LoadConfig{Defines: defines, SearchPath: o.paths, Abstraction: overrides, Soft: softCfg}
	l, err := loadProgram(program, inputs, loadCfg)
	if err != nil {
		return err
	}
	prog, structures := l.prog, l.structures
	inputs = l.inputs
	for _, w := range prog.Warnings {
		fmt.Fprintln(stderr, "warning:", w)
	}
	opts := engine.Options{
		Join: join, ActionOrder: o.action, MaxStructures: o.maxStructures, MaxMessages: o.maxMessages,
		BreakIfCoerceAfterUpdateFailed: o.breakIfCoerceFails,
		Differencing:                   o.differencing,
		Workers:                        o.workers,
		MaxDepth:                       o.concrete.maxDepth,
	}
	if join == engine.JoinConcrete && opts.MaxStructures == 0 {
		opts.MaxStructures = defaultConcreteStructures
	}
	opts.Closure, _ = predicates.ParseClosure(o.closure)
	progress := newProgress(stderr, o.quiet)
	opts.Progress = progress.update
	if err := checkViews(o); err != nil {
		return err
	}
	eng, err := engine.New(prog, opts)
	if err != nil {
		return &exitError{code: exitInput, err: err}
	}
	if o.explainUpdates != "" {
		return explainUpdates(stdout, prog, eng, o.explainUpdates)
	}
	limits := startLimits(o.limits)
	defer limits.stop()
	ctx := limits.ctx
	if join == engine.JoinConcrete {
		log := stderr
		if o.quiet {
			log = io.Discard
		}
		if structures, err = concretize(ctx, eng, o.concrete, structures, opts.MaxStructures, l.perInput, inputs, log); err != nil {
			return err
		}
	}
	peak := newPeakHeap()
	if o.cpuProfile != "" {
		f, err := os.Create(o.cpuProfile)
		if err != nil {
			return usageError("%v", err)
		}
		defer f.Close()
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	res, err := eng.Run(ctx, structures)
	var soft *softResult
	if prog.SoftInvariants != nil && err == nil {
		// Rounds of refinement (soft.go): while a round does not verify,
		// the thread predicates left 1/2 at a location give conditional
		// soft invariants there for the next.
		soft = softHeld(prog.SoftInvariants, res, nil)
		for len(soft.rounds) < o.soft.rounds && !verifiedRun(res) && (!res.Incomplete || res.StoppedOnMessage) {
			pairs := soft.newPairs(softCfg.Pairs)
			if len(pairs) == 0 {
				break
			}
			softCfg.Pairs = append(softCfg.Pairs, pairs...)
			progress.done()
			if !o.quiet {
				fmt.Fprintf(stderr, "soft invariants: round %d: %s; round %d adds conditional ones for %d pair(s) of thread predicates left 1/2 at a location\n",
					len(soft.rounds), roundVerdict(res), len(soft.rounds)+1, len(pairs))
			}
			if l, err = loadProgram(program, inputs, loadCfg); err != nil {
				return err
			}
			prog, structures = l.prog, l.structures
			if eng, err = engine.New(prog, opts); err != nil {
				return &exitError{code: exitInput, err: err}
			}
			if res, err = eng.Run(ctx, structures); err != nil {
				break
			}
			soft = softHeld(prog.SoftInvariants, res, soft.rounds)
		}
	}
	limits.stop()
	progress.done()
	if err != nil {
		return &exitError{code: exitInput, err: err}
	}
	peakBytes := peak.stop()
	table := stdout
	if o.jsonOut == "-" {
		table = stderr
	}
	if !(o.quiet && o.jsonOut == "-") {
		printTable(table, res, eng.Constraints())
		if soft != nil {
			printSoftTable(table, soft)
			if o.soft.mode == softReport {
				fmt.Fprintln(table)
				softTVP(table, soft)
			}
		}
	}
	if soft != nil && o.soft.out != "" {
		var b strings.Builder
		softTVP(&b, soft)
		if err := writeFileAtomic(o.soft.out, []byte(b.String())); err != nil {
			return &exitError{code: exitInput, err: err}
		}
	}
	if o.trace {
		printTraces(table, res)
	}
	if o.tvsOut != "" {
		if err := writeTVSResult(o.tvsOut, res, prog.Print); err != nil {
			return &exitError{code: exitInput, err: err}
		}
	}
	if err := writeViews(o, prog, res, stderr); err != nil {
		return &exitError{code: exitInput, err: err}
	}
	if o.jsonOut != "" {
		if err := writeJSON(o.jsonOut, buildSummary(program, inputs, o, defines, res, peakBytes, soft), stdout); err != nil {
			return &exitError{code: exitInput, err: err}
		}
	}
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

// applyProperties reads PROGRAM.properties beside the program (as TVLA
// does) and then --props; flags given on the command line win.
func (o *runOptions) applyProperties(cmd *cobra.Command, program string, stderr io.Writer) error {
	o.breakIfCoerceFails = true
	o.differencing = true
	files := []string{}
	beside := strings.TrimSuffix(program, filepath.Ext(program)) + ".properties"
	if _, err := os.Stat(beside); err == nil {
		files = append(files, beside)
	}
	if o.props != "" {
		files = append(files, o.props)
	}
	var unknown []string
	for _, f := range files {
		kv, err := readProperties(f)
		if err != nil {
			return usageError("%s: %v", f, errCause(err))
		}
		p, err := interpretProperties(f, kv)
		if err != nil {
			return usageError("%v", err)
		}
		flags := cmd.Flags()
		if p.join != nil && !flags.Changed("join") {
			o.join = *p.join
		}
		if p.actionOrder != nil && !flags.Changed("action") {
			o.action = *p.actionOrder
		}
		if p.maxStructures != nil && !flags.Changed("max-structures") {
			o.maxStructures = *p.maxStructures
		}
		if p.maxMessages != nil && !flags.Changed("max-messages") {
			o.maxMessages = *p.maxMessages
		}
		if p.breakIfCoerceFails != nil {
			o.breakIfCoerceFails = *p.breakIfCoerceFails
		}
		if p.differencing != nil {
			o.differencing = *p.differencing
		}
		unknown = append(unknown, p.unknown...)
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		fmt.Fprintf(stderr, "warning: properties ignored (they do not change results here): %s\n", strings.Join(unknown, ", "))
	}
	return o.validate()
}

// errCause strips the path that os errors repeat.
func errCause(err error) string {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err.Error()
	}
	return err.Error()
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
