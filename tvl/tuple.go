package tvl

import "iter"

// Tuples yields every tuple of k individuals of a universe of n (every
// assignment of k variables) in lexicographic order, the last position
// changing fastest. There is one tuple of arity 0, even over an empty
// universe, and none of higher arity there.
//
// The loop reuses one slice, so that visiting n^k tuples allocates once:
// a tuple is valid until the next iteration, and a caller that keeps one
// must copy it (and must not change it).
func Tuples(n, k int) iter.Seq[[]int] {
	return func(yield func([]int) bool) {
		if k > 0 && n <= 0 {
			return
		}
		t := make([]int, k)
		for {
			if !yield(t) {
				return
			}
			if !nextTuple(t, n) {
				return
			}
		}
	}
}

// nextTuple advances t to the next tuple over n individuals in
// lexicographic order and reports whether there is one; after the last it
// leaves t all 0.
func nextTuple(t []int, n int) bool {
	for i := len(t) - 1; i >= 0; i-- {
		t[i]++
		if t[i] < n {
			return true
		}
		t[i] = 0
	}
	return false
}

// TupleKey is a tuple of individuals packed into a comparable value, for
// maps keyed by tuples of any arity: four bytes per individual, so
// distinct tuples of individuals below 2^32 have distinct keys.
type TupleKey string

// KeyOf returns t's key.
func KeyOf(t []int) TupleKey {
	// Tuples of up to four individuals are packed on the stack: one
	// allocation, for the string.
	var buf [16]byte
	b := buf[:0]
	for _, u := range t {
		b = append(b, byte(u>>24), byte(u>>16), byte(u>>8), byte(u))
	}
	return TupleKey(b)
}

// Tuple returns the tuple k is the key of, in a new slice.
func (k TupleKey) Tuple() []int {
	t := make([]int, len(k)/4)
	for i := range t {
		t[i] = k.At(i)
	}
	return t
}

// At returns the individual at position i of k's tuple, without
// unpacking the rest.
func (k TupleKey) At(i int) int {
	return int(k[4*i])<<24 | int(k[4*i+1])<<16 | int(k[4*i+2])<<8 | int(k[4*i+3])
}
