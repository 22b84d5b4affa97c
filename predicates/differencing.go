package predicates

import (
	"fmt"
	"strings"

	"github.com/tvla-go/tvla/logic"
)

// Finite differencing (Reps, Sagiv and Loginov, "Finite differencing of
// logical formulas for static analysis", ESOP 2003 / TOPLAS 2010): an
// instrumentation predicate p defined by φ that an action does not update
// by hand gets the update formula
//
//	p' = p ? !Δ⁻[φ] : Δ⁺[φ]
//
// where Δ⁺[φ] holds where φ goes from 0 to 1 and Δ⁻[φ] where it goes from
// 1 to 0. Both are formulas over the structure before the action, built
// from the update formulas of the predicates φ reads, so that p keeps its
// stored (often more precise) value wherever nothing changes. The rules
// follow the logical identities; for transitive closure over one binary
// predicate there are the paper's special cases for edge insertion and for
// edge deletion in a functional, acyclic relation, and otherwise the
// closure of the updated relation is compared with the old one.
//
// Subformulas that are the definition of some instrumentation predicate
// are replaced by that predicate (TVLA's substituteDeltas), which is where
// most of the precision comes from.

// Update is one update formula: Pred(Args) = Formula.
type Update struct {
	Pred    *Predicate
	Args    []logic.Var
	Formula logic.Formula
}

// Differencer derives update formulas for one action.
type Differencer struct {
	voc      *Vocabulary
	explicit map[string]Update
	derived  map[string]logic.Formula // over the predicate's Params; nil: unchanged
	active   map[string]bool
	memo     map[logic.Formula][2]logic.Formula
	fresh    int
	defs     []defKey
	// byCanon is the first definition of each canonical text, and shapes
	// the shapes of the definitions: substitute prints only the
	// subformulas whose shape some definition has.
	byCanon map[string]int
	shapes  map[uint64]bool
	// whole is the definition being differenced when it is a closure
	// itself (p(v1, v2) = q*(v1, v2)), nil otherwise.
	whole logic.Formula
}

type defKey struct {
	canon string
	pred  *Predicate
	// positions[i] is the index, among the definition's free variables in
	// order of occurrence, of the predicate's i-th parameter.
	positions []int
}

// NewDifferencer prepares differencing for an action with the given
// explicit updates (core or instrumentation predicates).
func NewDifferencer(voc *Vocabulary, explicit []Update) *Differencer {
	d := &Differencer{voc: voc, explicit: map[string]Update{}, derived: map[string]logic.Formula{},
		active: map[string]bool{}, memo: map[logic.Formula][2]logic.Formula{}}
	for _, u := range explicit {
		d.explicit[u.Pred.Name] = u
	}
	for _, p := range voc.Declared() {
		if p.Kind != Instrumentation {
			continue
		}
		canon, free := canonical(p.Def)
		pos := make([]int, len(p.Params))
		ok := true
		for i, par := range p.Params {
			pos[i] = -1
			for j, f := range free {
				if f == par {
					pos[i] = j
				}
			}
			if pos[i] < 0 {
				ok = false
			}
		}
		if ok && len(free) == len(p.Params) {
			d.defs = append(d.defs, defKey{canon: canon, pred: p, positions: pos})
		}
	}
	d.byCanon, d.shapes = map[string]int{}, map[uint64]bool{}
	memo := map[logic.Formula]uint64{}
	for i, k := range d.defs {
		if _, ok := d.byCanon[k.canon]; !ok {
			d.byCanon[k.canon] = i
		}
		d.shapes[shape(k.pred.Def, memo)] = true
	}
	return d
}

