package abstraction_test

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/tvla-go/tvla/abstraction"
	"github.com/tvla-go/tvla/internal/testgen"
	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/tvl"
	"github.com/tvla-go/tvla/tvp"
)

func parse(t testing.TB, text string) logic.Formula {
	t.Helper()
	f, err := tvp.ParseFormula("test", text)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func eval(t testing.TB, s *tvl.Structure, text string, free []logic.Var, asg ...int) logic.Kleene {
	t.Helper()
	c, err := tvl.Compile(parse(t, text), s.Vocabulary(), free)
	if err != nil {
		t.Fatal(err)
	}
	return c.Eval(s, asg...)
}

// The running example of §4.1: predicates node, x, next, and the
// instrumentation predicates reach[x,next] and circ[next] of §4.2.2.
type example struct {
	voc                        *tvl.Vocabulary
	node, x, next, reach, circ *tvl.Pred
}

func newExample() example {
	v := tvl.NewVocabulary()
	return example{voc: v,
		node: v.MustAdd("node", 1), x: v.MustAdd("x", 1), next: v.MustAdd("next", 2),
		reach: v.MustAdd("reach[x,next]", 1), circ: v.MustAdd("circ[next]", 1)}
}

// list builds a concrete list of n nodes with x on node 0, the given next
// edges, and the instrumentation predicates set from their definitions.
func (e example) list(t *testing.T, n int, edges [][2]int) *tvl.Structure {
	s := tvl.New(e.voc)
	for i := 0; i < n; i++ {
		s.Set(e.node, logic.True, s.AddIndividual())
	}
	s.Set(e.x, logic.True, 0)
	for _, ed := range edges {
		s.Set(e.next, logic.True, ed[0], ed[1])
	}
	for u := 0; u < n; u++ {
		s.Set(e.reach, eval(t, s, "E(u) x(u) & next*(u, v)", []logic.Var{"v"}, u), u)
		s.Set(e.circ, eval(t, s, "next+(v, v)", []logic.Var{"v"}, u), u)
	}
	return s
}

// Fig. 4.2 abstracts to Fig. 4.3 with A = {node, x}: u1 stays alone,
// u2 and u3 merge into a summary individual, and every value is the one
// §4.1.2 lists.
func TestThesisFigure43(t *testing.T) {
	e := newExample()
	conc := e.list(t, 3, [][2]int{{0, 1}, {1, 2}})
	abs, embed := abstraction.Blur(conc, []*tvl.Pred{e.node, e.x})
	if abs.Size() != 2 {
		t.Fatalf("abstraction has %d individuals, want 2:\n%s", abs.Size(), abs)
	}
	// Canonical order puts x=0 before x=1: the summary node comes first.
	u1, u23 := embed[0], embed[1]
	if embed[2] != u23 || u1 == u23 {
		t.Fatalf("embedding %v, want u2 and u3 together, u1 alone", embed)
	}
	check := func(what string, got, want logic.Kleene) {
		t.Helper()
		if got != want {
			t.Errorf("%s = %v, want %v", what, got, want)
		}
	}
	eq := func(a, b int) logic.Kleene { return eval(t, abs, "a == b", []logic.Var{"a", "b"}, a, b) }
	check("eq(u1,u1)", eq(u1, u1), logic.True)
	check("eq(u23,u23)", eq(u23, u23), logic.Unknown)
	check("eq(u1,u23)", eq(u1, u23), logic.False)
	check("eq(u23,u1)", eq(u23, u1), logic.False)
	check("node(u1)", abs.Get(e.node, u1), logic.True)
	check("node(u23)", abs.Get(e.node, u23), logic.True)
	check("x(u1)", abs.Get(e.x, u1), logic.True)
	check("x(u23)", abs.Get(e.x, u23), logic.False)
	check("next(u1,u23)", abs.Get(e.next, u1, u23), logic.Unknown)
	check("next(u23,u23)", abs.Get(e.next, u23, u23), logic.Unknown)
	check("next(u1,u1)", abs.Get(e.next, u1, u1), logic.False)
	check("next(u23,u1)", abs.Get(e.next, u23, u1), logic.False)

	// §4.2.2: connectedness and acyclicity are 1 on the list and 1/2 on
	// its abstraction.
	for _, f := range []string{"A(v2) E(v1) x(v1) & next*(v1, v2)", "A(v1) !next+(v1, v1)"} {
		check(f+" concretely", eval(t, conc, f, nil), logic.True)
		check(f+" abstractly", eval(t, abs, f, nil), logic.Unknown)
	}
}

// Figs. 4.5 and 4.6: a connected acyclic list, a disconnected one and a
// connected cyclic one share one abstraction over {node, x}, and get three
// different ones once reach[x,next] and circ[next] are abstraction
// predicates.
func TestThesisFigure46(t *testing.T) {
	e := newExample()
	lists := []*tvl.Structure{
		e.list(t, 3, [][2]int{{0, 1}, {1, 2}}),         // S1: connected, acyclic
		e.list(t, 4, [][2]int{{0, 1}, {2, 3}}),         // S2: disconnected, acyclic
		e.list(t, 3, [][2]int{{0, 1}, {1, 2}, {2, 1}}), // S3: connected, cyclic
	}
	var plain, refined []*tvl.Structure
	for _, s := range lists {
		a, _ := abstraction.Blur(s, []*tvl.Pred{e.node, e.x})
		// Drop the instrumentation predicates' values to compare the
		// Fig. 4.5 abstractions, which do not have them.
		for u := 0; u < a.Size(); u++ {
			a.Set(e.reach, logic.False, u)
			a.Set(e.circ, logic.False, u)
		}
		plain = append(plain, a)
		b, _ := abstraction.Blur(s, []*tvl.Pred{e.node, e.x, e.reach, e.circ})
		refined = append(refined, b)
	}
	for i := 1; i < 3; i++ {
		if !tvl.Equal(plain[0], plain[i]) {
			t.Errorf("Fig. 4.5: S%d abstracts differently from S1:\n%s\nvs\n%s", i+1, plain[i], plain[0])
		}
	}
	for i := 0; i < 3; i++ {
		for j := i + 1; j < 3; j++ {
			if _, iso := tvl.Isomorphic(refined[i], refined[j]); iso {
				t.Errorf("Fig. 4.6: S'%d and S'%d have the same abstraction", i+1, j+1)
			}
		}
	}
	// S'1 represents connected acyclic lists: reach is 1 and circ 0
	// everywhere, so the instrumented properties evaluate definitely.
	s1 := refined[0]
	if got := eval(t, s1, "A(v) reach[x,next](v)", nil); got != logic.True {
		t.Errorf("A(v) reach = %v on S'1", got)
	}
	if got := eval(t, s1, "A(v) !circ[next](v)", nil); got != logic.True {
		t.Errorf("A(v) !circ = %v on S'1", got)
	}
	if got := eval(t, s1, "A(v2) E(v1) x(v1) & next*(v1, v2)", nil); got != logic.Unknown {
		t.Errorf("the defining formula itself is still 1/2 on S'1, got %v", got)
	}
	// S'2 has three individuals: x's node, the reachable one, and the
	// unreachable summary.
	if refined[1].Size() != 3 {
		t.Errorf("S'2 has %d individuals, want 3", refined[1].Size())
	}
}

// The Embedding Theorem (thesis §4.1.3): a formula's value on a structure
// is at most (⊑) its value on the canonical abstraction, under the
// embedding. Checked on random two-valued structures, random formulas,
// random abstraction predicates and every assignment.
func TestEmbeddingTheorem(t *testing.T) {
	r := rand.New(rand.NewPCG(2026, 11))
	voc := testgen.Vocabulary()
	unary := []*tvl.Pred{voc.Lookup("x"), voc.Lookup("y"), voc.Lookup("z")}
	checked := 0
	for i := 0; i < 1500; i++ {
		s := testgen.Structure(r, voc, r.IntN(6), true)
		var abs []*tvl.Pred
		for _, p := range unary {
			if r.IntN(2) == 0 {
				abs = append(abs, p)
			}
		}
		a, embed := abstraction.Blur(s, abs)
		f := testgen.Formula(r, 4)
		c, err := tvl.Compile(f, voc, testgen.Vars)
		if err != nil {
			t.Fatal(err)
		}
		bs, ba := c.Bind(s), c.Bind(a)
		img := make([]int, len(testgen.Vars))
		testgen.Assignments(len(testgen.Vars), s.Size(), func(asg []int) {
			for j, u := range asg {
				img[j] = embed[u]
			}
			conc, abst := bs.Eval(asg...), ba.Eval(img...)
			if !conc.LessInfo(abst) {
				t.Fatalf("case %d: %s is %v on\n%s\nbut %v on its abstraction\n%s\nat %v",
					i, logic.String(f), conc, s, abst, a, asg)
			}
		})
		checked++
	}
	if checked < 1000 {
		t.Fatalf("only %d cases", checked)
	}
}

// Blur leaves individuals in canonical order, so isomorphic inputs blur
// to equal structures, and blurring twice changes nothing.
func TestBlurIsCanonical(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 2))
	voc := testgen.Vocabulary()
	abs := []*tvl.Pred{voc.Lookup("x"), voc.Lookup("y")}
	for i := 0; i < 300; i++ {
		s := testgen.Structure(r, voc, r.IntN(6), r.IntN(2) == 0)
		perm := r.Perm(s.Size())
		p := s.Project(perm)
		a, _ := abstraction.Blur(s, abs)
		b, _ := abstraction.Blur(p, abs)
		if !tvl.Equal(a, b) {
			t.Fatalf("renumbered inputs blur differently:\n%s\nvs\n%s", a, b)
		}
		c, _ := abstraction.Blur(a, abs)
		if !tvl.Equal(a, c) {
			t.Fatalf("Blur is not idempotent:\n%s\nvs\n%s", a, c)
		}
	}
}

