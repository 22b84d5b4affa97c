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
// by its mode's joiner. It keeps them packed (tvl.Packed): a run stores
// millions of structures, most of whose tables are 0, and applies each
// only a few times; a structure is unpacked when it is applied or joined
// with.
type StructureSet struct {
	joiner joiner
	voc    *tvl.Vocabulary
	items  packedSlots
	// index maps a join key to the first and last slots with it; next
	// chains each slot to the next with its key (-1: none). A map entry
	// per key and four bytes a slot, where a slice per key cost a
	// structure 70 bytes on the uncollapsed queue.
	index map[uint64]keySlots
	next  []int32
	// pending holds, in the order they arrived, the versions of
	// structures not processed yet: a structure that grows by a join is
	// queued again as it now is, and the older version stays queued too.
	// Processing superseded versions is what TVLA does; it matters for
	// the partial join, whose result depends on what was propagated
	// before a merge.
	pending []Pending
	// skipSuperseded: TakePending returns only the latest version of
	// each slot (Options.SkipSuperseded).
	skipSuperseded bool
	// cache keeps recently used structures unpacked (nil: none); id
	// tells this set's slots there.
	cache *unpackedCache
	id    int32
	// touched is, per block of slots, the run's clock when one was last
	// joined into or matched: what spilling goes by (spill.go). clock
	// is nil unless the run may spill.
	touched []uint32
	clock   *uint32
}

// Pending is a version of a stored structure awaiting processing.
type Pending struct {
	Slot   int
	packed tvl.Packed
	// Structure is the version unpacked: kept while it waits, if the
	// cache allows (held bytes), or set by the task that applies it
	// (applyTask).
	Structure *tvl.Structure
	held      int
}

// keySlots are the first and last slots with a key.
type keySlots struct{ first, last int32 }

func newStructureSet(j joiner, voc *tvl.Vocabulary) *StructureSet {
	return &StructureSet{joiner: j, voc: voc, index: map[uint64]keySlots{}}
}

// Len is the number of structures stored.
func (ss *StructureSet) Len() int { return ss.items.len() }

// Structures lists the stored structures in the order they were first
// stored.
func (ss *StructureSet) Structures() Structures { return Structures{voc: ss.voc, items: ss.items} }

// At returns the structure in a slot, unpacked.
func (ss *StructureSet) At(slot int) *tvl.Structure { return ss.items.get(slot).Unpack(ss.voc) }

// current returns the structure in a slot unpacked, from the cache or
// unpacked and kept there.
func (ss *StructureSet) current(slot int) *tvl.Structure {
	if ss.items.spilled(slot) {
		// The cache's version of a slot is its current one: the file
		// is read only when the cache has none.
		if s := ss.cache.current(ss, slot); s != nil {
			return s
		}
	}
	p := ss.items.get(slot)
	if s := ss.cache.get(ss, slot, p); s != nil {
		return s
	}
	s := p.Unpack(ss.voc)
	ss.cache.keep(ss, slot, p, s)
	return s
}

// key hashes what decides which stored structure s may merge with.
func (ss *StructureSet) key(s *tvl.Structure) uint64 { return ss.joiner.key(s) }

// Add joins a frozen structure (blurred, unless the run is concrete) into
// the set. It returns the slot the structure went to (a new one, or the
// stored structure it merged with or equals) and whether the set changed
// (a new structure, or a stored one grew).
func (ss *StructureSet) Add(s *tvl.Structure) (slot int, changed bool) {
	return ss.addKeyed(s, s.Pack(), ss.key(s))
}

// addKeyed is Add with s's packing and key computed already. A stored
// structure packed to the same bytes is equal to s, and every join of
// equal structures leaves the stored one as it is: it is unpacked only
// when it differs.
func (ss *StructureSet) addKeyed(s *tvl.Structure, p tvl.Packed, k uint64) (slot int, changed bool) {
	checkPacked(s, p)
	ks, known := ss.index[k]
	var h uint64 // p's hash, once a spilled slot asks for it
	for j := ks.first; known && j >= 0; j = ss.next[j] {
		i := int(j)
		ss.touch(i)
		if ss.items.holds(i, p, &h) {
			return i, false
		}
		joined, grew, ok := ss.joiner.join(ss.current(i), s)
		if !ok {
			continue
		}
		if !grew {
			return i, false
		}
		joined.Freeze()
		jp := joined.Pack()
		checkPacked(joined, jp)
		ss.items.set(i, jp)
		ss.cache.keep(ss, i, jp, joined)
		ss.queue(i, jp, joined)
		return i, true
	}
	i := ss.appendSlot(p, k)
	ss.cache.keep(ss, i, p, s)
	ss.queue(i, p, s)
	return i, true
}

