package tvl_test

import (
	"math/rand/v2"
	"testing"

	"github.com/tvla-go/tvla/internal/testgen"
	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/tvl"
)

// naiveEval evaluates f by the definitions of three-valued logic (thesis
// §4.1), looping over every individual for every quantifier: the
// reference the compiled evaluator must agree with.
func naiveEval(s *tvl.Structure, f logic.Formula, env map[logic.Var]int) logic.Kleene {
	voc := s.Vocabulary()
	switch g := f.(type) {
	case *logic.Const:
		return g.Value
	case *logic.Atom:
		args := make([]int, len(g.Args))
		for i, v := range g.Args {
			args[i] = env[v]
		}
		return s.Get(voc.Lookup(g.Pred), args...)
	case *logic.Equal:
		u, w := env[g.Left], env[g.Right]
		switch {
		case u != w:
			return logic.False
		case s.IsSummary(u):
			return logic.Unknown
		}
		return logic.True
	case *logic.Not:
		return naiveEval(s, g.Sub, env).Not()
	case *logic.Binary:
		a, b := naiveEval(s, g.Left, env), naiveEval(s, g.Right, env)
		switch g.Op {
		case logic.And:
			return a.And(b)
		case logic.Or:
			return a.Or(b)
		case logic.Implies:
			return a.Implies(b)
		}
		return a.Iff(b)
	case *logic.If:
		switch naiveEval(s, g.Cond, env) {
		case logic.True:
			return naiveEval(s, g.Then, env)
		case logic.False:
			return naiveEval(s, g.Else, env)
		}
		return naiveEval(s, g.Then, env).Join(naiveEval(s, g.Else, env))
	case *logic.Quant:
		inner := map[logic.Var]int{}
		for k, v := range env {
			inner[k] = v
		}
		res := logic.True
		if g.Kind == logic.Exists {
			res = logic.False
		}
		var loop func(i int)
		loop = func(i int) {
			if i == len(g.Vars) {
				v := naiveEval(s, g.Body, inner)
				if g.Kind == logic.Exists {
					res = res.Or(v)
				} else {
					res = res.And(v)
				}
				return
			}
			for u := 0; u < s.Size(); u++ {
				inner[g.Vars[i]] = u
				loop(i + 1)
			}
		}
		loop(0)
		return res
	case *logic.TC:
		inner := map[logic.Var]int{}
		for k, v := range env {
			inner[k] = v
		}
		step := func(a, b int) logic.Kleene {
			inner[g.Sub1], inner[g.Sub2] = a, b
			return naiveEval(s, g.Body, inner)
		}
		return naiveTC(s.Size(), step, env[g.From], env[g.To])
	case *logic.Closure:
		p := voc.Lookup(g.Pred)
		v := naiveTC(s.Size(), func(a, b int) logic.Kleene { return s.Get(p, a, b) }, env[g.From], env[g.To])
		if g.Reflexive {
			v = v.Or(naiveEval(s, logic.Eq(g.From, g.To), env))
		}
		return v
	}
	panic("unknown formula")
}

// joinQuant returns a quantifier whose body is a conjunction (for E) or
// disjunction (for A) of literals over its variables and the free
// variables, sometimes with a random subformula: the shapes the
// compiler evaluates by walking bit tables instead of scanning.
func joinQuant(r *rand.Rand) logic.Formula {
	bound := []logic.Var{"q1"}
	if r.IntN(2) == 0 {
		bound = append(bound, "q2")
	}
	vars := append([]logic.Var{"v1", "v2", "v3"}, bound...)
	v := func() logic.Var { return vars[r.IntN(len(vars))] }
	var parts []logic.Formula
	for i := 0; i < 2+r.IntN(3); i++ {
		var lit logic.Formula
		switch r.IntN(5) {
		case 0:
			lit = logic.NewAtom([]string{"x", "y", "z"}[r.IntN(3)], v())
		case 1, 2:
			lit = logic.NewAtom([]string{"n", "m"}[r.IntN(2)], v(), v())
		case 3:
			lit = logic.Eq(v(), v())
		default:
			lit = logic.NewAtom("b")
		}
		if r.IntN(3) == 0 {
			lit = logic.NewNot(lit)
		}
		parts = append(parts, lit)
	}
	if r.IntN(3) == 0 {
		parts = append(parts, testgen.Formula(r, 2))
	}
	if r.IntN(2) == 0 {
		return logic.NewExists(logic.NewAnd(parts...), bound...)
	}
	if r.IntN(2) == 0 {
		return logic.NewForall(logic.NewImplies(parts[0], logic.NewOr(parts[1:]...)), bound...)
	}
	return logic.NewForall(logic.NewOr(parts...), bound...)
}

// The compiled evaluator (quantifiers as nested loops drawing values
// from bit tables, with pruning) agrees with evaluation by the
// definitions, on random formulas and structures with 0 to 4
// individuals, summary ones and 1/2 values included.
func TestCompiledEvaluationMatchesDefinitions(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	voc := testgen.Vocabulary()
	for i := 0; i < 3000; i++ {
		var f logic.Formula
		if i%2 == 0 {
			f = testgen.Formula(r, 3)
		} else {
			f = joinQuant(r)
			if r.IntN(3) == 0 {
				f = &logic.Quant{Kind: logic.Exists, Vars: []logic.Var{"v3"}, Body: logic.NewAnd(logic.NewAtom("x", "v3"), f)}
			}
		}
		c := mustCompile(t, f, voc, testgen.Vars...)
		s := testgen.Structure(r, voc, r.IntN(5), r.IntN(4) == 0)
		testgen.Assignments(len(testgen.Vars), s.Size(), func(asg []int) {
			env := map[logic.Var]int{}
			for j, v := range testgen.Vars {
				env[v] = asg[j]
			}
			if got, want := c.Eval(s, asg...), naiveEval(s, f, env); got != want {
				t.Fatalf("%s = %v, want %v at %v in\n%s", logic.String(f), got, want, asg, s)
			}
		})
	}
}

// TestMightSplit checks that mightSplit, which spares the compiler a
// negation normal form per universal quantifier, never says no where
// the split would happen.
func TestMightSplit(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 19))
	for i := 0; i < 20000; i++ {
		f := testgen.Formula(r, 5)
		for _, neg := range []bool{false, true} {
			g := f
			if neg {
				g = logic.NewNot(f)
			}
			if n := len(logic.Disjuncts(logic.NNF(g), 16)); n > 1 && !tvl.MightSplit(f, neg) {
				t.Fatalf("mightSplit(%s, %v) = false, but it splits in %d", logic.String(f), neg, n)
			}
			// An existential quantifier's body is split as it is, not
			// in NNF: mightSplit(f, false) covers that too.
			if n := len(logic.Disjuncts(f, 16)); !neg && n > 1 && !tvl.MightSplit(f, false) {
				t.Fatalf("mightSplit(%s, false) = false, but it splits in %d without NNF", logic.String(f), n)
			}
		}
	}
}
