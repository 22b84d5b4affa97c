package engine

import (
	"slices"

	"github.com/tvla-go/tvla/abstraction"
)

// tvla.decompose.mustOutside = true (set by set_pldi08/cas/nolin/g's
// cas.properties): TVLA 3's dtvla engine then runs an action only on the
// compositions of two or more components that have an individual
// outside all of them. Observed on programs of ours
// (engine/join_decomp_mustoutside_test.go): where every part has an
// outside individual, the composition without a node outside all parts
// is not run (the message every composition raises is raised once less
// per such composition); where a part has none, no composition is run
// and the action stores nothing. A component alone is run as without
// the key. Which compositions the feasibility checks consider
// (join_decomp_feasible.go) was not observed under the key; they are left
// as they are.

// withoutOutside reports whether the engine is to drop c, a composition
// of two or more parts: under mustOutside, when no individual of c is
// outside every part.
func (d *decomposing) withoutOutside(e *Engine, c abstraction.Composed) bool {
	if !e.opts.DecomposeMustOutside {
		return false
	}
	for _, t := range c.Tuples {
		if !slices.ContainsFunc(t, func(u int) bool { return u >= 0 }) {
			return false
		}
	}
	return true
}
