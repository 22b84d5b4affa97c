package driver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"

	"github.com/tvla-go/tvla/model"
	"github.com/tvla-go/tvla/predicates"
	"github.com/tvla-go/tvla/tvl"
	"github.com/tvla-go/tvla/tvp"
)

// Progress is told, now and then, how a run goes; Done clears what it
// showed, before other lines are written.
type Progress interface {
	Update(Stats)
	Done()
}

// Hooks let a front end watch a session; nil fields are ignored.
type Hooks struct {
	// Warnings gets the program's warnings.
	Warnings io.Writer
	// Log gets the notes a quiet run leaves out: the concrete inputs
	// made, a line per soft-invariant round.
	Log      io.Writer
	Progress Progress
}

func (h Hooks) log() io.Writer {
	if h.Log == nil {
		return io.Discard
	}
	return h.Log
}

func (h Hooks) warnings() io.Writer {
	if h.Warnings == nil {
		return io.Discard
	}
	return h.Warnings
}

func (h Hooks) progressDone() {
	if h.Progress != nil {
		h.Progress.Done()
	}
}

// A Session is one program under one Config: loaded (Open), compiled
// (Compile), then run (Run) or checked against concrete runs (Embed).
type Session struct {
	Config Config
	Loaded *Loaded
	hooks  Hooks
	engine *compiled
	// watched are the names of Config.Watch some engine built declared;
	// builds counts the engines built (one per soft-invariant round).
	watched map[string]bool
	builds  int
	// resume is Config.Resume's checkpoint, once opened; resumed: a
	// round went on from it.
	resume  *Checkpoint
	resumed bool
}

// noteWatched records the watched predicates e's program declares, and
// warns at once of those it does not: a misspelt soft invariant would
// otherwise be found out only when a run of hours ends.
func (s *Session) noteWatched(e *compiled) {
	s.builds++
	declared := e.e.Watched()
	for _, name := range declared {
		if s.watched == nil {
			s.watched = map[string]bool{}
		}
		s.watched[name] = true
	}
	for _, name := range s.Config.Watch {
		switch {
		case slices.Contains(declared, name):
		case s.Config.SoftOn():
			fmt.Fprintf(s.hooks.warnings(), "warning: --watch %s: the program of soft-invariant round %d declares no unary predicate of that name (a later round may)\n", name, s.builds)
		default:
			fmt.Fprintf(s.hooks.warnings(), "warning: --watch %s: the program declares no unary predicate of that name\n", name)
		}
	}
}

// Unwatched lists the names of Config.Watch that no engine built so far
// declared as a unary predicate, when more than one was built (the
// rounds of soft-invariant refinement; each warned of its own already).
func (s *Session) Unwatched() []string {
	if s.builds < 2 {
		return nil
	}
	var out []string
	for _, name := range s.Config.Watch {
		if !s.watched[name] {
			out = append(out, name)
		}
	}
	return out
}

// Open loads the Config's program and inputs and writes the program's
// warnings. The Config should be validated, with its properties applied
// (Config.ApplyProperties).
func Open(cfg Config, hooks Hooks) (*Session, error) {
	return OpenContext(context.Background(), cfg, hooks)
}

// Compile builds the engine for the loaded program: constraints, actions,
// derived updates.
func (s *Session) Compile() error {
	return s.CompileContext(context.Background())
}

// A StoppedError says that a context (a limit, an interrupt) ended
// before the program was loaded or its engine built: nothing was
// explored. StoppedOutcome turns it into the Outcome of an empty run.
type StoppedError struct {
	// Phase is what was stopped: "loading the program and its inputs" or
	// "building the engine".
	Phase string
	// Reason is the context's stop reason (a limit, or "interrupted").
	Reason string
}

func (e *StoppedError) Error() string { return e.Reason + " while " + e.Phase }

