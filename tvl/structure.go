package tvl

import (
	"fmt"
	"math/bits"
	"sync"
	"sync/atomic"

	"github.com/tvla-go/tvla/logic"
)

// Kleene is logic.Kleene, repeated here because every signature uses it.
type Kleene = logic.Kleene

// owner marks which structure may write a table in place: a number, not a
// pointer, so that the collector has fewer pointers to follow in the
// hundreds of thousands of tables a large run keeps. 0 is no one's (a
// frozen structure's token).
type owner uint64

// owners hands out tokens; 1 is sharedZeros'.
var owners atomic.Uint64

func init() { owners.Store(1) }

// newOwner returns a token no structure has had.
func newOwner() owner { return owner(owners.Add(1)) }

// table holds a unary or binary interpretation as two bit planes: half
// marks tuples at 1/2, val marks tuples at 1. A tuple never has both bits.
// A binary table stores row u (the tuples (u, w)) in words
// [u*stride, (u+1)*stride).
type table struct {
	val, half []uint64
	owner     owner
}

// karyTable holds an interpretation of arity three or more sparsely:
// tuples missing from the map are 0.
type karyTable struct {
	vals  map[TupleKey]Kleene
	owner owner
}

// Structure is a three-valued logical structure over a vocabulary.
//
// A structure is mutable until Freeze; a frozen structure may be read from
// many goroutines and copied with Clone, and any write to it panics.
// Clones share tables with their original until one side writes.
type Structure struct {
	voc     *Vocabulary
	n       int
	stride  int // words per unary table and per binary row
	nullary []Kleene
	// unary holds every unary table in one slice of words, copied as a
	// whole on the first write after a clone: predicate i's val words are
	// [2i*stride, (2i+1)*stride) and its half words the next stride.
	// A thread model has dozens of unary predicates, each a word or two:
	// one slice of them, without a header and pointers per table, is a
	// fraction of the memory and of the collector's work.
	unary []uint64
	// unaryOwner is the token of the structure that may write unary in
	// place.
	unaryOwner owner
	binary     []*table
	kary       [][]*karyTable // by arity, for arities of three and more
	tok        owner          // 0 once frozen
	// sharedB marks the array of binary table pointers as shared with a
	// clone: the first write of a table copies the array too.
	sharedB bool
}

// unaryVal and unaryHalf are unary predicate i's bit planes.
func (s *Structure) unaryVal(i int) []uint64 {
	o := 2 * i * s.stride
	return s.unary[o : o+s.stride : o+s.stride]
}

func (s *Structure) unaryHalf(i int) []uint64 {
	o := (2*i + 1) * s.stride
	return s.unary[o : o+s.stride : o+s.stride]
}

// unaryTable is a view of unary predicate i as a table (for reading, or
// for writing after writableUnary).
func (s *Structure) unaryTable(i int) table {
	return table{val: s.unaryVal(i), half: s.unaryHalf(i)}
}

// writableUnary makes s's unary words its own, copying them if shared.
func (s *Structure) writableUnary() {
	if s.unaryOwner != s.tok {
		s.unary = append([]uint64(nil), s.unary...)
		s.unaryOwner = s.tok
	}
}

// unaryCount is the number of unary predicates.
func (s *Structure) unaryCount() int { return len(s.voc.OfArity(1)) }

// binaryTables returns s's binary tables for writing, its own copy.
func (s *Structure) binaryTables() []*table {
	if s.sharedB {
		s.binary = append([]*table(nil), s.binary...)
		s.sharedB = false
	}
	return s.binary
}

func wordsFor(n int) int { return (n + 63) >> 6 }

// New returns the structure with an empty universe over voc.
func New(voc *Vocabulary) *Structure { return newSized(voc, 0) }

// newSized returns a structure of n individuals with every value 0, its
// bit tables cut from one allocation (Blur makes one per structure an
// action produces). Each table's capacity ends where it does, so that
// growing one reallocates it instead of running into its neighbour.
func newSized(voc *Vocabulary, n int) *Structure { return newSparse(voc, n, nil) }

