package logic

import "testing"

func TestPropagateUnits(t *testing.T) {
	at, s := NewAtom("at", "v"), NewAtom("s", "v")
	g, h := NewAtom("g", "v", "w"), NewAtom("h", "w")
	cases := []struct {
		in   Formula
		want string
	}{
		// The guarded soft invariant's case: !s(v) makes s(v) 0 under
		// the quantifier, which does not bind v.
		{NewAnd(at, NewNot(s), NewExists(NewAnd(g, NewOr(s, NewNot(at), h)), "w")), "at(v) & !s(v) & (E(w) g(v, w) & h(w))"},
		// A literal and its negation: 0.
		{NewAnd(s, at, NewNot(s)), "0"},
		// In a disjunction the others matter where the literal is false.
		{NewOr(s, NewAnd(s, at)), "s(v)"},
		{NewImplies(s, NewAnd(s, at)), "!s(v) | at(v)"},
		// A quantifier that binds the literal's variable stops it.
		{NewAnd(s, NewExists(NewAnd(NewAtom("s", "v"), h), "v")), "s(v) & (E(v) s(v) & h(w))"},
		// A literal twice is kept once (not replaced by 1 twice).
		{NewAnd(s, at, s), "s(v) & at(v)"},
		{NewOr(at, s, s), "at(v) | s(v)"},
		// A literal is not replaced by itself, nor an atom with other
		// arguments.
		{NewAnd(s, NewAtom("s", "w")), "s(v) & s(w)"},
		// Inside an if-then-else.
		{NewAnd(NewNot(s), &If{Cond: s, Then: Half, Else: at}), "!s(v) & at(v)"},
		// A literal condition holds in its then branch and fails in its
		// else branch: the derived updates' (s ? 1 : !s) and
		// (!s ? s : 0), 1/2 under Kleene's logic where s is, are 1 and 0.
		{&If{Cond: s, Then: True1, Else: NewNot(s)}, "1"},
		{&If{Cond: NewNot(s), Then: s, Else: False0}, "0"},
		{&If{Cond: s, Then: NewAnd(s, at), Else: NewOr(s, g)}, "(s(v) ? at(v) : g(v, w))"},
		// A condition that is no literal adds nothing.
		{&If{Cond: NewAnd(s, at), Then: s, Else: at}, "(s(v) & at(v) ? s(v) : at(v))"},
	}
	for _, c := range cases {
		if got := String(PropagateUnits(c.in)); got != c.want {
			t.Errorf("PropagateUnits(%s) = %s, want %s", String(c.in), got, c.want)
		}
	}
}
