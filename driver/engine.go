package driver

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/tvla-go/tvla/engine"
	"github.com/tvla-go/tvla/model"
	"github.com/tvla-go/tvla/predicates"
	"github.com/tvla-go/tvla/soundness"
	"github.com/tvla-go/tvla/tvl"
)

// This file is the one place the driver (and, through these names, the
// command line) meets the engine's API.

// The engine's results, as front ends print them.
type (
	Result         = engine.Result
	LocationResult = engine.LocationResult
	Message        = engine.Message
	Stats          = engine.Stats
	TraceStep      = engine.TraceStep
	SpillStats     = engine.SpillStats
)

// checkSpillDir reports whether a run could spill into dir.
func checkSpillDir(dir string) error { return engine.CheckSpillDir(dir) }

// Prefixes of the messages a concrete run raises about the program's own
// claims: every such message begins with ConcreteCheck, and those that
// find a consistency rule false on a reached state with BrokenRule.
const (
	ConcreteCheck = engine.ConcreteCheck
	BrokenRule    = engine.BrokenRule
)

// IsConcrete reports whether the join named runs the program concretely
// (conc) rather than abstractly.
func IsConcrete(join string) bool { return engine.IsConcrete(join) }

// Joins lists the join modes' names, as the engine registers them.
func Joins() []string { return engine.Joins() }

// JoinDecompose is graph decomposition (TVLA's dtvla engine).
const JoinDecompose = engine.JoinDecompose

// DefaultJoin is the join of a run that names none.
const DefaultJoin = engine.DefaultJoin

// AbstractJoins lists the joins of abstract runs (not concrete), in the
// engine's order, or with the default first.
func AbstractJoins(defaultFirst bool) []string {
	var out []string
	if defaultFirst {
		out = append(out, DefaultJoin)
	}
	for _, j := range Joins() {
		if !IsConcrete(j) && !(defaultFirst && j == DefaultJoin) {
			out = append(out, j)
		}
	}
	return out
}

// ConcreteJoins lists the joins of concrete runs.
func ConcreteJoins() []string {
	var out []string
	for _, j := range Joins() {
		if IsConcrete(j) {
			out = append(out, j)
		}
	}
	return out
}