// Derive returns the update formula of instrumentation predicate p, over
// p.Params, or nil when the action cannot change p.
func (d *Differencer) Derive(p *Predicate) logic.Formula {
	if f, ok := d.derived[p.Name]; ok {
		return f
	}
	if d.active[p.Name] {
		// A definition that reads itself through others: the loader
		// rejects such cycles, so this is only a guard.
		return nil
	}
	d.active[p.Name] = true
	defer delete(d.active, p.Name)
	outer := d.whole
	d.whole = nil
	switch p.Def.(type) {
	case *logic.Closure, *logic.TC:
		d.whole = p.Def
	}
	plus, minus := d.delta(p.Def)
	d.whole = outer
	var f logic.Formula
	if !isFalse(plus) || !isFalse(minus) {
		self := logic.NewAtom(p.Name, p.Params...)
		plus, minus = d.substitute(plus), d.substitute(minus)
		switch {
		case isFalse(minus):
			f = logic.NewOr(self, plus)
		case isFalse(plus):
			f = logic.NewAnd(self, logic.NewNot(minus))
		default:
			f = &logic.If{Cond: self, Then: logic.NewNot(minus), Else: plus}
		}
		f = logic.PropagateUnits(f)
	}
	d.derived[p.Name] = f
	return f
}

func isFalse(f logic.Formula) bool {
	c, ok := f.(*logic.Const)
	return ok && c.Value == logic.False
}

func (d *Differencer) freshVar(base string) logic.Var {
	d.fresh++
	return logic.Var(fmt.Sprintf("%s$%d", base, d.fresh))
}

// update returns the formula an atom q(args) has after the action, and
// whether q changes at all.
func (d *Differencer) update(q string, args []logic.Var) (logic.Formula, bool) {
	atom := logic.NewAtom(q, args...)
	if u, ok := d.explicit[q]; ok {
		f := renameParams(u.Formula, u.Args, args)
		if logic.EqualFormulas(logic.Simplify(f), atom) {
			return atom, false
		}
		return f, true
	}
	p := d.voc.Lookup(q)
	if p == nil || p.Kind != Instrumentation {
		return atom, false
	}
	f := d.Derive(p)
	if f == nil {
		return atom, false
	}
	return renameParams(f, p.Params, args), true
}

// renameParams instantiates a formula over params at args.
func renameParams(f logic.Formula, params, args []logic.Var) logic.Formula {
	sub := map[logic.Var]logic.Var{}
	for i, p := range params {
		if p != args[i] {
			sub[p] = args[i]
		}
	}
	return logic.Rename(f, sub)
}

// future returns F[f]: the value f has after the action, as a formula over
// the structure before it.
func (d *Differencer) future(f logic.Formula) logic.Formula {
	if a, ok := f.(*logic.Atom); ok {
		u, _ := d.update(a.Pred, a.Args)
		return u
	}
	plus, minus := d.delta(f)
	switch {
	case isFalse(plus) && isFalse(minus):
		return f
	case isFalse(minus):
		return logic.Simplify(logic.NewOr(f, plus))
	case isFalse(plus):
		return logic.Simplify(logic.NewAnd(f, logic.NewNot(minus)))
	}
	return &logic.If{Cond: f, Then: logic.NewNot(minus), Else: plus}
}

// delta returns Δ⁺[f] and Δ⁻[f], simplified.
func (d *Differencer) delta(f logic.Formula) (plus, minus logic.Formula) {
	if m, ok := d.memo[f]; ok {
		return m[0], m[1]
	}
	plus, minus = d.computeDelta(f)
	plus, minus = logic.Simplify(plus), logic.Simplify(minus)
	d.memo[f] = [2]logic.Formula{plus, minus}
	return plus, minus
}

