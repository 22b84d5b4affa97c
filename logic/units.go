package logic

import "strings"

// PropagateUnits sharpens f by unit propagation. In a conjunction, a
// conjunct that is a literal (a predicate atom or its negation) is true
// wherever the conjunction can be, so the same atom elsewhere in the
// conjunction, with the same arguments and not under a quantifier or
// closure that binds one of them, is replaced by the value that makes
// the literal true; dually, in a disjunction by the value that makes it
// false (a -> b is read as !a | b); in a conditional c ? t : e whose
// condition is a literal, by the value that makes it true in t and false
// in e. Then constants are folded (Simplify).
//
// The result has the same value as f on every two-valued structure and
// assignment. On a three-valued structure its value is at least as
// precise as f's (a replaced atom was 1/2 at most where it mattered), and
// it is sound by the embedding theorem, as any formula equivalent to f on
// two-valued structures is. What it adds is what Kleene's logic cannot
// see: at[L](v) & !s(v) & (s(v) | g) is 1/2 when s(v) is 1/2, while the
// same formula with s(v) replaced by 0 inside is at[L](v) & !s(v) & g.
func PropagateUnits(f Formula) Formula {
	return Simplify(propagate(f, nil))
}

// unit is a literal's atom, by its key, and the value the enclosing
// connective lets it have.
type unit struct {
	key  string
	args []Var
	val  bool
}

func atomKey(a *Atom) string {
	var b strings.Builder
	b.WriteString(a.Pred)
	b.WriteByte('(')
	for i, x := range a.Args {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(string(x))
	}
	b.WriteByte(')')
	return b.String()
}

// literalOf returns the atom of a literal and its sign.
func literalOf(f Formula) (*Atom, bool, bool) {
	neg := false
	if n, ok := f.(*Not); ok {
		f, neg = n.Sub, true
	}
	a, ok := f.(*Atom)
	return a, !neg, ok
}

// flatten lists the operands of nested op connectives; under Or,
// an implication a -> b counts as the disjuncts !a and b.
func flatten(op BinOp, f Formula, out []Formula) []Formula {
	if b, ok := f.(*Binary); ok {
		switch {
		case b.Op == op:
			return flatten(op, b.Right, flatten(op, b.Left, out))
		case op == Or && b.Op == Implies:
			return flatten(op, b.Right, flatten(op, NewNot(b.Left), out))
		}
	}
	return append(out, f)
}

// unitsFree drops the units whose atoms mention one of vars (bound below).
func unitsFree(units []unit, vars ...Var) []unit {
	var out []unit
	for _, u := range units {
		bound := false
		for _, x := range u.args {
			for _, y := range vars {
				if x == y {
					bound = true
				}
			}
		}
		if !bound {
			out = append(out, u)
		}
	}
	return out
}

func propagate(f Formula, units []unit) Formula {
	switch g := f.(type) {
	case *Atom:
		key := atomKey(g)
		// The innermost unit wins: it is the last one added.
		for i := len(units) - 1; i >= 0; i-- {
			if units[i].key == key {
				if units[i].val {
					return True1
				}
				return False0
			}
		}
		return g
	case *Not:
		return NewNot(propagate(g.Sub, units))
	case *Binary:
		if g.Op == And || g.Op == Or || g.Op == Implies {
			return propagateJunction(g, units)
		}
		return &Binary{Op: g.Op, Left: propagate(g.Left, units), Right: propagate(g.Right, units)}
	case *If:
		// In c ? t : e, a literal c holds in t and fails in e.
		cond := propagate(g.Cond, units)
		thenUnits, elseUnits := units, units
		if a, pos, ok := literalOf(cond); ok {
			key := atomKey(a)
			thenUnits = append(units[:len(units):len(units)], unit{key: key, args: a.Args, val: pos})
			elseUnits = append(units[:len(units):len(units)], unit{key: key, args: a.Args, val: !pos})
		}
		return &If{Cond: cond, Then: propagate(g.Then, thenUnits), Else: propagate(g.Else, elseUnits)}
	case *Quant:
		return &Quant{Kind: g.Kind, Vars: g.Vars, Body: propagate(g.Body, unitsFree(units, g.Vars...))}
	case *TC:
		t := *g
		t.Body = propagate(g.Body, unitsFree(units, g.Sub1, g.Sub2))
		return &t
	}
	return f
}

// propagateJunction propagates into each operand of a conjunction (or
// disjunction) the literals among the other operands.
func propagateJunction(g *Binary, units []unit) Formula {
	op := g.Op
	if op == Implies {
		op = Or
	}
	// A literal that occurs twice is kept once: the two would replace
	// each other by 1 (a & a is a, not 1).
	var ops []Formula
	lits := []*unit{}
	type sign struct {
		key string
		val bool
	}
	seen := map[sign]bool{}
	for _, o := range flatten(op, g, nil) {
		var u *unit
		if a, pos, ok := literalOf(o); ok {
			// In a disjunction the others matter only where o is false.
			u = &unit{key: atomKey(a), args: a.Args, val: pos == (op == And)}
			if seen[sign{u.key, u.val}] {
				continue
			}
			seen[sign{u.key, u.val}] = true
		}
		ops = append(ops, o)
		lits = append(lits, u)
	}
	out := make([]Formula, len(ops))
	for i, o := range ops {
		inner := units
		for j, u := range lits {
			if j != i && u != nil {
				inner = append(inner[:len(inner):len(inner)], *u)
			}
		}
		out[i] = propagate(o, inner)
	}
	if op == And {
		return NewAnd(out...)
	}
	return NewOr(out...)
}
