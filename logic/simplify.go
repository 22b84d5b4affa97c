package logic

// Simplify folds constants out of f: 1 & g is g, 0 & g is 0, !1 is 0,
// (1 ? a : b) is a, E(v) 0 is 0, and so on. E(v) 1 and A(v) 0 are kept,
// because their value depends on whether the universe is empty. The result
// has the same value as f on every structure and assignment.
func Simplify(f Formula) Formula {
	switch g := f.(type) {
	case *Not:
		sub := Simplify(g.Sub)
		if c, ok := sub.(*Const); ok {
			return &Const{c.Value.Not()}
		}
		if n, ok := sub.(*Not); ok {
			return n.Sub
		}
		if sub == g.Sub {
			return g
		}
		return &Not{Sub: sub}
	case *Binary:
		l, r := Simplify(g.Left), Simplify(g.Right)
		if s := foldBinary(g.Op, l, r); s != nil {
			return s
		}
		if l == g.Left && r == g.Right {
			return g
		}
		return &Binary{Op: g.Op, Left: l, Right: r}
	case *If:
		c, t, e := Simplify(g.Cond), Simplify(g.Then), Simplify(g.Else)
		if k, ok := c.(*Const); ok {
			switch k.Value {
			case True:
				return t
			case False:
				return e
			}
		}
		if EqualFormulas(t, e) {
			// Either branch gives the same value, and joining equal
			// values changes nothing.
			return t
		}
		return &If{Cond: c, Then: t, Else: e}
	case *Quant:
		body := Simplify(g.Body)
		if len(g.Vars) == 0 {
			return body
		}
		// E(v) 0 is 0 and A(v) 1 is 1 on every universe, the empty one
		// included (E(v) 1 and A(v) 0 are not).
		if c, ok := body.(*Const); ok {
			if (g.Kind == Exists && c.Value == False) || (g.Kind == Forall && c.Value == True) {
				return body
			}
		}
		if body == g.Body {
			return g
		}
		return &Quant{Kind: g.Kind, Vars: g.Vars, Body: body}
	case *TC:
		body := Simplify(g.Body)
		if c, ok := body.(*Const); ok && c.Value == False {
			return False0
		}
		if body == g.Body {
			return g
		}
		t := *g
		t.Body = body
		return &t
	}
	return f
}

// foldBinary returns the simplified form of l op r when one side is a
// constant that decides or vanishes, and nil otherwise.
func foldBinary(op BinOp, l, r Formula) Formula {
	lc, lok := l.(*Const)
	rc, rok := r.(*Const)
	if lok && rok {
		switch op {
		case And:
			return &Const{lc.Value.And(rc.Value)}
		case Or:
			return &Const{lc.Value.Or(rc.Value)}
		case Implies:
			return &Const{lc.Value.Implies(rc.Value)}
		default:
			return &Const{lc.Value.Iff(rc.Value)}
		}
	}
	switch op {
	case And:
		if lok {
			return absorb(lc.Value, r, False, True)
		}
		if rok {
			return absorb(rc.Value, l, False, True)
		}
	case Or:
		if lok {
			return absorb(lc.Value, r, True, False)
		}
		if rok {
			return absorb(rc.Value, l, True, False)
		}
	case Implies:
		if lok {
			switch lc.Value {
			case False:
				return True1
			case True:
				return r
			}
		}
		if rok {
			switch rc.Value {
			case True:
				return True1
			case False:
				return Simplify(&Not{Sub: l})
			}
		}
	case Iff:
		if lok && lc.Value == True {
			return r
		}
		if rok && rc.Value == True {
			return l
		}
		if lok && lc.Value == False {
			return Simplify(&Not{Sub: r})
		}
		if rok && rc.Value == False {
			return Simplify(&Not{Sub: l})
		}
	}
	return nil
}

// absorb simplifies c op other, where zero decides the connective and unit
// is its neutral element.
func absorb(c Kleene, other Formula, zero, unit Kleene) Formula {
	switch c {
	case zero:
		return &Const{zero}
	case unit:
		return other
	}
	return nil
}
