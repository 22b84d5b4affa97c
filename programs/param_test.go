package programs_test

import (
	"testing"

	"github.com/tvla-go/tvla/logic"
)

// TVLA 3's classic engine instantiates a %param action for the first
// member of its set only (testdata/param.tvp): from the empty structure
// it stores one structure at L1, with b() = 1 and a() = 0. One action per
// member gave two, and 82 structures instead of the reference's 14 on
// its decomposition/linearization/cons model.
func TestParamTakesTheFirstMember(t *testing.T) {
	res := run(t, "testdata/param.tvp")
	checkCounts(t, res, map[string]int{"L0": 1, "L1": 1}, 0)
	for _, l := range res.Locations {
		if l.Label != "L1" || l.Structures.Len() != 1 {
			continue
		}
		s := l.Structures.At(0)
		voc := s.Vocabulary()
		if got := s.Get(voc.Lookup("b")); got != logic.True {
			t.Errorf("b() = %v at L1, the reference has 1", got)
		}
		if got := s.Get(voc.Lookup("a")); got != logic.False {
			t.Errorf("a() = %v at L1, the reference has 0", got)
		}
	}
}
