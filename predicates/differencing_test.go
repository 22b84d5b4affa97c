package predicates

import (
	"testing"

	"github.com/tvla-go/tvla/logic"
)

// An update of the shape (c ? x : p) changes p only where c holds: its
// deltas carry c, so that where c is 0 they are 0 even when p is 1/2 (a
// summary individual the step does not touch keeps every fact derived
// from p exactly).
func TestAtomDeltasOfAnIte(t *testing.T) {
	v := logic.Var("v")
	p := &logic.Atom{Pred: "p", Args: []logic.Var{v}}
	c := &logic.Atom{Pred: "c", Args: []logic.Var{v}}
	x := &logic.Atom{Pred: "x", Args: []logic.Var{v}}
	cases := []struct {
		u           logic.Formula
		plus, minus string
	}{
		{&logic.If{Cond: c, Then: x, Else: p}, "c(v) & (x(v) & !p(v))", "c(v) & (p(v) & !x(v))"},
		{&logic.If{Cond: c, Then: p, Else: x}, "!c(v) & (x(v) & !p(v))", "!c(v) & (p(v) & !x(v))"},
		// A derived update p ? !m : x (Derive's form): p goes to 0
		// where m, to 1 where x, read without the ite, so that where p
		// is 1/2 and m is 0 the loss is 0, not 1/2.
		{&logic.If{Cond: p, Then: logic.NewNot(c), Else: x}, "!p(v) & x(v)", "p(v) & !!c(v)"},
		{logic.NewOr(p, x), "x(v) & !p(v)", "0"},
		{logic.NewAnd(p, x), "0", "p(v) & !x(v)"},
	}
	for _, tc := range cases {
		plus, minus := atomDeltas(p, tc.u)
		if got := logic.String(plus); got != tc.plus {
			t.Errorf("Δ⁺ of p' = %s: %s, want %s", logic.String(tc.u), got, tc.plus)
		}
		if got := logic.String(minus); got != tc.minus {
			t.Errorf("Δ⁻ of p' = %s: %s, want %s", logic.String(tc.u), got, tc.minus)
		}
	}
}
