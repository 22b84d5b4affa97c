package engine

import (
	"testing"

	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/predicates"
	"github.com/tvla-go/tvla/tvl"
)

// The set keeps one structure per valuation of the nullary predicates;
// structures with different individuals merge by canonical name, an
// individual of only some of them getting inac 1/2 and its tuples the
// values of the structures that have it.
func TestIndependentSetJoinsByNullaryValues(t *testing.T) {
	v := tvl.NewVocabulary()
	x, y, n := v.MustAdd("x", 1), v.MustAdd("y", 1), v.MustAdd("n", 2)
	b, inac := v.MustAdd("b", 0), v.MustAdd(predicates.InacName, 1)
	mk := func(withW bool, bv logic.Kleene) *tvl.Structure {
		s := tvl.New(v)
		u := s.AddIndividual()
		s.Set(x, logic.True, u)
		s.Set(inac, logic.True, u)
		if withW {
			w := s.AddIndividual()
			s.Set(y, logic.True, w)
			s.Set(inac, logic.True, w)
			s.Set(n, logic.True, u, w)
		}
		s.Set(b, bv, nil...)
		s.Freeze()
		return s
	}
	ss := newStructureSet(&independentJoin{absUn: []*tvl.Pred{x, y}, nullary: []*tvl.Pred{b}, exists: inac}, v)
	ss.Add(mk(false, logic.False))
	if _, changed := ss.Add(mk(true, logic.False)); !changed {
		t.Fatal("a structure with another individual did not grow the stored one")
	}
	if ss.Len() != 1 {
		t.Fatalf("%d structures, want 1", ss.Len())
	}
	got := ss.At(0)
	if got.Size() != 2 || got.Get(inac, 0) != logic.True || got.Get(inac, 1) != logic.Unknown || got.Get(n, 0, 1) != logic.True {
		t.Errorf("joined:\n%s", got)
	}
	if _, changed := ss.Add(mk(false, logic.False)); changed {
		t.Error("a structure the stored one covers changed the set")
	}
	ss.Add(mk(false, logic.True))
	if ss.Len() != 2 {
		t.Errorf("%d structures, want 2: b differs", ss.Len())
	}
}