// OrList is "a, b or c" (each in quotes when quoted), for messages and
// help texts that list choices.
func OrList(names []string, quoted bool) string {
	if quoted {
		q := make([]string, len(names))
		for i, n := range names {
			q[i] = strconv.Quote(n)
		}
		names = q
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// engineOptions are the engine's options for the Config's run.
func (c *Config) engineOptions(progress Progress) engine.Options {
	opts := engine.Options{
		Join: c.Join, ActionOrder: c.ActionOrder, MaxStructures: c.MaxStructures, MaxMessages: c.MaxMessages,
		BreakIfCoerceAfterUpdateFailed: c.BreakIfCoerceFails,
		Differencing:                   c.Differencing,
		NoCloseCycleMessages:           c.NoCloseCycleMessages,
		Workers:                        c.Workers,
		MaxDepth:                       c.Concrete.MaxDepth,
		DecomposeKeepBinary:            c.DecomposeKeepBinary,
		DecomposeMustOutside:           c.DecomposeMustOutside,
		Watch:                          c.Watch,
		SkipSuperseded:                 c.SkipSuperseded,
	}
	if IsConcrete(c.Join) && opts.MaxStructures == 0 {
		opts.MaxStructures = DefaultConcreteStructures
	}
	opts.Closure, _ = predicates.ParseClosure(c.Closure)
	if progress != nil {
		opts.Progress = progress.Update
	}
	if c.SpillDir != "" {
		opts.SpillDir, opts.SpillNow = c.SpillDir, newSpillTrigger(c.spillThreshold()).due
	}
	return opts
}

// compiled is a program compiled for a run.
type compiled struct {
	e    *engine.Engine
	opts engine.Options
}

// newEngine builds the engine; it stops soon after ctx ends, with a
// *StoppedError.
func newEngine(ctx context.Context, prog *model.Program, opts engine.Options) (*compiled, error) {
	e, err := engine.NewContext(ctx, prog, opts)
	if buildStopped(err) {
		return nil, &StoppedError{Phase: PhaseBuilding, Reason: stopReason(ctx)}
	}
	if err != nil {
		return nil, err
	}
	return &compiled{e, opts}, nil
}

// buildStopped reports whether err is an engine construction's that its
// context stopped.
func buildStopped(err error) bool { return errors.Is(err, engine.ErrBuildStopped) }

// checkpointOptions are what a run writes checkpoints for and resumes
// from; Checkpoint is a checkpoint file whose header was read.
type (
	checkpointOptions = engine.CheckpointOptions
	Checkpoint        = engine.Checkpoint
)

// openCheckpoint reads a checkpoint file's header.
func openCheckpoint(path string) (*Checkpoint, error) { return engine.OpenCheckpoint(path) }

func (e *compiled) run(ctx context.Context, inputs []*tvl.Structure, co checkpointOptions) (*Result, error) {
	if co.Path == "" && co.Resume == nil {
		return e.e.Run(ctx, inputs)
	}
	return e.e.RunCheckpointed(ctx, inputs, co)
}

func (e *compiled) constraints() int { return e.e.Constraints() }

func (e *compiled) derivedUpdates(a *model.Action) []predicates.Update {
	return e.e.Action(a).DerivedUpdates()
}

// concretize makes the concrete instances of the inputs, at most max.
func (e *compiled) concretize(ctx context.Context, inputs []*tvl.Structure, k ConcreteConfig, max int) ([]*tvl.Structure, concretized, error) {
	out, rep, err := e.e.Concretize(ctx, inputs, engine.ConcretizeOptions{Copies: k.Copies, Threads: k.Threads, Max: max})
	return out, concretized{rep.PerInput, rep.Truncated}, err
}

// concretized says what Concretize made: per input structure, the new
// concrete structures it gave, and whether the bound cut it short.
type concretized struct {
	perInput  []int
	truncated bool
}

// embedOptions are soundness.Embed's options for the Config's check.
func (c *Config) embedOptions(o EmbedOptions) soundness.EmbedOptions {
	explain := o.Explain
	if explain == 0 {
		explain = -1 // none
	}
	return soundness.EmbedOptions{
		Abstract:   engine.Options{Join: c.Join, ActionOrder: c.ActionOrder, Differencing: c.Differencing, Workers: c.Workers, SkipSuperseded: c.SkipSuperseded},
		Concretize: engine.ConcretizeOptions{Copies: c.Concrete.Copies, Threads: c.Concrete.Threads},
		MaxDepth:   c.Concrete.MaxDepth, MaxStructures: o.MaxStructures,
		Check: soundness.Options{Workers: c.Workers, Explained: explain},
	}
}

// Verified reports whether a run reached its fixpoint without a message.
func Verified(res *Result) bool {
	return !res.Incomplete && !res.StoppedOnMessage && res.Stats.Messages == 0
}

// Verdict says how a run ended, in a few words.
func Verdict(res *Result) string {
	switch {
	case Verified(res):
		return "verified"
	case res.StoppedOnBreach && res.Stats.Messages > 0:
		return fmt.Sprintf("stopped at a constraint breached after an update (%d message(s) before it)", res.Stats.Messages)
	case res.StoppedOnBreach:
		return "stopped at a constraint breached after an update"
	case res.StoppedOnMessage:
		return fmt.Sprintf("stopped at a message (%d in all)", res.Stats.Messages)
	case res.Incomplete:
		return "stopped early: " + res.StopReason
	}
	return fmt.Sprintf("%d message(s)", res.Stats.Messages)
}

// stopReason says why ctx ended: the cause it was given (a time or
// memory limit), or "interrupted".
func stopReason(ctx context.Context) string { return engine.StopReason(ctx) }
