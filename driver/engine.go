package driver

import (
	"context"
	"fmt"

	"github.com/tvla-go/tvla/abstraction"
	"github.com/tvla-go/tvla/model"
	"github.com/tvla-go/tvla/predicates"
	"github.com/tvla-go/tvla/soundness"
	"github.com/tvla-go/tvla/tvl"
)

// This file is the one place the driver (and, through these names, the
// command line) meets the engine's API.

// The engine's results, as front ends print them.
type (
	Result         = abstraction.Result
	LocationResult = abstraction.LocationResult
	Message        = abstraction.Message
	Stats          = abstraction.Stats
	TraceStep      = abstraction.TraceStep
)

// Prefixes of the messages a concrete run raises about the program's own
// claims: every such message begins with ConcreteCheck, and those that
// find a consistency rule false on a reached state with BrokenRule.
const (
	ConcreteCheck = abstraction.ConcreteCheck
	BrokenRule    = abstraction.BrokenRule
)

// parseJoin checks a join's name.
func parseJoin(name string) (abstraction.JoinKind, error) { return abstraction.ParseJoin(name) }

// IsConcrete reports whether the join named runs the program concretely
// (conc) rather than abstractly.
func IsConcrete(join string) bool {
	k, err := parseJoin(join)
	return err == nil && k == abstraction.JoinConcrete
}

// engineOptions are the engine's options for the Config's run.
func (c *Config) engineOptions(progress Progress) abstraction.Options {
	join, _ := parseJoin(c.Join)
	opts := abstraction.Options{
		Join: join, ActionOrder: c.ActionOrder, MaxStructures: c.MaxStructures, MaxMessages: c.MaxMessages,
		BreakIfCoerceAfterUpdateFailed: c.BreakIfCoerceFails,
		Differencing:                   c.Differencing,
		Workers:                        c.Workers,
		MaxDepth:                       c.Concrete.MaxDepth,
	}
	if IsConcrete(c.Join) && opts.MaxStructures == 0 {
		opts.MaxStructures = DefaultConcreteStructures
	}
	opts.Closure, _ = predicates.ParseClosure(c.Closure)
	if progress != nil {
		opts.Progress = progress.Update
	}
	return opts
}

// engine is a program compiled for a run.
type engine struct {
	e    *abstraction.Engine
	opts abstraction.Options
}

func newEngine(prog *model.Program, opts abstraction.Options) (*engine, error) {
	e, err := abstraction.NewEngine(prog, opts)
	if err != nil {
		return nil, err
	}
	return &engine{e, opts}, nil
}

func (e *engine) run(ctx context.Context, inputs []*tvl.Structure) (*Result, error) {
	return e.e.Run(ctx, inputs)
}

func (e *engine) constraints() int { return e.e.Constraints() }

func (e *engine) derivedUpdates(a *model.Action) []predicates.Update {
	return e.e.Action(a).DerivedUpdates()
}

// concretize makes the concrete instances of the inputs, at most max.
func (e *engine) concretize(ctx context.Context, inputs []*tvl.Structure, k ConcreteConfig, max int) ([]*tvl.Structure, concretized, error) {
	out, rep, err := e.e.Concretize(ctx, inputs, abstraction.ConcretizeOptions{Copies: k.Copies, Threads: k.Threads, Max: max})
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
	join, _ := parseJoin(c.Join)
	explain := o.Explain
	if explain == 0 {
		explain = -1 // none
	}
	return soundness.EmbedOptions{
		Abstract:   abstraction.Options{Join: join, ActionOrder: c.ActionOrder, Differencing: c.Differencing, Workers: c.Workers},
		Concretize: abstraction.ConcretizeOptions{Copies: c.Concrete.Copies, Threads: c.Concrete.Threads},
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
	case res.StoppedOnMessage:
		return fmt.Sprintf("stopped at a message (%d in all)", res.Stats.Messages)
	case res.Incomplete:
		return "stopped early: " + res.StopReason
	}
	return fmt.Sprintf("%d message(s)", res.Stats.Messages)
}

// stopReason says why ctx ended: the cause it was given (a time or
// memory limit), or "interrupted".
func stopReason(ctx context.Context) string { return abstraction.StopReason(ctx) }
