package tvl

import (
	"sync"
	"sync/atomic"
)

// Copy-on-write: a structure writes a table in place only when its token
// owns it; clones share tables until one side writes, and a frozen
// structure owns nothing.

// owner marks which structure may write a table in place: a number, not a
// pointer, so that the collector has fewer pointers to follow in the
// hundreds of thousands of tables a large run keeps. 0 is no one's (a
// frozen structure's token).
type owner uint64

// owners hands out tokens; 1 is sharedZeros', 2 sharedTables'.
var owners atomic.Uint64

func init() { owners.Store(2) }

// newOwner returns a token no structure has had.
func newOwner() owner { return owner(owners.Add(1)) }

// Frozen reports whether the structure is read-only.
func (s *Structure) Frozen() bool { return s.tok == 0 }

// Freeze makes the structure read-only, so that it can be stored and shared.
// Freezing a frozen structure writes nothing: workers freeze the stored
// structures they are handed while others read them.
func (s *Structure) Freeze() {
	if s.tok != 0 {
		s.tok = 0
	}
}

// Clone returns a writable copy. It costs a few slice headers: tables are
// copied only when one side first writes them.
func (s *Structure) Clone() *Structure {
	c := &Structure{voc: s.voc, n: s.n, stride: s.stride, tok: newOwner()}
	c.nullary = append([]Kleene(nil), s.nullary...)
	if len(s.unary) == 1 {
		c.unaryInline = s.unaryInline
		c.unary = c.unaryInline[:]
	} else {
		c.unary, c.sharedU = s.unary, true
	}
	c.binary, c.sharedB = s.binary, true
	if s.kary != nil {
		c.kary = make([][]*karyTable, len(s.kary))
		for k := range s.kary {
			c.kary[k] = append([]*karyTable(nil), s.kary[k]...)
		}
	}
	if s.tok != 0 {
		// The original's tables, and its arrays of them, are now shared
		// too.
		s.tok = newOwner()
		s.sharedB, s.sharedU = true, len(s.unary) != 1
	}
	return c
}

func (s *Structure) mustWrite() {
	if s.tok == 0 {
		panic("tvl: write to a frozen structure")
	}
}

// own returns t, copied first unless this structure already owns it.
func (s *Structure) own(t *table) *table {
	if t.owner == s.tok {
		return t
	}
	return &table{
		val:   append([]uint64(nil), t.val...),
		half:  append([]uint64(nil), t.half...),
		owner: s.tok,
	}
}

func (s *Structure) ownKary(t *karyTable) *karyTable {
	if t.owner == s.tok {
		return t
	}
	c := &karyTable{vals: make(map[TupleKey]Kleene, len(t.vals)), owner: s.tok}
	for k, v := range t.vals {
		c.vals[k] = v
	}
	return c
}

// writableUnary makes the block of s's unary words that holds predicate
// i its own, copying it (and first the array of blocks, if shared) unless
// s owns it already.
func (s *Structure) writableUnary(i int) {
	b := i >> unaryBlockShift
	if s.unary[b].owner == s.tok {
		return
	}
	if s.sharedU {
		s.unary = append([]unaryBlock(nil), s.unary...)
		s.sharedU = false
	}
	w := s.unary[b].words
	s.unary[b] = unaryBlock{words: append(make([]uint64, 0, len(w)), w...), owner: s.tok}
}

// binaryTables returns s's binary tables for writing, its own copy.
func (s *Structure) binaryTables() []*table {
	if s.sharedB {
		s.binary = append([]*table(nil), s.binary...)
		s.sharedB = false
	}
	return s.binary
}

// sharedZeros owns the tables of zeros; no structure's token equals it,
// so every structure copies one before writing it.
const sharedZeros owner = 1

// zeroBySize maps a size in words to its shared table of zeros.
var zeroBySize sync.Map

// zeroTable returns the shared table of zeros of m words per plane.
func zeroTable(m int) *table {
	if t, ok := zeroBySize.Load(m); ok {
		return t.(*table)
	}
	t, _ := zeroBySize.LoadOrStore(m, &table{val: make([]uint64, m), half: make([]uint64, m), owner: sharedZeros})
	return t.(*table)
}

// CopyPred gives s the interpretation of p that from has. Both must have
// the same number of individuals. A frozen from shares a binary table
// (copied on s's first write), so this costs a pointer; a unary one is a
// word or two, copied.
func (s *Structure) CopyPred(p *Pred, from *Structure) {
	s.copyPredAs(p, p, from)
}

// Renamed returns a copy of s in which each predicate q that is a value
// of m holds what s holds for its key p (m maps p to q): a renaming of
// the predicates, such as a permutation of thread names. Keys and values
// must be the same set of predicates, each value of its key's arity.
func (s *Structure) Renamed(m map[*Pred]*Pred) *Structure {
	r := s.Clone()
	for p, q := range m {
		if p.Arity != q.Arity {
			panic("tvl: Renamed maps " + p.Name + " to " + q.Name + " of another arity")
		}
		r.copyPredAs(q, p, s)
	}
	return r
}

// copyPredAs gives s's predicate p the interpretation from has for src
// (of p's arity).
func (s *Structure) copyPredAs(p, src *Pred, from *Structure) {
	s.mustWrite()
	if s.voc != from.voc || s.n != from.n {
		panic("tvl: CopyPred between structures of different universes")
	}
	share := func(t *table) *table {
		if from.tok == 0 {
			return t
		}
		return &table{val: append([]uint64(nil), t.val...), half: append([]uint64(nil), t.half...), owner: s.tok}
	}
	switch p.Arity {
	case 0:
		s.nullary[p.Index] = from.nullary[src.Index]
	case 1:
		s.writableUnary(p.Index)
		copy(s.unaryVal(p.Index), from.unaryVal(src.Index))
		copy(s.unaryHalf(p.Index), from.unaryHalf(src.Index))
	case 2:
		s.binaryTables()[p.Index] = share(from.binary[src.Index])
	default:
		t := from.kary[src.Arity][src.Index]
		if from.tok != 0 {
			c := &karyTable{vals: make(map[TupleKey]Kleene, len(t.vals)), owner: s.tok}
			for k, v := range t.vals {
				c.vals[k] = v
			}
			t = c
		}
		s.kary[p.Arity][p.Index] = t
	}
}

// Footprint estimates the bytes s's tables take in memory, counting the
// tables it shares with its clones as its own, but not the tables of
// zeros nor those Unpack shares (intern.go bounds them): what keeping it
// costs at most.
func (s *Structure) Footprint() int {
	n := 200 + len(s.nullary) + 8*len(s.binary)
	for _, blk := range s.unary {
		n += 32 + 8*len(blk.words)
	}
	for _, t := range s.binary {
		if t.owner != sharedZeros && t.owner != sharedTables {
			n += 64 + 16*len(t.val)
		}
	}
	for k := 3; k < len(s.kary); k++ {
		for _, t := range s.kary[k] {
			n += 64 + 48*len(t.vals)
		}
	}
	return n
}
