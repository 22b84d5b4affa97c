package tvp

import (
	"strings"
	"testing"
)

// TestAbsOnBinaryPredicateWarns: abs on a predicate of arity 2 or more is
// accepted with a warning naming it and where (issue 19); on unary and
// nullary predicates it is silent.
func TestAbsOnBinaryPredicateWarns(t *testing.T) {
	src := "%p x(v) abs\n%p f() abs\n%p n(v1, v2) abs function\n%s S {a}\nforeach (p in S) {\n  %p t[p](a, b, c) abs\n}\n%%\n%%\n"
	prog, err := ParseProgram("main.tvp", NewPlainSource("main.tvp", src))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"main.tvp:3:14: predicate n has arity 2 and is declared abs: only unary and nullary predicates are abstraction predicates; the property is ignored",
		"main.tvp:6:20: predicate t[a] has arity 3 and is declared abs: only unary and nullary predicates are abstraction predicates; the property is ignored",
	}
	if got := strings.Join(prog.Warnings, "\n"); got != strings.Join(want, "\n") {
		t.Errorf("warnings:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
	if p := prog.Vocabulary.Lookup("n"); p == nil || p.Abstraction() {
		t.Error("n should not be an abstraction predicate")
	}
}
