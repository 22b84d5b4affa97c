package tvp

import (
	"testing"

	"github.com/tvla-go/tvla/logic"
)

// The graph decomposition clauses are kept in the model
// (docs/decomposition.md), for every member of a foreach.
func TestDecompositionClausesAreRecorded(t *testing.T) {
	const src = `%s PVar {x, y}
foreach (z in PVar) {
  %p z(v_1) unique pointer
  %i w[z](v) = E(u) z(u) & u == v
}
foreach (z in PVar) {
  %dname w[z](v) z
}
%dname x(v) | y(v)
%%
%action Copy(lhs, rhs) {
  %t lhs + " = " + rhs
  %compose w[rhs](v1) & w[lhs](v2)
  %message [w[lhs](v1)] (E(v) lhs(v)) -> "not null"
  {
    lhs(v) = rhs(v)
  }
  %decompose
}
%action Skip() {
  %decompose x(v)
}
%%
L1 Copy(x, y) L2
L2 Skip() L3
`
	prog, err := ParseProgram("main.tvp", NewPlainSource("main.tvp", src))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range prog.DecompNames {
		names = append(names, d.Name+":"+string(d.Var)+":"+logic.String(d.Formula))
	}
	want := []string{"x:v:w[x](v)", "y:v:w[y](v)", "x(v) | y(v):v:x(v) | y(v)"}
	if len(names) != len(want) {
		t.Fatalf("dnames %q, want %q", names, want)
	}
	for i := range want {
		if names[i] != want[i] {
			t.Errorf("dname %d: %q, want %q", i, names[i], want[i])
		}
	}
	copyA, skip := prog.Actions[0], prog.Actions[1]
	if got := logic.String(copyA.Compose); got != "w[y](v1) & w[x](v2)" {
		t.Errorf("compose %q", got)
	}
	if got := logic.String(copyA.PreMessages[0].Compose); got != "w[x](v1)" {
		t.Errorf("message composition %q", got)
	}
	if got := logic.String(copyA.Decompose); got != "1" {
		t.Errorf("bare %%decompose %q, want 1", got)
	}
	if got := logic.String(skip.Decompose); got != "x(v)" {
		t.Errorf("%%decompose formula %q", got)
	}
	if skip.Compose != nil || copyA.Frame != nil || copyA.FramePre != nil {
		t.Error("absent clauses recorded")
	}
}

func TestDecompositionClauseErrors(t *testing.T) {
	for _, c := range []programErrorCase{
		{name: "undeclared predicate in %dname",
			main: "%p x(v)\n%dname x(v) & y(v) both\n%%\n%%\n",
			want: `main.tvp:2:15: undeclared predicate y`},
		{name: "%dname without a free variable",
			main: "%p x(v)\n%dname E(v) x(v) some\n%%\n%%\n",
			want: `main.tvp:2:8: the formula of %dname needs a free variable for the individual in the component (v, or the only one)`},
		{name: "%dname twice",
			main: "%p x(v)\n%dname x(v) X\n%dname !x(v) X\n%%\n%%\n",
			want: `main.tvp:3:1: %dname X declared twice (first at main.tvp:2:1)`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := programErrors(t, c); got != c.want {
				t.Errorf("errors:\n%s\nwant:\n%s", got, c.want)
			}
		})
	}
}

// A %dname formula may not use a unary predicate that is not an
// abstraction predicate: TVLA 3 refuses concurrent_lists/model1.tvp with
// "Decomposition predicate locked_at[m_1] is not an abstraction
// predicate", but under a negation (dcas/g's !dummy(v)); binary
// predicates are allowed (linearization_tlq).
func TestDecompositionPredicatesAreAbstraction(t *testing.T) {
	c := programErrorCase{name: "nonabs in %dname",
		main: "%p x(v)\n%p h(v) nonabs\n%p n(v1, v2)\n%dname x(v) | h(v) & !n(v, v) & !h(v) X\n%%\n%%\n",
		want: `main.tvp:4:15: decomposition predicate h is not an abstraction predicate (a unary predicate a %dname formula uses outside a negation must be one)`}
	if got := programErrors(t, c); got != c.want {
		t.Errorf("errors:\n%s\nwant:\n%s", got, c.want)
	}
}
