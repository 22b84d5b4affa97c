package soundness

import (
	"context"
	"errors"

	"github.com/tvla-go/tvla/engine"
	"github.com/tvla-go/tvla/model"
	"github.com/tvla-go/tvla/tvl"
)

// EmbedOptions configure an embedding check of a program.
type EmbedOptions struct {
	// Abstract configures the abstract run (Join, ActionOrder,
	// Differencing, Workers). BreakIfCoerceAfterUpdateFailed is turned
	// off: a structure Coerce finds inconsistent after an update is
	// dropped, so that a wrong constraint shows as lost concrete states.
	Abstract engine.Options
	// Concretize bounds the concrete inputs made from the inputs.
	Concretize engine.ConcretizeOptions
	// MaxDepth and MaxStructures bound the concrete run (MaxStructures
	// also bounds the concrete inputs).
	MaxDepth, MaxStructures int
	Check                   Options
}

// Outcome is everything an embedding check did.
type Outcome struct {
	ConcreteInputs []*tvl.Structure
	Concretized    engine.ConcretizeReport
	Abstract       *engine.Result
	Concrete       *engine.Result
	// Report is nil when the abstract run did not reach its fixpoint.
	Report *Report
}

// Embed runs prog abstractly from inputs and concretely from their
// concrete instances, and checks the concrete run against the abstract
// one. It stops early, with what it has, when ctx ends.
func Embed(ctx context.Context, prog *model.Program, inputs []*tvl.Structure, o EmbedOptions) (*Outcome, error) {
	ao := o.Abstract
	ao.BreakIfCoerceAfterUpdateFailed = false
	if engine.IsConcrete(ao.Join) {
		return nil, errors.New("the abstract run's join cannot be conc")
	}
	absEngine, err := engine.NewContext(ctx, prog, ao)
	if err != nil {
		return nil, err
	}
	co := engine.Options{Join: engine.JoinConcrete, Differencing: ao.Differencing, Workers: ao.Workers,
		MaxDepth: o.MaxDepth, MaxStructures: o.MaxStructures}
	concEngine, err := engine.NewContext(ctx, prog, co)
	if err != nil {
		return nil, err
	}
	out := &Outcome{}
	cz := o.Concretize
	if cz.Max == 0 {
		cz.Max = o.MaxStructures
	}
	out.ConcreteInputs, out.Concretized, err = concEngine.Concretize(ctx, inputs, cz)
	if err != nil && ctx.Err() == nil {
		return nil, err
	}
	if out.Abstract, err = absEngine.Run(ctx, inputs); err != nil {
		return nil, err
	}
	if out.Concrete, err = concEngine.Run(ctx, out.ConcreteInputs); err != nil {
		return nil, err
	}
	if !out.Abstract.Incomplete {
		// Under a join whose individuals may not exist, an abstract
		// individual that may not needs no concrete counterpart.
		o.Check.Active = absEngine.Existence()
		out.Report = Check(ctx, out.Concrete, out.Abstract, o.Check)
	}
	return out, nil
}
