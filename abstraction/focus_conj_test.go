package abstraction

import (
	"strings"
	"testing"

	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/tvp"
)

// The focus sequences of TVLA 3's Focus of a conjunction, for the
// probe formulas of docs/decomposition-threads.md: a conjunct is focused
// only where the ones before it are 1, unique atoms come first, then
// fewer variables; disjuncts and negations are focused on their own;
// quantifiers are dropped; equalities are not focused.
func TestConjunctionFocusSequence(t *testing.T) {
	unique := func(p string) bool { return p == "x" || p == "u" }
	for _, c := range []struct{ in, want string }{
		{"sch(v) & at(v)", "sch(v) ; sch(v) & at(v)"},
		{"at(v) & sch(v)", "at(v) ; at(v) & sch(v)"},
		{"at(v) & u(v)", "u(v) ; u(v) & at(v)"},
		{"sch(v) & !at(v)", "sch(v) ; sch(v) & at(v)"},
		{"sch(v) | at(v)", "sch(v) ; at(v)"},
		{"E(w) sch(w) & at(w)", "sch(w) ; sch(w) & at(w)"},
		{"n(w, v) & x(w)", "x(w) ; x(w) & n(w, v)"},
		{"n(w, v) & s(w)", "s(w) ; s(w) & n(w, v)"},
		{"a(v) & v == w & b(w)", "a(v) ; a(v) & b(w)"},
		{"a(v) & (b(v) | c(v))", "a(v) ; a(v) & b(v) ; a(v) & c(v)"},
	} {
		f, err := tvp.ParseFormula("probe", c.in)
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		var got []string
		for _, g := range ConjunctionFocus(f, unique) {
			got = append(got, logic.String(g))
		}
		if s := strings.Join(got, " ; "); s != c.want {
			t.Errorf("%s: got %q, want %q", c.in, s, c.want)
		}
	}
}
