package tvl_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/tvla-go/tvla/internal/testgen"
	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/tvl"
)

// wideVocabulary has more predicates of each arity than a byte of
// presence bits holds, and arities up to four.
func wideVocabulary() *tvl.Vocabulary {
	v := tvl.NewVocabulary()
	for i := range 5 {
		v.MustAdd(fmt.Sprint("b", i), 0)
	}
	for i := range 20 {
		v.MustAdd(fmt.Sprint("u", i), 1)
	}
	for i := range 11 {
		v.MustAdd(fmt.Sprint("r", i), 2)
	}
	v.MustAdd("t0", 3)
	v.MustAdd("t1", 3)
	v.MustAdd("q", 4)
	return v
}

// sparseStructure is a random structure of n individuals in which each
// predicate is 0 everywhere with probability 1/3, and otherwise each of
// its tuples is not 0 with probability density (k-ary predicates get a
// few random tuples instead, the universe being too large to visit).
func sparseStructure(r *rand.Rand, voc *tvl.Vocabulary, n int, density float64) *tvl.Structure {
	s := tvl.NewSized(voc, n)
	val := func() logic.Kleene {
		if r.IntN(2) == 0 {
			return logic.True
		}
		return logic.Unknown
	}
	for _, p := range voc.Preds() {
		if r.IntN(3) == 0 {
			continue
		}
		if p.Arity >= 3 {
			if n == 0 {
				continue
			}
			args := make([]int, p.Arity)
			for range r.IntN(6) {
				for j := range args {
					args[j] = r.IntN(n)
				}
				s.Set(p, val(), args...)
			}
			continue
		}
		if p == voc.Summary() {
			for u := 0; u < n; u++ {
				s.SetSummary(u, r.Float64() < density)
			}
			continue
		}
		for args := range tvl.Tuples(n, p.Arity) {
			if r.Float64() < density {
				s.Set(p, val(), args...)
			}
		}
	}
	return s
}

// A packed structure unpacks to an equal, frozen structure, which packs
// to the same bytes: over vocabularies with every arity, universes of 0
// to 130 individuals (one, two and three words a row), sparse and dense.
func TestPackRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 1))
	for _, voc := range []*tvl.Vocabulary{testgen.Vocabulary(), wideVocabulary()} {
		for _, n := range []int{0, 1, 2, 7, 8, 9, 13, 63, 64, 65, 130} {
			for _, density := range []float64{0, 0.02, 0.3, 0.9} {
				for range 4 {
					s := sparseStructure(r, voc, n, density)
					checkRoundTrip(t, voc, s)
				}
			}
		}
		for range 200 {
			s := testgen.Structure(r, voc, r.IntN(6), r.IntN(2) == 0)
			checkRoundTrip(t, voc, s)
		}
	}
}

func checkRoundTrip(t *testing.T, voc *tvl.Vocabulary, s *tvl.Structure) {
	t.Helper()
	p := s.Pack()
	u := p.Unpack(voc)
	if !tvl.Equal(s, u) {
		t.Fatalf("unpacked structure differs:\n%s\nagainst\n%s", s, u)
	}
	if !u.Frozen() {
		t.Fatal("an unpacked structure is not frozen")
	}
	if q := u.Pack(); q != p {
		t.Fatalf("packing the unpacked structure gave other bytes (%d against %d)", q.Len(), p.Len())
	}
	if p.Size() != s.Size() {
		t.Fatalf("Size %d, want %d", p.Size(), s.Size())
	}
	if s.OrderedHash() != u.OrderedHash() || s.Hash() != u.Hash() {
		t.Fatal("an unpacked structure hashes differently")
	}
	for _, q := range voc.OfArity(1) {
		want := false
		for u := 0; u < s.Size(); u++ {
			want = want || s.Get(q, u) == logic.True
		}
		if p.UnaryTrue(voc, q.Index) != want {
			t.Fatalf("UnaryTrue(%s) = %v, want %v:\n%s", q.Name, !want, want, s)
		}
	}
}

// Structures are equal exactly when their packings are: on random pairs
// of tiny structures (so that equal pairs are frequent), and on equal
// structures reached by different routes (a clone written and written
// back, tables owned against shared, Project and Merge that change
// nothing).
func TestPackIsCanonical(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 2))
	voc := tvl.NewVocabulary()
	voc.MustAdd("x", 1)
	voc.MustAdd("n", 2)
	equal := 0
	for range 2000 {
		a, b := sparseStructure(r, voc, r.IntN(3), 0.3), sparseStructure(r, voc, r.IntN(3), 0.3)
		if tvl.Equal(a, b) != (a.Pack() == b.Pack()) {
			t.Fatalf("Equal %v but packings equal %v:\n%s\nand\n%s", tvl.Equal(a, b), a.Pack() == b.Pack(), a, b)
		}
		if tvl.Equal(a, b) {
			equal++
		}
	}
	if equal < 100 {
		t.Fatalf("only %d equal pairs: the test does not test equality", equal)
	}
	wide := wideVocabulary()
	for range 50 {
		s := sparseStructure(r, wide, 1+r.IntN(70), 0.1)
		s.Freeze()
		for _, other := range equalCopies(r, wide, s) {
			if !tvl.Equal(s, other) {
				t.Fatal("the test's copy is not equal")
			}
			if other.Pack() != s.Pack() {
				t.Fatalf("equal structures packed differently:\n%s", s)
			}
		}
	}
}

// equalCopies makes structures equal to s by other routes.
func equalCopies(r *rand.Rand, voc *tvl.Vocabulary, s *tvl.Structure) []*tvl.Structure {
	n := s.Size()
	// Written and written back: tables owned by the copy, with the same
	// values (a binary table of zeros owned instead of shared).
	c := s.Clone()
	for _, p := range voc.Preds() {
		if p.Arity == 0 || p.Arity > 2 || p == voc.Summary() {
			continue
		}
		args := make([]int, p.Arity)
		for j := range args {
			args[j] = r.IntN(n)
		}
		old := c.Get(p, args...)
		c.Set(p, logic.Unknown, args...)
		c.Set(p, old, args...)
	}
	keep := make([]int, n)
	classes := make([]int, n)
	for u := range keep {
		keep[u], classes[u] = u, u
	}
	return []*tvl.Structure{c, s.Project(keep), tvl.Merge(s, classes, n), s.Pack().Unpack(voc)}
}

// Structures unpacked from equal tuples share their binary tables, and
// a structure that writes a shared table writes its own copy.
func TestUnpackSharesBinaryTables(t *testing.T) {
	voc := tvl.NewVocabulary()
	n := voc.MustAdd("n", 2)
	s := tvl.NewSized(voc, 3, n)
	s.Set(n, logic.True, 0, 1)
	s.Set(n, logic.Unknown, 1, 2)
	p := s.Pack()
	a, b := p.Unpack(voc), p.Unpack(voc)
	c := b.Clone()
	c.Set(n, logic.False, 0, 1)
	if a.Get(n, 0, 1) != logic.True || b.Get(n, 0, 1) != logic.True || c.Get(n, 0, 1) != logic.False {
		t.Fatal("writing a clone of an unpacked structure changed the others")
	}
	if a.Footprint() >= s.Footprint() {
		t.Errorf("an unpacked structure counts its shared table: %d bytes against %d", a.Footprint(), s.Footprint())
	}
}
