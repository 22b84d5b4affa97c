package programs_test

import (
	"testing"

	"github.com/tvla-go/tvla/logic"
)

// A constraint whose head names one variable twice (!self(v) ==> !n(v,
// v), from self(v) = n(v, v)) says nothing about n between two members
// of a summary individual, so Coerce must leave n(s, s) = 1/2 there
// (testdata/selfloop.tvp; TVLA 3 keeps it). Sharpening it to 0 lost every
// list segment of two or more linked nodes whose members have self 0:
// the Snark models' deques of 4 values (docs/deque.md).
func TestCoerceKeepsRepeatedVariableOnSummary(t *testing.T) {
	res := run(t, "testdata/selfloop.tvp")
	checkCounts(t, res, map[string]int{"L1": 1, "L2": 1}, 0)
	for _, l := range res.Locations {
		for _, s := range l.Structures.All() {
			n := s.Vocabulary().Lookup("n")
			found := false
			for u := range s.Size() {
				if s.IsSummary(u) {
					found = true
					if got := s.Get(n, u, u); got != logic.Unknown {
						t.Errorf("%s: n(u%d, u%d) = %v on the summary, want 1/2", l.Label, u, u, got)
					}
				}
			}
			if !found {
				t.Errorf("%s: no summary individual left", l.Label)
			}
		}
	}
}
