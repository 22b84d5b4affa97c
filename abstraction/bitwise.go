package abstraction

import (
	"fmt"
	"math/bits"

	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/tvl"
)

// Most constraints of the thread models speak of one individual through
// unary predicates only: `if[L,p](v) & at[L](v) ==> p(v)` and the like,
// hundreds of them once soft invariants are declared. Such a constraint
// is checked for 64 individuals at a time: a formula's value on a word of
// individuals is two bit masks, where it is 1 and where it is not 0.

// wordFormula evaluates a formula over one free variable on word w of a
// structure: one has the individuals where it is 1, nonZero those where
// it is 1 or 1/2.
type wordFormula func(s *tvl.Structure, w int) (one, nonZero uint64)

// compileWordFormula returns the word-parallel form of f, whose only free
// variable is v, or nil when f uses anything but unary and nullary atoms
// of v, constants and connectives.
func compileWordFormula(voc *tvl.Vocabulary, f logic.Formula, v logic.Var) wordFormula {
	switch g := f.(type) {
	case *logic.Const:
		var one, nz uint64
		if g.Value == logic.True {
			one = ^uint64(0)
		}
		if g.Value != logic.False {
			nz = ^uint64(0)
		}
		return func(*tvl.Structure, int) (uint64, uint64) { return one, nz }
	case *logic.Atom:
		p := voc.Lookup(g.Pred)
		if p == nil || p.Arity != len(g.Args) {
			return nil
		}
		switch {
		case p.Arity == 0:
			i := p.Index
			return func(s *tvl.Structure, _ int) (uint64, uint64) {
				switch s.Nullary(i) {
				case logic.True:
					return ^uint64(0), ^uint64(0)
				case logic.Unknown:
					return 0, ^uint64(0)
				}
				return 0, 0
			}
		case p.Arity == 1 && g.Args[0] == v:
			i := p.Index
			return func(s *tvl.Structure, w int) (uint64, uint64) {
				val, half := s.UnaryWords(i, w)
				return val, val | half
			}
		}
		return nil
	case *logic.Not:
		sub := compileWordFormula(voc, g.Sub, v)
		if sub == nil {
			return nil
		}
		return func(s *tvl.Structure, w int) (uint64, uint64) {
			one, nz := sub(s, w)
			return ^nz, ^one
		}
	case *logic.Binary:
		l, r := compileWordFormula(voc, g.Left, v), compileWordFormula(voc, g.Right, v)
		if l == nil || r == nil {
			return nil
		}
		switch g.Op {
		case logic.And:
			return func(s *tvl.Structure, w int) (uint64, uint64) {
				a1, anz := l(s, w)
				b1, bnz := r(s, w)
				return a1 & b1, anz & bnz
			}
		case logic.Or:
			return func(s *tvl.Structure, w int) (uint64, uint64) {
				a1, anz := l(s, w)
				b1, bnz := r(s, w)
				return a1 | b1, anz | bnz
			}
		case logic.Implies: // !a | b
			return func(s *tvl.Structure, w int) (uint64, uint64) {
				a1, anz := l(s, w)
				b1, bnz := r(s, w)
				return ^anz | b1, ^a1 | bnz
			}
		case logic.Iff: // (!a | b) & (!b | a)
			return func(s *tvl.Structure, w int) (uint64, uint64) {
				a1, anz := l(s, w)
				b1, bnz := r(s, w)
				return (^anz | b1) & (^bnz | a1), (^a1 | bnz) & (^b1 | anz)
			}
		}
	case *logic.If:
		c, t, e := compileWordFormula(voc, g.Cond, v), compileWordFormula(voc, g.Then, v), compileWordFormula(voc, g.Else, v)
		if c == nil || t == nil || e == nil {
			return nil
		}
		return func(s *tvl.Structure, w int) (uint64, uint64) {
			c1, cnz := c(s, w)
			t1, tnz := t(s, w)
			e1, enz := e(s, w)
			zero, half := ^cnz, cnz&^c1
			// Where the condition is 1/2 the value is the join of both
			// branches: 1 only if both are 1, not 0 if either is not.
			return c1&t1 | zero&e1 | half&t1&e1, c1&tnz | zero&enz | half&(tnz|enz)
		}
	}
	return nil
}

// wordConstraint is a constraint over one variable whose body and head
// have word-parallel forms; the head is a unary atom of that variable,
// negated or not, or the constant 0.
type wordConstraint struct {
	body wordFormula
	// head is the head's unary predicate (nil for a 0 head); negated
	// says the head is !p(v).
	head    *tvl.Pred
	negated bool
}

// compileWordConstraint returns the word-parallel form of k, or nil.
func compileWordConstraint(voc *tvl.Vocabulary, k *constraint) *wordConstraint {
	if len(k.src.Vars) != 1 {
		return nil
	}
	v := k.src.Vars[0]
	wc := &wordConstraint{body: compileWordFormula(voc, k.src.Body, v)}
	if wc.body == nil {
		return nil
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
	return wc
}

// apply enforces the constraint on every individual of s, 64 at a time:
// where the body is 1 a 1/2 head is sharpened and a head of the wrong
// definite value discards the structure (false). A sharpening of p(u)
// changes no other individual's body, so doing them all at once is what
// the assignment-at-a-time loop would do.
func (wc *wordConstraint) apply(c *Coercer, s *tvl.Structure, k *constraint, touched predSet, res *CoerceResult, d *Delta) bool {
	n := s.Size()
	for w := 0; w*64 < n; w++ {
		one, _ := wc.body(s, w)
		if d != nil {
			one &= k.touchedMask(d, w)
		}
		if rest := n - w*64; rest < 64 {
			one &= 1<<uint(rest) - 1
		}
		if one == 0 {
			continue
		}
		if wc.head == nil {
			res.Breaches++
			res.Violated = k.src.String() + " (" + k.src.Origin + ")"
			return false
		}
		val, half := s.UnaryWords(wc.head.Index, w)
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
			touched[wc.head.ID] = true
			if d != nil {
				d.AddTuple(wc.head, []int{u})
			}
			res.Breaches++
			if c.Trace != nil {
				c.Trace(k.src.String()+" ("+k.src.Origin+")", fmt.Sprintf("%s%v := %v", wc.head.Name, []int{u}, want))
			}
		}
	}
	return true
}
