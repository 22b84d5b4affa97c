package tvl_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tvla-go/tvla/internal/testgen"
	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/tvl"
	"github.com/tvla-go/tvla/tvp"
)

func mustParse(t testing.TB, text string) logic.Formula {
	t.Helper()
	f, err := tvp.ParseFormula("test", text)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func mustCompile(t testing.TB, f logic.Formula, voc *tvl.Vocabulary, free ...logic.Var) *tvl.Compiled {
	t.Helper()
	c, err := tvl.Compile(f, voc, free)
	if err != nil {
		t.Fatalf("%s: %v", logic.String(f), err)
	}
	return c
}

// listVocabulary is the running example of the thesis (§4.1.1): node, x
// and next.
func listVocabulary() *tvl.Vocabulary {
	v := tvl.NewVocabulary()
	v.MustAdd("node", 1)
	v.MustAdd("x", 1)
	v.MustAdd("next", 2)
	return v
}

// list builds a concrete list: n nodes, x at the first, next edges as
// given.
func list(voc *tvl.Vocabulary, n int, edges [][2]int) *tvl.Structure {
	s := tvl.New(voc)
	for i := 0; i < n; i++ {
		u := s.AddIndividual()
		s.Set(voc.Lookup("node"), logic.True, u)
	}
	s.Set(voc.Lookup("x"), logic.True, 0)
	for _, e := range edges {
		s.Set(voc.Lookup("next"), logic.True, e[0], e[1])
	}
	return s
}

const (
	connected = "A(v2) E(v1) x(v1) & next*(v1, v2)"
	acyclic   = "A(v1) !next+(v1, v1)"
)

// Fig. 4.2 of the thesis: the list of length three is connected and
// acyclic (§4.2.2 evaluates both formulas to 1 on it).
func TestThesisConcreteListFormulas(t *testing.T) {
	voc := listVocabulary()
	s := list(voc, 3, [][2]int{{0, 1}, {1, 2}})
	for _, text := range []string{connected, acyclic} {
		if got := mustCompile(t, mustParse(t, text), voc).Eval(s); got != logic.True {
			t.Errorf("%s = %v on Fig. 4.2, want 1", text, got)
		}
	}
	// A cyclic list (Fig. 4.5c) is not acyclic; a disconnected one
	// (Fig. 4.5b) is not connected.
	cyclic := list(voc, 3, [][2]int{{0, 1}, {1, 2}, {2, 1}})
	if got := mustCompile(t, mustParse(t, acyclic), voc).Eval(cyclic); got != logic.False {
		t.Errorf("acyclic on a cycle = %v", got)
	}
	split := list(voc, 4, [][2]int{{0, 1}, {2, 3}})
	if got := mustCompile(t, mustParse(t, connected), voc).Eval(split); got != logic.False {
		t.Errorf("connected on a split list = %v", got)
	}
}

func TestEqualityReadsSummary(t *testing.T) {
	voc := listVocabulary()
	s := tvl.New(voc)
	s.AddIndividual()
	s.AddIndividual()
	s.SetSummary(1, true)
	eq := mustCompile(t, mustParse(t, "v == w"), voc, "v", "w")
	for _, c := range []struct {
		u, w int
		want logic.Kleene
	}{{0, 0, logic.True}, {1, 1, logic.Unknown}, {0, 1, logic.False}, {1, 0, logic.False}} {
		if got := eq.Eval(s, c.u, c.w); got != c.want {
			t.Errorf("u%d == u%d is %v, want %v", c.u, c.w, got, c.want)
		}
	}
	// p* is reflexive through equality: on a summary individual without a
	// self loop it is 1/2, on a non-summary one 1.
	star := mustCompile(t, mustParse(t, "next*(v, v)"), voc, "v")
	if star.Eval(s, 0) != logic.True || star.Eval(s, 1) != logic.Unknown {
		t.Errorf("next*(u,u) = %v, %v", star.Eval(s, 0), star.Eval(s, 1))
	}
}

func TestIfThenElseJoinsOnUnknown(t *testing.T) {
	voc := listVocabulary()
	s := tvl.New(voc)
	s.AddIndividual()
	s.Set(voc.Lookup("x"), logic.Unknown, 0)
	for text, want := range map[string]logic.Kleene{
		"(x(v) ? 1 : 1)":     logic.True, // the join of equal values
		"(x(v) ? 1 : 0)":     logic.Unknown,
		"(!x(v) ? 0 : 0)":    logic.False,
		"(x(v) | 1 ? 0 : 1)": logic.False,
	} {
		if got := mustCompile(t, mustParse(t, text), voc, "v").Eval(s, 0); got != want {
			t.Errorf("%s = %v, want %v", text, got, want)
		}
	}
}

// naiveTC is the definition of §4.1.3 computed by brute force: the maximum
// over all paths of one or more steps of the minimum step value, with
// paths up to the universe size (longer ones repeat a node and are no
// better).
func naiveTC(n int, step func(a, b int) logic.Kleene, from, to int) logic.Kleene {
	best := make([]logic.Kleene, n) // best value of a path from 'from' ending here
	for b := 0; b < n; b++ {
		best[b] = step(from, b)
	}
	for k := 1; k < n; k++ {
		next := append([]logic.Kleene(nil), best...)
		for a := 0; a < n; a++ {
			for b := 0; b < n; b++ {
				next[b] = next[b].Or(best[a].And(step(a, b)))
			}
		}
		best = next
	}
	return best[to]
}

func TestTransitiveClosureMatchesDefinition(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	voc := testgen.Vocabulary()
	plus := mustCompile(t, mustParse(t, "n+(v1, v2)"), voc, "v1", "v2")
	general := mustCompile(t, mustParse(t, "TC(v1, v2)(a, b) n(a, b) | m(b, a) & x(v3)"), voc, "v1", "v2", "v3")
	nC := mustCompile(t, mustParse(t, "n(v1, v2)"), voc, "v1", "v2")
	bodyC := mustCompile(t, mustParse(t, "n(v1, v2) | m(v2, v1) & x(v3)"), voc, "v1", "v2", "v3")
	for i := 0; i < 300; i++ {
		n := 1 + r.IntN(6)
		s := testgen.Structure(r, voc, n, false)
		for a := 0; a < n; a++ {
			for b := 0; b < n; b++ {
				want := naiveTC(n, func(p, q int) logic.Kleene { return nC.Eval(s, p, q) }, a, b)
				if got := plus.Eval(s, a, b); got != want {
					t.Fatalf("n+(u%d,u%d) = %v, want %v in\n%s", a, b, got, want, s)
				}
				for c := 0; c < n; c++ {
					want := naiveTC(n, func(p, q int) logic.Kleene { return bodyC.Eval(s, p, q, c) }, a, b)
					if got := general.Eval(s, a, b, c); got != want {
						t.Fatalf("TC at (%d,%d,%d) = %v, want %v", a, b, c, got, want)
					}
				}
			}
		}
	}
}

// Simplify never changes a formula's value.
func TestSimplifyPreservesValue(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	voc := testgen.Vocabulary()
	for i := 0; i < 1000; i++ {
		f := testgen.Formula(r, 4)
		g := logic.Simplify(f)
		cf := mustCompile(t, f, voc, testgen.Vars...)
		cg := mustCompile(t, g, voc, testgen.Vars...)
		s := testgen.Structure(r, voc, r.IntN(4), false)
		testgen.Assignments(len(testgen.Vars), s.Size(), func(asg []int) {
			if a, b := cf.Eval(s, asg...), cg.Eval(s, asg...); a != b {
				t.Fatalf("%s = %v but simplified %s = %v at %v", logic.String(f), a, logic.String(g), b, asg)
			}
		})
	}
}

func TestCompileErrors(t *testing.T) {
	voc := listVocabulary()
	cases := []struct {
		text string
		free []logic.Var
		want string
	}{
		{"x(v)", nil, "unbound variable v"},
		{"E(v) next(v, w)", nil, "unbound variable w"},
		{"y(v)", []logic.Var{"v"}, "undeclared predicate y"},
		{"next(v)", []logic.Var{"v"}, "predicate next has arity 2 but is applied to 1 arguments"},
		{"x+(v, v)", []logic.Var{"v"}, "predicate x has arity 1 but is applied to 2 arguments"},
		{"TC(a, b)(s, t) next(s, u)", []logic.Var{"a", "b"}, "unbound variable u"},
		{"x(v)", []logic.Var{"v", "v"}, "variable v listed twice"},
	}
	for _, c := range cases {
		_, err := tvl.Compile(mustParse(t, c.text), voc, c.free)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: error %v, want %q", c.text, err, c.want)
		}
	}
}

func TestForEachVisitsEveryAssignment(t *testing.T) {
	voc := listVocabulary()
	s := list(voc, 3, [][2]int{{0, 1}, {1, 2}})
	var got []string
	mustCompile(t, mustParse(t, "next(a, b)"), voc, "a", "b").Bind(s).ForEach(func(asg []int, v logic.Kleene) bool {
		if v == logic.True {
			got = append(got, tvl.IndividualName(asg[0])+"->"+tvl.IndividualName(asg[1]))
		}
		return true
	})
	if strings.Join(got, " ") != "u0->u1 u1->u2" {
		t.Errorf("ForEach found %v", got)
	}
}
