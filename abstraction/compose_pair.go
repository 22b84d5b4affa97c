package abstraction

import (
	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/tvl"
)

// pairKey names a Compatible question: two revealed components and the
// membership formulas of their names.
type pairKey struct {
	a, b     *tvl.Structure
	ina, inb *tvl.Compiled
}

// Compatible reports whether the revealed components a, of name da, and
// b, of name db, can be two parts of one matching of Compose's search.
// It is a necessary condition, checked on the pair alone: false means
// that ComposeRevealed of any parts holding a as da and b as db gives
// nothing, so a caller may skip every such combination without
// composing it. Every inside individual u of a must be matched: where
// db's formula is 1 on u, with an inside individual of b that db's
// formula does not put outside... precisely, one whose da formula is
// not 0 and whose definite unary values do not contradict u's; where
// it is 0, with b's outside individual; where 1/2, with either; and
// the same for b's individuals against a. (The search asks more: a
// non-summary individual is matched once, and the values of every
// part meet.) The answer is kept in c for the pair (nil: none); outside
// must be the same for every call on one cache.
func (c *MembershipCache) Compatible(a, b *tvl.Structure, da, db Component, outside *tvl.Pred) bool {
	k := pairKey{a, b, da.In, db.In}
	if c != nil {
		if ok, known := c.pairs[k]; known {
			return ok
		}
	}
	ok := c.pairFits(a, b, da, db, outside)
	if c != nil {
		if c.pairs == nil {
			c.pairs = map[pairKey]bool{}
		}
		c.pairs[k] = ok
	}
	return ok
}

// pairFits is Compatible, computed.
func (c *MembershipCache) pairFits(a, b *tvl.Structure, da, db Component, outside *tvl.Pred) bool {
	unary := c.unaryOf(a.Vocabulary(), outside)
	fa, fb := c.facts(a), c.facts(b)
	spa, spb := fa.split(a, outside), fb.split(b, outside)
	if spa.twoOutside || spb.twoOutside {
		return false // newMeet refuses such a part
	}
	sa, sb := fa.signatures(a, unary), fb.signatures(b, unary)
	aInB := fa.membership(a, db.In, spa.inside)
	bInA := fb.membership(b, da.In, spb.inside)
	return matchable(spa.inside, aInB, sa, spb, bInA, sb) && matchable(spb.inside, bInA, sb, spa, aInB, sa)
}

// matchable reports whether every individual of inside (of one part,
// whose membership in the other part's name is in and whose
// signatures are sig) can be matched with an individual of the other
// part (its split other, its individuals' membership in the first
// part's name otherIn, their signatures otherSig), as meet.extend and
// meet.fits would allow it.
func matchable(inside []int, in []logic.Kleene, sig []unarySig, other partSplit, otherIn []logic.Kleene, otherSig []unarySig) bool {
	for _, u := range inside {
		v := in[u]
		if v != logic.True && other.out >= 0 {
			continue // u may stand outside the other part
		}
		if v == logic.False {
			return false // outside the other name, which has no outside individual
		}
		found := false
		for _, w := range other.inside {
			if otherIn[w] != logic.False && !sig[u].contradicts(otherSig[w]) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}
