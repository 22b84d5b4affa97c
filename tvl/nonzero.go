package tvl

import (
	"slices"
	"sync"

	"github.com/tvla-go/tvla/logic"
)

// The assignments under which a formula is not 0 (an action's
// precondition, a Focus formula) are found the way quantifiers are
// evaluated (quant.go): the formula is split into conjuncts, each free
// variable takes its values from a positive atom conjunct that can only
// hold where its table is non-zero, and each conjunct is checked as soon
// as its variables are bound. A precondition such as
// pa(c, p) & pa(p, pp) & pa(s, pp) & in(c) & m(s) & ... then costs a walk
// along the edges that exist instead of n^4 evaluations. An assignment
// skipped is one where some conjunct, hence the formula, is 0.

// freePlan is the loop nest over a formula's free variables.
type freePlan struct {
	pre    []evalNode // conjuncts without free variables
	levels []quantLevel
	// inOrder: level i binds free variable i, so the nest yields the
	// assignments in lexicographic order; otherwise they are sorted.
	inOrder bool
}

// compileFree compiles f, whose free variables have the slots 0..k-1 of
// free, as its conjuncts: the root evaluates their conjunction, and plan
// orders the loop nest that enumerates where it is not 0. Planning needs
// no slots of its own, so it is left until an enumeration asks for it:
// most compiled formulas are only evaluated.
func (c *compiler) compileFree(f logic.Formula, free []logic.Var) (evalNode, func() *freePlan, error) {
	conj := conjuncts(f, false, nil)
	nodes := make([]evalNode, len(conj))
	for i, g := range conj {
		n, err := c.compile(g)
		if err != nil {
			return nil, nil, err
		}
		nodes[i] = n
	}
	uses := make([][]logic.Var, len(conj))
	for i, g := range conj {
		uses[i] = c.free.Of(g)
	}
	// The plan reads the vocabulary and the free variables' slots, not
	// the compiler's memo of free variables, which it would keep alive.
	lite := &compiler{voc: c.voc, scope: c.scope}
	return conjunction(nodes), sync.OnceValue(func() *freePlan { return lite.planFree(free, conj, uses, nodes) }), nil
}

// conjunction evaluates the minimum of nodes, left to right, stopping at 0.
func conjunction(nodes []evalNode) evalNode {
	switch len(nodes) {
	case 0:
		return func(*state) Kleene { return logic.True }
	case 1:
		return nodes[0]
	case 2:
		l, r := nodes[0], nodes[1]
		return func(st *state) Kleene {
			a := l(st)
			if a == logic.False {
				return a
			}
			return a.And(r(st))
		}
	}
	return func(st *state) Kleene {
		v := logic.True
		for _, n := range nodes {
			if v = v.And(n(st)); v == logic.False {
				break
			}
		}
		return v
	}
}

// planFree orders the free variables: at each level the one with the best
// generator (the earliest on a tie, so that the order is the variables'
// own where generators allow), then the conjuncts it completes, literals
// first. Only variables an atom or equality mentions can have a
// generator, and a conjunct is placed when its count of unbound
// variables reaches 0: a formula with thousands of free variables (a
// relativized rule) plans in time near linear in them.
func (c *compiler) planFree(free []logic.Var, conj []logic.Formula, uses [][]logic.Var, nodes []evalNode) *freePlan {
	slotOf := map[logic.Var]int{}
	for _, v := range free {
		slotOf[v] = c.scope[v]
	}
	unbound := make([]int, len(conj))
	usedBy := map[logic.Var][]int{}
	for i := range conj {
		for _, v := range uses[i] {
			unbound[i]++
			usedBy[v] = append(usedBy[v], i)
		}
	}
	place := func(ready []int) []evalNode {
		var cheap, costly []evalNode
		for _, i := range ready {
			if isLiteral(conj[i]) {
				cheap = append(cheap, nodes[i])
			} else {
				costly = append(costly, nodes[i])
			}
		}
		return append(cheap, costly...)
	}
	var ready []int
	for i := range conj {
		if unbound[i] == 0 {
			ready = append(ready, i)
		}
	}
	p := &freePlan{pre: place(ready), inOrder: true}
	bound := map[logic.Var]bool{}
	taken := make([]bool, len(free))
	cands := generatorCandidates(free, conj)
	head := 0
	for range free {
		for taken[head] {
			head++
		}
		pick, lvl := head, quantLevel{gen: genAll}
		for _, i := range cands {
			if taken[i] {
				continue
			}
			l := c.generator(free[i], conj, slotOf, bound)
			if l.gen != genAll && (lvl.gen == genAll || rank(l.gen) < rank(lvl.gen)) {
				pick, lvl = i, l
			}
		}
		taken[pick] = true
		v := free[pick]
		lvl.slot = slotOf[v]
		bound[v] = true
		ready = ready[:0]
		for _, i := range usedBy[v] {
			if unbound[i]--; unbound[i] == 0 {
				ready = append(ready, i)
			}
		}
		slices.Sort(ready)
		lvl.checks = place(ready)
		if lvl.slot != len(p.levels) {
			p.inOrder = false
		}
		p.levels = append(p.levels, lvl)
	}
	return p
}

