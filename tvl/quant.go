package tvl

import (
	"github.com/tvla-go/tvla/logic"
)

// Quantifiers are evaluated as nested loops over their variables, like a
// database join: the body is split into conjuncts (for A, the conjuncts
// of its negation: A x. f is !E x. !f), each variable takes its values
// from a positive atom conjunct that can only hold where its bit table is
// non-zero (p(x), p(y, x) or p(x, y) with y bound, x == y), and each
// conjunct is checked as soon as its variables are bound. Skipping the
// values where a conjunct is 0 is exact: such an assignment contributes 0
// to the maximum that E takes. This turns the n^k scans of bodies such as
// E(u1, u2, u3) next(v, u1) & spec(v, u2) & next(u2, u3) & spec(u1, u3)
// into walks along the few edges that exist.

// genKind says where a loop level takes its candidate values from.
type genKind uint8

const (
	genAll    genKind = iota // every individual
	genUnary                 // p(x) != 0
	genRow                   // p(y, x) != 0, y bound
	genColumn                // p(x, y) != 0, y bound
	genEqual                 // x == y, y bound: y only
)

// maxQuantDisjuncts bounds the split of a quantifier's body.
const maxQuantDisjuncts = 16

// quantLevel binds one variable.
type quantLevel struct {
	slot  int
	gen   genKind
	table int // the generating predicate's table index
	other int // the bound variable's slot (row, column, equal)
	// checks are the conjuncts whose variables are all bound once this
	// level's is.
	checks []evalNode
}

// quantNode evaluates E(levels) conjuncts, negated for A.
type quantNode struct {
	negate bool
	pre    []evalNode // conjuncts without quantified variables
	levels []quantLevel
}

func (c *compiler) quant(g *logic.Quant) (evalNode, error) {
	vars, body := nest(g)
	if len(vars) == 0 {
		return c.compile(body)
	}
	// E x. (f | g) is E x. f | E x. g, and A x. f is !E x. !f: each
	// disjunct gets a loop nest of its own, with generators from its own
	// atoms, where the whole body would leave every variable unguarded.
	// Only bodies that may split are put in negation normal form: doing
	// it at every level of a deep nest would be quadratic.
	// Disjuncts is asked only where the body may split (c.mightSplit,
	// memoized per node): a nest that conjuncts interrupt, E(v0) (a(v0) &
	// E(v1) (a(v1) & ...)) as --join ind relativizes it, is a quantifier
	// per level, and Disjuncts at each would walk every level below it.
	var ds []logic.Formula
	switch {
	case g.Kind == logic.Exists && c.mightSplit(body, false):
		ds = logic.Disjuncts(body, maxQuantDisjuncts)
	case g.Kind == logic.Forall && c.mightSplit(body, true):
		ds = logic.Disjuncts(logic.NNF(logic.NewNot(body)), maxQuantDisjuncts)
	}
	if len(ds) > 1 {
		var f logic.Formula = &logic.Quant{Kind: logic.Exists, Vars: vars, Body: ds[0]}
		for _, d := range ds[1:] {
			f = &logic.Binary{Op: logic.Or, Left: f, Right: &logic.Quant{Kind: logic.Exists, Vars: vars, Body: d}}
		}
		if g.Kind == logic.Forall {
			f = logic.NewNot(f)
		}
		return c.compile(f)
	}
	return c.bind(vars, func(slots []int) (evalNode, error) {
		return c.planNest(vars, slots, conjuncts(body, g.Kind == logic.Forall, nil), g.Kind == logic.Forall)
	})
}

// nest gathers the variables of directly nested quantifiers of g's kind
// (E x. E y. f and A x. A y. f are one loop nest) and the body under
// them, stopping at a variable bound twice.
func nest(g *logic.Quant) ([]logic.Var, logic.Formula) {
	vars := append([]logic.Var(nil), g.Vars...)
	var seen map[logic.Var]bool // vars as a set, once the nest is deep
	body := g.Body
	for {
		inner, ok := body.(*logic.Quant)
		if !ok || inner.Kind != g.Kind {
			return vars, body
		}
		if len(vars) > 8 && seen == nil {
			seen = map[logic.Var]bool{}
			for _, v := range vars {
				seen[v] = true
			}
		}
		if seen == nil && overlaps(vars, inner.Vars) || seen != nil && anyIn(seen, inner.Vars) {
			return vars, body
		}
		vars = append(vars, inner.Vars...)
		for _, v := range inner.Vars {
			if seen != nil {
				seen[v] = true
			}
		}
		body = inner.Body
	}
}

