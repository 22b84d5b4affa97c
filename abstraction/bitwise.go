package abstraction

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/tvl"
)

// Most constraints of the thread models speak of one individual through
// unary predicates only: `if[L,p](v) & at[L](v) ==> p(v)` and the like,
// hundreds of them once soft invariants are declared. Such a constraint
// is checked for 64 individuals at a time: a formula's value on a word of
// individuals is two bit masks, where it is 1 and where it is not 0.

// wordConstraint is a constraint over one variable whose body and head
// have word-parallel forms; the head is a unary atom of that variable,
// negated or not, or the constant 0.
//
// The body is kept in disjunctive normal form, its disjuncts as lists of
// conjuncts (a soft invariant's rule is `inv(v) & at[L](v) & q(v) ==>
// p(v)`, a definition's `isthread(v) & (!at[L](v) | p(v)) ==> inv(v)`,
// two disjuncts), literals read straight from the tables. Only the
// individuals where the head does not already have the value it must
// have can need anything, so apply starts from those and ands in one
// conjunct at a time, stopping as soon as none is left: with thousands
// of soft invariants most constraints are settled after a word or two
// of their tables, without evaluating their bodies.
type wordConstraint struct {
	// disj are the body's disjuncts; the body is 1 where one of them has
	// all its conjuncts 1.
	disj [][]wordConjunct
	// head is the head's unary predicate (nil for a 0 head); negated
	// says the head is !p(v).
	head    *tvl.Pred
	negated bool
	// required are the unary predicates p with a conjunct p(v) in every
	// disjunct: the body is 1 nowhere unless each is 1 somewhere (a soft
	// invariant's at[L], 1 for no thread unless one is known to be at L).
	required []*tvl.Pred
}

// wordConjunct is one conjunct of a word constraint's body: a unary
// literal p(v) or !p(v) (index, negated), a nullary atom (nullary), or
// any other formula in word-parallel form (f, wordnodes.go).
type wordConjunct struct {
	f       wordNodes
	index   int
	negated bool
	nullary bool
}

// compileWordConstraint returns the word-parallel form of k, or nil.
func compileWordConstraint(voc *tvl.Vocabulary, k *constraint) *wordConstraint {
	if len(k.src.Vars) != 1 {
		return nil
	}
	v := k.src.Vars[0]
	wc := &wordConstraint{disj: compileWordDisjuncts(voc, logic.NNF(k.src.Body), v)}
	if wc.disj == nil {
		// Not every disjunct compiles: the body whole, as one conjunct.
		c, ok := compileWordConjunct(voc, k.src.Body, v)
		if !ok {
			return nil
		}
		wc.disj = [][]wordConjunct{{c}}
	}
	switch k.kind {
	case headFalse:
	case headAtom, headNotAtom:
		if k.pred.Arity != 1 {
			return nil
		}
		wc.head, wc.negated = k.pred, k.kind == headNotAtom
	default:
		return nil
	}
	wc.required = requiredPreds(voc, wc.disj)
	return wc
}

