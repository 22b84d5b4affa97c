package tvl

import "github.com/tvla-go/tvla/logic"

// JoinIndependent joins two structures whose individuals need not
// correspond, as TVLA's single-structure join ("ind") does: the result's
// individual j is a's individual fromA[j] and b's fromB[j], either of
// them -1 when the structure has no such individual. An individual of
// both gets the join of its values; an individual of only one may not
// exist in the states the other represents, so the unary predicate
// active (TVLA's inac) is 1/2 on it. A tuple takes its values from the
// structures that hold all of its individuals (the join of both, or the
// one's), and is 0 when none does. Nullary values are joined.
//
// It reports whether the result differs from a; when it does not, a
// itself is returned. a and b are not changed.
func JoinIndependent(a, b *Structure, fromA, fromB []int, active *Pred) (*Structure, bool) {
	if a.voc != b.voc || len(fromA) != len(fromB) {
		panic("tvl: JoinIndependent of structures of different vocabularies or a bad correspondence")
	}
	k := len(fromA)
	identity := k == a.n && k == b.n
	for j := 0; j < k && identity; j++ {
		identity = fromA[j] == j && fromB[j] == j
	}
	if identity {
		// The same individuals: the pointwise join, active included.
		return JoinPointwise(a, b)
	}
	r := newSized(a.voc, k)
	for i := range r.nullary {
		r.nullary[i] = a.nullary[i].Join(b.nullary[i])
	}
	// value joins the values of the structures that hold a tuple.
	value := func(inA, inB bool, va, vb func() Kleene) Kleene {
		switch {
		case inA && inB:
			return va().Join(vb())
		case inA:
			return va()
		case inB:
			return vb()
		}
		return logic.False
	}
	for i := range r.unaryCount() {
		tr := r.unaryTable(i)
		for j := 0; j < k; j++ {
			x, y := fromA[j], fromB[j]
			v := value(x >= 0, y >= 0, func() Kleene { return a.Unary(i, x) }, func() Kleene { return b.Unary(i, y) })
			if active != nil && i == active.Index && (x < 0 || y < 0) {
				v = logic.Unknown
			}
			putKleene(&tr, j, v)
		}
	}
	for i := range r.binary {
		ta, tb, tr := a.binary[i], b.binary[i], r.binary[i]
		for j1 := 0; j1 < k; j1++ {
			x1, y1 := fromA[j1], fromB[j1]
			for j2 := 0; j2 < k; j2++ {
				x2, y2 := fromA[j2], fromB[j2]
				v := value(x1 >= 0 && x2 >= 0, y1 >= 0 && y2 >= 0,
					func() Kleene { return kleeneAt(ta, x1*a.stride*64+x2) },
					func() Kleene { return kleeneAt(tb, y1*b.stride*64+y2) })
				if v != logic.False {
					putKleene(tr, j1*r.stride*64+j2, v)
				}
			}
		}
	}
	if a.kary != nil {
		toA, toB := inverse(fromA, a.n), inverse(fromB, b.n)
		for ar := 3; ar < len(a.kary); ar++ {
			for i := range a.kary[ar] {
				ta, tb, tr := a.kary[ar][i].vals, b.kary[ar][i].vals, r.kary[ar][i].vals
				// in reports whether a structure holds every individual of
				// a result tuple, and the tuple's key there.
				in := func(from []int, args []int) (TupleKey, bool) {
					own := make([]int, len(args))
					for x, j := range args {
						if from[j] < 0 {
							return "", false
						}
						own[x] = from[j]
					}
					return KeyOf(own), true
				}
				visit := func(vals map[TupleKey]Kleene, to []int) {
					for key := range vals {
						args := key.Tuple()
						for x, u := range args {
							args[x] = to[u]
						}
						rk := KeyOf(args)
						if _, done := tr[rk]; done {
							continue
						}
						ka, inA := in(fromA, args)
						kb, inB := in(fromB, args)
						if v := value(inA, inB, func() Kleene { return ta[ka] }, func() Kleene { return tb[kb] }); v != logic.False {
							tr[rk] = v
						}
					}
				}
				visit(ta, toA)
				visit(tb, toB)
			}
		}
	}
	if k == a.n && Equal(r, a) {
		return a, false
	}
	return r, true
}

// inverse maps each of n individuals to its position in from.
func inverse(from []int, n int) []int {
	to := make([]int, n)
	for j, u := range from {
		if u >= 0 {
			to[u] = j
		}
	}
	return to
}
