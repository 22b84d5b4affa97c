package abstraction

import (
	"bytes"
	"slices"

	"github.com/tvla-go/tvla/tvl"
)

// CanonicalName is an individual's vector of values of the abstraction
// predicates, one byte (a Kleene value) per predicate. Blur merges exactly
// the individuals with equal names.
func CanonicalName(s *tvl.Structure, abs []*tvl.Pred, u int) []byte {
	return appendName(make([]byte, 0, len(abs)), s, abs, u)
}

// appendName appends u's canonical name to buf.
func appendName(buf []byte, s *tvl.Structure, abs []*tvl.Pred, u int) []byte {
	for _, p := range abs {
		buf = append(buf, byte(s.Unary(p.Index, u)))
	}
	return buf
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
	if canonicalOrder(s, abs) {
		// Already canonical: no two individuals share a name, and they
		// are in canonical order. Merge would only copy s.
		embed = make([]int, n)
		for u := range embed {
			embed[u] = u
		}
		return s, embed
	}
	// One buffer holds every name.
	names := make([][]byte, n)
	buf := make([]byte, 0, n*len(abs))
	for u := range names {
		start := len(buf)
		buf = appendName(buf, s, abs, u)
		names[u] = buf[start:len(buf):len(buf)]
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return bytes.Compare(names[a], names[b]) })
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

// canonicalOrder reports whether every individual's canonical name is
// greater than the one before's, comparing values in place (most
// structures an action produces are canonical, and this allocates
// nothing).
func canonicalOrder(s *tvl.Structure, abs []*tvl.Pred) bool {
next:
	for u := 1; u < s.Size(); u++ {
		for _, p := range abs {
			a, b := s.Unary(p.Index, u-1), s.Unary(p.Index, u)
			if a < b {
				continue next
			}
			if a > b {
				return false
			}
		}
		return false // equal names
	}
	return true
}
