package engine

import (
	"github.com/tvla-go/tvla/tvl"
)

// JoinPartial merges a structure into a stored one with the same
// canonical individuals and nullary abstraction values, pointwise
// (Manevich et al., SAS 2004): TVLA's default, "part".
const JoinPartial = "part"

type partial struct{ abstractMode }

func (partial) joiner(e *Engine) joiner { return &partialJoin{absUn: e.abs, absNull: e.absNull} }

// partialJoin merges structures with the same universe: blurred, their
// individuals are in canonical order, so the same canonical names mean
// the same individuals.
type partialJoin struct {
	absUn   []*tvl.Pred // unary abstraction predicates
	absNull []*tvl.Pred // nullary abstraction predicates
}

func (j *partialJoin) key(s *tvl.Structure) uint64 {
	h := uint64(s.Size())*0x9e3779b97f4a7c15 + 1
	for _, p := range j.absNull {
		h = h*31 + uint64(s.Nullary(p.Index))
	}
	// A word at a time: the abstraction predicates' bits are the
	// canonical names.
	for _, p := range j.absUn {
		for w := 0; w < s.Stride(); w++ {
			val, half := absWords(s, p, w)
			h = (h^val)*0x100000001b3 + half
			h ^= h >> 29
		}
	}
	return h
}

func (j *partialJoin) join(old, s *tvl.Structure) (*tvl.Structure, bool, bool) {
	if !j.sameUniverse(old, s) {
		return nil, false, false
	}
	joined, grew := tvl.JoinPointwise(old, s)
	return joined, grew, true
}

func (j *partialJoin) inPlace() bool { return false }

// sameUniverse reports whether a and b have the same canonical individuals
// and nullary abstraction values: the partial join's condition.
func (j *partialJoin) sameUniverse(a, b *tvl.Structure) bool {
	if a.Size() != b.Size() {
		return false
	}
	for _, p := range j.absNull {
		if a.Nullary(p.Index) != b.Nullary(p.Index) {
			return false
		}
	}
	for _, p := range j.absUn {
		for w := 0; w < a.Stride(); w++ {
			av, ah := absWords(a, p, w)
			bv, bh := absWords(b, p, w)
			if av != bv || ah != bh {
				return false
			}
		}
	}
	return true
}

// absWords is word w of unary predicate p's bits, masked to s's universe.
func absWords(s *tvl.Structure, p *tvl.Pred, w int) (val, half uint64) {
	val, half = s.UnaryWords(p.Index, w)
	if rest := s.Size() - w*64; rest < 64 {
		mask := uint64(1)<<uint(rest) - 1
		val, half = val&mask, half&mask
	}
	return val, half
}