// newSparse is newSized where only the binary tables marked in needB (all,
// when nil) get memory of their own; the others share a table of zeros,
// which a write copies first like any shared table.
func newSparse(voc *Vocabulary, n int, needB []bool) *Structure {
	s := &Structure{voc: voc, tok: newOwner(), n: n, stride: wordsFor(n)}
	s.nullary = make([]Kleene, len(voc.OfArity(0)))
	nu, nb := len(voc.OfArity(1)), len(voc.OfArity(2))
	s.binary = make([]*table, nb)
	count := func(need []bool, total int) int {
		if need == nil {
			return total
		}
		c := 0
		for _, x := range need {
			if x {
				c++
			}
		}
		return c
	}
	cb := count(needB, nb)
	s.unary, s.unaryOwner = make([]uint64, 2*s.stride*nu), s.tok
	words := make([]uint64, 2*s.stride*cb*n)
	tables := make([]table, cb)
	take := func(m int) []uint64 {
		w := words[:m:m]
		words = words[m:]
		return w
	}
	next := 0
	fresh := func(m int) *table {
		t := &tables[next]
		next++
		t.val, t.half, t.owner = take(m), take(m), s.tok
		return t
	}
	for i := range s.binary {
		if needB == nil || needB[i] {
			s.binary[i] = fresh(n * s.stride)
		} else {
			s.binary[i] = zeroTable(n * s.stride)
		}
	}
	if m := voc.MaxArity(); m >= 3 {
		s.kary = make([][]*karyTable, m+1)
		for k := 3; k <= m; k++ {
			s.kary[k] = make([]*karyTable, len(voc.OfArity(k)))
			for i := range s.kary[k] {
				s.kary[k][i] = &karyTable{vals: map[TupleKey]Kleene{}, owner: s.tok}
			}
		}
	}
	return s
}

// Vocabulary returns the vocabulary the structure interprets.
func (s *Structure) Vocabulary() *Vocabulary { return s.voc }

// Size is the number of individuals.
func (s *Structure) Size() int { return s.n }

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
	c.unary, c.unaryOwner = s.unary, s.unaryOwner
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
		s.sharedB = true
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

func getBit(ws []uint64, i int) bool { return ws[i>>6]>>(uint(i)&63)&1 != 0 }

func putBit(ws []uint64, i int, b bool) {
	if b {
		ws[i>>6] |= 1 << (uint(i) & 63)
	} else {
		ws[i>>6] &^= 1 << (uint(i) & 63)
	}
}

func kleeneAt(t *table, i int) Kleene {
	w, b := i>>6, uint(i)&63
	if t.half[w]>>b&1 != 0 {
		return logic.Unknown
	}
	if t.val[w]>>b&1 != 0 {
		return logic.True
	}
	return logic.False
}

func putKleene(t *table, i int, v Kleene) {
	putBit(t.val, i, v == logic.True)
	putBit(t.half, i, v == logic.Unknown)
}

// Nullary returns the value of the nullary predicate with table index i.
func (s *Structure) Nullary(i int) Kleene { return s.nullary[i] }

// Stride is the number of 64-bit words a unary table takes.
func (s *Structure) Stride() int { return s.stride }

// UnaryWords returns word w of the unary predicate with table index i:
// bit b is individual 64w+b, set in val where it is 1 and in half where
// it is 1/2 (bits past the universe mean nothing). For word-parallel
// evaluation.
func (s *Structure) UnaryWords(i, w int) (val, half uint64) {
	return s.unary[2*i*s.stride+w], s.unary[(2*i+1)*s.stride+w]
}

// Unary returns p(u) for the unary predicate with table index i.
func (s *Structure) Unary(i, u int) Kleene {
	w, b := 2*i*s.stride+u>>6, uint(u)&63
	if s.unary[w+s.stride]>>b&1 != 0 {
		return logic.Unknown
	}
	if s.unary[w]>>b&1 != 0 {
		return logic.True
	}
	return logic.False
}

