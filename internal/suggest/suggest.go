// Package suggest finds the names nearest to a misspelt one, for "did
// you mean" hints: the command line's unknown flags today, and any other
// closed set of names a user types.
package suggest

import "strings"

// Nearest are the names nearest to name: those of which it is a
// prefix of three letters or more count as at distance 1, the others at
// their edit distance, up to a third of name's length (at least 2); the
// nearest, at most three, in the order of names.
func Nearest(name string, names []string) []string {
	name = strings.ToLower(name)
	best, limit := -1, max(2, len(name)/3)
	var out []string
	for _, n := range names {
		d := editDistance(name, n)
		if len(name) >= 3 && strings.HasPrefix(n, name) {
			d = min(d, 1)
		}
		switch {
		case d > limit || (best >= 0 && d > best):
			continue
		case best < 0 || d < best:
			best, out = d, nil
		}
		out = append(out, n)
	}
	if len(out) > 3 {
		out = out[:3]
	}
	return out
}

// Or writes names, each after prefix, as "a", "a or b", "a, b or c".
func Or(names []string, prefix string) string {
	names = append([]string(nil), names...)
	for i, n := range names {
		names[i] = prefix + n
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
