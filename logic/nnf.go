package logic

// NNF returns f in negation normal form: negations only on atoms,
// equalities, closures, TC and constants. Implications and equivalences
// are expanded (a -> b is !a | b; a <-> b is (a -> b) & (b -> a)) and
// negations pushed through &, |, quantifiers and if-then-else. Every step
// is an identity of Kleene's logic (De Morgan and quantifier duality hold
// there), so the result has f's value on every structure.
func NNF(f Formula) Formula { return nnf(f, false) }

func nnf(f Formula, neg bool) Formula {
	switch g := f.(type) {
	case *Const:
		if neg {
			return &Const{g.Value.Not()}
		}
		return g
	case *Not:
		return nnf(g.Sub, !neg)
	case *Binary:
		switch g.Op {
		case Implies:
			return nnf(&Binary{Op: Or, Left: &Not{Sub: g.Left}, Right: g.Right}, neg)
		case Iff:
			both := &Binary{Op: And,
				Left:  &Binary{Op: Implies, Left: g.Left, Right: g.Right},
				Right: &Binary{Op: Implies, Left: g.Right, Right: g.Left}}
			return nnf(both, neg)
		}
		op := g.Op
		if neg {
			if op == And {
				op = Or
			} else {
				op = And
			}
		}
		return &Binary{Op: op, Left: nnf(g.Left, neg), Right: nnf(g.Right, neg)}
	case *Quant:
		kind := g.Kind
		if neg {
			if kind == Exists {
				kind = Forall
			} else {
				kind = Exists
			}
		}
		return &Quant{Kind: kind, Vars: g.Vars, Body: nnf(g.Body, neg)}
	case *If:
		// The join of the branches commutes with negation.
		return &If{Cond: nnf(g.Cond, false), Then: nnf(g.Then, neg), Else: nnf(g.Else, neg)}
	case *TC:
		t := *g
		t.Body = nnf(g.Body, false)
		if neg {
			return &Not{Sub: &t}
		}
		return &t
	}
	if neg {
		return &Not{Sub: f}
	}
	return f
}

// NNFSize is the number of nodes NNF(f) has, or any number over limit
// once it exceeds limit (counting stops there). NNF writes a <-> b as
// (a -> b) & (b -> a), copying both sides, so nested <-> double the size
// at every level: the loader refuses a formula whose normal form would
// not fit, instead of taking forever to build it.
func NNFSize(f Formula, limit int) int {
	n := 0
	var count func(g Formula, times int) bool
	count = func(g Formula, times int) bool {
		if n += times; n > limit {
			return false
		}
		switch h := g.(type) {
		case *Not:
			return count(h.Sub, times)
		case *Binary:
			if h.Op == Iff {
				// Both sides twice, and the two implications' nodes.
				n += 2 * times
				return count(h.Left, 2*times) && count(h.Right, 2*times)
			}
			return count(h.Left, times) && count(h.Right, times)
		case *Quant:
			return count(h.Body, times)
		case *If:
			return count(h.Cond, times) && count(h.Then, times) && count(h.Else, times)
		case *TC:
			return count(h.Body, times)
		}
		return true
	}
	count(f, 1)
	return n
}
