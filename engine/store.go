package engine

import (
	"github.com/tvla-go/tvla/tvl"
)

// joiner is how a join mode merges the structures at a location.
type joiner interface {
	// key hashes what decides which stored structures s may merge with.
	key(s *tvl.Structure) uint64
	// join returns the structure a stored structure old (of s's key)
	// and s make together, and whether it differs from old (grew); ok
	// is false when s does not belong with old.
	join(old, s *tvl.Structure) (joined *tvl.Structure, grew, ok bool)
	// inPlace reports that the mode joins into the stored structure in
	// place: a version waiting to be processed is the structure as it is
	// now (TVLA's single-structure join).
	inPlace() bool
}

// StructureSet is the set of structures stored at one location, joined
// by its mode's joiner.
type StructureSet struct {
	joiner joiner
	items  []*tvl.Structure
	index  map[uint64][]int
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

func newStructureSet(j joiner) *StructureSet {
	return &StructureSet{joiner: j, index: map[uint64][]int{}}
}

// Len is the number of structures stored.
func (ss *StructureSet) Len() int { return len(ss.items) }

// Structures lists the stored structures in the order they were first
// stored.
func (ss *StructureSet) Structures() []*tvl.Structure { return ss.items }

// At returns the structure in a slot.
func (ss *StructureSet) At(slot int) *tvl.Structure { return ss.items[slot] }

// key hashes what decides which stored structure s may merge with.
func (ss *StructureSet) key(s *tvl.Structure) uint64 { return ss.joiner.key(s) }

// Add joins a frozen structure (blurred, unless the run is concrete) into
// the set. It returns the slot the structure went to (a new one, or the
// stored structure it merged with or equals) and whether the set changed
// (a new structure, or a stored one grew).
func (ss *StructureSet) Add(s *tvl.Structure) (slot int, changed bool) {
	return ss.addKeyed(s, ss.key(s))
}

// addKeyed is Add with s's key computed already.
func (ss *StructureSet) addKeyed(s *tvl.Structure, k uint64) (slot int, changed bool) {
	for _, i := range ss.index[k] {
		joined, grew, ok := ss.joiner.join(ss.items[i], s)
		if !ok {
			continue
		}
		if !grew {
			return i, false
		}
		joined.Freeze()
		ss.items[i] = joined
		ss.pending = append(ss.pending, Pending{i, joined})
		return i, true
	}
	i := len(ss.items)
	ss.items = append(ss.items, s)
	ss.index[k] = append(ss.index[k], i)
	ss.pending = append(ss.pending, Pending{i, s})
	return i, true
}

// TakePending returns the versions awaiting processing, in order, and
// empties the queue. Under a join in place, each is the stored structure
// as it is now.
func (ss *StructureSet) TakePending() []Pending {
	out := ss.pending
	ss.pending = nil
	if ss.joiner.inPlace() {
		for i, pd := range out {
			out[i].Structure = ss.items[pd.Slot]
		}
	}
	return out
}

// HasPending reports whether some structure awaits processing.
func (ss *StructureSet) HasPending() bool { return len(ss.pending) > 0 }
