package tvl

import (
	"encoding/binary"
	"math/bits"
	"slices"

	"github.com/tvla-go/tvla/logic"
)

// Packed is a structure in a compact canonical encoding: what a location
// keeps of each structure it stores. A structure in memory costs its bit
// tables whole (a thread model's 65 unary predicates are 1 KB, its
// binary tables as much again), although most predicates are 0 on most
// individuals; packed, it keeps only what is not 0. Equal structures
// (Equal) pack to the same bytes, so comparing packed structures is
// comparing strings. The zero Packed is no structure.
//
// The encoding, over the structure's vocabulary (which it does not
// record: Unpack is given it):
//
//	n                          uvarint, the universe's size
//	nullary values             2 bits each, in index order
//	unary modes                2 bits per unary predicate: 0 everywhere (0),
//	                           its planes (1), one individual not 0 (2, only
//	                           for universes of at most 64)
//	per unary p of mode 1      p's 1-bits, then its 1/2-bits: ⌈n/8⌉ bytes each
//	per unary p of mode 2      a byte: the individual<<1 | (is 1/2)
//	binary presence            1 bit per binary predicate
//	per present binary p       uvarint count, then per tuple (u, w) not 0, in
//	                           order of u·n+w: uvarint (gap<<1 | is 1/2), the
//	                           gap from the previous position less one
//	per k-ary p (k ≥ 3)        uvarint count, then per tuple not 0, in order:
//	                           k uvarints and a byte for the value
type Packed struct{ b string }

// Len is the size of the encoding in bytes.
func (p Packed) Len() int { return len(p.b) }

// Encoding is p's bytes, to be kept elsewhere (a file) and made a
// Packed again by PackedFromEncoding.
func (p Packed) Encoding() string { return p.b }

// PackedFromEncoding is the Packed whose encoding is b, as Encoding gave
// it: b is not checked, so bytes that are not a packing of a structure
// over the vocabulary they are unpacked with make Unpack fail.
func PackedFromEncoding(b string) Packed { return Packed{b} }

// IsZero reports whether p is the zero Packed.
func (p Packed) IsZero() bool { return p.b == "" }

// Size is the number of individuals of the packed structure.
func (p Packed) Size() int {
	n, _ := binary.Uvarint([]byte(p.b[:min(len(p.b), binary.MaxVarintLen64)]))
	return int(n)
}

// bytesFor is the number of bytes of n bits.
func bytesFor(n int) int { return (n + 7) >> 3 }

// Pack encodes s (frozen or not; it is not changed).
func (s *Structure) Pack() Packed {
	// Most structures fit in the buffer on the stack; the string is
	// then the one allocation, of the exact size.
	var scratch [512]byte
	return Packed{string(s.appendPacked(scratch[:0]))}
}

// appendPacked appends s's encoding to buf.
func (s *Structure) appendPacked(buf []byte) []byte {
	buf = binary.AppendUvarint(buf, uint64(s.n))
	buf = appendNullary(buf, s.nullary)
	buf = s.appendUnary(buf)
	buf = s.appendBinary(buf)
	for k := 3; k < len(s.kary); k++ {
		for _, t := range s.kary[k] {
			buf = appendKary(buf, t, k)
		}
	}
	return buf
}

func appendNullary(buf []byte, vals []Kleene) []byte {
	for i := 0; i < len(vals); i += 4 {
		var b byte
		for j := i; j < min(i+4, len(vals)); j++ {
			b |= byte(vals[j]) << (2 * uint(j-i))
		}
		buf = append(buf, b)
	}
	return buf
}

// lastMask masks the bits of a row's last word that are individuals of
// a universe of n.
func lastMask(n int) uint64 {
	if r := n & 63; r != 0 {
		return 1<<uint(r) - 1
	}
	return ^uint64(0)
}

// Unary predicates' modes in the encoding (see Packed).
const (
	unaryZero   = 0
	unaryPlanes = 1
	unaryOne    = 2
)

// appendUnary appends the modes of the unary predicates and the values
// of those not 0.
func (s *Structure) appendUnary(buf []byte) []byte {
	nu, st := s.unaryCount(), s.stride
	at := len(buf)
	buf = append(buf, make([]byte, bytesFor(2*nu))...)
	last := lastMask(s.n)
	nb := bytesFor(s.n)
	if st == 1 {
		for b, blk := range s.unary {
			buf = appendUnaryWords(buf, at, b<<unaryBlockShift, blk.words, last, nb)
		}
		return buf
	}
	for i := range nu {
		words := s.unaryRow(i)
		if st == 0 || !anyBits(words[:st], last) && !anyBits(words[st:], last) {
			continue
		}
		buf[at+i>>2] |= unaryPlanes << (2 * (uint(i) & 3))
		buf = appendPlane(buf, words[:st], nb, last)
		buf = appendPlane(buf, words[st:], nb, last)
	}
	return buf
}

