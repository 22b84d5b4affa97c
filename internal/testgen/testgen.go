// Package testgen generates random formulas and structures for
// property-based tests. Everything is driven by a caller's *rand.Rand, so
// a fixed seed gives a fixed sequence of cases.
package testgen

import (
	"math/rand/v2"

	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/tvl"
)

// Vars is the pool of variable names random formulas use.
var Vars = []logic.Var{"v1", "v2", "v3"}

// Vocabulary returns a fixed vocabulary covering every arity: a nullary
// b, unary x, y and z (x and y like pointer variables), binary n and m,
// and a ternary t.
func Vocabulary() *tvl.Vocabulary {
	v := tvl.NewVocabulary()
	v.MustAdd("b", 0)
	v.MustAdd("x", 1)
	v.MustAdd("y", 1)
	v.MustAdd("z", 1)
	v.MustAdd("n", 2)
	v.MustAdd("m", 2)
	v.MustAdd("t", 3)
	return v
}

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// Formula returns a random formula over Vocabulary() whose free variables
// are among Vars, at most depth levels deep. Every construct of the logic
// appears with some probability.
func Formula(r *rand.Rand, depth int) logic.Formula {
	v := func() logic.Var { return pick(r, Vars) }
	if depth <= 0 || r.IntN(4) == 0 {
		switch r.IntN(9) {
		case 0:
			return &logic.Const{Value: pick(r, []logic.Kleene{logic.False, logic.Unknown, logic.True})}
		case 1:
			return logic.NewAtom("b")
		case 2, 3:
			return logic.NewAtom(pick(r, []string{"x", "y", "z"}), v())
		case 4, 5:
			return logic.NewAtom(pick(r, []string{"n", "m"}), v(), v())
		case 6:
			return logic.NewAtom("t", v(), v(), v())
		case 7:
			return logic.Eq(v(), v())
		default:
			return &logic.Closure{Pred: pick(r, []string{"n", "m"}), From: v(), To: v(), Reflexive: r.IntN(2) == 0}
		}
	}
	sub := func() logic.Formula { return Formula(r, depth-1) }
	switch r.IntN(8) {
	case 0:
		return logic.NewNot(sub())
	case 1, 2:
		return &logic.Binary{Op: pick(r, []logic.BinOp{logic.And, logic.Or, logic.Implies, logic.Iff}), Left: sub(), Right: sub()}
	case 3:
		return &logic.If{Cond: sub(), Then: sub(), Else: sub()}
	case 4, 5:
		kind := logic.Exists
		if r.IntN(2) == 0 {
			kind = logic.Forall
		}
		vars := []logic.Var{v()}
		if r.IntN(4) == 0 {
			if w := v(); w != vars[0] {
				vars = append(vars, w)
			}
		}
		return &logic.Quant{Kind: kind, Vars: vars, Body: sub()}
	case 6:
		a, b := v(), v()
		s1, s2 := v(), v()
		for s2 == s1 {
			s2 = v()
		}
		return &logic.TC{From: a, To: b, Sub1: s1, Sub2: s2, Body: sub()}
	default:
		return logic.Neq(v(), v())
	}
}

// Structure returns a random structure over voc with n individuals. A
// two-valued structure has only 0 and 1 values and no summary individual;
// otherwise values are drawn from all three and some individuals are
// summary.
func Structure(r *rand.Rand, voc *tvl.Vocabulary, n int, twoValued bool) *tvl.Structure {
	s := tvl.New(voc)
	for i := 0; i < n; i++ {
		s.AddIndividual()
	}
	val := func() logic.Kleene {
		if twoValued {
			return logic.Of(r.IntN(3) == 0)
		}
		return pick(r, []logic.Kleene{logic.False, logic.False, logic.True, logic.Unknown})
	}
	sm := voc.Summary()
	for _, p := range voc.Preds() {
		if p == sm {
			if !twoValued {
				for u := 0; u < n; u++ {
					s.SetSummary(u, r.IntN(3) == 0)
				}
			}
			continue
		}
		for args := range tvl.Tuples(n, p.Arity) {
			s.Set(p, val(), args...)
		}
	}
	return s
}

// Assignments calls f with every assignment of k variables to n
// individuals, in lexicographic order (tvl.Tuples).
func Assignments(k, n int, f func([]int)) {
	for asg := range tvl.Tuples(n, k) {
		f(asg)
	}
}
