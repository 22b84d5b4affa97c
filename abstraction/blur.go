package abstraction

import (
	"bytes"
	"sort"

	"github.com/tvla-go/tvla/tvl"
)

// CanonicalName is an individual's vector of values of the abstraction
// predicates, one byte (a Kleene value) per predicate. Blur merges exactly
// the individuals with equal names.
func CanonicalName(s *tvl.Structure, abs []*tvl.Pred, u int) []byte {
	name := make([]byte, len(abs))
	for i, p := range abs {
		name[i] = byte(s.Unary(p.Index, u))
	}
	return name
}

// Blur returns the canonical abstraction of s with respect to the unary
// abstraction predicates abs: individuals with the same canonical name
// merge into one, whose values are the joins of theirs (a tight
// embedding), and which is a summary individual when two or more merged.
// When s is canonical already (distinct names, in order), s itself is
// returned.
// The result lists its individuals in increasing order of canonical name
// (False < 1/2 < True, predicate by predicate in the order of abs), so two
// blurred structures are isomorphic exactly when they are equal. embed
// maps each individual of s to the one it merged into.
func Blur(s *tvl.Structure, abs []*tvl.Pred) (blurred *tvl.Structure, embed []int) {
	n := s.Size()
	names := make([][]byte, n)
	for u := range names {
		names[u] = CanonicalName(s, abs, u)
	}
	if increasing(names) {
		// Already canonical: no two individuals share a name, and they
		// are in canonical order. Merge would only copy s.
		embed = make([]int, n)
		for u := range embed {
			embed[u] = u
		}
		return s, embed
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return bytes.Compare(names[order[i]], names[order[j]]) < 0 })
	embed = make([]int, n)
	k := 0
	for i, u := range order {
		if i > 0 && !bytes.Equal(names[u], names[order[i-1]]) {
			k++
		}
		embed[u] = k
	}
	if n > 0 {
		k++
	}
	return tvl.Merge(s, embed, k), embed
}

// increasing reports whether every name is greater than the one before.
func increasing(names [][]byte) bool {
	for i := 1; i < len(names); i++ {
		if bytes.Compare(names[i-1], names[i]) >= 0 {
			return false
		}
	}
	return true
}