func (d *Differencer) computeDelta(f logic.Formula) (logic.Formula, logic.Formula) {
	zero := logic.False0
	and, or, not := logic.NewAnd, logic.NewOr, logic.NewNot
	switch g := f.(type) {
	case *logic.Const, *logic.Equal:
		return zero, zero
	case *logic.Atom:
		u, changes := d.update(g.Pred, g.Args)
		if !changes {
			return zero, zero
		}
		plus, minus := atomDeltas(g, logic.Simplify(u))
		if dp, dm, ok := d.definitionDeltas(g); ok {
			plus, minus = meetDelta(plus, dp), meetDelta(minus, dm)
		}
		return plus, minus
	case *logic.Not:
		p, m := d.delta(g.Sub)
		return m, p
	case *logic.Binary:
		switch g.Op {
		case logic.Implies:
			return d.delta(or(not(g.Left), g.Right))
		case logic.Iff:
			return d.delta(or(and(g.Left, g.Right), and(not(g.Left), not(g.Right))))
		}
		lp, lm := d.delta(g.Left)
		rp, rm := d.delta(g.Right)
		if isFalse(lp) && isFalse(lm) && isFalse(rp) && isFalse(rm) {
			return zero, zero
		}
		a, b := g.Left, g.Right
		if g.Op == logic.And {
			plus := or(and(lp, d.future(b)), and(d.future(a), rp))
			minus := or(and(lm, b), and(a, rm))
			return plus, minus
		}
		plus := or(and(lp, not(b)), and(not(a), rp))
		minus := or(and(lm, not(d.future(b))), and(not(d.future(a)), rm))
		return plus, minus
	case *logic.If:
		return d.delta(or(and(g.Cond, g.Then), and(not(g.Cond), g.Else)))
	case *logic.Quant:
		if len(g.Vars) > 1 {
			inner := &logic.Quant{Kind: g.Kind, Vars: g.Vars[1:], Body: g.Body}
			return d.delta(&logic.Quant{Kind: g.Kind, Vars: g.Vars[:1], Body: inner})
		}
		if len(g.Vars) == 0 {
			return d.delta(g.Body)
		}
		bp, bm := d.delta(g.Body)
		if isFalse(bp) && isFalse(bm) {
			return zero, zero
		}
		v := g.Vars
		ex := func(h logic.Formula) logic.Formula { return logic.NewExists(h, v...) }
		all := func(h logic.Formula) logic.Formula { return logic.NewForall(h, v...) }
		if g.Kind == logic.Exists {
			return and(ex(bp), not(g)), and(ex(bm), not(ex(d.future(g.Body))))
		}
		return and(ex(bp), all(d.future(g.Body))), and(ex(bm), g)
	case *logic.Closure:
		a, b := d.freshVar("a"), d.freshVar("b")
		return d.closureDelta(g, g.From, g.To, logic.NewAtom(g.Pred, a, b), a, b, g.Reflexive)
	case *logic.TC:
		return d.closureDelta(g, g.From, g.To, g.Body, g.Sub1, g.Sub2, false)
	}
	return zero, zero
}

// atomDeltas gives Δ⁺ and Δ⁻ of atom a whose new value is u, reading the
// common shapes of update formulas so that the deltas stay small: a | ψ
// only adds, a & ψ only removes, (c ? x : a) changes only where c, and a
// derived update (a ? !Δ⁻ : Δ⁺) loses a where Δ⁻ and gains it where Δ⁺
// (read generically, a & !(a ? ...) is 1/2 wherever a is 1/2, and a
// soft invariant if[L,a] on the collapsed threads' summary was lost at
// every step that changed a's inputs).
func atomDeltas(a *logic.Atom, u logic.Formula) (logic.Formula, logic.Formula) {
	and, not := logic.NewAnd, logic.NewNot
	if b, ok := u.(*logic.Binary); ok {
		switch {
		case b.Op == logic.Or && logic.EqualFormulas(b.Left, a):
			return and(b.Right, not(a)), logic.False0
		case b.Op == logic.Or && logic.EqualFormulas(b.Right, a):
			return and(b.Left, not(a)), logic.False0
		case b.Op == logic.And && logic.EqualFormulas(b.Left, a):
			return logic.False0, and(a, not(b.Right))
		case b.Op == logic.And && logic.EqualFormulas(b.Right, a):
			return logic.False0, and(a, not(b.Left))
		}
	}
	if f, ok := u.(*logic.If); ok && logic.EqualFormulas(f.Cond, a) {
		// A derived update a ? T : E (T = !Δ⁻, E = Δ⁺): a goes from 1
		// to 0 where a & !T, from 0 to 1 where !a & E.
		return and(not(a), f.Else), and(a, not(f.Then))
	}
	if f, ok := u.(*logic.If); ok {
		// Only where the condition selects the new value can a change:
		// elsewhere the deltas are 0, even where a is 1/2.
		switch {
		case logic.EqualFormulas(f.Else, a):
			return and(f.Cond, and(f.Then, not(a))), and(f.Cond, and(a, not(f.Then)))
		case logic.EqualFormulas(f.Then, a):
			return and(not(f.Cond), and(f.Else, not(a))), and(not(f.Cond), and(a, not(f.Else)))
		}
	}
	return and(u, not(a)), and(a, not(u))
}