// Binary returns p(u, w) for the binary predicate with table index i.
func (s *Structure) Binary(i, u, w int) Kleene { return kleeneAt(s.binary[i], u*s.stride*64+w) }

// IsSummary reports whether sm(u) is 1/2.
func (s *Structure) IsSummary(u int) bool { return getBit(s.unaryHalf(s.voc.sm.Index), u) }

// Get returns p(args...). The number of arguments must be p's arity and
// each argument an individual of the structure.
func (s *Structure) Get(p *Pred, args ...int) Kleene {
	s.checkTuple(p, args)
	switch p.Arity {
	case 0:
		return s.nullary[p.Index]
	case 1:
		return s.Unary(p.Index, args[0])
	case 2:
		return s.Binary(p.Index, args[0], args[1])
	}
	return s.kary[p.Arity][p.Index].vals[KeyOf(args)]
}

func (s *Structure) checkTuple(p *Pred, args []int) {
	if len(args) != p.Arity {
		panic(fmt.Sprintf("tvl: %s has arity %d, got %d arguments", p.Name, p.Arity, len(args)))
	}
	for _, a := range args {
		if a < 0 || a >= s.n {
			panic(fmt.Sprintf("tvl: individual %d out of range (universe of %d)", a, s.n))
		}
	}
}

// Set writes p(args...) = v.
func (s *Structure) Set(p *Pred, v Kleene, args ...int) {
	s.mustWrite()
	s.checkTuple(p, args)
	switch p.Arity {
	case 0:
		s.nullary[p.Index] = v
	case 1:
		s.SetUnary(p.Index, args[0], v)
	case 2:
		s.SetBinary(p.Index, args[0], args[1], v)
	default:
		t := s.ownKary(s.kary[p.Arity][p.Index])
		s.kary[p.Arity][p.Index] = t
		if v == logic.False {
			delete(t.vals, KeyOf(args))
		} else {
			t.vals[KeyOf(args)] = v
		}
	}
}

// SetNullary writes the nullary predicate with table index i.
func (s *Structure) SetNullary(i int, v Kleene) {
	s.mustWrite()
	s.nullary[i] = v
}

// SetUnary writes p(u) for the unary predicate with table index i.
func (s *Structure) SetUnary(i, u int, v Kleene) {
	s.mustWrite()
	if s.Unary(i, u) == v {
		return
	}
	s.writableUnary()
	putBit(s.unaryVal(i), u, v == logic.True)
	putBit(s.unaryHalf(i), u, v == logic.Unknown)
}

// SetBinary writes p(u, w) for the binary predicate with table index i.
func (s *Structure) SetBinary(i, u, w int, v Kleene) {
	s.mustWrite()
	t := s.binary[i]
	pos := u*s.stride*64 + w
	if kleeneAt(t, pos) == v {
		return
	}
	t = s.own(t)
	s.binaryTables()[i] = t
	putKleene(t, pos, v)
}

// SetSummary marks u as a summary individual (sm = 1/2) or not (sm = 0).
func (s *Structure) SetSummary(u int, summary bool) {
	v := logic.False
	if summary {
		v = logic.Unknown
	}
	s.SetUnary(s.voc.sm.Index, u, v)
}

// AddIndividual adds an individual on which every predicate is 0 and
// returns it.
func (s *Structure) AddIndividual() int {
	s.mustWrite()
	u := s.n
	s.resize(s.n + 1)
	return u
}

