package abstraction

import (
	"math/bits"
	"strconv"
	"strings"

	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/tvl"
)

// Unary updates 64 individuals at a time. A thread model with soft
// invariants has thousands of derived updates of unary predicates, `p'(v)
// = p(v) ? !Δ⁻(v) : Δ⁺(v)` over unary predicates of v and of the
// precondition's variables: such an update's cover (frame.go) and its
// formula are evaluated as bit masks (bitwise.go), a word of individuals
// at a time, instead of one tuple at a time through the compiled
// formula. The tuples written are the same: the formula's value on the
// covered individuals where it differs from the predicate's.

// compileWordUpdate returns the word-parallel form of the update of
// unary p(v) by f (preVars: the precondition's variables, which f reads
// from the binding), or nil when f or the cover does not have one.
func compileWordUpdate(voc *tvl.Vocabulary, p *tvl.Pred, args []logic.Var, f logic.Formula, preVars []logic.Var, where cover) wordNodes {
	if p.Arity != 1 || len(args) != 1 || !where.wordable() {
		return nil
	}
	bound := map[logic.Var]int{}
	for i, v := range preVars {
		if v != args[0] {
			bound[v] = i
		}
	}
	ns, ok := compileWordNodes(voc, f, args[0], bound, nil)
	if !ok {
		return nil
	}
	return ns[:len(ns):len(ns)]
}

// wordable reports whether a unary update's cover can be computed a word
// at a time: its atoms and filters are nullary or unary.
func (cv cover) wordable() bool {
	if cv.all {
		return true
	}
	for _, a := range cv.atoms {
		if a.pred.Arity > 1 {
			return false
		}
	}
	for _, a := range cv.filter {
		if a.pred.Arity > 1 || len(a.pos) == 1 && a.pos[0] != 0 {
			return false
		}
	}
	return true
}

// anyNonZero reports whether the unary predicate of table index i is
// not 0 for some individual.
func anyNonZero(s *tvl.Structure, i int) bool {
	for w := 0; w*64 < s.Size(); w++ {
		if val, half := s.UnaryWords(i, w); (val|half)&validMask(s, w) != 0 {
			return true
		}
	}
	return false
}

// validMask is word w's individuals of s.
func validMask(s *tvl.Structure, w int) uint64 {
	if rest := s.Size() - w*64; rest < 64 {
		return 1<<uint(rest) - 1
	}
	return ^uint64(0)
}

// flatCover is an interned word cover laid out for its mask: its atoms
// and filters are the entries coverAtoms[from:to] of its action, read
// without following a pointer per atom. With thousands of covers per
// action, those pointers' cache misses were most of the masks' cost.
type flatCover struct {
	all      bool
	from, to int32
}

// flatAtom is a cover atom or filter by its predicate's table index.
type flatAtom struct {
	index int32
	kind  flatKind
}

type flatKind uint8

const (
	atomNullary   flatKind = iota // not 0: every individual
	atomOwn                       // p(v): where p is not 0
	atomOther                     // p(x), x another variable: every individual once p is not 0 somewhere
	filterNullary                 // 0: no individual
	filterOwn                     // p(v): only where p is not 0
)

// flatten lays out a wordable cover (of a unary update: position 0 is
// the update's variable) as entries appended to atoms.
func (cv cover) flatten(atoms []flatAtom) (flatCover, []flatAtom) {
	fc := flatCover{all: cv.all, from: int32(len(atoms))}
	if !cv.all {
		for _, a := range cv.atoms {
			k := atomOther
			switch {
			case a.pred.Arity == 0:
				k = atomNullary
			case a.pos[0] == 0:
				k = atomOwn
			}
			atoms = append(atoms, flatAtom{index: int32(a.pred.Index), kind: k})
		}
		for _, a := range cv.filter {
			k := filterOwn
			if a.pred.Arity == 0 {
				k = filterNullary
			}
			atoms = append(atoms, flatAtom{index: int32(a.pred.Index), kind: k})
		}
	}
	fc.to = int32(len(atoms))
	return fc, atoms
}

// mask returns word w of the individuals cover fc holds, as tuples does.
func (fc flatCover) mask(atoms []flatAtom, s *tvl.Structure, w int) uint64 {
	if fc.all {
		return validMask(s, w)
	}
	var m uint64
	for _, a := range atoms[fc.from:fc.to] {
		switch a.kind {
		case atomNullary:
			if s.Nullary(int(a.index)) != logic.False {
				m = ^uint64(0)
			}
		case atomOwn:
			val, half := s.UnaryWords(int(a.index), w)
			m |= val | half
		case atomOther:
			if m != ^uint64(0) && anyNonZero(s, int(a.index)) {
				m = ^uint64(0)
			}
		case filterNullary:
			if s.Nullary(int(a.index)) == logic.False {
				return 0
			}
		case filterOwn:
			val, half := s.UnaryWords(int(a.index), w)
			m &= val | half
		}
	}
	return m & validMask(s, w)
}

// key names the cover's atoms and filters, for interning.
func (cv cover) key() string {
	if cv.all {
		return "*"
	}
	var b strings.Builder
	write := func(sep byte, atoms []coverAtom) {
		for _, a := range atoms {
			b.WriteByte(sep)
			b.WriteString(strconv.Itoa(a.pred.Index))
			for _, p := range a.pos {
				b.WriteByte(',')
				b.WriteString(strconv.Itoa(p))
			}
		}
	}
	write('|', cv.atoms)
	write('&', cv.filter)
	return b.String()
}

// wordCover interns a word-parallel update's cover among the action's
// (-1 for an update with no word form).
func (c *actionCompiler) wordCover(word wordNodes, where cover) int {
	if word == nil {
		return -1
	}
	k := where.key()
	if id, ok := c.coverKey[k]; ok {
		return id
	}
	if c.coverKey == nil {
		c.coverKey = map[string]int{}
	}
	c.coverKey[k] = len(c.a.covers)
	var fc flatCover
	fc, c.a.coverAtoms = where.flatten(c.a.coverAtoms)
	c.a.covers = append(c.a.covers, fc)
	return len(c.a.covers) - 1
}

// apply writes into post the update of p on the individuals of pre the
// cover holds where the formula's value differs from p's; it reports
// whether it wrote any.
func (wu wordNodes) applyUpdate(pre, post *tvl.Structure, p *tvl.Pred, coverID int, b []int, sv *sharedValues) bool {
	differs := false
	for w := 0; w*64 < pre.Size(); w++ {
		m := sv.coverMask(coverID, w)
		if m == 0 {
			continue
		}
		one, nz := wu.eval(0, pre, w, b, sv, m)
		val, half := pre.UnaryWords(p.Index, w)
		newVal, newHalf := one&m|val&^m, (nz&^one)&m|half&^m
		for diff := ((newVal ^ val) | (newHalf ^ half)) & m; diff != 0; diff &= diff - 1 {
			bit := diff & -diff
			v := logic.False
			switch {
			case newVal&bit != 0:
				v = logic.True
			case newHalf&bit != 0:
				v = logic.Unknown
			}
			post.SetUnary(p.Index, w*64+bits.TrailingZeros64(bit), v)
			differs = true
		}
	}
	return differs
}
