package predicates

import (
	"github.com/tvla-go/tvla/logic"
)

// NeutralToNewIndividuals reports whether adding an individual on which
// every predicate is 0 (isNew aside) leaves f's value unchanged under every
// assignment that does not involve it: every quantifier and closure in f
// gains nothing from the new individual (an existential body would be 0
// there, a universal one 1, a closure step 0).
//
// Finite differencing for %new relies on it: the instrumentation values of
// the old tuples carry over, and only the new tuples need evaluating. A
// definition that is not neutral is re-evaluated everywhere instead.
func NeutralToNewIndividuals(f logic.Formula) bool {
	ok := true
	logic.Walk(f, func(g logic.Formula) bool {
		switch h := g.(type) {
		case *logic.Quant:
			want := logic.False
			if h.Kind == logic.Forall {
				want = logic.True
			}
			for _, v := range h.Vars {
				if val, known := withNew(h.Body, map[logic.Var]bool{v: true}); !known || val != want {
					ok = false
				}
			}
		case *logic.TC:
			for _, v := range []logic.Var{h.Sub1, h.Sub2} {
				if val, known := withNew(h.Body, map[logic.Var]bool{v: true}); !known || val != logic.False {
					ok = false
				}
			}
		}
		return ok
	})
	return ok
}

// withNew evaluates f where the variables in isNew are bound to the new
// individual and every other variable to an old one; known is false when
// the value depends on more than that.
func withNew(f logic.Formula, isNew map[logic.Var]bool) (logic.Kleene, bool) {
	switch g := f.(type) {
	case *logic.Const:
		return g.Value, true
	case *logic.Atom:
		for _, a := range g.Args {
			if isNew[a] {
				return logic.Of(g.Pred == IsNewName), true
			}
		}
		return 0, false
	case *logic.Equal:
		l, r := isNew[g.Left], isNew[g.Right]
		switch {
		case l && r:
			return logic.True, true
		case l || r:
			return logic.False, true
		}
		return 0, false
	case *logic.Closure:
		l, r := isNew[g.From], isNew[g.To]
		switch {
		case g.Reflexive && l && r:
			return logic.True, true
		case l || r:
			// The new individual has no edges of any predicate.
			return logic.False, true
		}
		return 0, false
	case *logic.Not:
		v, ok := withNew(g.Sub, isNew)
		return v.Not(), ok
	case *logic.Binary:
		l, lok := withNew(g.Left, isNew)
		r, rok := withNew(g.Right, isNew)
		switch g.Op {
		case logic.And:
			if (lok && l == logic.False) || (rok && r == logic.False) {
				return logic.False, true
			}
			return l.And(r), lok && rok
		case logic.Or:
			if (lok && l == logic.True) || (rok && r == logic.True) {
				return logic.True, true
			}
			return l.Or(r), lok && rok
		case logic.Implies:
			if (lok && l == logic.False) || (rok && r == logic.True) {
				return logic.True, true
			}
			return l.Implies(r), lok && rok
		}
		return l.Iff(r), lok && rok
	case *logic.If:
		c, ok := withNew(g.Cond, isNew)
		if ok && c != logic.Unknown {
			if c == logic.True {
				return withNew(g.Then, isNew)
			}
			return withNew(g.Else, isNew)
		}
		t, tok := withNew(g.Then, isNew)
		e, eok := withNew(g.Else, isNew)
		if tok && eok && t == e {
			return t, true
		}
		return 0, false
	case *logic.Quant:
		inner := map[logic.Var]bool{}
		for k, v := range isNew {
			inner[k] = v
		}
		for _, v := range g.Vars {
			delete(inner, v)
		}
		// Over old individuals the body's value is not known in general;
		// only a body that is constant without the new individual helps.
		v, ok := withNew(g.Body, inner)
		if !ok {
			return 0, false
		}
		return v, true
	case *logic.TC:
		// A path from (to) the new individual starts (ends) with a step
		// from (to) it; if no such step can hold, neither can the path.
		if isNew[g.From] {
			if v, ok := withNew(g.Body, map[logic.Var]bool{g.Sub1: true}); ok && v == logic.False {
				return logic.False, true
			}
		}
		if isNew[g.To] {
			if v, ok := withNew(g.Body, map[logic.Var]bool{g.Sub2: true}); ok && v == logic.False {
				return logic.False, true
			}
		}
		return 0, false
	}
	return 0, false
}
