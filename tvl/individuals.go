package tvl

import "github.com/tvla-go/tvla/logic"

// Changing the universe: adding, duplicating and keeping individuals.

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
		blocks := s.unaryInline[:]
		if len(s.unary) != 1 {
			blocks = make([]unaryBlock, len(s.unary))
		}
		nu := s.unaryCount()
		for b, blk := range s.unary {
			rows := 2 * min(unaryBlockPreds, nu-b*unaryBlockPreds)
			blocks[b] = unaryBlock{words: regrow(blk.words, rows, s.stride, stride), owner: s.tok}
		}
		s.unary, s.sharedU = blocks, false
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
