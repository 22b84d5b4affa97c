package programs_test

import (
	"testing"

	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/tvl"
)

// TVLA 3 makes an instrumentation predicate defined as the closure of an
// acyclic predicate antisymmetric (testdata/acyclic.tvp, whose tc = n*
// declares no property): with tc(h, x) = 1 it stores tc(x, h) = 0, and
// the program's rule !tc ==> !n then makes n(x, h) 0; n(x, t) stays 1/2.
// Without the rules tc(x, h) is 0 and n(x, h) stays 1/2; without n's
// acyclic both stay 1/2. (The reference's output at L1 in the three
// cases.) Before, tc(x, h) stayed 1/2 in every case, and
// decomposition/linearization_nbq/nbq with two threads stored 100,033
// structures against the reference's 79,897 (now the same at every
// location).
func TestClosureOfAcyclicIsAntisymmetric(t *testing.T) {
	for _, c := range []struct {
		defines        []string
		tcXH, nXH, nXT logic.Kleene
	}{
		{nil, logic.False, logic.False, logic.Unknown},
		{[]string{"NORULES"}, logic.False, logic.Unknown, logic.Unknown},
		{[]string{"NOACYCLIC"}, logic.Unknown, logic.Unknown, logic.Unknown},
	} {
		res := run(t, "testdata/acyclic.tvp", c.defines...)
		checkCounts(t, res, map[string]int{"L0": 1, "L1": 1}, 0)
		for _, l := range res.Locations {
			if l.Label != "L1" || l.Structures.Len() != 1 {
				continue
			}
			s := l.Structures.At(0)
			h, x, tl := only(t, s, "hd"), only(t, s, "nx"), only(t, s, "tl")
			tc, n := s.Vocabulary().Lookup("tc"), s.Vocabulary().Lookup("n")
			if got := s.Get(tc, x, h); got != c.tcXH {
				t.Errorf("%v: tc(x, h) = %v, reference TVLA 3 has %v", c.defines, got, c.tcXH)
			}
			if got := s.Get(n, x, h); got != c.nXH {
				t.Errorf("%v: n(x, h) = %v, reference TVLA 3 has %v", c.defines, got, c.nXH)
			}
			if got := s.Get(n, x, tl); got != c.nXT {
				t.Errorf("%v: n(x, t) = %v, reference TVLA 3 has %v", c.defines, got, c.nXT)
			}
		}
	}
}

// only returns the individual where the unary predicate name is 1.
func only(t *testing.T, s *tvl.Structure, name string) int {
	t.Helper()
	p := s.Vocabulary().Lookup(name)
	for u := range s.Size() {
		if s.Get(p, u) == logic.True {
			return u
		}
	}
	t.Fatalf("no individual with %s", name)
	return -1
}
