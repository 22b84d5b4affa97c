package logic

import (
	"reflect"
	"testing"
)

func TestFreeVars(t *testing.T) {
	// E(v1) x(v1) & n*(v1, v2): only v2 is free.
	f := NewExists(NewAnd(NewAtom("x", "v1"), &Closure{Pred: "n", From: "v1", To: "v2", Reflexive: true}), "v1")
	if got := FreeVars(f); !reflect.DeepEqual(got, []Var{"v2"}) {
		t.Errorf("FreeVars = %v", got)
	}
	// TC(a, b)(s, t) n(s, t) & y(c): a, b, c free; s, t bound.
	tc := &TC{From: "a", To: "b", Sub1: "s", Sub2: "t", Body: NewAnd(NewAtom("n", "s", "t"), NewAtom("y", "c"))}
	if got := FreeVars(tc); !reflect.DeepEqual(got, []Var{"a", "b", "c"}) {
		t.Errorf("FreeVars(TC) = %v", got)
	}
	if !IsFree(tc, "c") || IsFree(tc, "s") {
		t.Error("IsFree wrong on TC")
	}
	// A variable both free and bound in different places.
	g := NewAnd(NewAtom("x", "v"), NewExists(NewAtom("y", "v"), "v"))
	if got := FreeVars(g); !reflect.DeepEqual(got, []Var{"v"}) {
		t.Errorf("FreeVars = %v", got)
	}
}

func TestRenameAvoidsCapture(t *testing.T) {
	// E(w) n(v, w) with v := w must not become E(w) n(w, w).
	f := NewExists(NewAtom("n", "v", "w"), "w")
	got := Rename(f, map[Var]Var{"v": "w"})
	want := NewExists(NewAtom("n", "w", "w$1"), "w$1")
	if !EqualFormulas(got, want) {
		t.Errorf("Rename = %s, want %s", String(got), String(want))
	}
	// Bound occurrences are not renamed.
	g := NewAnd(NewAtom("x", "v"), NewForall(NewAtom("y", "v"), "v"))
	got = Rename(g, map[Var]Var{"v": "u"})
	want = NewAnd(NewAtom("x", "u"), NewForall(NewAtom("y", "v"), "v"))
	if !EqualFormulas(got, want) {
		t.Errorf("Rename = %s, want %s", String(got), String(want))
	}
	// TC binds its inner pair; its outer pair is free.
	tc := &TC{From: "a", To: "b", Sub1: "s", Sub2: "t", Body: NewAnd(NewAtom("n", "s", "t"), NewAtom("y", "c"))}
	got = Rename(tc, map[Var]Var{"a": "s", "c": "t", "s": "zz"})
	want = &TC{From: "s", To: "b", Sub1: "s", Sub2: "t$1", Body: NewAnd(NewAtom("n", "s", "t$1"), NewAtom("y", "t"))}
	if !EqualFormulas(got, want) {
		t.Errorf("Rename(TC) = %s, want %s", String(got), String(want))
	}
	// The original is untouched.
	if String(f) != "E(w) n(v, w)" {
		t.Errorf("Rename changed its input: %s", String(f))
	}
}

func TestRenamePredsAndPreds(t *testing.T) {
	f := NewAnd(NewAtom("z", "v"), &Closure{Pred: "n", From: "v", To: "w"})
	g := RenamePreds(f, func(p string) string {
		if p == "z" {
			return "x"
		}
		return p
	})
	if got := String(g); got != "x(v) & n+(v, w)" {
		t.Errorf("RenamePreds = %s", got)
	}
	if got := Preds(g); !reflect.DeepEqual(got, []string{"x", "n"}) {
		t.Errorf("Preds = %v", got)
	}
	if UsesEquality(g) || !UsesEquality(Neq("a", "b")) {
		t.Error("UsesEquality")
	}
}

func TestSimplify(t *testing.T) {
	x := NewAtom("x", "v")
	cases := []struct {
		in   Formula
		want string
	}{
		{NewAnd(True1, x), "x(v)"},
		{NewAnd(x, False0), "0"},
		{NewOr(x, True1), "1"},
		{NewOr(False0, x), "x(v)"},
		{NewNot(NewNot(x)), "x(v)"},
		{NewNot(Half), "1/2"},
		{NewImplies(False0, x), "1"},
		{NewImplies(x, False0), "!x(v)"},
		{&If{Cond: True1, Then: x, Else: False0}, "x(v)"},
		{&If{Cond: NewAtom("y", "v"), Then: x, Else: x}, "x(v)"},
		{NewAnd(Half, x), "1/2 & x(v)"},
		// E(v) 1 stays: it is 0 on the empty universe. E(v) 0 goes.
		{NewExists(NewAnd(True1, True1), "v"), "E(v) 1"},
		{NewExists(NewAnd(x, False0), "v"), "0"},
		{NewForall(NewOr(x, True1), "v"), "1"},
	}
	for _, c := range cases {
		if got := String(Simplify(c.in)); got != c.want {
			t.Errorf("Simplify(%s) = %s, want %s", String(c.in), got, c.want)
		}
	}
}

func TestNNF(t *testing.T) {
	x, y := NewAtom("x", "v"), NewAtom("y", "v")
	cases := []struct {
		in   Formula
		want string
	}{
		{NewNot(NewAnd(x, y)), "!x(v) | !y(v)"},
		{NewNot(NewForall(NewImplies(x, y), "v")), "E(v) x(v) & !y(v)"},
		{NewNot(NewExists(NewNot(x), "v")), "A(v) x(v)"},
		{NewNot(&If{Cond: x, Then: y, Else: False0}), "(x(v) ? !y(v) : 1)"},
		{&Binary{Op: Iff, Left: x, Right: y}, "(!x(v) | y(v)) & (!y(v) | x(v))"},
		{NewNot(Neq("a", "b")), "a == b"},
	}
	for _, c := range cases {
		if got := String(NNF(c.in)); got != c.want {
			t.Errorf("NNF(%s) = %s, want %s", String(c.in), got, c.want)
		}
	}
}
