package programs_test

import (
	"testing"

	"github.com/tvla-go/tvla/logic"
)

// TVLA 3's classic engine instantiates a %param action for the first
// member of its set only, and an action parameter of the same name wins
// over the %param (testdata/param.tvp): from the empty structure it
// stores one structure per location, b() = 1 and a() = 0 at L1, both 1
// at L2, only a() at L3. One action per member gave two structures at L1,
// and 82 instead of the reference's 14 on its
// decomposition/linearization/cons model.
func TestParamTakesTheFirstMember(t *testing.T) {
	res := run(t, "testdata/param.tvp")
	checkCounts(t, res, map[string]int{"L0": 1, "L1": 1, "L2": 1, "L3": 1}, 0)
	want := map[string][2]logic.Kleene{ // a(), b()
		"L1": {logic.False, logic.True},
		"L2": {logic.True, logic.True},
		"L3": {logic.True, logic.False},
	}
	for _, l := range res.Locations {
		w, ok := want[l.Label]
		if !ok || l.Structures.Len() != 1 {
			continue
		}
		s := l.Structures.At(0)
		voc := s.Vocabulary()
		if a, b := s.Get(voc.Lookup("a")), s.Get(voc.Lookup("b")); a != w[0] || b != w[1] {
			t.Errorf("%s: a() = %v, b() = %v; the reference has %v, %v", l.Label, a, b, w[0], w[1])
		}
	}
}
