package tvl_test

import (
	"testing"

	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/tvl"
)

// a has individuals p and q, b has p and r: the join has all three; p's
// values are joined, q and r may not exist and keep their own values, and
// the tuples between q and r, which no structure holds, are 0.
func TestJoinIndependent(t *testing.T) {
	v := tvl.NewVocabulary()
	f, n, ac, b := v.MustAdd("f", 1), v.MustAdd("n", 2), v.MustAdd("ac", 1), v.MustAdd("b", 0)
	a := tvl.New(v)
	p, q := a.AddIndividual(), a.AddIndividual()
	a.Set(ac, logic.True, p)
	a.Set(ac, logic.True, q)
	a.Set(f, logic.True, p)
	a.Set(n, logic.True, p, q)
	a.Set(b, logic.True)
	bs := tvl.New(v)
	p2, r := bs.AddIndividual(), bs.AddIndividual()
	bs.Set(ac, logic.True, p2)
	bs.Set(ac, logic.True, r)
	bs.Set(n, logic.True, r, p2)
	bs.Set(b, logic.True)
	j, grew := tvl.JoinIndependent(a, bs, []int{p, q, -1}, []int{p2, -1, r}, ac)
	if !grew || j.Size() != 3 {
		t.Fatalf("grew %v, %d individuals", grew, j.Size())
	}
	const T, U, F = logic.True, logic.Unknown, logic.False
	for _, c := range []struct {
		what string
		got  logic.Kleene
		want logic.Kleene
	}{
		{"ac(p)", j.Get(ac, 0), T}, {"ac(q)", j.Get(ac, 1), U}, {"ac(r)", j.Get(ac, 2), U},
		{"f(p)", j.Get(f, 0), U}, {"n(p, q)", j.Get(n, 0, 1), T}, {"n(r, p)", j.Get(n, 2, 0), T},
		{"n(q, r)", j.Get(n, 1, 2), F}, {"n(p, r)", j.Get(n, 0, 2), F}, {"b", j.Get(b), T},
	} {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.what, c.got, c.want)
		}
	}
	// Joining a structure it covers again changes nothing.
	if same, grew := tvl.JoinIndependent(j, a, []int{0, 1, 2}, []int{p, q, -1}, ac); grew || same != j {
		t.Errorf("joining a covered structure grew it:\n%s", same)
	}
}
