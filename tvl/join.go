package tvl

import "github.com/tvla-go/tvla/logic"

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
	// The unary words, block by block: each predicate's val row, then
	// its half row.
	if st := a.stride; st > 0 {
		for bi := range a.unary {
			ab, bb := a.unary[bi].words, b.unary[bi].words
			if sameWords(ab, bb) {
				continue
			}
			for v := 0; v < len(ab); v += 2 * st {
				for j := 0; j < st; j++ {
					av, ah := ab[v+j], ab[v+st+j]
					g := ^ah & ((av ^ bb[v+j]) | (ah ^ bb[v+st+j]))
					if j == st-1 {
						g &= last
					}
					if g == 0 {
						continue
					}
					o := grow()
					o.writableUnary(bi << unaryBlockShift)
					ob := o.unary[bi].words
					ob[v+j] &^= g
					ob[v+st+j] |= g
				}
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
