package tvl

import (
	"fmt"
	"math/bits"

	"github.com/tvla-go/tvla/logic"
)

// Reading and writing predicate values, one tuple at a time or by walking
// the tuples that are not 0.

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
	blk, o := s.unary[i>>unaryBlockShift].words, 2*(i&(unaryBlockPreds-1))*s.stride+w
	return blk[o], blk[o+s.stride]
}

// Unary returns p(u) for the unary predicate with table index i.
func (s *Structure) Unary(i, u int) Kleene {
	blk := s.unary[i>>unaryBlockShift].words
	w, b := 2*(i&(unaryBlockPreds-1))*s.stride+u>>6, uint(u)&63
	if blk[w+s.stride]>>b&1 != 0 {
		return logic.Unknown
	}
	if blk[w]>>b&1 != 0 {
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
	s.writableUnary(i)
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

// EachKary calls f for every tuple of a predicate of arity three or more
// whose value is not 0, in no particular order.
func (s *Structure) EachKary(p *Pred, f func(args []int, v Kleene)) {
	for key, v := range s.kary[p.Arity][p.Index].vals {
		f(key.Tuple(), v)
	}
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
