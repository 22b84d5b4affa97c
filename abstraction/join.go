package abstraction

import (
	"bytes"
	"fmt"

	"github.com/tvla-go/tvla/tvl"
)

// JoinKind chooses how structures arriving at a location are kept.
type JoinKind uint8

const (
	// JoinPartial merges a structure into a stored one with the same
	// canonical individuals and nullary abstraction values, pointwise
	// (Manevich et al., SAS 2004): TVLA's default, "part".
	JoinPartial JoinKind = iota
	// JoinRelational keeps every structure up to isomorphism: "rel".
	JoinRelational
	// JoinConcrete runs the program on two-valued structures, without
	// Blur, keeping every structure up to isomorphism: "conc", TVLA's
	// name (concrete.go).
	JoinConcrete
	// JoinIndependent keeps one structure per location and valuation of
	// the nullary predicates (all of them, abstraction or not): TVLA's
	// single-structure join, "ind". Structures with different
	// individuals merge by canonical name; an individual that only some
	// of them have may not exist, which the predicate inac records (1/2
	// there, 1 where the individual certainly exists). Formulas range
	// over existing individuals only (logic.Relativize).
	JoinIndependent
)

// ParseJoin reads a join name as the command line writes it.
func ParseJoin(s string) (JoinKind, error) {
	switch s {
	case "part":
		return JoinPartial, nil
	case "rel":
		return JoinRelational, nil
	case "conc":
		return JoinConcrete, nil
	case "ind":
		return JoinIndependent, nil
	}
	return 0, fmt.Errorf("unknown join %q (want rel, part, ind or conc)", s)
}

func (k JoinKind) String() string {
	switch k {
	case JoinRelational:
		return "rel"
	case JoinConcrete:
		return "conc"
	case JoinIndependent:
		return "ind"
	}
	return "part"
}

// StructureSet is the set of structures stored at one location. Every
// structure in it is blurred, so individuals are in canonical order and
// isomorphism is equality.
type StructureSet struct {
	kind    JoinKind
	absUn   []*tvl.Pred // unary abstraction predicates
	absNull []*tvl.Pred // nullary abstraction predicates (all nullary predicates for ind)
	active  *tvl.Pred   // inac, for ind
	items   []*tvl.Structure
	index   map[uint64][]int
	// pending holds, in the order they arrived, the versions of
	// structures not processed yet: a structure that grows by a join is
	// queued again as it now is, and the older version stays queued too.
	// Processing superseded versions is what TVLA does; it matters for
	// the partial join, whose result depends on what was propagated
	// before a merge.
	pending []Pending
}

// Pending is a version of a stored structure awaiting processing.
type Pending struct {
	Slot      int
	Structure *tvl.Structure
}

// NewStructureSet returns an empty set with the given join.
func NewStructureSet(kind JoinKind, absUnary, absNullary []*tvl.Pred) *StructureSet {
	return &StructureSet{kind: kind, absUn: absUnary, absNull: absNullary, index: map[uint64][]int{}}
}

// NewIndependentSet returns an empty set with the single-structure join:
// structures with the same values of the nullary predicates merge, their
// individuals matched by their canonical names (the values of the unary
// abstraction predicates), active recording which may not exist.
func NewIndependentSet(absUnary, nullary []*tvl.Pred, active *tvl.Pred) *StructureSet {
	ss := NewStructureSet(JoinIndependent, absUnary, nullary)
	ss.active = active
	return ss
}

// Len is the number of structures stored.
func (ss *StructureSet) Len() int { return len(ss.items) }

// Structures lists the stored structures in the order they were first
// stored.
func (ss *StructureSet) Structures() []*tvl.Structure { return ss.items }

