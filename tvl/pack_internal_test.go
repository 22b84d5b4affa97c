package tvl

import "testing"

// Bits past the universe in a row's last word mean nothing: packing
// leaves them out.
func TestPackIgnoresBitsPastTheUniverse(t *testing.T) {
	voc := NewVocabulary()
	x, n := voc.MustAdd("x", 1), voc.MustAdd("n", 2)
	clean := NewSized(voc, 3, n)
	clean.Set(x, 2, 1)
	clean.Set(n, 1, 0, 2)
	dirty := clean.Clone()
	dirty.writableUnary(x.Index)
	dirty.unaryVal(x.Index)[0] |= 1 << 40
	dirty.unaryHalf(x.Index)[0] |= 1 << 3
	b := dirty.own(dirty.binary[n.Index])
	dirty.binaryTables()[n.Index] = b
	b.val[1] |= 1 << 5
	if dirty.Pack() != clean.Pack() {
		t.Fatal("bits past the universe changed the packing")
	}
}

// Two unpackings of the same tuples share the table, which no one owns.
func TestUnpackedTablesAreShared(t *testing.T) {
	voc := NewVocabulary()
	n := voc.MustAdd("n", 2)
	s := NewSized(voc, 70, n)
	s.Set(n, 1, 3, 69)
	p := s.Pack()
	a, b := p.Unpack(voc), p.Unpack(voc)
	if a.binary[n.Index] != b.binary[n.Index] || a.binary[n.Index].owner != sharedTables {
		t.Fatal("the binary table is not shared")
	}
}
