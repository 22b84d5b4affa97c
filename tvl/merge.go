package tvl

import (
	"math/bits"

	"github.com/tvla-go/tvla/logic"
)

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

// zeroWords reports whether a table is 0 everywhere.
func zeroWords(t *table) bool {
	for i, w := range t.val {
		if w|t.half[i] != 0 {
			return false
		}
	}
	return true
}
