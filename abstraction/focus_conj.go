package abstraction

import (
	"sort"

	"github.com/tvla-go/tvla/logic"
)

// ConjunctionFocus rewrites a focus formula into the sequence of
// formulas whose split-until-definite Focus (Focuser), one after the
// other, splits what TVLA 3's Focus of the formula splits, as observed
// black box (docs/decomposition-threads.md, "TVLA 3's Focus of a
// conjunction"):
//
//   - an atom is made definite wherever it is not 0;
//   - a conjunction is taken conjunct by conjunct: the atoms of unique
//     predicates first, then those with fewer variables, otherwise as
//     written; each next conjunct only where the ones before are 1 (its
//     formula is guarded by them, which the earlier formulas made
//     definite);
//   - !g is g; g | h, g -> h, g <-> h are g, then h;
//   - a quantifier is its body, its variables ranging like free ones;
//   - equalities, closures and constants are not focused; a conditional
//     is focused as it is.
//
// Each formula of the sequence is definite after its Focus wherever the
// ones before are, so the last Focus leaves the whole conjunction of the
// guards definite, as the formula itself would.
func ConjunctionFocus(f logic.Formula, unique func(pred string) bool) []logic.Formula {
	var out []logic.Formula
	conjunctionFocus(f, nil, unique, &out)
	return out
}

func conjunctionFocus(f logic.Formula, guard []logic.Formula, unique func(string) bool, out *[]logic.Formula) {
	guarded := func(g logic.Formula) logic.Formula {
		return logic.NewAnd(append(append([]logic.Formula(nil), guard...), g)...)
	}
	switch g := f.(type) {
	case *logic.Atom:
		*out = append(*out, guarded(g))
	case *logic.Not:
		conjunctionFocus(g.Sub, guard, unique, out)
	case *logic.Quant:
		conjunctionFocus(g.Body, guard, unique, out)
	case *logic.If:
		*out = append(*out, guarded(g))
	case *logic.Binary:
		if g.Op != logic.And {
			conjunctionFocus(g.Left, guard, unique, out)
			conjunctionFocus(g.Right, guard, unique, out)
			return
		}
		conj := conjunctOrder(conjuncts(g, nil), unique)
		before := append([]logic.Formula(nil), guard...)
		for _, c := range conj {
			conjunctionFocus(c, before, unique, out)
			before = append(before, c)
		}
	}
}

// conjunctOrder is the order TVLA 3 takes a conjunction's conjuncts in:
// unique atoms first, then by number of free variables, stably.
func conjunctOrder(cs []logic.Formula, unique func(string) bool) []logic.Formula {
	rank := func(c logic.Formula) (int, int) {
		u := 1
		if a, ok := c.(*logic.Atom); ok && unique != nil && unique(a.Pred) {
			u = 0
		}
		return u, len(logic.FreeVars(c))
	}
	out := append([]logic.Formula(nil), cs...)
	sort.SliceStable(out, func(i, j int) bool {
		ui, vi := rank(out[i])
		uj, vj := rank(out[j])
		if ui != uj {
			return ui < uj
		}
		return vi < vj
	})
	return out
}
