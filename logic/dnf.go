package logic

// Disjuncts returns formulas whose disjunction has f's value on every
// structure: f's top-level disjunctions, with & distributed over | and E
// over | (both identities of Kleene's logic, a distributive lattice in
// which E is a maximum). It stops splitting where more than limit
// disjuncts would result, and returns f alone when nothing splits.
// Evaluators use it to give each disjunct of a quantifier's body its own
// join: E(x) (p(x) & q(x) | r(x)) is two walks along p's and r's tuples
// instead of a scan of every x.
func Disjuncts(f Formula, limit int) []Formula {
	switch g := f.(type) {
	case *Binary:
		switch g.Op {
		case Or:
			l, r := Disjuncts(g.Left, limit), Disjuncts(g.Right, limit)
			if len(l)+len(r) <= limit {
				return append(l, r...)
			}
		case And:
			l, r := Disjuncts(g.Left, limit), Disjuncts(g.Right, limit)
			if len(l)*len(r) > 1 && len(l)*len(r) <= limit {
				var out []Formula
				for _, a := range l {
					for _, b := range r {
						out = append(out, &Binary{Op: And, Left: a, Right: b})
					}
				}
				return out
			}
		}
	case *Quant:
		if g.Kind == Exists {
			ds := Disjuncts(g.Body, limit)
			if len(ds) > 1 {
				out := make([]Formula, len(ds))
				for i, d := range ds {
					out[i] = &Quant{Kind: Exists, Vars: g.Vars, Body: d}
				}
				return out
			}
		}
	}
	return []Formula{f}
}
