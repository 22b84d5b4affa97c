package engine

import (
	"context"
	"fmt"
	"strings"

	"github.com/tvla-go/tvla/tvl"
)

// A strategy is a join mode: how the structures that reach a location
// are kept, how an action is applied to a stored structure, and how a run
// explores the program. Each mode lives in a file of its own
// (join_part.go, join_rel.go, join_ind.go, join_decomp.go, join_conc.go); adding one is
// writing that file and adding a line to strategies below.
type strategy interface {
	// prepare adapts the engine to the mode before the constraints and
	// the actions are compiled (e.constraints, e.actionOptions).
	prepare(e *Engine) error
	// joiner returns how a location's set joins structures.
	joiner(e *Engine) joiner
	// explore runs the program from the inputs until a fixpoint, a limit
	// or ctx's end.
	explore(ctx context.Context, st *state, inputs []*tvl.Structure) (*Result, error)
	// apply runs one action on one stored structure; it runs on a
	// worker and reads nothing else that changes.
	apply(w *worker, t task) outcome
	// concrete reports whether the mode runs two-valued structures (the
	// program itself, without abstraction).
	concrete() bool
}

// strategies are the join modes by the name the command line gives them,
// in the order help texts list them.
var strategies = []struct {
	name string
	make func() strategy
}{
	{JoinRelational, func() strategy { return relational{} }},
	{JoinPartial, func() strategy { return partial{} }},
	{JoinIndependent, func() strategy { return &independent{} }},
	{JoinDecompose, func() strategy { return &decomposing{} }},
	{JoinConcrete, func() strategy { return concrete{} }},
}

// DefaultJoin is the join of a run whose options name none: TVLA's.
const DefaultJoin = JoinPartial

// Joins lists the join modes' names.
func Joins() []string {
	var out []string
	for _, s := range strategies {
		out = append(out, s.name)
	}
	return out
}

// IsConcrete reports whether the join mode of that name runs the program
// on two-valued structures (false for an unknown name).
func IsConcrete(name string) bool {
	s, err := lookupStrategy(name)
	return err == nil && s.concrete()
}

func lookupStrategy(name string) (strategy, error) {
	if name == "" {
		name = DefaultJoin
	}
	for _, s := range strategies {
		if s.name == name {
			return s.make(), nil
		}
	}
	names := Joins()
	return nil, fmt.Errorf("unknown join %q (want %s or %s)", name, strings.Join(names[:len(names)-1], ", "), names[len(names)-1])
}