// nestPlan is the planning of one loop nest: which conjuncts are placed
// (checked as soon as their variables are bound) and which variables
// are bound so far.
type nestPlan struct {
	c      *compiler
	conj   []logic.Formula
	uses   [][]logic.Var // the nest's variables each conjunct mentions
	bound  map[logic.Var]bool
	placed []bool
}

// place compiles the conjuncts whose variables are all bound and were
// not placed yet, atoms and equalities first: they are the cheap checks.
func (p *nestPlan) place() ([]evalNode, error) {
	var cheap, costly []evalNode
	for i, f := range p.conj {
		if p.placed[i] || !allBound(p.uses[i], p.bound) {
			continue
		}
		p.placed[i] = true
		n, err := p.c.compile(f)
		if err != nil {
			return nil, err
		}
		if isLiteral(f) {
			cheap = append(cheap, n)
		} else {
			costly = append(costly, n)
		}
	}
	return append(cheap, costly...), nil
}

// planNest orders the loop nest of vars (bound to slots) over the
// conjuncts of its body: at each level the variable with the best
// generator, and after it the conjuncts it completes.
func (c *compiler) planNest(vars []logic.Var, slots []int, conj []logic.Formula, negate bool) (evalNode, error) {
	q := &quantNode{negate: negate}
	slotOf := map[logic.Var]int{}
	for i, v := range vars {
		slotOf[v] = slots[i]
	}
	p := &nestPlan{c: c, conj: conj, uses: make([][]logic.Var, len(conj)), bound: map[logic.Var]bool{}, placed: make([]bool, len(conj))}
	for i, f := range conj {
		for _, v := range c.free.Of(f) {
			if _, ok := slotOf[v]; ok {
				p.uses[i] = append(p.uses[i], v)
			}
		}
	}
	var err error
	if q.pre, err = p.place(); err != nil {
		return nil, err
	}
	// The variables left to place, in order: vars[head:] without the
	// removed ones; cands are those that can have a generator.
	removed := make([]bool, len(vars))
	head := 0
	cands := generatorCandidates(vars, conj)
	for left := len(vars); left > 0; left-- {
		for removed[head] {
			head++
		}
		pick, lvl := head, quantLevel{gen: genAll}
		best := genAll
		for _, i := range cands {
			l := c.generator(vars[i], conj, slotOf, p.bound)
			if l.gen != genAll && (best == genAll || rank(l.gen) < rank(best)) {
				pick, lvl, best = i, l, l.gen
			}
		}
		removed[pick] = true
		for k, i := range cands {
			if i == pick {
				cands = append(cands[:k], cands[k+1:]...)
				break
			}
		}
		v := vars[pick]
		lvl.slot = slotOf[v]
		p.bound[v] = true
		if lvl.checks, err = p.place(); err != nil {
			return nil, err
		}
		q.levels = append(q.levels, lvl)
	}
	return q.eval, nil
}

// generatorCandidates lists the indexes of the variables an atom or
// equality conjunct mentions: only those can have a generator, and
// skipping the others keeps a nest of thousands of quantified variables
// that the body hardly uses cheap to plan.
func generatorCandidates(vars []logic.Var, conj []logic.Formula) []int {
	mentioned := map[logic.Var]bool{}
	for _, f := range conj {
		switch a := f.(type) {
		case *logic.Atom:
			for _, v := range a.Args {
				mentioned[v] = true
			}
		case *logic.Equal:
			mentioned[a.Left], mentioned[a.Right] = true, true
		}
	}
	var cands []int
	for i, v := range vars {
		if mentioned[v] {
			cands = append(cands, i)
		}
	}
	return cands
}

