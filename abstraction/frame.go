package abstraction

import (
	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/tvl"
)

// An update formula usually changes few tuples: `n(v_1, v_2) = n(v_1, v_2)
// & !tr_scheduled(v_1)` only where n is not 0, a derived `p(v) = p(v) |
// isthread(v) & ...` only at threads. A cover says, from the formula's
// shape, which tuples can change: outside the non-zero tuples of its atoms
// the formula equals the predicate's current value, so update evaluates
// the formula only on the covered tuples.

// coverAtom is a predicate atom over update variables: pos[i] is the
// position in the update's tuple of the atom's i-th argument, or -1 for
// any other variable (a quantified one, or the precondition's), which may
// take any value.
type coverAtom struct {
	pred *tvl.Pred
	pos  []int
}

// cover is a union of atoms' non-zero tuples (all: every tuple),
// narrowed to the tuples where every filter atom is non-zero: the
// conjuncts of a conjunction other than the one whose tuples are listed
// (`isthread(v) & at[L](v) & p(v) & tr_scheduled(v)` lists the threads
// and keeps the scheduled one at L; a derived soft-invariant update is
// then no work on most structures). A filter atom's arguments are all
// update variables, so its value at a tuple is one look-up.
type cover struct {
	all    bool
	atoms  []coverAtom
	filter []coverAtom
}

var coverAll = cover{all: true}

// union covers a's tuples and b's; their filters are dropped (a filter
// narrows only its own atoms).
func union(a, b cover) cover {
	switch {
	case a.all || b.all:
		return coverAll
	case len(a.atoms) == 0: // a covers nothing: b as it is, filters kept
		return b
	case len(b.atoms) == 0:
		return a
	}
	return cover{atoms: append(append([]coverAtom(nil), a.atoms...), b.atoms...)}
}

// conj covers the tuples both a and b cover (a conjunction's non-zero
// tuples): the smaller one's, narrowed by the other's when that one is a
// single atom of update variables with its filter.
func conj(a, b cover) cover {
	pick, other := a, b // as smaller picks
	switch {
	case a.all:
		pick, other = b, a
	case b.all:
	case b.weight() < a.weight():
		pick, other = b, a
	}
	if pick.all || other.all || len(other.atoms) != 1 || !other.atoms[0].determined() {
		return pick
	}
	f := append(append(append([]coverAtom(nil), pick.filter...), other.atoms[0]), other.filter...)
	return cover{atoms: pick.atoms, filter: f}
}

// determined reports whether all the atom's arguments are update
// variables.
func (a coverAtom) determined() bool {
	for _, p := range a.pos {
		if p < 0 {
			return false
		}
	}
	return true
}

// passes reports whether every filter atom is non-zero at tuple t.
func (cv cover) passes(s *tvl.Structure, t []int) bool {
	for _, a := range cv.filter {
		var v tvl.Kleene
		switch len(a.pos) {
		case 0:
			v = s.Nullary(a.pred.Index)
		case 1:
			v = s.Unary(a.pred.Index, t[a.pos[0]])
		default:
			v = s.Binary(a.pred.Index, t[a.pos[0]], t[a.pos[1]])
		}
		if v == logic.False {
			return false
		}
	}
	return true
}

// weight estimates a cover's size: an atom none of whose arguments is an
// update variable covers every tuple as soon as it holds anywhere.
func (cv cover) weight() int {
	w := 0
	for _, a := range cv.atoms {
		w += 1000
		for _, p := range a.pos {
			if p >= 0 {
				w -= 999
				break
			}
		}
	}
	return w
}

// coverAnalysis works out covers for the formulas of one update, whose
// tuple variables are args.
type coverAnalysis struct {
	voc  *tvl.Vocabulary
	pred *tvl.Pred
	args []logic.Var
}

// changes returns where f, the new value of pred(args), can differ from
// pred(args).
func (c *coverAnalysis) changes(f logic.Formula) cover {
	if c.pred.Arity > 2 {
		return coverAll
	}
	scope := map[logic.Var]int{}
	for i, v := range c.args {
		scope[v] = i
	}
	self := c.self(scope)
	switch g := f.(type) {
	case *logic.Atom:
		if c.isSelf(g) {
			return cover{}
		}
	case *logic.Binary:
		switch {
		case g.Op == logic.And && c.isSelf(g.Left):
			return conj(self, c.notOne(g.Right, scope))
		case g.Op == logic.And && c.isSelf(g.Right):
			return conj(self, c.notOne(g.Left, scope))
		case g.Op == logic.Or && c.isSelf(g.Left):
			return c.nonZero(g.Right, scope)
		case g.Op == logic.Or && c.isSelf(g.Right):
			return c.nonZero(g.Left, scope)
		}
	case *logic.If:
		// p ? T : E equals p where p is 1 and T is 1, where p is 0 and E
		// is 0, and where p is 1/2 and both hold (their join is then 1/2).
		if c.isSelf(g.Cond) {
			return union(conj(self, c.notOne(g.Then, scope)), c.nonZero(g.Else, scope))
		}
	}
	// Where p and f are both 0, f gives back p.
	return union(self, c.nonZero(f, scope))
}

// isSelf reports whether f is exactly the updated atom pred(args).
func (c *coverAnalysis) isSelf(f logic.Formula) bool {
	a, ok := f.(*logic.Atom)
	if !ok || a.Pred != c.pred.Name || len(a.Args) != len(c.args) {
		return false
	}
	for i, v := range a.Args {
		if v != c.args[i] {
			return false
		}
	}
	return true
}