// key hashes what decides which stored structure s may merge with.
func (ss *StructureSet) key(s *tvl.Structure) uint64 {
	if ss.kind == JoinConcrete {
		return s.Hash() // not blurred: individuals in no canonical order
	}
	if ss.kind == JoinRelational {
		return s.OrderedHash()
	}
	if ss.kind == JoinIndependent {
		h := uint64(0x9e3779b97f4a7c15)
		for _, p := range ss.absNull {
			h = h*31 + uint64(s.Nullary(p.Index))
		}
		return h
	}
	h := uint64(s.Size())*0x9e3779b97f4a7c15 + 1
	for _, p := range ss.absNull {
		h = h*31 + uint64(s.Nullary(p.Index))
	}
	// A word at a time: the abstraction predicates' bits are the
	// canonical names.
	for _, p := range ss.absUn {
		for w := 0; w < s.Stride(); w++ {
			val, half := absWords(s, p, w)
			h = (h^val)*0x100000001b3 + half
			h ^= h >> 29
		}
	}
	return h
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

// sameUniverse reports whether a and b have the same canonical individuals
// and nullary abstraction values: the partial join's condition.
func (ss *StructureSet) sameUniverse(a, b *tvl.Structure) bool {
	if a.Size() != b.Size() {
		return false
	}
	for _, p := range ss.absNull {
		if a.Nullary(p.Index) != b.Nullary(p.Index) {
			return false
		}
	}
	for _, p := range ss.absUn {
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

// Add joins a frozen, blurred structure into the set. It returns the slot
// the structure went to (a new one, or the stored structure it merged
// with or equals) and whether the set changed (a new structure, or a
// stored one grew).
func (ss *StructureSet) Add(s *tvl.Structure) (slot int, changed bool) {
	return ss.addKeyed(s, ss.key(s))
}

// addKeyed is Add with s's key computed already.
func (ss *StructureSet) addKeyed(s *tvl.Structure, k uint64) (slot int, changed bool) {
	for _, i := range ss.index[k] {
		old := ss.items[i]
		if ss.kind == JoinRelational {
			if tvl.Equal(old, s) {
				return i, false
			}
			continue
		}
		if ss.kind == JoinConcrete {
			if _, iso := tvl.Isomorphic(old, s); iso {
				return i, false
			}
			continue
		}
		var merged *tvl.Structure
		var grew bool
		if ss.kind == JoinIndependent {
			if !ss.sameNullary(old, s) {
				continue
			}
			merged, grew = ss.joinIndependent(old, s)
		} else {
			if !ss.sameUniverse(old, s) {
				continue
			}
			merged, grew = joinPointwise(old, s)
		}
		if !grew {
			return i, false
		}
		merged.Freeze()
		ss.items[i] = merged
		ss.pending = append(ss.pending, Pending{i, merged})
		return i, true
	}
	i := len(ss.items)
	ss.items = append(ss.items, s)
	ss.index[k] = append(ss.index[k], i)
	ss.pending = append(ss.pending, Pending{i, s})
	return i, true
}

// At returns the structure in a slot.
func (ss *StructureSet) At(slot int) *tvl.Structure { return ss.items[slot] }

// TakePending returns the versions awaiting processing, in order, and
// empties the queue.
func (ss *StructureSet) TakePending() []Pending {
	out := ss.pending
	ss.pending = nil
	return out
}

// HasPending reports whether some structure awaits processing.
func (ss *StructureSet) HasPending() bool { return len(ss.pending) > 0 }

// joinPointwise returns the pointwise join of two structures with the same
// universe, and whether it differs from a: where a value of a is definite
// and b's differs (a 1/2 of a stays, whatever b has).
func joinPointwise(a, b *tvl.Structure) (*tvl.Structure, bool) { return tvl.JoinPointwise(a, b) }

// sameNullary reports whether a and b agree on the nullary predicates
// the set keys on: the single-structure join's condition.
func (ss *StructureSet) sameNullary(a, b *tvl.Structure) bool {
	for _, p := range ss.absNull {
		if a.Nullary(p.Index) != b.Nullary(p.Index) {
			return false
		}
	}
	return true
}

// joinIndependent joins two blurred structures whose individuals are in
// increasing order of canonical name: individuals with the same name
// correspond, and the result has the union of the names, in order.
func (ss *StructureSet) joinIndependent(a, b *tvl.Structure) (*tvl.Structure, bool) {
	var fromA, fromB []int
	i, j := 0, 0
	for i < a.Size() || j < b.Size() {
		c := 0
		switch {
		case i == a.Size():
			c = 1
		case j == b.Size():
			c = -1
		default:
			c = bytes.Compare(CanonicalName(a, ss.absUn, i), CanonicalName(b, ss.absUn, j))
		}
		switch {
		case c < 0:
			fromA, fromB = append(fromA, i), append(fromB, -1)
			i++
		case c > 0:
			fromA, fromB = append(fromA, -1), append(fromB, j)
			j++
		default:
			fromA, fromB = append(fromA, i), append(fromB, j)
			i, j = i+1, j+1
		}
	}
	return tvl.JoinIndependent(a, b, fromA, fromB, ss.active)
}
