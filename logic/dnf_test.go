package logic

import "testing"

// Disjuncts distributes & and E over |, within its limit.
func TestDisjuncts(t *testing.T) {
	p := func(name string, vs ...Var) Formula { return NewAtom(name, vs...) }
	f := NewExists(NewAnd(NewOr(p("a", "x"), p("b", "x")), NewOr(p("c", "x"), p("d", "x"))), "x")
	var got []string
	for _, d := range Disjuncts(f, 16) {
		got = append(got, String(d))
	}
	want := []string{"E(x) a(x) & c(x)", "E(x) a(x) & d(x)", "E(x) b(x) & c(x)", "E(x) b(x) & d(x)"}
	if len(got) != len(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("disjunct %d: %q, want %q", i, got[i], want[i])
		}
	}
	if ds := Disjuncts(f, 3); len(ds) != 1 || ds[0] != f {
		t.Errorf("over the limit: %d disjuncts, want f alone", len(ds))
	}
	if ds := Disjuncts(NewForall(NewOr(p("a", "x"), p("b", "x")), "x"), 16); len(ds) != 1 {
		t.Errorf("A does not distribute over |: %d disjuncts", len(ds))
	}
}
