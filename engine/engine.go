// Package engine runs a loaded program to a fixpoint: the worklist of
// locations, the workers that apply actions in parallel, limits, results
// and traces, and the join modes as strategies (strategy.go) — the
// partial and relational joins, TVLA's single-structure join and concrete
// runs. The operations it applies (Focus, Coerce, update, Blur) are
// package abstraction's.
package engine

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/tvla-go/tvla/abstraction"
	"github.com/tvla-go/tvla/model"
	"github.com/tvla-go/tvla/predicates"
	"github.com/tvla-go/tvla/tvl"
)

// Options control an analysis run.
type Options struct {
	// Join names the join mode (strategy.go): rel, part, ind, conc or decomp;
	// empty means DefaultJoin.
	Join string
	// ActionOrder is TVLA's [f][c]pu[c]b: which of Focus, Coerce (before
	// and after the update) run. Empty means "fcpucb".
	ActionOrder string
	// MaxStructures stops the run once more structures are stored; 0
	// means no limit. MaxMessages likewise for messages.
	MaxStructures int
	MaxMessages   int
	// BreakIfCoerceAfterUpdateFailed stops the run when Coerce finds a
	// structure inconsistent right after an update (TVLA's default): a
	// consistent structure updated correctly stays consistent, so this
	// means the update formulas are wrong. Without it the structure is
	// dropped silently.
	BreakIfCoerceAfterUpdateFailed bool
	// Differencing derives update formulas for instrumentation predicates
	// that actions do not update by hand (TVLA's default,
	// tvla.differencing.difference); without it they keep their values.
	Differencing bool
	// NoCloseCycleMessages drops the "Closed cycle for acyclic
	// predicate" messages (TVLA's tvla.differencing.messageForCloseCycle
	// = false).
	NoCloseCycleMessages bool
	// Closure chooses which contrapositives of instrumentation
	// definitions Coerce enforces: the full closure (the zero value) or
	// TVLA 3's.
	Closure predicates.Closure
	// Workers is how many goroutines apply actions; 0 means one per
	// CPU. The result does not depend on it.
	Workers int
	// MaxDepth bounds a concrete run (JoinConcrete): structures more
	// than this many actions away from an input are not explored; 0
	// means no bound.
	MaxDepth int
	// Progress, when set, is called now and then with the statistics so
	// far.
	Progress func(Stats)
	// SpillDir, when set, is the folder of the run's spill file: when
	// SpillNow says so (it is asked between iterations and between the
	// joins of an iteration's results), the packed structures the run
	// used least recently go to the file (spill.go). The result is the
	// same.
	SpillDir string
	SpillNow func() bool
	// DecomposeKeepBinary is TVLA's tvla.decompose.outside.keepBinary
	// (with outside.merge) for graph decomposition (JoinDecompose): a
	// component's outside individual keeps the join of the binary values
	// of the individuals it stands for.
	DecomposeKeepBinary bool
	// DecomposeMustOutside is TVLA's tvla.decompose.mustOutside for
	// graph decomposition: an action runs only on the compositions of
	// two or more components that have an individual outside all of
	// them (join_decomp_mustoutside.go).
	DecomposeMustOutside bool
	// Watch names unary predicates, soft invariants for instance: an
	// application after which one of them is not 1 on some thread raises
	// a message saying so (watch.go), with a trace like any message. A
	// name the program does not declare is left out, since a round of
	// soft invariants may not declare what another does.
	Watch []string
	// SkipSuperseded processes, of the versions of a stored structure
	// queued by the time its location is taken from the worklist, only
	// the latest. TVLA processes every version (a structure that grew by
	// a join is queued again, its older version staying queued); the
	// latest includes what the older ones represent, so skipping them is
	// sound, and on the collapsed queues most versions are superseded
	// (78% on the tagged queue), but the partial join's result depends on
	// what was propagated, so the counts may differ from TVLA's.
	SkipSuperseded bool
}

// Engine runs a loaded program.
type Engine struct {
	prog    *model.Program
	voc     *predicates.Vocabulary
	opts    Options
	mode    strategy
	coerce  *abstraction.Coercer
	actions map[*model.Action]*abstraction.Action
	abs     []*tvl.Pred
	absNull []*tvl.Pred
	order   struct{ focus, coerceBefore, coerceAfter bool }
	// constraints and actionOptions are what Coerce and the actions are
	// compiled from; the mode's prepare may change them.
	constraints   []predicates.Constraint
	actionOptions abstraction.ActionOptions
	// existence says which individuals exist, for a mode whose
	// individuals may not (nil otherwise).
	existence *tvl.Pred
	// truth evaluates instrumentation definitions, for concrete runs.
	truth *definitions
	// watch are Options.Watch's predicates that the program declares,
	// and isThread the predicate they are watched on (watch.go).
	watch    []*tvl.Pred
	isThread *tvl.Pred
}

