package tvl

import "slices"

// ClosureCache keeps the transitive closures of the last binary tables
// it was asked about, by their contents, so that evaluations bound in
// turn to one structure (a Coercer's constraints, each with its own
// Bound) or to structures that share a relation (the structures a Focus
// splits from one stored structure, which differ in a tuple of another
// predicate) compute each closure once. A table is looked up by its
// contents, compared word by word (a table is n rows of a word or two;
// its closure costs n times that), so a table a structure writes in
// place is found only while it has the contents the closure was
// computed from; a Bound that took a closure forgets it on Reset, after
// its structure changed, as it forgets those it computes itself.
//
// A closure once handed out is never overwritten: a new entry gets new
// matrices. Use from one goroutine at a time.
type ClosureCache struct {
	entries [closureCacheSize]closureEntry
	next    int
}

// closureCacheSize covers the binary predicates of the largest bundled
// models (nine on the Michael–Scott queue) with room for a few versions.
const closureCacheSize = 16

type closureEntry struct {
	n, stride int
	val, half []uint64 // the table's contents the closure was computed from
	m         *closure
}

// lookup returns the closure of s's binary predicate idx, from the cache
// or computed into it; nil when cc is nil.
func (cc *ClosureCache) lookup(s *Structure, idx int) *closure {
	if cc == nil {
		return nil
	}
	t := s.binary[idx]
	for i := range cc.entries {
		e := &cc.entries[i]
		if e.m != nil && e.n == s.n && e.stride == s.stride && slices.Equal(e.val, t.val) && slices.Equal(e.half, t.half) {
			return e.m
		}
	}
	size := s.n * s.stride
	m := &closure{stride: s.stride, def: make([]uint64, size), pos: make([]uint64, size)}
	closeTable(m, t, s.n, s.stride)
	e := &cc.entries[cc.next]
	cc.next = (cc.next + 1) % closureCacheSize
	e.n, e.stride, e.m = s.n, s.stride, m
	e.val = append(e.val[:0], t.val...)
	e.half = append(e.half[:0], t.half...)
	return m
}