// appendUnaryWords is appendUnary for a universe of at most 64, a word
// per plane, for one block of predicates: u holds each predicate's val
// word and half word in turn, from predicate first on, and the modes
// start at buf[at]. A predicate not 0 on one individual
// only (a thread's location, a pointer variable) takes a byte.
func appendUnaryWords(buf []byte, at, first int, u []uint64, last uint64, nb int) []byte {
	// Room for every plane and a word's spill, so that the loop only
	// reslices.
	buf = slices.Grow(buf, len(u)*nb+8)
	l := len(buf)
	out := buf[:cap(buf)]
	for j := 0; j+1 < len(u); j += 2 {
		v, h := u[j]&last, u[j+1]&last
		x := v | h
		if x == 0 {
			continue
		}
		i := first + j>>1
		if x&(x-1) == 0 {
			out[at+i>>2] |= unaryOne << (2 * (uint(i) & 3))
			b := byte(bits.TrailingZeros64(x)) << 1
			if h != 0 {
				b |= 1
			}
			out[l] = b
			l++
			continue
		}
		out[at+i>>2] |= unaryPlanes << (2 * (uint(i) & 3))
		binary.LittleEndian.PutUint64(out[l:l+8], v)
		binary.LittleEndian.PutUint64(out[l+nb:l+nb+8], h)
		l += 2 * nb
	}
	return out[:l]
}

// anyBits reports whether a row of words has a bit set among the
// individuals (last masks its last word).
func anyBits(ws []uint64, last uint64) bool {
	n := len(ws) - 1
	for _, w := range ws[:n] {
		if w != 0 {
			return true
		}
	}
	return ws[n]&last != 0
}

// appendPlane appends nb bytes of a row of words, little-endian, its
// last word masked.
func appendPlane(buf []byte, ws []uint64, nb int, last uint64) []byte {
	var le [8]byte
	for j, w := range ws {
		if j == len(ws)-1 {
			w &= last
		}
		binary.LittleEndian.PutUint64(le[:], w)
		k := min(nb, 8)
		buf = append(buf, le[:k]...)
		nb -= k
	}
	return buf
}

// appendBinary appends the presence bits of the binary predicates and
// the tuples of those present.
func (s *Structure) appendBinary(buf []byte) []byte {
	at := len(buf)
	buf = append(buf, make([]byte, bytesFor(len(s.binary)))...)
	last := lastMask(s.n)
	for i, t := range s.binary {
		if t.owner == sharedZeros {
			continue
		}
		// The count goes first: a byte is kept for it, and the rare
		// count of 128 or more makes room for the rest of its varint.
		countAt := len(buf)
		buf = append(buf, 0)
		var c int
		buf, c = s.appendTuples(buf, t, last)
		if c == 0 {
			buf = buf[:countAt]
			continue
		}
		buf[at+i>>3] |= 1 << (uint(i) & 7)
		var cb [binary.MaxVarintLen64]byte
		cn := binary.PutUvarint(cb[:], uint64(c))
		buf[countAt] = cb[0]
		buf = slices.Insert(buf, countAt+1, cb[1:cn]...)
	}
	return buf
}

// appendTuples appends a binary table's tuples that are not 0, gap-coded
// (see Packed), and counts them.
func (s *Structure) appendTuples(buf []byte, t *table, last uint64) ([]byte, int) {
	c, prev := 0, -1
	if s.stride == 1 {
		val, half := t.val[:s.n], t.half[:s.n]
		for u := range val {
			m := (val[u] | half[u]) & last
			for m != 0 {
				b := bits.TrailingZeros64(m)
				m &= m - 1
				pos := u*s.n + b
				x := uint64(pos-prev-1)<<1 | half[u]>>uint(b)&1
				if x < 0x80 {
					buf = append(buf, byte(x))
				} else {
					buf = binary.AppendUvarint(buf, x)
				}
				prev = pos
				c++
			}
		}
		return buf, c
	}
	for u := 0; u < s.n; u++ {
		base := u * s.stride
		for j := 0; j < s.stride; j++ {
			m := t.val[base+j] | t.half[base+j]
			if j == s.stride-1 {
				m &= last
			}
			for m != 0 {
				b := bits.TrailingZeros64(m)
				m &= m - 1
				pos := u*s.n + j<<6 + b
				x := uint64(pos-prev-1)<<1 | t.half[base+j]>>uint(b)&1
				if x < 0x80 {
					buf = append(buf, byte(x))
				} else {
					buf = binary.AppendUvarint(buf, x)
				}
				prev = pos
				c++
			}
		}
	}
	return buf, c
}

