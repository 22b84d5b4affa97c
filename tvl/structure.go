package tvl

import (
	"math"
	"math/bits"

	"github.com/tvla-go/tvla/logic"
)

// Kleene is logic.Kleene, repeated here because every signature uses it.
type Kleene = logic.Kleene

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
	// unary holds the unary tables in blocks of unaryBlockPreds
	// predicates, each block one slice of words: predicate i is in block
	// i>>unaryBlockShift, and its val words are [2j*stride, (2j+1)*stride)
	// of the block with j = i&(unaryBlockPreds-1), its half words the next
	// stride. A thread model has dozens of unary predicates, each a word
	// or two: slices of them, without a header and pointers per table,
	// are a fraction of the memory and of the collector's work. A block
	// is copied on its first write after a clone, not the whole of them:
	// a model with thousands of soft invariants has thousands of unary
	// predicates, and a Focus split or an update writes a few.
	unary []unaryBlock
	// unaryInline holds the block of a vocabulary of at most
	// unaryBlockPreds unary predicates, which unary then points to: a
	// clone copies it with the structure, where it would otherwise share
	// an array of one block and copy it on its first write.
	unaryInline [1]unaryBlock
	// sharedU marks the array of blocks as shared with a clone (never
	// the inline one): the first write of a block copies the array too.
	// A shared array holds no token of either structure.
	sharedU bool
	binary  []*table
	kary    [][]*karyTable // by arity, for arities of three and more
	tok     owner          // 0 once frozen
	// sharedB marks the array of binary table pointers as shared with a
	// clone: the first write of a table copies the array too.
	sharedB bool
}

// unaryBlock is a block of unary words and the token of the structure
// that may write it in place.
type unaryBlock struct {
	words []uint64
	owner owner
}

// unaryBlockShift sets the number of unary predicates per block of
// words (Structure.unary).
const (
	unaryBlockShift = 6
	unaryBlockPreds = 1 << unaryBlockShift
)

// unaryRow is unary predicate i's two planes, val then half: 2*stride
// words.
func (s *Structure) unaryRow(i int) []uint64 {
	o := 2 * (i & (unaryBlockPreds - 1)) * s.stride
	return s.unary[i>>unaryBlockShift].words[o : o+2*s.stride : o+2*s.stride]
}

// unaryVal and unaryHalf are unary predicate i's bit planes.
func (s *Structure) unaryVal(i int) []uint64 {
	o := 2 * (i & (unaryBlockPreds - 1)) * s.stride
	return s.unary[i>>unaryBlockShift].words[o : o+s.stride : o+s.stride]
}

func (s *Structure) unaryHalf(i int) []uint64 {
	o := (2*(i&(unaryBlockPreds-1)) + 1) * s.stride
	return s.unary[i>>unaryBlockShift].words[o : o+s.stride : o+s.stride]
}

// makeUnary gives s zeroed unary blocks for nu predicates, from one
// allocation, owned by s.
func (s *Structure) makeUnary(nu int) {
	nblk := (nu + unaryBlockPreds - 1) >> unaryBlockShift
	words := make([]uint64, 2*s.stride*nu)
	blocks := s.unaryInline[:]
	if nblk != 1 {
		blocks = make([]unaryBlock, nblk)
	}
	for b := range blocks {
		m := 2 * s.stride * min(unaryBlockPreds, nu-b*unaryBlockPreds)
		blocks[b] = unaryBlock{words: words[:m:m], owner: s.tok}
		words = words[m:]
	}
	s.unary, s.sharedU = blocks, false
}

// unaryTable is a view of unary predicate i as a table (for reading, or
// for writing after writableUnary).
func (s *Structure) unaryTable(i int) table {
	return table{val: s.unaryVal(i), half: s.unaryHalf(i)}
}

// unaryCount is the number of unary predicates.
func (s *Structure) unaryCount() int { return len(s.voc.OfArity(1)) }

func wordsFor(n int) int { return (n + 63) >> 6 }

// New returns the structure with an empty universe over voc.
func New(voc *Vocabulary) *Structure { return newSized(voc, 0) }

// NewSized returns a structure of n individuals over voc with every value
// 0: the bulk form of n calls of AddIndividual, which copy every binary
// table each time (a TVS of thousands of individuals took minutes). Only
// the binary predicates in written get tables of their own; the others
// share a table of zeros until first written (copy-on-write), so a
// vocabulary of many binary predicates costs memory only for those given
// values.
func NewSized(voc *Vocabulary, n int, written ...*Pred) *Structure {
	needB := make([]bool, len(voc.OfArity(2)))
	for _, p := range written {
		if p.Arity == 2 {
			needB[p.Index] = true
		}
	}
	return newSparse(voc, n, needB)
}

// TableBytes is the memory the bit tables of a structure of n
// individuals over voc take when every unary and binary predicate has
// tables of its own, as an analysis may come to: two planes of n bits per
// unary predicate, two of n² bits per binary one (k-ary predicates are
// sparse and not counted). It saturates at the largest uint64 instead of
// overflowing, so that a caller can refuse a universe whose tables could
// never be allocated (a TVS file of a few MB can declare one) before
// asking for them.
func TableBytes(voc *Vocabulary, n int) uint64 {
	if n <= 0 {
		return 0
	}
	words := uint64(wordsFor(n))
	nu, nb := uint64(len(voc.OfArity(1))), uint64(len(voc.OfArity(2)))
	perPlane := satAdd(satMul(nu, words), satMul(nb, satMul(uint64(n), words)))
	return satMul(satMul(perPlane, 2), 8)
}

func satMul(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	if hi != 0 {
		return math.MaxUint64
	}
	return lo
}

func satAdd(a, b uint64) uint64 {
	sum, carry := bits.Add64(a, b, 0)
	if carry != 0 {
		return math.MaxUint64
	}
	return sum
}

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
	s.makeUnary(nu)
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
	for i := range a.unary {
		x, y := a.unary[i].words, b.unary[i].words
		if sameWords(x, y) {
			continue
		}
		if len(x) != len(y) {
			return false
		}
		for j, w := range x {
			if y[j] != w {
				return false
			}
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
