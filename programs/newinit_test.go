package programs_test

import "testing"

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