// appendKary appends a k-ary table's tuples, sorted.
func appendKary(buf []byte, t *karyTable, k int) []byte {
	keys := make([]TupleKey, 0, len(t.vals))
	for key, v := range t.vals {
		if v != logic.False {
			keys = append(keys, key)
		}
	}
	slices.Sort(keys)
	buf = binary.AppendUvarint(buf, uint64(len(keys)))
	for _, key := range keys {
		for _, u := range key.Tuple() {
			buf = binary.AppendUvarint(buf, uint64(u))
		}
		buf = append(buf, byte(t.vals[key]))
	}
	return buf
}

// Unpack decodes p over voc, the vocabulary of the structure packed, into
// a frozen structure equal to it. Its binary tables that are 0
// everywhere share the table of zeros of their size.
func (p Packed) Unpack(voc *Vocabulary) *Structure {
	d := decoder{b: p.b}
	n := int(d.uvarint())
	nullary := d.take(bytesFor(2 * len(voc.OfArity(0))))
	nu, nb := len(voc.OfArity(1)), len(voc.OfArity(2))
	modes := d.take(bytesFor(2 * nu))
	// The unary values come before the binary presence bits: skip them
	// to size the binary tables first.
	values := d.take(unaryLen(modes, bytesFor(n)))
	binaryBits := d.take(bytesFor(nb))
	var noneBuf [64]bool
	none := noneBuf[:0]
	if nb > len(noneBuf) {
		none = make([]bool, 0, nb)
	}
	// Every binary table starts as the table of zeros; those not 0 are
	// shared (intern.go) or made below.
	s := newSparse(voc, n, none[:nb])
	for i := range s.nullary {
		s.nullary[i] = Kleene(nullary[i>>2] >> (2 * (uint(i) & 3)) & 3)
	}
	s.unpackUnary(modes, values)
	for i := range s.binary {
		if binaryBits[i>>3]>>(uint(i)&7)&1 != 0 {
			s.binary[i] = s.unpackTable(&d)
		}
	}
	for k := 3; k < len(s.kary); k++ {
		for _, t := range s.kary[k] {
			unpackKary(&d, t, k)
		}
	}
	s.tok = 0
	return s
}

// UnaryTrue reports whether the unary predicate with table index i is 1
// on some individual of the structure packed as p over voc, reading no
// more of p than the unary predicates before it.
func (p Packed) UnaryTrue(voc *Vocabulary, i int) bool {
	d := decoder{b: p.b}
	n := int(d.uvarint())
	d.take(bytesFor(2 * len(voc.OfArity(0))))
	modes := d.take(bytesFor(2 * len(voc.OfArity(1))))
	nb := bytesFor(n)
	d.take(unaryLen(modes[:i>>2], nb))
	for j := i &^ 3; j < i; j++ {
		switch modes[j>>2] >> (2 * (uint(j) & 3)) & 3 {
		case unaryPlanes:
			d.take(2 * nb)
		case unaryOne:
			d.take(1)
		}
	}
	switch modes[i>>2] >> (2 * (uint(i) & 3)) & 3 {
	case unaryPlanes:
		val := d.take(nb)
		for k := 0; k < len(val); k++ {
			if val[k] != 0 {
				return true
			}
		}
	case unaryOne:
		return d.take(1)[0]&1 == 0
	}
	return false
}

// unaryLen is the length of the unary values of the modes given, for
// planes of nb bytes.
func unaryLen(modes string, nb int) int {
	n := 0
	for k := 0; k < len(modes); k++ {
		for m := modes[k]; m != 0; m >>= 2 {
			switch m & 3 {
			case unaryPlanes:
				n += 2 * nb
			case unaryOne:
				n++
			}
		}
	}
	return n
}