// resize changes the universe to n individuals, keeping the values of the
// first min(n, old) and setting new tuples to 0.
func (s *Structure) resize(n int) {
	stride := wordsFor(n)
	s.binaryTables()
	if stride != s.stride {
		// Each predicate's two planes are rows of the unary words.
		s.unary = regrow(s.unary, 2*s.unaryCount(), s.stride, stride)
		s.unaryOwner = s.tok
		for i, t := range s.binary {
			rows := min(n, s.n)
			nt := &table{val: make([]uint64, n*stride), half: make([]uint64, n*stride), owner: s.tok}
			for r := 0; r < rows; r++ {
				copy(nt.val[r*stride:(r+1)*stride], t.val[r*s.stride:(r+1)*s.stride])
				copy(nt.half[r*stride:(r+1)*stride], t.half[r*s.stride:(r+1)*s.stride])
			}
			s.binary[i] = nt
		}
	} else {
		if n > s.n {
			// New rows of 0s: one copy into tables of the final size (an
			// own-then-append would copy twice). The tables of a
			// structure come from one slab, as in newSparse.
			// Shared tables of zeros stay shared, at the new size.
			copied := 0
			for _, t := range s.binary {
				if t.owner != sharedZeros {
					copied++
				}
			}
			words := make([]uint64, 2*n*stride*copied)
			tables := make([]table, copied)
			old := s.n * stride
			for i, t := range s.binary {
				if t.owner == sharedZeros {
					s.binary[i] = zeroTable(n * stride)
					continue
				}
				nt := &tables[0]
				tables = tables[1:]
				nt.val, words = words[:n*stride:n*stride], words[n*stride:]
				nt.half, words = words[:n*stride:n*stride], words[n*stride:]
				copy(nt.val, t.val[:old])
				copy(nt.half, t.half[:old])
				nt.owner = s.tok
				s.binary[i] = nt
			}
		}
	}
	s.stride = stride
	s.n = n
}

// regrow copies rows of oldStride words into rows of newStride words.
func regrow(ws []uint64, rows, oldStride, newStride int) []uint64 {
	out := make([]uint64, rows*newStride)
	for r := 0; r < rows; r++ {
		copy(out[r*newStride:r*newStride+min(oldStride, newStride)], ws[r*oldStride:])
	}
	return out
}

// Duplicate bifurcates individual u: it adds a copy u' that has every
// predicate value u has, with u' standing for u in every tuple (so p(u, u')
// and p(u', u') are p(u, u)). It returns u'. Focus uses it to split a
// summary individual.
func (s *Structure) Duplicate(u int) int {
	s.mustWrite()
	c := s.AddIndividual()
	for i := range s.unaryCount() {
		if v := s.Unary(i, u); v != logic.False {
			s.SetUnary(i, c, v)
		}
	}
	for i := range s.binary {
		if s.binary[i].owner == sharedZeros {
			continue // 0 everywhere: so are the copies of u's tuples
		}
		t := s.own(s.binary[i])
		s.binaryTables()[i] = t
		for w := 0; w < s.n; w++ {
			ww := w
			if w == c {
				ww = u
			}
			putKleene(t, c*s.stride*64+w, kleeneAt(t, u*s.stride*64+ww))
			putKleene(t, w*s.stride*64+c, kleeneAt(t, ww*s.stride*64+u))
		}
	}
	for k := 3; k < len(s.kary); k++ {
		for i, t := range s.kary[k] {
			var add []TupleKey
			var vals []Kleene
			for key, v := range t.vals {
				args := key.Tuple()
				// Every way of replacing some of u's positions by c.
				var pos []int
				for j, a := range args {
					if a == u {
						pos = append(pos, j)
					}
				}
				for mask := 1; mask < 1<<len(pos); mask++ {
					na := append([]int(nil), args...)
					for b, j := range pos {
						if mask>>b&1 != 0 {
							na[j] = c
						}
					}
					add = append(add, KeyOf(na))
					vals = append(vals, v)
				}
			}
			if len(add) > 0 {
				t = s.ownKary(t)
				s.kary[k][i] = t
				for j, key := range add {
					t.vals[key] = vals[j]
				}
			}
		}
	}
	return c
}