func (c *coverAnalysis) self(scope map[logic.Var]int) cover {
	pos := make([]int, len(c.args))
	for i := range pos {
		pos[i] = i
	}
	return cover{atoms: []coverAtom{{pred: c.pred, pos: pos}}}
}

// nonZero covers the tuples where f is not 0.
func (c *coverAnalysis) nonZero(f logic.Formula, scope map[logic.Var]int) cover {
	switch g := f.(type) {
	case *logic.Const:
		if g.Value == logic.False {
			return cover{}
		}
	case *logic.Atom:
		p := c.voc.Lookup(g.Pred)
		if p == nil || p.Arity != len(g.Args) || p.Arity > 2 {
			return coverAll
		}
		at := coverAtom{pred: p}
		for _, v := range g.Args {
			i, ok := scope[v]
			if !ok {
				i = -1
			}
			at.pos = append(at.pos, i)
		}
		return cover{atoms: []coverAtom{at}}
	case *logic.Not:
		return c.notOne(g.Sub, scope)
	case *logic.Binary:
		switch g.Op {
		case logic.And:
			return conj(c.nonZero(g.Left, scope), c.nonZero(g.Right, scope))
		case logic.Or:
			return union(c.nonZero(g.Left, scope), c.nonZero(g.Right, scope))
		case logic.Implies:
			return union(c.notOne(g.Left, scope), c.nonZero(g.Right, scope))
		}
	case *logic.If:
		return union(c.nonZero(g.Then, scope), c.nonZero(g.Else, scope))
	case *logic.Quant:
		if g.Kind == logic.Exists {
			return c.nonZero(g.Body, without(scope, g.Vars))
		}
	}
	return coverAll
}

// notOne covers the tuples where f is not 1.
func (c *coverAnalysis) notOne(f logic.Formula, scope map[logic.Var]int) cover {
	switch g := f.(type) {
	case *logic.Const:
		if g.Value == logic.True {
			return cover{}
		}
	case *logic.Not:
		return c.nonZero(g.Sub, scope)
	case *logic.Binary:
		switch g.Op {
		case logic.And:
			return union(c.notOne(g.Left, scope), c.notOne(g.Right, scope))
		case logic.Or:
			return conj(c.notOne(g.Left, scope), c.notOne(g.Right, scope))
		case logic.Implies:
			return conj(c.nonZero(g.Left, scope), c.notOne(g.Right, scope))
		}
	case *logic.If:
		return union(c.notOne(g.Then, scope), c.notOne(g.Else, scope))
	case *logic.Quant:
		if g.Kind == logic.Forall {
			return c.notOne(g.Body, without(scope, g.Vars))
		}
	}
	return coverAll
}

func without(scope map[logic.Var]int, vs []logic.Var) map[logic.Var]int {
	out := make(map[logic.Var]int, len(scope))
	for v, i := range scope {
		out[v] = i
	}
	for _, v := range vs {
		delete(out, v)
	}
	return out
}

// tuples calls f with every tuple of arity k (at most 2) over s's
// individuals that the cover holds, each once, in lexicographic order.
func (cv cover) tuples(s *tvl.Structure, k int, f func(t []int)) {
	n := s.Size()
	if cv.all {
		for t := range tvl.Tuples(n, k) {
			f(t)
		}
		return
	}
	size := 1
	for range k {
		size *= n
	}
	marked := make([]bool, size)
	any, all := false, false
	// mark marks the tuples whose position i holds x[i] (x[i] < 0: any).
	mark := func(x0, x1 int) {
		any = true
		switch {
		case k == 0 || (x0 < 0 && (k == 1 || x1 < 0)):
			all = true
		case k == 1:
			marked[x0] = true
		case x0 < 0:
			for u := range n {
				marked[u*n+x1] = true
			}
		case x1 < 0:
			for w := range n {
				marked[x0*n+w] = true
			}
		default:
			marked[x0*n+x1] = true
		}
	}
	// place marks the tuples that agree with an atom's non-zero tuple
	// vals.
	place := func(a coverAtom, vals ...int) {
		x := [2]int{-1, -1}
		for i, p := range a.pos {
			if p < 0 {
				continue
			}
			if x[p] >= 0 && x[p] != vals[i] {
				return // p(v, v) at a tuple off the diagonal
			}
			x[p] = vals[i]
		}
		mark(x[0], x[1])
	}
	for _, a := range cv.atoms {
		switch a.pred.Arity {
		case 0:
			if s.Nullary(a.pred.Index) != logic.False {
				mark(-1, -1)
			}
		case 1:
			s.NonZeroUnary(a.pred.Index, func(u int) bool {
				place(a, u)
				return !all
			})
		case 2:
			for u := 0; u < n && !all; u++ {
				s.NonZeroRow(a.pred.Index, u, func(w int) bool {
					place(a, u, w)
					return !all
				})
			}
		}
		if all {
			break
		}
	}
	if all {
		for t := range tvl.Tuples(n, k) {
			if cv.passes(s, t) {
				f(t)
			}
		}
		return
	}
	if !any {
		return
	}
	t := make([]int, k)
	for i, m := range marked {
		if !m {
			continue
		}
		if k == 1 {
			t[0] = i
		} else {
			t[0], t[1] = i/n, i%n
		}
		if cv.passes(s, t) {
			f(t)
		}
	}
}