// Blur returns a structure whose individuals have distinct canonical names
// in increasing order, and returns such a structure itself, unchanged: on
// random three-valued structures, against the names themselves.
func TestBlurKeepsCanonicalStructures(t *testing.T) {
	r := rand.New(rand.NewPCG(2026, 21))
	voc := testgen.Vocabulary()
	abs := []*tvl.Pred{voc.Lookup("x"), voc.Lookup("y")}
	increasing := func(s *tvl.Structure) bool {
		for u := 1; u < s.Size(); u++ {
			if bytes.Compare(abstraction.CanonicalName(s, abs, u-1), abstraction.CanonicalName(s, abs, u)) >= 0 {
				return false
			}
		}
		return true
	}
	kept := 0
	for i := 0; i < 2000; i++ {
		s := testgen.Structure(r, voc, r.IntN(7), i%2 == 0)
		b, _ := abstraction.Blur(s, abs)
		if !increasing(b) {
			t.Fatalf("case %d: Blur's result is not in canonical order:\n%s", i, b)
		}
		if (b == s) != increasing(s) {
			t.Fatalf("case %d: Blur returned the input itself: %v, but its names increase: %v\n%s", i, b == s, increasing(s), s)
		}
		if again, _ := abstraction.Blur(b, abs); again != b {
			t.Fatalf("case %d: Blur of a blurred structure made a copy", i)
		}
		if b == s {
			kept++
		}
	}
	if kept < 100 || kept > 1900 {
		t.Fatalf("%d of 2000 inputs were canonical already: the cases do not test both paths", kept)
	}
}