// Project returns a new structure whose individual i is s's individual
// keep[i]: it removes the individuals not listed and orders the rest.
// keep must not repeat an individual.
func (s *Structure) Project(keep []int) *Structure {
	r := New(s.voc)
	r.resize(len(keep))
	copy(r.nullary, s.nullary)
	for i := range s.unaryCount() {
		t, nt := s.unaryTable(i), r.unaryTable(i)
		for j, u := range keep {
			putKleene(&nt, j, kleeneAt(&t, u))
		}
	}
	for i, t := range s.binary {
		nt := r.binary[i]
		for j, u := range keep {
			for l, w := range keep {
				if v := kleeneAt(t, u*s.stride*64+w); v != logic.False {
					putKleene(nt, j*r.stride*64+l, v)
				}
			}
		}
	}
	if s.kary != nil {
		where := make(map[int]int, len(keep))
		for j, u := range keep {
			where[u] = j
		}
		for k := 3; k < len(s.kary); k++ {
			for i, t := range s.kary[k] {
				nt := r.kary[k][i]
			tuples:
				for key, v := range t.vals {
					args := key.Tuple()
					for j, a := range args {
						na, ok := where[a]
						if !ok {
							continue tuples
						}
						args[j] = na
					}
					nt.vals[KeyOf(args)] = v
				}
			}
		}
	}
	return r
}

// EachKary calls f for every tuple of a predicate of arity three or more
// whose value is not 0, in no particular order.
func (s *Structure) EachKary(p *Pred, f func(args []int, v Kleene)) {
	for key, v := range s.kary[p.Arity][p.Index].vals {
		f(key.Tuple(), v)
	}
}

// Equal reports whether a and b have the same universe size and the same
// value for every predicate and tuple, individuals compared by number.
func Equal(a, b *Structure) bool {
	if a.voc != b.voc || a.n != b.n {
		return false
	}
	for i := range a.nullary {
		if a.nullary[i] != b.nullary[i] {
			return false
		}
	}
	if len(a.unary) != len(b.unary) {
		return false
	}
	for i, w := range a.unary {
		if b.unary[i] != w {
			return false
		}
	}
	for i := range a.binary {
		if !sameTable(a.binary[i], b.binary[i]) {
			return false
		}
	}
	for k := 3; k < len(a.kary); k++ {
		for i := range a.kary[k] {
			x, y := a.kary[k][i].vals, b.kary[k][i].vals
			if len(x) != len(y) {
				return false
			}
			for key, v := range x {
				if y[key] != v {
					return false
				}
			}
		}
	}
	return true
}

func sameTable(x, y *table) bool {
	if x == y {
		return true
	}
	for i := range x.val {
		if x.val[i] != y.val[i] || x.half[i] != y.half[i] {
			return false
		}
	}
	return true
}