// requiredPreds lists the unary predicates whose positive literal is a
// conjunct of every disjunct (none when there is no disjunct).
func requiredPreds(voc *tvl.Vocabulary, disj [][]wordConjunct) []*tvl.Pred {
	if len(disj) == 0 {
		return nil
	}
	var out []*tvl.Pred
	for _, c := range disj[0] {
		if c.f != nil || c.nullary || c.negated {
			continue
		}
		inAll := true
		for _, d := range disj[1:] {
			inAll = inAll && slices.ContainsFunc(d, func(e wordConjunct) bool {
				return e.f == nil && !e.nullary && !e.negated && e.index == c.index
			})
		}
		if p := voc.OfArity(1)[c.index]; inAll && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// maxWordDisjuncts bounds the disjunctive normal form of a word
// constraint's body; a body with more disjuncts is one word formula.
const maxWordDisjuncts = 16

// compileWordDisjuncts returns the disjuncts of body (in negation normal
// form) as lists of compiled conjuncts, dropping those with a conjunct
// that is never 1 (a constant 0 or 1/2) and leaving out constant 1
// conjuncts; nil when a conjunct does not compile.
func compileWordDisjuncts(voc *tvl.Vocabulary, body logic.Formula, v logic.Var) [][]wordConjunct {
	out := [][]wordConjunct{}
disjuncts:
	for _, d := range logic.Disjuncts(body, maxWordDisjuncts) {
		var conj []wordConjunct
		for _, c := range conjuncts(d, nil) {
			if k, ok := c.(*logic.Const); ok {
				if k.Value != logic.True {
					continue disjuncts
				}
				continue
			}
			wj, ok := compileWordConjunct(voc, c, v)
			if !ok {
				return nil
			}
			conj = append(conj, wj)
		}
		out = append(out, conj)
	}
	return out
}

// compileWordConjunct compiles one conjunct of a body over v: a literal
// as its table, anything else as a word formula.
func compileWordConjunct(voc *tvl.Vocabulary, c logic.Formula, v logic.Var) (wordConjunct, bool) {
	lit, neg := c, false
	if n, ok := lit.(*logic.Not); ok {
		lit, neg = n.Sub, true
	}
	if a, ok := lit.(*logic.Atom); ok {
		if p := voc.Lookup(a.Pred); p != nil && p.Arity == len(a.Args) {
			switch {
			case p.Arity == 0:
				return wordConjunct{index: p.Index, negated: neg, nullary: true}, true
			case p.Arity == 1 && a.Args[0] == v:
				return wordConjunct{index: p.Index, negated: neg}, true
			}
		}
	}
	f, ok := compileWordNodes(voc, c, v, nil, nil)
	return wordConjunct{f: f[:len(f):len(f)]}, ok
}

// The Coercer keeps its word constraints flat: a row per constraint and
// their literals in one arena, in constraint order. Coerce passes over
// thousands of soft invariants' constraints per structure, most settled
// by a literal or two; following a pointer per constraint, per
// disjunct and per conjunct, each a cache miss, was most of its time.

// wordRow is constraint i's word form in the Coercer's arena: the
// literals lits[req:from] are its required predicates beyond the two
// guards, lits[from:to] its body's disjuncts, each ended by a literal
// marked last.
type wordRow struct {
	req, from, to int32
	// head is the head's unary table index, -1 for a 0 head.
	head    int32
	negated bool
	word    bool
}

// wordLit is a literal of the arena: index is a unary or nullary table
// index, a formula's number in the Coercer's formulas, or a required
// predicate's ID.
type wordLit struct {
	index int32
	kind  wordLitKind
	last  bool
}

type wordLitKind uint8

const (
	litUnary wordLitKind = iota
	litNotUnary
	litNullary
	litNotNullary
	litFormula
	litTrue     // an empty disjunct
	litRequired // a required predicate (index: its ID)
)

// addWordRow appends constraint k's word form to the arena (a row with
// word false when it has none).
func (c *Coercer) addWordRow(k *constraint) {
	wc := k.word
	if wc == nil {
		c.rows = append(c.rows, wordRow{})
		return
	}
	r := wordRow{req: int32(len(c.lits)), head: -1, negated: wc.negated, word: true}
	if wc.head != nil {
		r.head = int32(wc.head.Index)
	}
	for j, p := range wc.required {
		if j >= 2 { // the first two are the guards
			c.lits = append(c.lits, wordLit{index: int32(p.ID), kind: litRequired})
		}
	}
	r.from = int32(len(c.lits))
	for _, conj := range wc.disj {
		if len(conj) == 0 {
			c.lits = append(c.lits, wordLit{kind: litTrue})
		}
		for _, wj := range conj {
			l := wordLit{index: int32(wj.index)}
			switch {
			case wj.f != nil:
				l = wordLit{index: int32(len(c.formulas)), kind: litFormula}
				c.formulas = append(c.formulas, wj.f)
			case wj.nullary && wj.negated:
				l.kind = litNotNullary
			case wj.nullary:
				l.kind = litNullary
			case wj.negated:
				l.kind = litNotUnary
			}
			c.lits = append(c.lits, l)
		}
		c.lits[len(c.lits)-1].last = true
	}
	r.to = int32(len(c.lits))
	c.rows = append(c.rows, r)
}

// litOnes returns the individuals of word w where l is 1, right on
// those of care.
func (c *Coercer) litOnes(l wordLit, s *tvl.Structure, w int, care uint64) uint64 {
	switch l.kind {
	case litUnary:
		val, _ := s.UnaryWords(int(l.index), w)
		return val
	case litNotUnary:
		val, half := s.UnaryWords(int(l.index), w)
		return ^(val | half)
	case litNullary:
		if s.Nullary(int(l.index)) == logic.True {
			return ^uint64(0)
		}
		return 0
	case litNotNullary:
		if s.Nullary(int(l.index)) == logic.False {
			return ^uint64(0)
		}
		return 0
	case litFormula:
		one, _ := c.formulas[l.index].eval(0, s, w, nil, nil, care)
		return one
	}
	return ^uint64(0) // litTrue
}

// applyWord enforces constraint i, of word form r, on every individual
// of s, 64 at a time: where the body is 1 a 1/2 head is sharpened and a
// head of the wrong definite value discards the structure (false). A
// sharpening of p(u) changes no other individual's body, so doing them
// all at once is what the assignment-at-a-time loop would do.
func (c *Coercer) applyWord(s *tvl.Structure, i int, r *wordRow, touched touchSet, res *CoerceResult, d *Delta) bool {
	for _, l := range c.lits[r.req:r.from] {
		if !c.ones.has(s, l.index, c.unaryIndex[l.index]) {
			return true
		}
	}
	n := s.Size()
	for w := 0; w*64 < n; w++ {
		// one: the individuals left that may need the head enforced,
		// narrowed to where the body is 1.
		one := validMask(s, w)
		var val, half uint64
		if r.head >= 0 {
			val, half = s.UnaryWords(int(r.head), w)
			if r.negated {
				one &= val | half
			} else {
				one &^= val
			}
		}
		if one != 0 {
			one = c.wordBody(s, r, w, one)
		}
		if d != nil && one != 0 {
			one &= c.cons[i].touchedMask(d, w)
		}
		if one == 0 {
			continue
		}
		k := c.cons[i]
		if r.head < 0 {
			res.Breaches++
			res.Violated = k.src.String() + " (" + k.src.Origin + ")"
			return false
		}
		if !k.word.enforce(c, s, k, w, one, val, half, touched, res, d) {
			return false
		}
	}
	return true
}

// wordBody returns the individuals of cand in word w where row r's body
// is 1.
func (c *Coercer) wordBody(s *tvl.Structure, r *wordRow, w int, cand uint64) uint64 {
	var one uint64
	m := cand
	for _, l := range c.lits[r.from:r.to] {
		if m != 0 {
			m &= c.litOnes(l, s, w, m)
		}
		if l.last {
			one |= m
			if m = cand &^ one; m == 0 {
				break
			}
		}
	}
	return one
}

// enforce makes the head hold on the individuals one of word w, where
// the body is 1 and the head is not yet what it must be (val, half: the
// head's words before): sharpens a 1/2, or discards the structure.
func (wc *wordConstraint) enforce(c *Coercer, s *tvl.Structure, k *constraint, w int, one, val, half uint64, touched touchSet, res *CoerceResult, d *Delta) bool {
	wrong := one &^ (val | half) // head 0 where it must be 1
	want := logic.True
	if wc.negated {
		wrong, want = one&val, logic.False
	}
	if wrong != 0 {
		// The join sharpens the individuals before the first wrong
		// one, then discards: count as it does.
		first := wrong & -wrong
		res.Breaches += bits.OnesCount64(one&half&(first-1)) + 1
		res.Violated = k.src.String() + " (" + k.src.Origin + ")"
		return false
	}
	for sharpen := one & half; sharpen != 0; sharpen &= sharpen - 1 {
		u := w*64 + bits.TrailingZeros64(sharpen)
		s.SetUnary(wc.head.Index, u, want)
		c.ones.set(wc.head, want)
		touched.mark(wc.head, want)
		if d != nil {
			d.AddTuple(wc.head, []int{u})
		}
		res.Breaches++
		if c.Trace != nil {
			c.Trace(k.src.String()+" ("+k.src.Origin+")", fmt.Sprintf("%s%v := %v", wc.head.Name, []int{u}, want))
		}
	}
	return true
}

// conjuncts appends the top-level conjuncts of f to out.
func conjuncts(f logic.Formula, out []logic.Formula) []logic.Formula {
	if b, ok := f.(*logic.Binary); ok && b.Op == logic.And {
		return conjuncts(b.Right, conjuncts(b.Left, out))
	}
	return append(out, f)
}

// onesSeen knows, for the structure one Coerce works on, which unary
// predicates are 1 somewhere: a word constraint whose required
// predicate is not needs no look. It is filled in the first time it is
// asked about a predicate, and kept up to date by the sharpenings to 1;
// reset starts it afresh for the next structure.
type onesSeen struct {
	known, one []uint64 // bits by predicate ID
}

func (o *onesSeen) reset(npreds int) {
	if o.known == nil {
		o.known = make([]uint64, (npreds+63)/64)
		o.one = make([]uint64, (npreds+63)/64)
	}
	clear(o.known)
}

// has reports whether the unary predicate of ID id and table index index is 1 for some individual of s.
func (o *onesSeen) has(s *tvl.Structure, id, index int32) bool {
	w, b := id/64, uint64(1)<<uint(id%64)
	if o.known[w]&b == 0 {
		o.known[w] |= b
		o.one[w] &^= b
		n := s.Size()
		for i := 0; i*64 < n; i++ {
			val, _ := s.UnaryWords(int(index), i)
			if rest := n - i*64; rest < 64 {
				val &= 1<<uint(rest) - 1
			}
			if val != 0 {
				o.one[w] |= b
				break
			}
		}
	}
	return o.one[w]&b != 0
}

// set records that a value of p was made v.
func (o *onesSeen) set(p *tvl.Pred, v logic.Kleene) {
	if v == logic.True && o.known != nil {
		o.one[p.ID/64] |= 1 << uint(p.ID%64)
	}
}
