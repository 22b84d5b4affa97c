package engine

import "github.com/tvla-go/tvla/tvl"

// unpackedCache keeps the structures a run stored or joined into last
// unpacked, by their packing, so that joining into them and applying
// them (superseded versions included) does not unpack them again: a
// model of a few hundred structures (the collapsed ones) unpacks hardly
// any, and a run of millions keeps a bounded number. Equal structures
// at two locations share an entry (they are frozen). Only the engine's
// goroutine uses it; the workers read the structures it hands out. It
// changes no result.
type unpackedCache struct {
	m map[tvl.Packed]*tvl.Structure
	// ring holds the keys in the order they were kept; the oldest goes
	// when it is full.
	ring []tvl.Packed
	next int
}

// cacheSize is how many structures a run keeps unpacked: a few MB (tests
// change it).
var cacheSize = 4096

func newUnpackedCache(size int) *unpackedCache {
	return &unpackedCache{m: make(map[tvl.Packed]*tvl.Structure, size), ring: make([]tvl.Packed, size)}
}

// get returns the structure packed as p, or nil when it is not kept.
func (c *unpackedCache) get(p tvl.Packed) *tvl.Structure {
	if c == nil {
		return nil
	}
	return c.m[p]
}

// keep records s, packed as p, evicting the oldest entry when the cache
// is full.
func (c *unpackedCache) keep(p tvl.Packed, s *tvl.Structure) {
	if c == nil || len(c.ring) == 0 {
		return
	}
	if _, ok := c.m[p]; ok {
		return
	}
	if old := c.ring[c.next]; !old.IsZero() {
		delete(c.m, old)
	}
	c.ring[c.next] = p
	c.next = (c.next + 1) % len(c.ring)
	c.m[p] = s
}

// unpack returns the structure packed as p over voc: the one kept, or
// unpacked and kept.
func (c *unpackedCache) unpack(p tvl.Packed, voc *tvl.Vocabulary) *tvl.Structure {
	if s := c.get(p); s != nil {
		return s
	}
	s := p.Unpack(voc)
	c.keep(p, s)
	return s
}

// drop empties the cache, once the run is over.
func (c *unpackedCache) drop() {
	if c == nil {
		return
	}
	clear(c.m)
	clear(c.ring)
}