// Merge returns the structure whose individual j stands for the group of
// s's individuals u with classOf[u] == j (j in 0..k-1, every group
// non-empty). Each value is the join of the values of the members, which
// is the tightest embedding of s into a structure with that universe; a
// group of two or more individuals is a summary individual.
func Merge(s *Structure, classOf []int, k int) *Structure {
	// Tables that are 0 everywhere in s are 0 in the merge: those share
	// one table of zeros (most of a heap's predicates are 0 on most
	// tuples, and Blur makes a structure per action result).
	needB := make([]bool, len(s.binary))
	for i, t := range s.binary {
		needB[i] = !zeroWords(t)
	}
	r := newSparse(s.voc, k, needB)
	copy(r.nullary, s.nullary)
	size := make([]int, k)
	for _, j := range classOf {
		size[j]++
	}
	// A merged tuple is 0 when all its members are, 1 when all are 1,
	// and 1/2 otherwise. Only the members that are not 0 are visited
	// (most tables are sparse): count them per merged tuple, and whether
	// all were 1; a merged tuple with fewer such members than it has
	// members has a 0 among them.
	count := make([]int32, max(k, k*k))
	allOne := make([]bool, max(k, k*k))
	var hit []int32
	visit := func(t *table, at, idx int) {
		one := t.val[at>>6]>>(uint(at)&63)&1 != 0
		if count[idx] == 0 {
			allOne[idx] = one
			hit = append(hit, int32(idx))
		} else if !one {
			allOne[idx] = false
		}
		count[idx]++
	}
	settle := func(nt *table, members func(idx int) int32, pos func(idx int) int) {
		for _, idx := range hit {
			v := logic.Unknown
			if allOne[idx] && count[idx] == members(int(idx)) {
				v = logic.True
			}
			putKleene(nt, pos(int(idx)), v)
			count[idx] = 0
		}
		hit = hit[:0]
	}
	for i := range s.unaryCount() {
		t, nt := s.unaryTable(i), r.unaryTable(i)
		for w := range t.val {
			m := t.val[w] | t.half[w]
			for m != 0 {
				u := w<<6 | bits.TrailingZeros64(m)
				m &= m - 1
				visit(&t, u, classOf[u])
			}
		}
		settle(&nt, func(j int) int32 { return int32(size[j]) }, func(j int) int { return j })
	}
	sm := r.unaryTable(s.voc.sm.Index)
	for j := 0; j < k; j++ {
		if size[j] > 1 {
			putKleene(&sm, j, logic.Unknown)
		}
	}
	for i, t := range s.binary {
		for u := 0; u < s.n; u++ {
			ju := classOf[u] * k
			base := u * s.stride
			for x := 0; x < s.stride; x++ {
				m := t.val[base+x] | t.half[base+x]
				for m != 0 {
					w := x<<6 | bits.TrailingZeros64(m)
					m &= m - 1
					visit(t, (base+x)<<6|w&63, ju+classOf[w])
				}
			}
		}
		settle(r.binary[i], func(idx int) int32 { return int32(size[idx/k] * size[idx%k]) },
			func(idx int) int { return idx/k*r.stride*64 + idx%k })
	}
	for a := 3; a < len(s.kary); a++ {
		for i, t := range s.kary[a] {
			// A merged tuple is 0 only if every member tuple is 0: count
			// the members that are not, and which values they have.
			type acc struct {
				count int
				v     Kleene
				mixed bool
			}
			accs := map[TupleKey]*acc{}
			for key, v := range t.vals {
				args := key.Tuple()
				for x, u := range args {
					args[x] = classOf[u]
				}
				nk := KeyOf(args)
				ac := accs[nk]
				if ac == nil {
					accs[nk] = &acc{count: 1, v: v}
					continue
				}
				ac.count++
				if ac.v != v {
					ac.mixed = true
				}
			}
			nt := r.kary[a][i]
			for nk, ac := range accs {
				members := 1
				for _, j := range nk.Tuple() {
					members *= size[j]
				}
				if ac.mixed || ac.count < members {
					nt.vals[nk] = logic.Unknown
				} else {
					nt.vals[nk] = ac.v
				}
			}
		}
	}
	return r
}

// NonZeroUnary calls f for every individual u with p(u) != 0, for the unary
// predicate with table index i, in increasing order, until f returns false.
func (s *Structure) NonZeroUnary(i int, f func(u int) bool) {
	val, half := s.unaryVal(i), s.unaryHalf(i)
	for w := range val {
		bits := val[w] | half[w]
		for bits != 0 {
			b := bitsTrailingZeros(bits)
			if !f(w<<6 | b) {
				return
			}
			bits &= bits - 1
		}
	}
}

// NonZeroRow calls f for every w with p(u, w) != 0, for the binary
// predicate with table index i, in increasing order, until f returns false.
func (s *Structure) NonZeroRow(i, u int, f func(w int) bool) {
	t := s.binary[i]
	base := u * s.stride
	for j := 0; j < s.stride; j++ {
		bits := t.val[base+j] | t.half[base+j]
		for bits != 0 {
			b := bitsTrailingZeros(bits)
			if !f(j<<6 | b) {
				return
			}
			bits &= bits - 1
		}
	}
}

// NonZeroColumn calls f for every u with p(u, w) != 0, for the binary
// predicate with table index i, in increasing order, until f returns false.
func (s *Structure) NonZeroColumn(i, w int, f func(u int) bool) {
	t := s.binary[i]
	word, bit := w>>6, uint(w)&63
	for u := 0; u < s.n; u++ {
		j := u*s.stride + word
		if (t.val[j]|t.half[j])>>bit&1 != 0 {
			if !f(u) {
				return
			}
		}
	}
}