// appendSlot stores p in a new slot, chained last among those of key k,
// and returns the slot.
func (ss *StructureSet) appendSlot(p tvl.Packed, k uint64) int {
	i := ss.items.len()
	ss.items.add(p)
	ss.touch(i)
	ss.next = append(ss.next, -1)
	if ks, known := ss.index[k]; known {
		ss.next[ks.last] = int32(i)
		ss.index[k] = keySlots{ks.first, int32(i)}
	} else {
		ss.index[k] = keySlots{int32(i), int32(i)}
	}
	return i
}

// queue queues the version p of slot i, unpacked as s, which it keeps
// while the cache allows.
func (ss *StructureSet) queue(i int, p tvl.Packed, s *tvl.Structure) {
	pd := Pending{Slot: i, packed: p}
	if n := s.Footprint(); ss.cache.hold(n) {
		pd.Structure, pd.held = s, n
	}
	ss.pending = append(ss.pending, pd)
}

// TakePending returns the versions awaiting processing, in order, and
// empties the queue. Under a join in place, each is the stored structure
// as it is now. A version kept unpacked comes unpacked; the others are
// unpacked by the task that applies them.
func (ss *StructureSet) TakePending() []Pending {
	out := ss.pending
	ss.pending = nil
	if ss.skipSuperseded {
		out = ss.latestVersions(out)
	}
	for i, pd := range out {
		if pd.held > 0 {
			ss.cache.release(pd.held)
			out[i].held = 0
		}
		var h uint64
		if ss.joiner.inPlace() && !ss.items.holds(pd.Slot, pd.packed, &h) {
			out[i].packed, out[i].Structure = ss.items.get(pd.Slot), nil
		}
		if out[i].Structure == nil {
			out[i].Structure = ss.cache.get(ss, pd.Slot, out[i].packed)
		}
	}
	return out
}

// latestVersions keeps, in order, the last version of each slot in
// pending, releasing what the others held in the cache.
func (ss *StructureSet) latestVersions(pending []Pending) []Pending {
	last := make(map[int]int, len(pending))
	for i, pd := range pending {
		last[pd.Slot] = i
	}
	if len(last) == len(pending) {
		return pending
	}
	out := pending[:0]
	for i, pd := range pending {
		if last[pd.Slot] != i {
			if pd.held > 0 {
				ss.cache.release(pd.held)
			}
			continue
		}
		out = append(out, pd)
	}
	return out
}

// dropUnpacked lets the versions still queued go unpacked, once the run
// is over: only the packed ones stay with the result.
func (ss *StructureSet) dropUnpacked() {
	for i := range ss.pending {
		ss.pending[i].Structure, ss.pending[i].held = nil, 0
	}
}

// HasPending reports whether some structure awaits processing.
func (ss *StructureSet) HasPending() bool { return len(ss.pending) > 0 }

// unpack unpacks the pending version, unless it is already.
func (pd *Pending) unpack(voc *tvl.Vocabulary) {
	if pd.Structure == nil {
		pd.Structure = pd.packed.Unpack(voc)
	}
}

// checkPacking makes every packing of a structure the engine stores be
// unpacked again and compared with the structure (tests set it).
var checkPacking = false

// checkPacked panics when p does not unpack to s, under checkPacking.
func checkPacked(s *tvl.Structure, p tvl.Packed) {
	if !checkPacking {
		return
	}
	if u := p.Unpack(s.Vocabulary()); !tvl.Equal(s, u) {
		panic("engine: a packed structure unpacks to another:\n" + s.String() + "\nunpacked:\n" + u.String())
	}
}