// ForEachNonZero calls visit with every assignment of the free variables
// under which the formula is not 0, in lexicographic order, and its
// value: ForEach without the assignments at 0, which it never evaluates.
// The assignment is valid only during the call and not to be changed.
// visit returns false to stop.
func (b *Bound) ForEachNonZero(visit func(asg []int, v Kleene) bool) {
	var p *freePlan
	if b.c.plan != nil {
		p = b.c.plan()
	}
	if p == nil {
		b.ForEach(func(asg []int, v Kleene) bool { return v == logic.False || visit(asg, v) })
		return
	}
	if p.inOrder {
		b.nonZero(p, func(v Kleene) bool { return visit(b.st.env[:len(b.c.free)], v) })
		return
	}
	k := len(b.c.free)
	var flat []int
	var vals []Kleene
	b.nonZero(p, func(v Kleene) bool {
		flat = append(flat, b.st.env[:k]...)
		vals = append(vals, v)
		return true
	})
	idx := make([]int, len(vals))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(x, y int) int {
		return slices.Compare(flat[x*k:(x+1)*k], flat[y*k:(y+1)*k])
	})
	for _, i := range idx {
		if !visit(flat[i*k:(i+1)*k], vals[i]) {
			return
		}
	}
}

// AnyNonZero reports whether the formula is not 0 under some assignment.
func (b *Bound) AnyNonZero() bool {
	if b.c.plan == nil {
		found := false
		b.ForEach(func(_ []int, v Kleene) bool {
			found = v != logic.False
			return !found
		})
		return found
	}
	found := false
	b.nonZero(b.c.plan(), func(Kleene) bool {
		found = true
		return false
	})
	return found
}

// nonZero runs the plan, calling leaf with the value of each assignment
// (in the environment) that is not 0, in the plan's order.
func (b *Bound) nonZero(p *freePlan, leaf func(Kleene) bool) {
	st := &b.st
	if len(b.c.free) > 0 && st.s.n <= 0 {
		return
	}
	partial := logic.True
	for _, n := range p.pre {
		if partial = partial.And(n(st)); partial == logic.False {
			return
		}
	}
	p.walk(st, 0, partial, leaf)
}

// walk binds level i's variable to each of its candidates; partial is the
// minimum of the conjuncts checked so far. It returns false once leaf
// has.
func (p *freePlan) walk(st *state, i int, partial Kleene, leaf func(Kleene) bool) bool {
	if i == len(p.levels) {
		return leaf(partial)
	}
	l := &p.levels[i]
	return l.candidates(st, func(u int) bool {
		st.env[l.slot] = u
		v := partial
		for _, c := range l.checks {
			if v = v.And(c(st)); v == logic.False {
				return true
			}
		}
		return p.walk(st, i+1, v, leaf)
	})
}

// candidates calls try, in increasing order, with each value the level's
// generator allows; it returns false once try has. (quantNode.level walks
// the same candidates inline: it is the hotter loop.)
func (l *quantLevel) candidates(st *state, try func(u int) bool) bool {
	s := st.s
	switch l.gen {
	case genUnary:
		val, half := s.unaryVal(l.table), s.unaryHalf(l.table)
		for w := range val {
			for bits := val[w] | half[w]; bits != 0; bits &= bits - 1 {
				if !try(w<<6 | bitsTrailingZeros(bits)) {
					return false
				}
			}
		}
	case genRow:
		t := s.binary[l.table]
		base := st.env[l.other] * s.stride
		for j := 0; j < s.stride; j++ {
			for bits := t.val[base+j] | t.half[base+j]; bits != 0; bits &= bits - 1 {
				if !try(j<<6 | bitsTrailingZeros(bits)) {
					return false
				}
			}
		}
	case genColumn:
		t := s.binary[l.table]
		w := st.env[l.other]
		word, bit := w>>6, uint(w)&63
		for u := 0; u < s.n; u++ {
			j := u*s.stride + word
			if (t.val[j]|t.half[j])>>bit&1 != 0 && !try(u) {
				return false
			}
		}
	case genEqual:
		return try(st.env[l.other])
	default:
		for u := 0; u < s.n; u++ {
			if !try(u) {
				return false
			}
		}
	}
	return true
}
