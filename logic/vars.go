package logic

import (
	"strconv"
)

// FreeVars lists the free variables of f in order of first appearance
// (left to right as printed), without repetition.
func FreeVars(f Formula) []Var {
	var out []Var
	seen := map[Var]bool{}
	collectFree(f, nil, func(v Var) {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	})
	return out
}

// IsFree reports whether v occurs free in f.
func IsFree(f Formula, v Var) bool {
	found := false
	collectFree(f, nil, func(w Var) {
		if w == v {
			found = true
		}
	})
	return found
}

// collectFree reports every free occurrence, with bound listing the
// variables bound by enclosing quantifiers.
func collectFree(f Formula, bound []Var, emit func(Var)) {
	isBound := func(v Var) bool {
		for i := len(bound) - 1; i >= 0; i-- {
			if bound[i] == v {
				return true
			}
		}
		return false
	}
	use := func(vs ...Var) {
		for _, v := range vs {
			if !isBound(v) {
				emit(v)
			}
		}
	}
	switch g := f.(type) {
	case *Const:
	case *Atom:
		use(g.Args...)
	case *Equal:
		use(g.Left, g.Right)
	case *Closure:
		use(g.From, g.To)
	case *Not:
		collectFree(g.Sub, bound, emit)
	case *Binary:
		collectFree(g.Left, bound, emit)
		collectFree(g.Right, bound, emit)
	case *If:
		collectFree(g.Cond, bound, emit)
		collectFree(g.Then, bound, emit)
		collectFree(g.Else, bound, emit)
	case *Quant:
		collectFree(g.Body, append(bound[:len(bound):len(bound)], g.Vars...), emit)
	case *TC:
		// The closure's own variables are written before the body.
		use(g.From, g.To)
		collectFree(g.Body, append(bound[:len(bound):len(bound)], g.Sub1, g.Sub2), emit)
	}
}

// allVars collects every variable name in f, free or bound.
func allVars(f Formula, into map[Var]bool) {
	Walk(f, func(g Formula) bool {
		switch h := g.(type) {
		case *Atom:
			for _, v := range h.Args {
				into[v] = true
			}
		case *Equal:
			into[h.Left], into[h.Right] = true, true
		case *Closure:
			into[h.From], into[h.To] = true, true
		case *Quant:
			for _, v := range h.Vars {
				into[v] = true
			}
		case *TC:
			into[h.From], into[h.To], into[h.Sub1], into[h.Sub2] = true, true, true, true
		}
		return true
	})
}

// Rename replaces free occurrences of variables by other variables, as
// sub says, renaming bound variables where they would capture a
// replacement. Variables missing from sub are left alone. f is not
// changed; untouched subtrees are shared with the result.
func Rename(f Formula, sub map[Var]Var) Formula {
	if len(sub) == 0 {
		return f
	}
	used := map[Var]bool{}
	allVars(f, used)
	for k, v := range sub {
		used[k], used[v] = true, true
	}
	r := renamer{used: used}
	return r.rename(f, sub)
}

type renamer struct {
	used map[Var]bool
	next int
}

// fresh returns a variable name not used anywhere so far. The '$' keeps it
// a valid TVP identifier while making a clash with user names unlikely.
func (r *renamer) fresh(base Var) Var {
	for {
		r.next++
		v := Var(string(base) + "$" + strconv.Itoa(r.next))
		if !r.used[v] {
			r.used[v] = true
			return v
		}
	}
}

func lookup(sub map[Var]Var, v Var) Var {
	if w, ok := sub[v]; ok {
		return w
	}
	return v
}

func (r *renamer) rename(f Formula, sub map[Var]Var) Formula {
	if len(sub) == 0 {
		return f
	}
	switch g := f.(type) {
	case *Const:
		return g
	case *Atom:
		args := make([]Var, len(g.Args))
		changed := false
		for i, v := range g.Args {
			args[i] = lookup(sub, v)
			changed = changed || args[i] != v
		}
		if !changed {
			return g
		}
		return &Atom{Pred: g.Pred, Args: args}
	case *Equal:
		return &Equal{Left: lookup(sub, g.Left), Right: lookup(sub, g.Right)}
	case *Closure:
		c := *g
		c.From, c.To = lookup(sub, g.From), lookup(sub, g.To)
		return &c
	case *Not:
		return &Not{Sub: r.rename(g.Sub, sub)}
	case *Binary:
		return &Binary{Op: g.Op, Left: r.rename(g.Left, sub), Right: r.rename(g.Right, sub)}
	case *If:
		return &If{Cond: r.rename(g.Cond, sub), Then: r.rename(g.Then, sub), Else: r.rename(g.Else, sub)}
	case *Quant:
		vars, inner := r.bind(g.Vars, g.Body, sub)
		return &Quant{Kind: g.Kind, Vars: vars, Body: r.rename(g.Body, inner)}
	case *TC:
		vars, inner := r.bind([]Var{g.Sub1, g.Sub2}, g.Body, sub)
		return &TC{
			From: lookup(sub, g.From), To: lookup(sub, g.To),
			Sub1: vars[0], Sub2: vars[1],
			Body: r.rename(g.Body, inner),
		}
	}
	panic("logic: unknown formula node")
}

// bind handles variables bound around body: they shadow sub, and any that
// a replacement would be captured by is renamed to a fresh variable.
func (r *renamer) bind(bound []Var, body Formula, sub map[Var]Var) ([]Var, map[Var]Var) {
	inner := make(map[Var]Var, len(sub))
	for k, v := range sub {
		inner[k] = v
	}
	for _, b := range bound {
		delete(inner, b)
	}
	// Targets of substitutions that really happen inside body.
	targets := map[Var]bool{}
	for k, v := range inner {
		if IsFree(body, k) {
			targets[v] = true
		}
	}
	out := make([]Var, len(bound))
	copy(out, bound)
	for i, b := range bound {
		if targets[b] {
			nb := r.fresh(b)
			out[i] = nb
			inner[b] = nb
		}
	}
	return out, inner
}

// RenamePreds replaces every predicate name by rename(name); it is how
// action arguments and foreach members are put into formulas.
func RenamePreds(f Formula, rename func(string) string) Formula {
	switch g := f.(type) {
	case *Const, *Equal:
		return g
	case *Atom:
		return &Atom{Pred: rename(g.Pred), Args: g.Args}
	case *Closure:
		c := *g
		c.Pred = rename(g.Pred)
		return &c
	case *Not:
		return &Not{Sub: RenamePreds(g.Sub, rename)}
	case *Binary:
		return &Binary{Op: g.Op, Left: RenamePreds(g.Left, rename), Right: RenamePreds(g.Right, rename)}
	case *If:
		return &If{Cond: RenamePreds(g.Cond, rename), Then: RenamePreds(g.Then, rename), Else: RenamePreds(g.Else, rename)}
	case *Quant:
		return &Quant{Kind: g.Kind, Vars: g.Vars, Body: RenamePreds(g.Body, rename)}
	case *TC:
		t := *g
		t.Body = RenamePreds(g.Body, rename)
		return &t
	}
	panic("logic: unknown formula node")
}
