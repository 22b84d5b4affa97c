package engine

import "github.com/tvla-go/tvla/tvl"

// unpackedCache keeps structures unpacked within a budget of bytes: the
// current version of the slots a run stored or joined into last, and
// the versions queued for processing while they wait. That is what the
// engine held when it stored structures unpacked, so a model whose
// structures fit in the budget (the collapsed ones: a few hundred) runs
// as it did, unpacking each structure once, with the same live heap;
// a run of millions keeps a bounded number. Only the engine's goroutine
// uses it; the workers read the structures it hands out (frozen). It
// changes no result.
type unpackedCache struct {
	// used counts the bytes kept, held those of queued versions: at most
	// half the budget, so that a long queue leaves the joins room.
	budget, used, held int
	// m holds the slots kept, by set and slot (slotKey): one map for
	// the run, as maps never shrink.
	m map[uint64]unpackedEntry
	// fifo lists the slots kept, oldest first; an entry whose slot has
	// been replaced or dropped since (another gen) is skipped.
	fifo []cacheRef
	gen  uint64
}

// cacheRef is an entry of the FIFO: a slot, as kept at gen.
type cacheRef struct {
	key, gen uint64
}

// slotKey is a slot's key in the cache: its set's id and the slot.
func slotKey(set *StructureSet, slot int) uint64 { return uint64(set.id)<<32 | uint64(uint32(slot)) }

// unpackedEntry is a slot's current version unpacked, its bytes and
// when it was kept.
type unpackedEntry struct {
	p     tvl.Packed
	s     *tvl.Structure
	bytes int
	gen   uint64
}

// cacheBytes is the budget of a run's unpacked structures (tests change
// it): 32 MiB, ten thousand structures of the uncollapsed Michael–Scott
// queue.
var cacheBytes = 32 << 20

func newUnpackedCache(budget int) *unpackedCache {
	return &unpackedCache{budget: budget, m: map[uint64]unpackedEntry{}}
}

// get returns slot's structure in set if it is kept at version p.
func (c *unpackedCache) get(set *StructureSet, slot int, p tvl.Packed) *tvl.Structure {
	if c == nil {
		return nil
	}
	if e, ok := c.m[slotKey(set, slot)]; ok && e.p == p {
		return e.s
	}
	return nil
}

// current returns slot's structure in set if the cache has it: always
// its current version, as every change of a slot's packing keeps the
// new version or forgets the old.
func (c *unpackedCache) current(set *StructureSet, slot int) *tvl.Structure {
	if c == nil {
		return nil
	}
	return c.m[slotKey(set, slot)].s
}

// keep records s, slot's version p, in place of the version kept
// before, making room by dropping the oldest slots.
func (c *unpackedCache) keep(set *StructureSet, slot int, p tvl.Packed, s *tvl.Structure) {
	if c == nil {
		return
	}
	n := s.Footprint()
	k := slotKey(set, slot)
	if old, ok := c.m[k]; ok {
		c.forget(k, old)
	}
	if !c.makeRoom(n) {
		return
	}
	c.gen++
	c.m[k] = unpackedEntry{p, s, n, c.gen}
	c.used += n
	if len(c.fifo) > 2*len(c.m)+1024 {
		c.compact()
	}
	c.fifo = append(c.fifo, cacheRef{k, c.gen})
}

// forget drops a slot's entry.
func (c *unpackedCache) forget(k uint64, e unpackedEntry) {
	c.used -= e.bytes
	delete(c.m, k)
}

// compact removes the FIFO's entries of slots replaced or dropped, so
// that it stays within twice the entries kept.
func (c *unpackedCache) compact() {
	kept := c.fifo[:0]
	for _, r := range c.fifo {
		if e, ok := c.m[r.key]; ok && e.gen == r.gen {
			kept = append(kept, r)
		}
	}
	clear(c.fifo[len(kept):])
	c.fifo = kept
}

// makeRoom drops the oldest slots until n more bytes fit in the budget,
// and reports whether they do.
func (c *unpackedCache) makeRoom(n int) bool {
	for c.used+n > c.budget && len(c.fifo) > 0 {
		r := c.fifo[0]
		c.fifo[0] = cacheRef{}
		c.fifo = c.fifo[1:]
		if e, ok := c.m[r.key]; ok && e.gen == r.gen {
			c.forget(r.key, e)
		}
	}
	return c.used+n <= c.budget
}

// hold reports whether a queued version of n bytes may stay unpacked
// while it waits, and counts it.
func (c *unpackedCache) hold(n int) bool {
	if c == nil || c.held+n > c.budget/2 || !c.makeRoom(n) {
		return false
	}
	c.used += n
	c.held += n
	return true
}

// release counts a held version taken from the queue.
func (c *unpackedCache) release(n int) {
	c.used -= n
	c.held -= n
}

// drop empties the cache, once the run is over.
func (c *unpackedCache) drop() {
	if c == nil {
		return
	}
	c.m, c.fifo, c.used, c.held = map[uint64]unpackedEntry{}, nil, 0, 0
}
