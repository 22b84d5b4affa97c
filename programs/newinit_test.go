package programs_test

import (
	"strings"
	"testing"
)

// An explicit update formula reads a %new individual's instrumentation
// predicates as 0, not as their definitions say (testdata/newinit.tvp):
// TVLA 3 stores one structure at L0, L1 and L2, with no breach and no
// message. Reading r(new) from its definition (1) made r(v) = r(v) keep
// it 1 beside a(new) = 1, and the run stopped at the breached definition;
// that is how the decomposition examples' assignNew (rest(v) = rest(v))
// failed under TVLA's own engine.
func TestNewIndividualReadsZeroInExplicitUpdates(t *testing.T) {
	res := run(t, "testdata/newinit.tvp")
	checkCounts(t, res, map[string]int{"L0": 1, "L1": 1, "L2": 1}, 0)
	if res.Stats.Breaches != 0 {
		t.Errorf("%d constraint breaches, reference TVLA 3 has 0", res.Stats.Breaches)
	}
}

// free(x) as %retain !x(v): x's node leaves, and no update formula
// mentions x or nonNull[x] (testdata/retain.tvp). TVLA's differencing
// leaves nonNull[x] at 1, and its Coerce after the update finds
// "nonNull[x]() ==> E(v) x(v)" breached and stops: one structure at L1,
// none at L2. Our Coerce looked only at the predicates the action updates
// and let the structure through; since individuals left, it checks every
// constraint (decomposition/lists_segments/delete then stores 21
// structures, as the reference, not 26).
func TestRetainChecksEveryConstraint(t *testing.T) {
	res := run(t, "testdata/retain.tvp")
	for _, l := range res.Locations {
		if want := map[string]int{"L1": 1}[l.Label]; l.Structures.Len() != want {
			t.Errorf("%s: %d structures, reference TVLA 3 has %d", l.Label, l.Structures.Len(), want)
		}
	}
	// The breach is listed, not counted (TVLA only prints it).
	if res.Stats.Messages != 0 || !res.Incomplete || !res.StoppedOnBreach {
		t.Errorf("%d messages, incomplete %v, stopped on a breach %v; want 0 and a run stopped on the breach", res.Stats.Messages, res.Incomplete, res.StoppedOnBreach)
	}
	if !strings.Contains(res.StopReason, "nonNull[x]") {
		t.Errorf("stop reason %q, want the breach of nonNull[x]'s definition after free(x)", res.StopReason)
	}
}
