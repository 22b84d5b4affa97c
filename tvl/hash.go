package tvl

import (
	"sort"

	"github.com/tvla-go/tvla/logic"
)

// mix is a strong 64-bit mixer (the finaliser of SplitMix64). Hashes here
// are deterministic across runs, so nothing visible can depend on a seed.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

func combine(h, x uint64) uint64 { return mix(h ^ mix(x)) }

// OrderedHash hashes the structure with individuals taken by number: equal
// structures (Equal) hash alike. It is the cheap hash for structures whose
// individuals are already in a canonical order, as Blur leaves them.
func (s *Structure) OrderedHash() uint64 {
	h := combine(0x51ed27, uint64(s.n))
	for _, v := range s.nullary {
		h = combine(h, uint64(v))
	}
	for i := range s.unaryCount() {
		val, half := s.unaryVal(i), s.unaryHalf(i)
		for w := range val {
			h = combine(h, val[w])
			h = combine(h, half[w])
		}
	}
	for _, t := range s.binary {
		for i := range t.val {
			h = combine(h, t.val[i])
			h = combine(h, t.half[i])
		}
	}
	for k := 3; k < len(s.kary); k++ {
		for _, t := range s.kary[k] {
			var sum uint64
			for key, v := range t.vals {
				sum += combine(hashString(string(key)), uint64(v))
			}
			h = combine(h, sum)
		}
	}
	return h
}

func hashString(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * 1099511628211
	}
	return mix(h)
}

// colors computes, for each individual, a hash that does not depend on
// individual numbers: its unary values, refined by the colours of the
// individuals binary predicates relate it to (colour refinement). Two
// isomorphic structures give their corresponding individuals equal
// colours.
func (s *Structure) colors() []uint64 {
	n := s.n
	col := make([]uint64, n)
	for u := 0; u < n; u++ {
		h := uint64(0xc01)
		for i := range s.unaryCount() {
			h = combine(h, uint64(s.Unary(i, u)))
		}
		col[u] = h
	}
	if len(s.binary) == 0 && len(s.kary) == 0 {
		return col
	}
	classes := countDistinct(col)
	next := make([]uint64, n)
	for round := 0; round < n; round++ {
		for u := 0; u < n; u++ {
			next[u] = col[u]
		}
		for i, t := range s.binary {
			for u := 0; u < n; u++ {
				row := u * s.stride * 64
				for w := 0; w < n; w++ {
					v := kleeneAt(t, row+w)
					if v == logic.False {
						continue
					}
					e := combine(uint64(i)<<2|uint64(v), 0)
					if u == w {
						next[u] += combine(e, 0x5e1f)
						continue
					}
					next[u] += combine(e^0x0a, col[w])
					next[w] += combine(e^0x0b, col[u])
				}
			}
		}
		for k := 3; k < len(s.kary); k++ {
			for i, t := range s.kary[k] {
				for key, v := range t.vals {
					args := key.Tuple()
					for pos, a := range args {
						h := combine(uint64(k)<<32|uint64(i)<<8|uint64(pos)<<2|uint64(v), 0x4a)
						for q, b := range args {
							h = combine(h, col[b]^uint64(q))
						}
						next[a] += h
					}
				}
			}
		}
		for u := 0; u < n; u++ {
			next[u] = mix(next[u])
		}
		col, next = next, col
		c := countDistinct(col)
		if c == classes {
			break
		}
		classes = c
	}
	return col
}

func countDistinct(xs []uint64) int {
	seen := make(map[uint64]struct{}, len(xs))
	for _, x := range xs {
		seen[x] = struct{}{}
	}
	return len(seen)
}

// Hash returns a 64-bit hash of the structure's isomorphism class:
// isomorphic structures hash alike, whatever the numbering of their
// individuals.
func (s *Structure) Hash() uint64 {
	col := s.colors()
	h := combine(0x7a11, uint64(s.n))
	for _, v := range s.nullary {
		h = combine(h, uint64(v))
	}
	var nodes uint64
	for _, c := range col {
		nodes += mix(c)
	}
	h = combine(h, nodes)
	for i, t := range s.binary {
		var edges uint64
		for u := 0; u < s.n; u++ {
			for w := 0; w < s.n; w++ {
				if v := kleeneAt(t, u*s.stride*64+w); v != logic.False {
					same := uint64(0)
					if u == w {
						same = 1
					}
					edges += combine(combine(col[u], col[w]), uint64(v)<<1|same)
				}
			}
		}
		h = combine(h, combine(uint64(i), edges))
	}
	for k := 3; k < len(s.kary); k++ {
		for i, t := range s.kary[k] {
			var tuples uint64
			for key, v := range t.vals {
				th := uint64(v)
				for _, a := range key.Tuple() {
					th = combine(th, col[a])
				}
				tuples += mix(th)
			}
			h = combine(h, combine(uint64(k)<<32|uint64(i), tuples))
		}
	}
	return h
}

// Isomorphic reports whether a and b are the same structure up to a
// renumbering of individuals, and if so returns one such renumbering:
// individual u of a corresponds to m[u] of b.
func Isomorphic(a, b *Structure) (m []int, ok bool) {
	if a.voc != b.voc || a.n != b.n {
		return nil, false
	}
	for i := range a.nullary {
		if a.nullary[i] != b.nullary[i] {
			return nil, false
		}
	}
	ca, cb := a.colors(), b.colors()
	byColor := map[uint64][]int{}
	for w, c := range cb {
		byColor[c] = append(byColor[c], w)
	}
	countA := map[uint64]int{}
	for _, c := range ca {
		countA[c]++
	}
	for c, k := range countA {
		if len(byColor[c]) != k {
			return nil, false
		}
	}
	// Map the individuals with the rarest colours first: fewest choices.
	order := make([]int, a.n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool {
		ki, kj := countA[ca[order[i]]], countA[ca[order[j]]]
		if ki != kj {
			return ki < kj
		}
		return order[i] < order[j]
	})
	m = make([]int, a.n)
	for i := range m {
		m[i] = -1
	}
	used := make([]bool, b.n)
	var search func(k int) bool
	search = func(k int) bool {
		if k == len(order) {
			return sameKary(a, b, m)
		}
		u := order[k]
		for _, w := range byColor[ca[u]] {
			if used[w] || !consistent(a, b, m, order[:k], u, w) {
				continue
			}
			m[u], used[w] = w, true
			if search(k + 1) {
				return true
			}
			m[u], used[w] = -1, false
		}
		return false
	}
	if !search(0) {
		return nil, false
	}
	return m, true
}

// consistent checks that mapping u to w agrees on unary values and on
// binary values between u and every individual mapped so far.
func consistent(a, b *Structure, m []int, done []int, u, w int) bool {
	for i := range a.unaryCount() {
		if a.Unary(i, u) != b.Unary(i, w) {
			return false
		}
	}
	for i := range a.binary {
		if a.Binary(i, u, u) != b.Binary(i, w, w) {
			return false
		}
		for _, x := range done {
			y := m[x]
			if a.Binary(i, u, x) != b.Binary(i, w, y) || a.Binary(i, x, u) != b.Binary(i, y, w) {
				return false
			}
		}
	}
	return true
}

func sameKary(a, b *Structure, m []int) bool {
	for k := 3; k < len(a.kary); k++ {
		for i, t := range a.kary[k] {
			other := b.kary[k][i].vals
			if len(t.vals) != len(other) {
				return false
			}
			for key, v := range t.vals {
				args := key.Tuple()
				for j, x := range args {
					args[j] = m[x]
				}
				if other[KeyOf(args)] != v {
					return false
				}
			}
		}
	}
	return true
}
