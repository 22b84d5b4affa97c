package logic

// Relativize restricts f to the individuals on which the unary predicate
// active holds: TVLA's single-structure join ("ind") keeps individuals
// that may not exist (active at 1/2), and a formula must not let such an
// individual stand as a witness or a counterexample as if it certainly
// existed. The result:
//
//   - E(v...) g becomes E(v...) g' & active(v) & ...;
//   - A(v...) g becomes A(v...) g' | !(active(v) & ...);
//   - a transitive closure's path may pass through an individual only as
//     far as that individual exists: TC(a, b)(s, t) g becomes
//     g'(a, b) | E(c) TC(a, c)(s, t)(g'(s, t) & active(t)) & g'(c, b),
//     and p+ and p* likewise (p*(a, b) is a == b | p+(a, b)). The two ends
//     of the path are not restricted: they are the closure's arguments,
//     bound by whoever uses it (this is what TVLA 3 computes);
//
// where g' is g relativized. Free variables are left alone: their users
// decide (Coerce restricts them, update formulas do not). The guards come
// after the formulas they guard, so that evaluation can still draw a
// quantified variable from the formula's own atoms.
func Relativize(f Formula, active string) Formula {
	used := map[Var]bool{}
	allVars(f, used)
	r := &relativizer{active: active, names: renamer{used: used}}
	return r.rel(f)
}

type relativizer struct {
	active string
	names  renamer
}

// guard is active(v1) & ... & active(vk).
func (r *relativizer) guard(vs []Var) Formula {
	fs := make([]Formula, len(vs))
	for i, v := range vs {
		fs[i] = NewAtom(r.active, v)
	}
	return NewAnd(fs...)
}

func (r *relativizer) rel(f Formula) Formula {
	switch g := f.(type) {
	case *Const, *Atom, *Equal:
		return g
	case *Not:
		return &Not{Sub: r.rel(g.Sub)}
	case *Binary:
		return &Binary{Op: g.Op, Left: r.rel(g.Left), Right: r.rel(g.Right)}
	case *If:
		return &If{Cond: r.rel(g.Cond), Then: r.rel(g.Then), Else: r.rel(g.Else)}
	case *Quant:
		body := r.rel(g.Body)
		if len(g.Vars) == 0 {
			return &Quant{Kind: g.Kind, Vars: g.Vars, Body: body}
		}
		guard := r.guard(g.Vars)
		if g.Kind == Exists {
			return &Quant{Kind: Exists, Vars: g.Vars, Body: &Binary{Op: And, Left: body, Right: guard}}
		}
		return &Quant{Kind: Forall, Vars: g.Vars, Body: &Binary{Op: Or, Left: body, Right: NewNot(guard)}}
	case *TC:
		return r.closure(g.From, g.To, g.Sub1, g.Sub2, r.rel(g.Body))
	case *Closure:
		s, t := r.names.fresh("s"), r.names.fresh("t")
		plus := r.closure(g.From, g.To, s, t, NewAtom(g.Pred, s, t))
		if g.Reflexive {
			return &Binary{Op: Or, Left: Eq(g.From, g.To), Right: plus}
		}
		return plus
	}
	panic("logic: unknown formula node")
}

// closure is the relativized TC(from, to)(s, t) body, body relativized
// already: a path of one step, or a path to some c whose steps all end in
// active individuals, then a last step from c.
func (r *relativizer) closure(from, to, s, t Var, body Formula) Formula {
	c := r.names.fresh("c")
	direct := Rename(body, map[Var]Var{s: from, t: to})
	steps := &TC{From: from, To: c, Sub1: s, Sub2: t, Body: &Binary{Op: And, Left: body, Right: NewAtom(r.active, t)}}
	last := Rename(body, map[Var]Var{s: c, t: to})
	return &Binary{Op: Or, Left: direct, Right: &Quant{Kind: Exists, Vars: []Var{c}, Body: &Binary{Op: And, Left: steps, Right: last}}}
}
