package tvl

import (
	"testing"

	"github.com/tvla-go/tvla/logic"
)

// Renamed swaps predicates of each arity, leaves the others and the
// original alone, and its copy can be written without touching the
// frozen original's shared tables.
func TestRenamedSwapsPredicates(t *testing.T) {
	voc := NewVocabulary()
	a1, a2 := voc.MustAdd("a[t1]", 1), voc.MustAdd("a[t2]", 1)
	e1, e2 := voc.MustAdd("e[t1]", 2), voc.MustAdd("e[t2]", 2)
	n1, n2 := voc.MustAdd("d[t1]", 0), voc.MustAdd("d[t2]", 0)
	other := voc.MustAdd("other", 1)
	s := NewSized(voc, 2)
	s.Set(a1, logic.True, 0)
	s.Set(a2, logic.Unknown, 1)
	s.Set(e1, logic.True, 0, 1)
	s.Set(n1, logic.True)
	s.Set(other, logic.True, 1)
	s.Freeze()
	r := s.Renamed(map[*Pred]*Pred{a1: a2, a2: a1, e1: e2, e2: e1, n1: n2, n2: n1})
	for _, c := range []struct {
		p    *Pred
		args []int
		want logic.Kleene
	}{
		{a2, []int{0}, logic.True}, {a2, []int{1}, logic.False}, {a1, []int{1}, logic.Unknown}, {a1, []int{0}, logic.False},
		{e2, []int{0, 1}, logic.True}, {e1, []int{0, 1}, logic.False},
		{n2, nil, logic.True}, {n1, nil, logic.False}, {other, []int{1}, logic.True},
	} {
		if got := r.Get(c.p, c.args...); got != c.want {
			t.Errorf("renamed %s%v = %v, want %v", c.p.Name, c.args, got, c.want)
		}
	}
	r.Set(e2, logic.False, 0, 1)
	if s.Get(e1, 0, 1) != logic.True || s.Get(a1, 0) != logic.True || s.Get(n1) != logic.True {
		t.Error("Renamed changed the original")
	}
}