// closureDelta handles TC(from, to)(s1, s2) body and the p+ / p*
// shorthands (reflexive for p*).
func (d *Differencer) closureDelta(g logic.Formula, from, to logic.Var, body logic.Formula, s1, s2 logic.Var, reflexive bool) (logic.Formula, logic.Formula) {
	zero := logic.False0
	and, not, ex := logic.NewAnd, logic.NewNot, logic.NewExists
	bp, bm := d.delta(body)
	if isFalse(bp) && isFalse(bm) {
		return zero, zero
	}
	// The special cases need the body to be one binary predicate applied
	// to the closure's own variables.
	if atom, ok := body.(*logic.Atom); ok && len(atom.Args) == 2 && atom.Args[0] == s1 && atom.Args[1] == s2 {
		reach := func(x, y logic.Var) logic.Formula {
			return &logic.Closure{Pred: atom.Pred, From: x, To: y, Reflexive: true}
		}
		rename := func(f logic.Formula, x, y logic.Var) logic.Formula {
			return logic.Rename(f, map[logic.Var]logic.Var{s1: x, s2: y})
		}
		p := d.voc.Lookup(atom.Pred)
		switch {
		case isFalse(bm):
			// Edges are only added: a new path is old paths joined by new
			// edges. Closing the "old path, then a new edge" step covers
			// paths through several new edges.
			x, y, a, b := d.freshVar("x"), d.freshVar("y"), d.freshVar("a"), d.freshVar("b")
			step := ex(and(reach(x, a), rename(bp, a, y)), a)
			tc := &logic.TC{From: from, To: b, Sub1: x, Sub2: y, Body: step}
			return and(not(g), ex(and(tc, reach(b, to)), b)), zero
		case isFalse(bp) && p != nil && p.Props.Function && p.Props.Acyclic:
			// Edges are only removed, and paths are unique: a path breaks
			// exactly when it went through a removed edge.
			a, b := d.freshVar("a"), d.freshVar("b")
			return zero, and(g, ex(and(reach(from, a), rename(bm, a, b), reach(b, to)), a, b))
		case g == d.whole && p != nil && p.Props.Function && p.Props.Acyclic:
			// Edges are removed and added (a field overwritten in one
			// action), and the predicate is the closure itself: the
			// removals first, exact since paths are unique, then the
			// additions over the paths left. Comparing the closure of the
			// updated relation with the old one instead (below) loses
			// every path through an edge at 1/2. TVLA 3 keeps such a
			// closure predicate as precise as this (the modular
			// non-blocking queue of its decomposition examples differs
			// from the first such step on otherwise), but not a closure
			// inside a larger definition (reach[x](v) = E(a) x(a) &
			// n*(a, v)), which is left to the comparison below
			// (docs/reference-differences.md).
			broken := func(x, y logic.Var) logic.Formula {
				a, b := d.freshVar("a"), d.freshVar("b")
				return ex(and(reach(x, a), rename(bm, a, b), reach(b, y)), a, b)
			}
			kept := func(x, y logic.Var) logic.Formula { return and(reach(x, y), not(broken(x, y))) }
			x, y, a, b := d.freshVar("x"), d.freshVar("y"), d.freshVar("a"), d.freshVar("b")
			step := ex(and(kept(x, a), rename(bp, a, y)), a)
			tc := &logic.TC{From: from, To: b, Sub1: x, Sub2: y, Body: step}
			post := logic.NewOr(and(g, not(broken(from, to))), ex(and(tc, kept(b, to)), b))
			return and(not(g), post), and(g, not(post))
		}
	}
	// Otherwise compare the closure of the updated relation with the old
	// closure.
	post := logic.Formula(&logic.TC{From: from, To: to, Sub1: s1, Sub2: s2, Body: d.future(body)})
	if reflexive {
		post = logic.NewOr(logic.Eq(from, to), post)
	}
	return and(post, not(g)), and(g, not(post))
}

