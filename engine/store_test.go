package engine

import (
	"testing"

	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/tvl"
)

// The partial join changes a stored structure only where a definite value
// meets a different one: a structure whose values are ⊑ the stored one's
// leaves the set unchanged and queues nothing. (Counting a 1/2 that meets
// a 1 as growth re-queued the same structure forever: found by
// FuzzPipeline, a two-edge program that never ended.)
func TestPartialJoinChangesOnlyWhenItGrows(t *testing.T) {
	v := tvl.NewVocabulary()
	x, f, n := v.MustAdd("x", 1), v.MustAdd("f", 1), v.MustAdd("n", 2)
	structure := func(val logic.Kleene) *tvl.Structure {
		s := tvl.New(v)
		a, b := s.AddIndividual(), s.AddIndividual()
		s.Set(x, logic.True, a)
		s.Set(f, val, b)
		s.Set(n, val, a, b)
		s.Freeze()
		return s
	}
	ss := newStructureSet(&partialJoin{absUn: []*tvl.Pred{x}}, v)
	if _, changed := ss.Add(structure(logic.True)); !changed {
		t.Fatal("a new structure did not change the set")
	}
	if _, changed := ss.Add(structure(logic.False)); !changed {
		t.Fatal("a structure with other values did not grow the stored one")
	}
	ss.TakePending()
	for _, val := range []logic.Kleene{logic.True, logic.False, logic.Unknown} {
		if _, changed := ss.Add(structure(val)); changed {
			t.Errorf("joining values %v into 1/2 changed the set", val)
		}
	}
	if ss.HasPending() || ss.Len() != 1 {
		t.Errorf("%d structures, pending %v", ss.Len(), ss.HasPending())
	}
	if got := ss.At(0); got.Get(n, 0, 1) != logic.Unknown || got.Get(f, 1) != logic.Unknown {
		t.Errorf("joined structure:\n%s", got)
	}
}