func bitsTrailingZeros(x uint64) int { return bits.TrailingZeros64(x) }

// JoinPointwise returns the pointwise join of a and b, two structures with
// the same universe, and whether it differs from a: each value of a that
// is definite and differs from b's becomes 1/2 (a 1/2 stays). a and b are
// not changed; when nothing grows, a itself is returned. Tables are
// compared a word at a time, and only those that grow are copied.
func JoinPointwise(a, b *Structure) (*Structure, bool) {
	if a.n != b.n || a.voc != b.voc {
		panic("tvl: JoinPointwise of structures with different universes")
	}
	var out *Structure
	grow := func() *Structure {
		if out == nil {
			out = a.Clone()
		}
		return out
	}
	for i, x := range a.nullary {
		if y := b.nullary[i]; x != y && x != logic.Unknown {
			grow().nullary[i] = logic.Unknown
		}
	}
	// last masks the bits past the universe in the last word of a row.
	last := ^uint64(0)
	if r := a.n % 64; r != 0 {
		last = 1<<uint(r) - 1
	}
	join := func(ta, tb *table, rows int, replace func(o *Structure) *table) {
		if ta == tb {
			return
		}
		var t *table
		for r := 0; r < rows; r++ {
			for j := 0; j < a.stride; j++ {
				w := r*a.stride + j
				g := ^ta.half[w] & ((ta.val[w] ^ tb.val[w]) | (ta.half[w] ^ tb.half[w]))
				if j == a.stride-1 {
					g &= last
				}
				if g == 0 {
					continue
				}
				if t == nil {
					t = replace(grow())
				}
				t.val[w] &^= g
				t.half[w] |= g
			}
		}
	}
	// The unary words: each predicate's val row, then its half row.
	if st := a.stride; st > 0 && !sameWords(a.unary, b.unary) {
		for v := 0; v < len(a.unary); v += 2 * st {
			for j := 0; j < st; j++ {
				av, ah := a.unary[v+j], a.unary[v+st+j]
				g := ^ah & ((av ^ b.unary[v+j]) | (ah ^ b.unary[v+st+j]))
				if j == st-1 {
					g &= last
				}
				if g == 0 {
					continue
				}
				o := grow()
				o.writableUnary()
				o.unary[v+j] &^= g
				o.unary[v+st+j] |= g
			}
		}
	}
	for i := range a.binary {
		join(a.binary[i], b.binary[i], a.n, func(o *Structure) *table {
			t := o.own(o.binary[i])
			o.binaryTables()[i] = t
			return t
		})
	}
	for k := 3; k < len(a.kary); k++ {
		for i, ta := range a.kary[k] {
			tb := b.kary[k][i]
			if ta == tb {
				continue
			}
			// A tuple missing from a map is 0.
			for key, x := range ta.vals {
				if y := tb.vals[key]; x != y && x != logic.Unknown {
					o := grow()
					o.kary[k][i] = o.ownKary(o.kary[k][i])
					o.kary[k][i].vals[key] = logic.Unknown
				}
			}
			for key, y := range tb.vals {
				if _, ok := ta.vals[key]; !ok && y != logic.False {
					o := grow()
					o.kary[k][i] = o.ownKary(o.kary[k][i])
					o.kary[k][i].vals[key] = logic.Unknown
				}
			}
		}
	}
	if out == nil {
		return a, false
	}
	return out, true
}

// sameWords reports whether x and y are the same words in memory (a
// clone's, not yet written).
func sameWords(x, y []uint64) bool {
	return len(x) > 0 && len(x) == len(y) && &x[0] == &y[0]
}

// zeroWords reports whether a table is 0 everywhere.
func zeroWords(t *table) bool {
	for i, w := range t.val {
		if w|t.half[i] != 0 {
			return false
		}
	}
	return true
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
