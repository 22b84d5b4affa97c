package engine

import "github.com/tvla-go/tvla/tvl"

// unpackedCache keeps the stored structures a run touched last unpacked,
// so that joining into them and applying them does not unpack them
// again: a model of a few hundred structures (the collapsed ones) never
// unpacks after the first time, and a run of millions keeps a bounded
// number. Only the engine's goroutine uses it (the structures it hands
// out are frozen, and read by the workers). It changes no result.
type unpackedCache struct {
	// ring holds the entries in the order they were kept; the oldest
	// goes when it is full.
	ring []cacheRef
	next int
}

// cacheRef is an entry of the ring: a slot of a set.
type cacheRef struct {
	set  *StructureSet
	slot int
}

// unpackedEntry is a slot's structure unpacked, with the version it is.
type unpackedEntry struct {
	packed tvl.Packed
	s      *tvl.Structure
}

// cacheSize is how many structures a run keeps unpacked: a few MB (tests
// change it).
var cacheSize = 4096

func newUnpackedCache(size int) *unpackedCache {
	return &unpackedCache{ring: make([]cacheRef, size)}
}

// keep records s, the structure of slot in set packed as p, evicting the
// oldest entry when the cache is full.
func (c *unpackedCache) keep(set *StructureSet, slot int, p tvl.Packed, s *tvl.Structure) {
	if c == nil || len(c.ring) == 0 {
		return
	}
	if set.unpacked == nil {
		set.unpacked = map[int]unpackedEntry{}
	}
	if _, ok := set.unpacked[slot]; !ok {
		old := c.ring[c.next]
		if old.set != nil {
			delete(old.set.unpacked, old.slot)
		}
		c.ring[c.next] = cacheRef{set, slot}
		c.next = (c.next + 1) % len(c.ring)
	}
	set.unpacked[slot] = unpackedEntry{p, s}
}

// drop empties the cache, once the run is over.
func (c *unpackedCache) drop() {
	if c == nil {
		return
	}
	for i, r := range c.ring {
		if r.set != nil {
			r.set.unpacked = nil
		}
		c.ring[i] = cacheRef{}
	}
}