// mightSplit is false only if logic.Disjuncts of logic.NNF(f), or of
// logic.NNF(!f) when neg, is f alone: its top is no disjunction, and no
// conjunction or existential quantifier over one. It looks no deeper than
// Disjuncts would. (Disjuncts of f itself, not in NNF, splits no more:
// it does not look under a negation.)
func mightSplit(f logic.Formula, neg bool) bool { return splitStep(f, neg, mightSplit) }

// splitKey is a node of a formula and the polarity it is asked about.
type splitKey struct {
	f   logic.Formula
	neg bool
}

// mightSplit is the function mightSplit, remembered per node and
// polarity, so that asking it at every level of a nest is linear.
func (c *compiler) mightSplit(f logic.Formula, neg bool) bool {
	switch f.(type) {
	case *logic.Not, *logic.Binary, *logic.Quant:
	default:
		return false
	}
	k := splitKey{f, neg}
	if v, ok := c.splits[k]; ok {
		return v
	}
	v := splitStep(f, neg, c.mightSplit)
	if c.splits == nil {
		c.splits = map[splitKey]bool{}
	}
	c.splits[k] = v
	return v
}

// splitStep is one step of mightSplit, asking rec about the subformulas.
func splitStep(f logic.Formula, neg bool, rec func(logic.Formula, bool) bool) bool {
	switch g := f.(type) {
	case *logic.Not:
		return rec(g.Sub, !neg)
	case *logic.Binary:
		switch g.Op {
		case logic.And:
			if neg {
				return true // an |
			}
			return rec(g.Left, false) || rec(g.Right, false)
		case logic.Or:
			if !neg {
				return true
			}
			return rec(g.Left, true) || rec(g.Right, true)
		case logic.Implies: // !l | r
			if !neg {
				return true
			}
			return rec(g.Left, false) || rec(g.Right, true)
		}
		return true // <-> becomes & and | of implications
	case *logic.Quant:
		if (g.Kind == logic.Exists) != neg {
			return rec(g.Body, neg)
		}
	}
	return false
}

// rank orders generators by how few candidates they usually give.
func rank(g genKind) int {
	switch g {
	case genEqual:
		return 0
	case genRow:
		return 1
	case genUnary:
		return 2
	case genColumn:
		return 3
	}
	return 4
}

// generator finds the best conjunct to draw v's values from, given the
// variables bound so far (and those of enclosing scopes, always bound).
func (c *compiler) generator(v logic.Var, conj []logic.Formula, slotOf map[logic.Var]int, bound map[logic.Var]bool) quantLevel {
	isBound := func(w logic.Var) bool {
		if _, quantified := slotOf[w]; quantified {
			return bound[w]
		}
		_, inScope := c.scope[w]
		return inScope
	}
	best := quantLevel{gen: genAll}
	for _, f := range conj {
		var l quantLevel
		switch a := f.(type) {
		case *logic.Atom:
			p := c.voc.Lookup(a.Pred)
			if p == nil || p.Arity != len(a.Args) {
				continue
			}
			switch {
			case p.Arity == 1 && a.Args[0] == v:
				l = quantLevel{gen: genUnary, table: p.Index}
			case p.Arity == 2 && a.Args[1] == v && a.Args[0] != v && isBound(a.Args[0]):
				l = quantLevel{gen: genRow, table: p.Index, other: c.scope[a.Args[0]]}
			case p.Arity == 2 && a.Args[0] == v && a.Args[1] != v && isBound(a.Args[1]):
				l = quantLevel{gen: genColumn, table: p.Index, other: c.scope[a.Args[1]]}
			default:
				continue
			}
		case *logic.Equal:
			switch {
			case a.Left == v && a.Right != v && isBound(a.Right):
				l = quantLevel{gen: genEqual, other: c.scope[a.Right]}
			case a.Right == v && a.Left != v && isBound(a.Left):
				l = quantLevel{gen: genEqual, other: c.scope[a.Left]}
			default:
				continue
			}
		default:
			continue
		}
		if best.gen == genAll || rank(l.gen) < rank(best.gen) {
			best = l
		}
	}
	return best
}