// substitute replaces every subformula that is the definition of an
// instrumentation predicate (up to the names of variables) by that
// predicate, whose stored value is at least as precise; the first
// definition in declaration order when several print alike.
func (d *Differencer) substitute(f logic.Formula) logic.Formula {
	if len(d.defs) == 0 {
		return f
	}
	return d.substituteShaped(f, map[logic.Formula]uint64{})
}

// substituteShaped is substitute, with the shapes of the subformulas
// seen so far in memo. Printing a subformula costs its size, and a
// model with thousands of soft invariants has thousands of definitions:
// a subformula is printed only when some definition has its shape, and
// its text is looked up, not compared with each definition's.
func (d *Differencer) substituteShaped(f logic.Formula, memo map[logic.Formula]uint64) logic.Formula {
	switch f.(type) {
	case *logic.Atom, *logic.Const, *logic.Equal:
		return f
	}
	if d.shapes[shape(f, memo)] {
		canon, free := canonical(f)
		if i, ok := d.byCanon[canon]; ok {
			k := d.defs[i]
			args := make([]logic.Var, len(k.positions))
			for i, pos := range k.positions {
				args[i] = free[pos]
			}
			return logic.NewAtom(k.pred.Name, args...)
		}
	}
	switch g := f.(type) {
	case *logic.Not:
		return &logic.Not{Sub: d.substituteShaped(g.Sub, memo)}
	case *logic.Binary:
		return &logic.Binary{Op: g.Op, Left: d.substituteShaped(g.Left, memo), Right: d.substituteShaped(g.Right, memo)}
	case *logic.If:
		return &logic.If{Cond: d.substituteShaped(g.Cond, memo), Then: d.substituteShaped(g.Then, memo), Else: d.substituteShaped(g.Else, memo)}
	case *logic.Quant:
		return &logic.Quant{Kind: g.Kind, Vars: g.Vars, Body: d.substituteShaped(g.Body, memo)}
	case *logic.TC:
		t := *g
		t.Body = d.substituteShaped(g.Body, memo)
		return &t
	}
	return f
}

// shape hashes f's tree with its variables left out (their number
// kept), memoized by node. canonical's text determines that tree, so
// formulas it prints alike have the same shape.
func shape(f logic.Formula, memo map[logic.Formula]uint64) uint64 {
	if h, ok := memo[f]; ok {
		return h
	}
	mix := func(h, x uint64) uint64 {
		h ^= x + 0x9e3779b97f4a7c15 + h<<6 + h>>2
		h *= 0xff51afd7ed558ccd
		return h ^ h>>33
	}
	name := func(s string) uint64 {
		h := uint64(14695981039346656037)
		for i := 0; i < len(s); i++ {
			h = (h ^ uint64(s[i])) * 1099511628211
		}
		return h
	}
	var h uint64
	switch g := f.(type) {
	case *logic.Const:
		h = mix(1, uint64(g.Value))
	case *logic.Atom:
		h = mix(mix(2, name(g.Pred)), uint64(len(g.Args)))
	case *logic.Equal:
		h = 3
	case *logic.Closure:
		h = mix(4, name(g.Pred))
		if g.Reflexive {
			h = mix(h, 1)
		}
	case *logic.Not:
		h = mix(5, shape(g.Sub, memo))
	case *logic.Binary:
		h = mix(mix(mix(6, uint64(g.Op)), shape(g.Left, memo)), shape(g.Right, memo))
	case *logic.If:
		h = mix(mix(mix(7, shape(g.Cond, memo)), shape(g.Then, memo)), shape(g.Else, memo))
	case *logic.Quant:
		h = mix(mix(mix(8, uint64(g.Kind)), uint64(len(g.Vars))), shape(g.Body, memo))
	case *logic.TC:
		h = mix(9, shape(g.Body, memo))
	}
	memo[f] = h
	return h
}