// New compiles a program for analysis.
func New(prog *model.Program, opts Options) (*Engine, error) {
	return NewContext(context.Background(), prog, opts)
}

// polarCoerce turns Coercer.Polar on (the TVLA_POLAR_COERCE environment
// variable).
var polarCoerce = os.Getenv("TVLA_POLAR_COERCE") != ""

// ErrBuildStopped is what NewContext returns (wrapped with the context's
// cause) when its context ends before the engine is built.
var ErrBuildStopped = errors.New("the engine's construction was stopped")

// NewContext is New under ctx: it checks ctx between its steps, between
// actions and, within an action, between the predicates finite
// differencing derives updates for (a program with thousands of
// generated soft invariants takes a minute there), and returns an error
// wrapping ErrBuildStopped soon after ctx ends.
func NewContext(ctx context.Context, prog *model.Program, opts Options) (*Engine, error) {
	if opts.ActionOrder == "" {
		opts.ActionOrder = "fcpucb"
	}
	mode, err := lookupStrategy(opts.Join)
	if err != nil {
		return nil, err
	}
	e := &Engine{prog: prog, voc: prog.Vocabulary, opts: opts, mode: mode, actions: map[*model.Action]*abstraction.Action{}}
	if err := e.parseOrder(opts.ActionOrder); err != nil {
		return nil, err
	}
	e.abs = e.voc.AbstractionPreds()
	e.resolveWatch()
	for _, p := range e.voc.All() {
		if p.Arity == 0 && p.Abstraction() {
			e.absNull = append(e.absNull, p.Pred)
		}
	}
	stopped := func() error {
		if ctx.Err() != nil {
			return fmt.Errorf("%w: %s", ErrBuildStopped, StopReason(ctx))
		}
		return nil
	}
	if err := stopped(); err != nil {
		return nil, err
	}
	e.constraints = predicates.ConstraintsWith(e.voc, opts.Closure)
	e.actionOptions = abstraction.ActionOptions{Differencing: opts.Differencing, NoCloseCycleMessages: opts.NoCloseCycleMessages, Stop: stopped}
	if err := stopped(); err != nil {
		return nil, err
	}
	if err := mode.prepare(e); err != nil {
		return nil, err
	}
	if err := stopped(); err != nil {
		return nil, err
	}
	coercer, err := abstraction.NewCoercer(e.voc.Tvl(), e.constraints)
	if err != nil {
		return nil, err
	}
	// Waking constraints by polarity (Coercer.Polar) only for
	// experiments: it loses sharpenings on some models. Never under the
	// single-structure join, whose structures may keep a breach no change
	// touched, nor under decomposition.
	coercer.Polar = polarCoerce && opts.Join != JoinIndependent && opts.Join != JoinDecompose
	e.coerce = coercer
	if os.Getenv("TVLA_TRACE_COERCE") != "" {
		coercer.Trace = func(c, what string) { fmt.Fprintf(os.Stderr, "coerce: %s by %s\n", what, c) }
	}
	for _, a := range prog.Actions {
		if err := stopped(); err != nil {
			return nil, err
		}
		ca, err := abstraction.CompileAction(e.voc, a, e.actionOptions)
		if err != nil {
			return nil, err
		}
		e.actions[a] = ca
	}
	e.actionOptions.Stop = nil // not kept beyond the construction
	return e, nil
}

func (e *Engine) parseOrder(s string) error {
	rest := s
	take := func(c byte) bool {
		if len(rest) > 0 && rest[0] == c {
			rest = rest[1:]
			return true
		}
		return false
	}
	e.order.focus = take('f')
	e.order.coerceBefore = take('c')
	if !take('p') || !take('u') {
		return fmt.Errorf("action order %q: want [f][c]pu[c]b", s)
	}
	e.order.coerceAfter = take('c')
	if !take('b') || rest != "" {
		return fmt.Errorf("action order %q: want [f][c]pu[c]b", s)
	}
	return nil
}

// Action returns the compiled form of a program action.
func (e *Engine) Action(a *model.Action) *abstraction.Action { return e.actions[a] }

// Constraints is the number of constraints Coerce enforces.
func (e *Engine) Constraints() int { return e.coerce.Len() }

// Join is the name of the run's join mode.
func (e *Engine) Join() string {
	if e.opts.Join == "" {
		return DefaultJoin
	}
	return e.opts.Join
}

// Existence is the predicate that says which individuals exist, for a
// join mode whose individuals may not (inac under the single-structure
// join); nil otherwise.
func (e *Engine) Existence() *tvl.Pred { return e.existence }

// Concrete reports whether the run is concrete: the program on
// two-valued structures, without abstraction.
func (e *Engine) Concrete() bool { return e.mode.concrete() }