// unpackUnary fills the unary words from the predicates' modes and
// values.
func (s *Structure) unpackUnary(modes, values string) {
	nb, st := bytesFor(s.n), s.stride
	if st == 1 {
		for k := 0; k < len(modes); k++ {
			for m := modes[k]; m != 0; {
				at := bits.TrailingZeros8(m) &^ 1
				i, mode := k<<2|at>>1, m>>uint(at)&3
				m &^= 3 << uint(at)
				u, j := s.unary[i>>unaryBlockShift].words, i&(unaryBlockPreds-1)
				if mode == unaryOne {
					b := values[0]
					values = values[1:]
					u[2*j+int(b&1)] = 1 << (b >> 1)
					continue
				}
				u[2*j], u[2*j+1] = readWord(values, nb), readWord(values[nb:], nb)
				values = values[2*nb:]
			}
		}
		return
	}
	for i := range s.unaryCount() {
		row := s.unaryRow(i)
		switch modes[i>>2] >> (2 * (uint(i) & 3)) & 3 {
		case unaryPlanes:
			readPlane(row[:st], values[:nb])
			readPlane(row[st:], values[nb:2*nb])
			values = values[2*nb:]
		case unaryOne:
			b := int(values[0])
			values = values[1:]
			putBit(row[(b&1)*st:(b&1+1)*st], b>>1, true)
		}
	}
}

// readWord reads the first nb (at most 8) bytes of bs, little-endian: a
// single load when bs is long enough.
func readWord(bs string, nb int) uint64 {
	if len(bs) >= 8 {
		w := uint64(bs[0]) | uint64(bs[1])<<8 | uint64(bs[2])<<16 | uint64(bs[3])<<24 |
			uint64(bs[4])<<32 | uint64(bs[5])<<40 | uint64(bs[6])<<48 | uint64(bs[7])<<56
		if nb < 8 {
			w &= 1<<(8*uint(nb)) - 1
		}
		return w
	}
	var w uint64
	for i := 0; i < nb; i++ {
		w |= uint64(bs[i]) << (8 * uint(i))
	}
	return w
}

// readPlane reads little-endian bytes into a row of words (of zeros).
func readPlane(ws []uint64, bs string) {
	for j := range ws {
		var w uint64
		for i := 0; i < min(8, len(bs)); i++ {
			w |= uint64(bs[i]) << (8 * uint(i))
		}
		ws[j] = w
		bs = bs[min(8, len(bs)):]
	}
}

// unpackTable returns the table of a binary predicate not 0 whose
// tuples d reads: the one shared by the structures unpacked with the
// same tuples, or a new one.
func (s *Structure) unpackTable(d *decoder) *table {
	start := d.b
	c := int(d.uvarint())
	for range c {
		d.uvarint()
	}
	tuples := start[:len(start)-len(d.b)]
	if t := internedTable(s.n, tuples); t != nil {
		return t
	}
	m := s.n * s.stride
	words := make([]uint64, 2*m)
	t := &table{val: words[:m:m], half: words[m:], owner: sharedTables}
	s.unpackBinary(&decoder{b: tuples}, t)
	internTable(s.n, tuples, t)
	return t
}

// unpackBinary reads a present binary predicate's tuples into t.
func (s *Structure) unpackBinary(d *decoder, t *table) {
	c := int(d.uvarint())
	// The position u·n+w, followed as a row and a column.
	u, w := 0, -1
	for range c {
		x := d.uvarint()
		w += int(x>>1) + 1
		for w >= s.n {
			w -= s.n
			u++
		}
		i := u*s.stride*64 + w
		if x&1 != 0 {
			t.half[i>>6] |= 1 << (uint(i) & 63)
		} else {
			t.val[i>>6] |= 1 << (uint(i) & 63)
		}
	}
}

func unpackKary(d *decoder, t *karyTable, k int) {
	c := int(d.uvarint())
	args := make([]int, k)
	for range c {
		for j := range args {
			args[j] = int(d.uvarint())
		}
		t.vals[KeyOf(args)] = Kleene(d.take(1)[0])
	}
}

// decoder reads a Packed from the front.
type decoder struct{ b string }

func (d *decoder) uvarint() uint64 {
	if c := d.b[0]; c < 0x80 {
		d.b = d.b[1:]
		return uint64(c)
	}
	var x uint64
	for shift := uint(0); ; shift += 7 {
		c := d.b[0]
		d.b = d.b[1:]
		x |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return x
		}
	}
}

func (d *decoder) take(n int) string {
	s := d.b[:n]
	d.b = d.b[n:]
	return s
}