// conjuncts splits f (or !f, when negated) into formulas whose conjunction
// it is, pushing negation through !, |, -> and &.
func conjuncts(f logic.Formula, negated bool, out []logic.Formula) []logic.Formula {
	switch g := f.(type) {
	case *logic.Not:
		return conjuncts(g.Sub, !negated, out)
	case *logic.Binary:
		switch {
		case g.Op == logic.And && !negated:
			return conjuncts(g.Right, false, conjuncts(g.Left, false, out))
		case g.Op == logic.Or && negated:
			return conjuncts(g.Right, true, conjuncts(g.Left, true, out))
		case g.Op == logic.Implies && negated:
			return conjuncts(g.Right, true, conjuncts(g.Left, false, out))
		}
	case *logic.Const:
		v := g.Value
		if negated {
			v = v.Not()
		}
		if v == logic.True {
			return out // the unit of &
		}
	}
	if negated {
		return append(out, logic.NewNot(f))
	}
	return append(out, f)
}

func isLiteral(f logic.Formula) bool {
	switch g := f.(type) {
	case *logic.Atom, *logic.Equal, *logic.Const:
		return true
	case *logic.Not:
		return isLiteral(g.Sub)
	}
	return false
}

func allBound(vs []logic.Var, bound map[logic.Var]bool) bool {
	for _, v := range vs {
		if !bound[v] {
			return false
		}
	}
	return true
}

func anyIn(set map[logic.Var]bool, vs []logic.Var) bool {
	for _, v := range vs {
		if set[v] {
			return true
		}
	}
	return false
}

func overlaps(a, b []logic.Var) bool {
	for _, x := range a {
		for _, y := range b {
			if x == y {
				return true
			}
		}
	}
	return false
}

func (q *quantNode) eval(st *state) Kleene {
	partial := logic.True
	for _, p := range q.pre {
		if v := p(st); v < partial {
			partial = v
			if v == logic.False {
				break
			}
		}
	}
	res := logic.False
	if partial != logic.False {
		q.level(st, 0, partial, &res)
	}
	if q.negate {
		return res.Not()
	}
	return res
}

// level tries every candidate of level i; partial is the minimum of the
// conjuncts checked so far, res the best value found. It returns false
// once res is 1 (nothing can raise it).
func (q *quantNode) level(st *state, i int, partial Kleene, res *Kleene) bool {
	if i == len(q.levels) {
		if partial > *res {
			*res = partial
		}
		return *res != logic.True
	}
	l := &q.levels[i]
	s := st.s
	switch l.gen {
	case genUnary:
		val, half := s.unaryVal(l.table), s.unaryHalf(l.table)
		for w := range val {
			bits := val[w] | half[w]
			for bits != 0 {
				if !q.try(st, i, w<<6|bitsTrailingZeros(bits), partial, res) {
					return false
				}
				bits &= bits - 1
			}
		}
	case genRow:
		t := s.binary[l.table]
		base := st.env[l.other] * s.stride
		for j := 0; j < s.stride; j++ {
			bits := t.val[base+j] | t.half[base+j]
			for bits != 0 {
				if !q.try(st, i, j<<6|bitsTrailingZeros(bits), partial, res) {
					return false
				}
				bits &= bits - 1
			}
		}
	case genColumn:
		t := s.binary[l.table]
		w := st.env[l.other]
		word, bit := w>>6, uint(w)&63
		for u := 0; u < s.n; u++ {
			j := u*s.stride + word
			if (t.val[j]|t.half[j])>>bit&1 != 0 && !q.try(st, i, u, partial, res) {
				return false
			}
		}
	case genEqual:
		return q.try(st, i, st.env[l.other], partial, res)
	default:
		for u := 0; u < s.n; u++ {
			if !q.try(st, i, u, partial, res) {
				return false
			}
		}
	}
	return true
}

// try binds level i's variable to u, checks the conjuncts bound there and
// goes deeper unless they cannot improve on res.
func (q *quantNode) try(st *state, i, u int, partial Kleene, res *Kleene) bool {
	if partial <= *res {
		return true
	}
	l := &q.levels[i]
	st.env[l.slot] = u
	for _, c := range l.checks {
		if v := c(st); v < partial {
			partial = v
			if partial <= *res {
				return true
			}
		}
	}
	return q.level(st, i+1, partial, res)
}