// Phases that OpenContext and CompileContext may stop.
const (
	PhaseLoading  = "loading the program and its inputs"
	PhaseBuilding = "building the engine"
)

// untilDone runs f, a step that does not watch ctx (the loader, the
// engine's construction), and returns its result, or a *StoppedError as
// soon as ctx ends first. The step then goes on, abandoned, on its
// goroutine: its result is dropped. That suits a front end, which writes
// its outputs and exits; a long-lived caller should know that the
// abandoned step still holds its memory until it ends. (Checking ctx
// between the loader's phases instead would leave a long phase, a large
// file's parse, unstoppable.)
func untilDone[T any](ctx context.Context, phase string, f func() (T, error)) (T, error) {
	var zero T
	if ctx.Done() == nil { // never ends
		return f()
	}
	if ctx.Err() != nil {
		return zero, &StoppedError{Phase: phase, Reason: stopReason(ctx)}
	}
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := f()
		done <- result{v, err}
	}()
	select {
	case r := <-done:
		return r.v, r.err
	case <-ctx.Done():
		select {
		case r := <-done: // finished too: keep what it made
			return r.v, r.err
		default:
		}
		return zero, &StoppedError{Phase: phase, Reason: stopReason(ctx)}
	}
}

// OpenContext is Open under ctx: when ctx ends (a time or memory limit, an
// interrupt) before the program and its inputs are loaded, it returns a
// *StoppedError at once (see untilDone).
func OpenContext(ctx context.Context, cfg Config, hooks Hooks) (*Session, error) {
	applyFrontendDefaults(&cfg)
	l, err := untilDone(ctx, PhaseLoading, func() (*Loaded, error) { return Load(&cfg) })
	if err != nil {
		return nil, err
	}
	if hooks.Warnings != nil {
		for _, w := range l.Program.Warnings {
			if cfg.Join == JoinDecompose && decompositionClause(w) {
				continue // the decomposing engine reads it
			}
			fmt.Fprintln(hooks.Warnings, "warning:", w)
		}
	}
	return &Session{Config: cfg, Loaded: l, hooks: hooks}, nil
}

// CompileContext is Compile under ctx: when ctx ends before the engine
// is built, it returns a *StoppedError at once (see untilDone).
func (s *Session) CompileContext(ctx context.Context) error {
	e, err := untilDone(ctx, PhaseBuilding, func() (*compiled, error) {
		return newEngine(ctx, s.Loaded.Program, s.Config.engineOptions(s.hooks.Progress))
	})
	if err != nil {
		return err
	}
	s.engine = e
	s.noteWatched(e)
	return nil
}

// StoppedOutcome is the Outcome of a run that a *StoppedError cut short
// before it began: nothing explored, no location, incomplete, the stop
// reason saying what was stopped. Its outputs can be written as those of
// any run.
func StoppedOutcome(cfg *Config, stop *StoppedError) *Outcome {
	return &Outcome{
		Config:  cfg,
		Program: &model.Program{File: cfg.Program},
		Inputs:  cfg.Inputs,
		Result:  &Result{Incomplete: true, StopReason: stop.Error()},
	}
}

// DerivedUpdates are the update formulas finite differencing gives an
// action of the compiled program for the instrumentation predicates it
// does not update by hand.
func (s *Session) DerivedUpdates(a *model.Action) []predicates.Update {
	return s.engine.derivedUpdates(a)
}

// Outcome is what a run found.
type Outcome struct {
	Config *Config
	// Program is the program of the last round (soft invariants reload
	// it); Inputs the TVS files read.
	Program *model.Program
	Inputs  []string
	Result  *Result
	// Constraints counts the constraints Coerce enforced.
	Constraints int
	// Soft is nil unless soft invariants were generated.
	Soft          *SoftResult
	PeakHeapBytes uint64
}