// canonical prints f with its free variables renamed, in order of first
// occurrence, to #0, #1, ... and its bound variables by binding order, so
// that formulas equal up to variable names print alike. It also returns
// the free variables in that order.
func canonical(f logic.Formula) (string, []logic.Var) {
	free := logic.FreeVars(f)
	sub := map[logic.Var]logic.Var{}
	for i, v := range free {
		sub[v] = logic.Var(fmt.Sprintf("#%d", i))
	}
	var b strings.Builder
	bound := 0
	// names maps each variable in scope to its canonical name; a
	// quantifier binds its variables for its body and then restores what
	// they named outside, so entering one costs its own variables only.
	names := sub
	name := func(v logic.Var) string {
		if n, ok := names[v]; ok {
			return string(n)
		}
		return "?" + string(v)
	}
	type saved struct {
		v      logic.Var
		n      logic.Var
		hadOld bool
	}
	bind := func(vs []logic.Var) []saved {
		undo := make([]saved, len(vs))
		for i, v := range vs {
			old, ok := names[v]
			undo[i] = saved{v, old, ok}
			names[v] = logic.Var(fmt.Sprintf("@%d", bound))
			bound++
		}
		return undo
	}
	unbind := func(undo []saved) {
		for i := len(undo) - 1; i >= 0; i-- {
			if u := undo[i]; u.hadOld {
				names[u.v] = u.n
			} else {
				delete(names, u.v)
			}
		}
	}
	var walk func(g logic.Formula)
	walk = func(g logic.Formula) {
		switch h := g.(type) {
		case *logic.Const:
			b.WriteString(h.Value.String())
		case *logic.Atom:
			b.WriteString(h.Pred + "(")
			for _, a := range h.Args {
				b.WriteString(name(a) + ",")
			}
			b.WriteString(")")
		case *logic.Equal:
			b.WriteString("(" + name(h.Left) + "==" + name(h.Right) + ")")
		case *logic.Closure:
			fmt.Fprintf(&b, "%s%v(%s,%s)", h.Pred, h.Reflexive, name(h.From), name(h.To))
		case *logic.Not:
			b.WriteString("!")
			walk(h.Sub)
		case *logic.Binary:
			fmt.Fprintf(&b, "(%d ", h.Op)
			walk(h.Left)
			b.WriteString(" ")
			walk(h.Right)
			b.WriteString(")")
		case *logic.If:
			b.WriteString("(?")
			walk(h.Cond)
			walk(h.Then)
			walk(h.Else)
			b.WriteString(")")
		case *logic.Quant:
			undo := bind(h.Vars)
			fmt.Fprintf(&b, "(Q%d", h.Kind)
			for _, v := range h.Vars {
				b.WriteString(" " + string(names[v]))
			}
			b.WriteString(" ")
			walk(h.Body)
			b.WriteString(")")
			unbind(undo)
		case *logic.TC:
			outer := name(h.From) + "," + name(h.To)
			undo := bind([]logic.Var{h.Sub1, h.Sub2})
			fmt.Fprintf(&b, "(TC %s %s,%s ", outer, names[h.Sub1], names[h.Sub2])
			walk(h.Body)
			b.WriteString(")")
			unbind(undo)
		}
	}
	walk(f)
	return b.String(), free
}

// definitionDeltas differences the definition of an instrumentation
// predicate the action updates explicitly. Its explicit update and its
// definition agree on every concrete structure, so both deltas are sound
// and their conjunction is too; the definition's is often the sharper on
// a summary (an explicit (c ? recompute : p) is 1/2 wherever the
// recomputation is, though the action only adds edges).
func (d *Differencer) definitionDeltas(a *logic.Atom) (logic.Formula, logic.Formula, bool) {
	if _, ok := d.explicit[a.Pred]; !ok {
		return nil, nil, false
	}
	p := d.voc.Lookup(a.Pred)
	if p == nil || p.Kind != Instrumentation || p.Def == nil || d.active[p.Name] {
		return nil, nil, false
	}
	switch p.Def.(type) {
	case *logic.Closure, *logic.TC:
		return nil, nil, false
	}
	d.active[p.Name] = true
	defer delete(d.active, p.Name)
	plus, minus := d.delta(renameParams(p.Def, p.Params, a.Args))
	return plus, minus, true
}

// meetDelta is the conjunction of two sound deltas of one change, simplified.
func meetDelta(a, b logic.Formula) logic.Formula {
	if isFalse(a) || isFalse(b) {
		return logic.False0
	}
	return logic.NewAnd(a, b)
}
