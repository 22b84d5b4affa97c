package logic

import (
	"strconv"
)

// FreeVars lists the free variables of f in order of first appearance
// (left to right as printed), without repetition. It visits each node of
// f once.
func FreeVars(f Formula) []Var {
	var out []Var
	seen := map[Var]bool{}
	w := freeWalker{emit: func(v Var) {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}}
	w.walk(f)
	return out
}

// IsFree reports whether v occurs free in f.
func IsFree(f Formula, v Var) bool {
	found := false
	w := freeWalker{emit: func(w Var) {
		if w == v {
			found = true
		}
	}}
	w.walk(f)
	return found
}

// visits, when not nil, counts the formula nodes that free-variable
// computations visit (CountVisits).
var visits *int64

// CountVisits makes FreeVars, IsFree and FreeVarsMemo add to *n the
// number of formula nodes they visit, until the returned function is
// called. It is a hook for tests that check that loading a deeply nested
// formula computes its free variables a bounded number of times; it is
// not safe while formulas are being read on other goroutines.
func CountVisits(n *int64) (stop func()) {
	visits = n
	return func() { visits = nil }
}

// freeWalker reports every free occurrence of a variable. bound counts
// how many enclosing quantifiers bind each variable, so that entering and
// leaving a quantifier costs its own variables only, whatever the depth.
type freeWalker struct {
	bound map[Var]int
	emit  func(Var)
}

func (w *freeWalker) use(v Var) {
	if w.bound[v] == 0 {
		w.emit(v)
	}
}

func (w *freeWalker) enter(vs ...Var) {
	if w.bound == nil {
		w.bound = map[Var]int{}
	}
	for _, v := range vs {
		w.bound[v]++
	}
}

func (w *freeWalker) leave(vs ...Var) {
	for _, v := range vs {
		w.bound[v]--
	}
}

func (w *freeWalker) walk(f Formula) {
	if visits != nil {
		*visits++
	}
	switch g := f.(type) {
	case *Const:
	case *Atom:
		for _, v := range g.Args {
			w.use(v)
		}
	case *Equal:
		w.use(g.Left)
		w.use(g.Right)
	case *Closure:
		w.use(g.From)
		w.use(g.To)
	case *Not:
		w.walk(g.Sub)
	case *Binary:
		w.walk(g.Left)
		w.walk(g.Right)
	case *If:
		w.walk(g.Cond)
		w.walk(g.Then)
		w.walk(g.Else)
	case *Quant:
		w.enter(g.Vars...)
		w.walk(g.Body)
		w.leave(g.Vars...)
	case *TC:
		// The closure's own variables are written before the body.
		w.use(g.From)
		w.use(g.To)
		w.enter(g.Sub1, g.Sub2)
		w.walk(g.Body)
		w.leave(g.Sub1, g.Sub2)
	}
}

// FreeVarsMemo gives the free variables of the subformulas of some
// formulas, computing each node's once, bottom up from its children's:
// a recursive compiler that needs the free variables at every level of a
// deeply nested formula then does work linear in its size, where calling
// FreeVars at every level would be quadratic. The zero value is ready to
// use. The slices it returns are shared: do not modify them.
type FreeVarsMemo struct {
	m map[Formula][]Var
}

// Of returns FreeVars(f).
func (m *FreeVarsMemo) Of(f Formula) []Var {
	if vs, ok := m.m[f]; ok {
		return vs
	}
	if m.m == nil {
		m.m = map[Formula][]Var{}
	}
	// Children first, without recursion on the way down, so that a
	// formula nested a hundred thousand deep costs no deep Go stack here.
	stack := []Formula{f}
	for len(stack) > 0 {
		g := stack[len(stack)-1]
		if _, ok := m.m[g]; ok {
			stack = stack[:len(stack)-1]
			continue
		}
		pending := len(stack)
		for _, c := range children(g) {
			if _, ok := m.m[c]; !ok {
				stack = append(stack, c)
			}
		}
		if len(stack) > pending {
			continue
		}
		stack = stack[:len(stack)-1]
		m.m[g] = m.compute(g)
	}
	return m.m[f]
}

// children lists f's direct subformulas.
func children(f Formula) []Formula {
	switch g := f.(type) {
	case *Not:
		return []Formula{g.Sub}
	case *Binary:
		return []Formula{g.Left, g.Right}
	case *If:
		return []Formula{g.Cond, g.Then, g.Else}
	case *Quant:
		return []Formula{g.Body}
	case *TC:
		return []Formula{g.Body}
	}
	return nil
}

// compute gives f's free variables from its children's, in FreeVars's
// order (first appearance as printed).
func (m *FreeVarsMemo) compute(f Formula) []Var {
	if visits != nil {
		*visits++
	}
	switch g := f.(type) {
	case *Atom:
		return unionVars(g.Args)
	case *Equal:
		return unionVars([]Var{g.Left, g.Right})
	case *Closure:
		return unionVars([]Var{g.From, g.To})
	case *Not:
		return m.m[g.Sub]
	case *Binary:
		return unionVars(m.m[g.Left], m.m[g.Right])
	case *If:
		return unionVars(m.m[g.Cond], m.m[g.Then], m.m[g.Else])
	case *Quant:
		return without(m.m[g.Body], g.Vars...)
	case *TC:
		return unionVars([]Var{g.From, g.To}, without(m.m[g.Body], g.Sub1, g.Sub2))
	}
	return nil
}

// unionVars concatenates lists, keeping each variable's first occurrence;
// a single list without repetitions is returned as it is.
func unionVars(lists ...[]Var) []Var {
	var out []Var
	n := 0
	for _, l := range lists {
		n += len(l)
	}
	if n == 0 {
		return nil
	}
	if n <= 8 {
		for _, l := range lists {
			for _, v := range l {
				if !containsVar(out, v) {
					out = append(out, v)
				}
			}
		}
	} else {
		seen := make(map[Var]bool, n)
		for _, l := range lists {
			for _, v := range l {
				if !seen[v] {
					seen[v] = true
					out = append(out, v)
				}
			}
		}
	}
	if len(lists) == 1 && len(out) == len(lists[0]) {
		return lists[0]
	}
	return out
}

// without returns vs minus drop, vs itself when nothing is dropped.
func without(vs []Var, drop ...Var) []Var {
	keep := 0
	for _, v := range vs {
		if !containsVar(drop, v) {
			keep++
		}
	}
	if keep == len(vs) {
		return vs
	}
	out := make([]Var, 0, keep)
	for _, v := range vs {
		if !containsVar(drop, v) {
			out = append(out, v)
		}
	}
	return out
}

func containsVar(vs []Var, v Var) bool {
	for _, w := range vs {
		if w == v {
			return true
		}
	}
	return false
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
	free FreeVarsMemo // of f's subformulas, for bind
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
		if containsVar(r.free.Of(body), k) {
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
	return Rewrite(f, func(f Formula) (Formula, bool) {
		switch g := f.(type) {
		case *Atom:
			return &Atom{Pred: rename(g.Pred), Args: g.Args}, true
		case *Closure:
			c := *g
			c.Pred = rename(g.Pred)
			return &c, true
		}
		return nil, false
	})
}