// Run runs the compiled program from its inputs (their concrete instances
// for a concrete run) to a fixpoint or until ctx ends, and, with soft
// invariants, refines them while a round does not verify. A limit or ctx
// ending is no error: the Outcome's Result says the run is incomplete.
func (s *Session) Run(ctx context.Context) (*Outcome, error) {
	inputs := s.Loaded.Structures
	if IsConcrete(s.Config.Join) {
		var err error
		if inputs, err = s.concretize(ctx, inputs); err != nil {
			return nil, err
		}
	}
	peak := newPeakHeap()
	if s.Config.CPUProfile != "" {
		f, err := os.Create(s.Config.CPUProfile)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	out := &Outcome{Config: &s.Config, Program: s.Loaded.Program, Inputs: s.Loaded.Inputs}
	co, err := s.checkpointOptions(1)
	if err != nil {
		return nil, err
	}
	res, err := s.engine.run(ctx, inputs, co)
	if err == nil && !IsConcrete(s.Config.Join) {
		s.warnDiscarded(res)
	}
	if s.Loaded.Program.SoftInvariants != nil && err == nil {
		res, err = s.refine(ctx, res, out)
	}
	s.hooks.progressDone()
	out.PeakHeapBytes = peak.stop()
	if err != nil {
		return nil, err
	}
	if s.Config.Resume != "" && !s.resumed && !res.Incomplete {
		fmt.Fprintf(s.hooks.Warnings, "warning: --resume %s: the run ended before the soft-invariant round the checkpoint was written in\n", s.Config.Resume)
	}
	out.Result, out.Constraints = res, s.engine.constraints()
	if s.Config.MemProfile != "" {
		if err := writeHeapProfile(s.Config.MemProfile); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// writeHeapProfile collects garbage and writes the heap profile: what is
// live then is the result (and the loaded program).
func writeHeapProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	runtime.GC()
	if err := pprof.WriteHeapProfile(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// refine makes the rounds of soft-invariant refinement: while a round
// does not verify, the thread predicates left 1/2 at a location give
// conditional soft invariants there for the next, whose program is
// loaded and compiled again. It sets out's Soft and Program.
func (s *Session) refine(ctx context.Context, res *Result, out *Outcome) (*Result, error) {
	cfg := s.Config.LoadConfig()
	soft := newSoftResult(out.Program.SoftInvariants, res, nil)
	s.noteSavedSet(soft.Set)
	// The saved set's pairs that no longer apply are left out from now on.
	cfg.Soft.Pairs = slices.DeleteFunc(cfg.Soft.Pairs, func(p predicates.SoftPair) bool { return slices.Contains(soft.Set.Stale, p) })
	var err error
	for len(soft.Rounds) < s.Config.Soft.Rounds && !Verified(res) && (!res.Incomplete || res.StoppedOnMessage) {
		s.hooks.progressDone()
		if cfg.Soft.Only != nil {
			// The saved set did not suffice: every soft invariant from
			// now on, with the set's pairs that still apply.
			cfg.Soft.Only = nil
			fmt.Fprintf(s.hooks.log(), "soft invariants: round %d (the saved set): %s; round %d generates them all, with the set's %d pair(s)\n",
				len(soft.Rounds), Verdict(res), len(soft.Rounds)+1, len(cfg.Soft.Pairs))
		} else {
			pairs := soft.newPairs(cfg.Soft.Pairs)
			if len(pairs) == 0 {
				break
			}
			cfg.Soft.Pairs = append(cfg.Soft.Pairs, pairs...)
			fmt.Fprintf(s.hooks.log(), "soft invariants: round %d: %s; round %d adds conditional ones for %d pair(s) of thread predicates left 1/2 at a location\n",
				len(soft.Rounds), Verdict(res), len(soft.Rounds)+1, len(pairs))
		}
		var l *Loaded
		var e *compiled
		l, e, err = s.reload(ctx, cfg)
		if stop, ok := errors.AsType[*StoppedError](err); ok {
			res, err = stoppedBetweenRounds(res, stop, len(soft.Rounds)+1), nil
			break
		}
		if err != nil {
			return nil, err
		}
		s.engine, out.Program = e, l.Program
		var co checkpointOptions
		if co, err = s.checkpointOptions(len(soft.Rounds) + 1); err != nil {
			break
		}
		if res, err = s.engine.run(ctx, l.Structures, co); err != nil {
			break
		}
		soft = newSoftResult(l.Program.SoftInvariants, res, soft.Rounds)
	}
	out.Soft = soft
	return res, err
}

// reload loads the program again under cfg (a soft-invariant round's)
// and builds its engine. When ctx ends first it returns a *StoppedError
// at once: the engine's construction stops soon after, the loader goes
// on, abandoned (see untilDone).
func (s *Session) reload(ctx context.Context, cfg tvp.LoadConfig) (*Loaded, *compiled, error) {
	l, err := untilDone(ctx, PhaseLoading, func() (*Loaded, error) { return load(&s.Config, cfg) })
	if err != nil {
		return nil, nil, err
	}
	e, err := untilDone(ctx, PhaseBuilding, func() (*compiled, error) { return newEngine(ctx, l.Program, s.engine.opts) })
	if err != nil {
		return nil, nil, err
	}
	s.noteWatched(e)
	return l, e, nil
}

// stoppedBetweenRounds is the result of soft-invariant refinement that a
// limit or an interrupt stopped while round n was loaded or its engine
// built: the last round's result (what the outputs hold), marked as
// stopped early, so that the run ends as any run a limit stops (exit 3),
// not with the last round's verdict.
func stoppedBetweenRounds(last *Result, stop *StoppedError, n int) *Result {
	r := *last
	r.Incomplete, r.StoppedOnMessage, r.StoppedOnBreach = true, false, false
	r.StopReason = fmt.Sprintf("%s for soft-invariant round %d (the outputs hold round %d's result)", stop.Error(), n, n-1)
	return &r
}

// noteSavedSet says on the log which saved soft-invariant set the first
// round generated, and what of it no longer applies.
func (s *Session) noteSavedSet(set *predicates.SoftInvariants) {
	saved := s.Config.Soft.set
	if saved == nil {
		return
	}
	if len(saved.Names) == 0 {
		fmt.Fprintf(s.hooks.log(), "soft invariants: round 1 generated them all, with the %d pair(s) of the saved set %s\n", len(saved.Pairs)-len(set.Stale), saved.Path)
	} else {
		fmt.Fprintf(s.hooks.log(), "soft invariants: round 1 generated the saved set %s: %d of its %d\n", saved.Path, len(set.Invariants), len(saved.Names))
	}
	// A set names locations by their labels (an .alg's by line), so an
	// edit of the program can leave parts of it naming nothing: a
	// warning, which -q does not hide, since the run then generates
	// less than the set says.
	warn := s.hooks.Warnings
	if warn == nil {
		warn = s.hooks.log()
	}
	if len(set.Stale) > 0 {
		fmt.Fprintf(warn, "warning: soft invariants: %s: %d pair(s) name no location or thread predicate of the program, left out (first: %s %s %s); make the set again with --soft-save if the program changed\n",
			saved.Path, len(set.Stale), set.Stale[0].Location, set.Stale[0].Q, set.Stale[0].P)
	}
	if missing := missingHeld(saved.Names, set); len(missing) > 0 {
		fmt.Fprintf(warn, "warning: soft invariants: %s: %d held name(s) are no soft invariant the program generates, left out (first: %s); make the set again with --soft-save if the program changed\n",
			saved.Path, len(missing), missing[0])
	}
}

// missingHeld lists the names of a saved set that the generation did not
// make (nor skip as the model's own), in the set's order.
func missingHeld(names []string, set *predicates.SoftInvariants) []string {
	made := map[string]bool{}
	for _, inv := range set.Invariants {
		made[inv.Pred.Name] = true
	}
	for _, n := range set.Skipped {
		made[n] = true
	}
	var out []string
	for _, n := range names {
		if !made[n] {
			out = append(out, n)
		}
	}
	return out
}

// concretize turns the input structures into concrete ones (each summary
// individual as 1..Copies individuals, every 1/2 tried both ways), saying
// on the log how many it made. It is an error when none results.
func (s *Session) concretize(ctx context.Context, inputs []*tvl.Structure) ([]*tvl.Structure, error) {
	max := s.engine.opts.MaxStructures
	out, rep, err := s.engine.concretize(ctx, inputs, s.Config.Concrete, max)
	if err != nil && !stopped(err) {
		return nil, err
	}
	if err := s.reportConcretized(len(inputs), len(out), rep, max, err == nil); err != nil {
		return nil, err
	}
	return out, nil
}

// reportConcretized says how many concrete inputs were made and which
// input structures gave none (when the enumeration ran to its end).
func (s *Session) reportConcretized(inputs, made int, rep concretized, max int, finished bool) error {
	log, k, c := s.hooks.log(), 0, s.Config.Concrete
	for fi, n := range s.Loaded.PerInput {
		for j := 0; j < n; j++ {
			if k < len(rep.perInput) && rep.perInput[k] == 0 && finished && !rep.truncated {
				fmt.Fprintf(log, "warning: %s: structure %d gives no new concrete structure within the bounds that satisfies the constraints\n", s.Loaded.Inputs[fi], j+1)
			}
			k++
		}
	}
	fmt.Fprintf(log, "concrete inputs: %d structure(s) from %d input structure(s) (summary individuals as 1 to %d individuals, threads 1 to %d)\n",
		made, inputs, c.Copies, c.threads())
	if rep.truncated {
		fmt.Fprintf(log, "warning: concrete inputs stopped at the structure limit (%d)\n", max)
	}
	if made == 0 && inputs > 0 && finished {
		return fmt.Errorf("no concrete input: no input structure has a concrete instance within the bounds that satisfies the constraints")
	}
	return nil
}

// threads is how many threads a summary thread stands for.
func (c ConcreteConfig) threads() int {
	if c.Threads == 0 {
		return c.Copies
	}
	return c.Threads
}

// Analyse is a whole run of a Config, for front ends with nothing to do
// between the steps: validate, apply the properties, load, compile, run.
// When ctx ends before the run begins, the Outcome is StoppedOutcome's.
func Analyse(ctx context.Context, cfg Config, hooks Hooks) (*Outcome, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := cfg.ApplyProperties(hooks.Warnings); err != nil {
		return nil, err
	}
	s, err := OpenContext(ctx, cfg, hooks)
	if err == nil {
		err = s.CompileContext(ctx)
	}
	var stop *StoppedError
	if errors.As(err, &stop) {
		return StoppedOutcome(&cfg, stop), nil
	}
	if err != nil {
		return nil, err
	}
	return s.Run(ctx)
}

// StoppedEmbedOutcome is StoppedOutcome for an embedding check: neither
// run began, nothing was checked.
func StoppedEmbedOutcome(cfg *Config, o EmbedOptions, stop *StoppedError) *EmbedOutcome {
	empty := func() *Result { return &Result{Incomplete: true, StopReason: stop.Error()} }
	return &EmbedOutcome{Config: cfg, Options: o, Inputs: cfg.Inputs, Abstract: empty(), Concrete: empty(), StopReason: stop.Error()}
}

// decompositionClause reports whether a loader's warning is about a
// graph decomposition clause the decomposing engine reads (%dname,
// %compose, %decompose; not %frame or %frame_pre, which it ignores too).
func decompositionClause(warning string) bool {
	for _, c := range []string{"%dname (", "%compose (", "%decompose ("} {
		if strings.Contains(warning, ": "+c) {
			return true
		}
	}
	return false
}
