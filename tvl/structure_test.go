package tvl_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tvla-go/tvla/internal/testgen"
	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/tvl"
)

func TestCloneIsCopyOnWrite(t *testing.T) {
	voc := listVocabulary()
	x, next := voc.Lookup("x"), voc.Lookup("next")
	a := list(voc, 3, [][2]int{{0, 1}, {1, 2}})
	b := a.Clone()
	b.Set(next, logic.Unknown, 2, 0)
	b.Set(x, logic.False, 0)
	if a.Get(next, 2, 0) != logic.False || a.Get(x, 0) != logic.True {
		t.Fatal("writing the clone changed the original")
	}
	// Writing the original after cloning leaves the clone alone too.
	c := a.Clone()
	a.Set(next, logic.True, 0, 0)
	if c.Get(next, 0, 0) != logic.False {
		t.Fatal("writing the original changed the clone")
	}
	if !tvl.Equal(c, list(voc, 3, [][2]int{{0, 1}, {1, 2}})) {
		t.Fatal("clone differs from a fresh copy")
	}
	a.Freeze()
	defer func() {
		if recover() == nil {
			t.Error("writing a frozen structure did not panic")
		}
	}()
	a.Set(x, logic.True, 1)
}

func TestGrowingPastAWord(t *testing.T) {
	voc := listVocabulary()
	next := voc.Lookup("next")
	s := tvl.New(voc)
	for i := 0; i < 130; i++ {
		s.AddIndividual()
		if i > 0 {
			s.Set(next, logic.True, i-1, i)
		}
	}
	s.Set(next, logic.Unknown, 129, 0)
	for i := 0; i+1 < 130; i++ {
		if s.Get(next, i, i+1) != logic.True || s.Get(next, i+1, i) != logic.False {
			t.Fatalf("edge %d lost after growth", i)
		}
	}
	if got := mustCompile(t, mustParse(t, "next+(a, b)"), voc, "a", "b").Eval(s, 5, 3); got != logic.Unknown {
		t.Errorf("next+(u5, u3) = %v, want 1/2 through the 1/2 back edge", got)
	}
}

func TestDuplicateCopiesEveryTuple(t *testing.T) {
	voc := testgen.Vocabulary()
	r := rand.New(rand.NewPCG(5, 5))
	for i := 0; i < 100; i++ {
		s := testgen.Structure(r, voc, 1+r.IntN(4), false)
		u := r.IntN(s.Size())
		d := s.Clone()
		c := d.Duplicate(u)
		// Mapping c back to u embeds d into s with equal values: every
		// tuple of d has exactly the value of its image.
		back := func(w int) int {
			if w == c {
				return u
			}
			return w
		}
		for _, p := range voc.Preds() {
			args := make([]int, p.Arity)
			testgen.Assignments(p.Arity, d.Size(), func(asg []int) {
				for j, w := range asg {
					args[j] = back(w)
				}
				if d.Get(p, asg...) != s.Get(p, args...) {
					t.Fatalf("%s%v = %v after Duplicate(u%d), original %v", p.Name, asg, d.Get(p, asg...), u, s.Get(p, args...))
				}
			})
		}
	}
}

// permuted returns s with individual i renamed to perm[i].
func permuted(s *tvl.Structure, perm []int) *tvl.Structure {
	keep := make([]int, len(perm))
	for i, p := range perm {
		keep[p] = i
	}
	return s.Project(keep)
}

func allPerms(n int, f func([]int) bool) {
	p := make([]int, n)
	used := make([]bool, n)
	var rec func(i int) bool
	rec = func(i int) bool {
		if i == n {
			return f(p)
		}
		for v := 0; v < n; v++ {
			if !used[v] {
				used[v], p[i] = true, v
				if !rec(i + 1) {
					return false
				}
				used[v] = false
			}
		}
		return true
	}
	rec(0)
}

func TestHashAndIsomorphism(t *testing.T) {
	voc := testgen.Vocabulary()
	r := rand.New(rand.NewPCG(9, 9))
	for i := 0; i < 300; i++ {
		n := r.IntN(5)
		s := testgen.Structure(r, voc, n, r.IntN(2) == 0)
		perm := r.Perm(n)
		p := permuted(s, perm)
		if s.Hash() != p.Hash() {
			t.Fatalf("a renumbering changed the hash")
		}
		m, ok := tvl.Isomorphic(s, p)
		if !ok {
			t.Fatalf("a structure is not isomorphic to its renumbering %v", perm)
		}
		if !tvl.Equal(permuted(s, m), p) {
			t.Fatalf("Isomorphic returned a wrong mapping %v", m)
		}
		// Change one value and compare with a brute-force search over
		// every renumbering.
		q := p.Clone()
		if n > 0 {
			pr := voc.Preds()[1+r.IntN(len(voc.Preds())-1)]
			args := make([]int, pr.Arity)
			for j := range args {
				args[j] = r.IntN(n)
			}
			q.Set(pr, (q.Get(pr, args...)+1)%3, args...)
		}
		brute := false
		allPerms(n, func(perm []int) bool {
			brute = tvl.Equal(permuted(s, perm), q)
			return !brute
		})
		_, ok = tvl.Isomorphic(s, q)
		if ok != brute {
			t.Fatalf("Isomorphic = %v, brute force = %v", ok, brute)
		}
		if brute && s.Hash() != q.Hash() {
			t.Fatal("isomorphic structures hash differently")
		}
	}
}

func TestPrintIsTVS(t *testing.T) {
	voc := listVocabulary()
	voc.MustAdd("flag", 0)
	s := list(voc, 2, [][2]int{{0, 1}})
	s.SetSummary(1, true)
	s.Set(voc.Lookup("next"), logic.Unknown, 1, 1)
	s.Set(voc.Lookup("flag"), logic.Unknown)
	want := `%n = {u0, u1}
%p = {
  flag = 1/2
  sm = {u1:1/2}
  node = {u0, u1}
  x = {u0}
  next = {u0->u1, u1->u1:1/2}
}
`
	if got := s.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// Changed names what a trace step changed: the size first, then the
// predicates whose values differ, in declaration order.
func TestChanged(t *testing.T) {
	voc := listVocabulary()
	voc.MustAdd("flag", 0)
	voc.MustAdd("between", 3)
	a := list(voc, 2, [][2]int{{0, 1}})
	if got := tvl.Changed(a, a.Clone()); len(got) != 0 {
		t.Errorf("a structure and its clone: changed %q, want nothing", got)
	}
	b := a.Clone()
	b.Set(voc.Lookup("next"), logic.Unknown, 1, 1)
	b.Set(voc.Lookup("flag"), logic.True)
	b.Set(voc.Lookup("between"), logic.True, 0, 1, 0)
	if got, want := tvl.Changed(a, b), []string{"next", "flag", "between"}; !slices.Equal(got, want) {
		t.Errorf("changed %q, want %q", got, want)
	}
	c := a.Clone()
	c.AddIndividual()
	if got, want := tvl.Changed(a, c), []string{"2→3 individuals"}; !slices.Equal(got, want) {
		t.Errorf("a new individual with no value: changed %q, want %q", got, want)
	}
	c.Set(voc.Lookup("x"), logic.True, 2)
	if got, want := tvl.Changed(a, c), []string{"2→3 individuals", "x"}; !slices.Equal(got, want) {
		t.Errorf("changed %q, want %q", got, want)
	}
}

// Clones share tables and the arrays of them until one writes: random
// writes, new individuals and bifurcations on a structure and its clones
// (and clones of clones) change exactly the one written, checked against
// independent copies that had the same writes.
func TestClonesStayIndependent(t *testing.T) {
	voc := testgen.Vocabulary()
	preds := voc.Preds()
	r := rand.New(rand.NewPCG(21, 11))
	for i := 0; i < 200; i++ {
		base := testgen.Structure(r, voc, 1+r.IntN(4), false)
		all := func(s *tvl.Structure) []int {
			keep := make([]int, s.Size())
			for u := range keep {
				keep[u] = u
			}
			return keep
		}
		live := []*tvl.Structure{base}
		shadow := []*tvl.Structure{base.Project(all(base))}
		for step := 0; step < 12; step++ {
			k := r.IntN(len(live))
			switch op := r.IntN(5); {
			case op == 0 && len(live) < 5:
				live = append(live, live[k].Clone())
				shadow = append(shadow, shadow[k].Project(all(shadow[k])))
			case op == 1:
				live[k].AddIndividual()
				shadow[k].AddIndividual()
			case op == 2:
				u := r.IntN(live[k].Size())
				live[k].Duplicate(u)
				shadow[k].Duplicate(u)
			default:
				p := preds[r.IntN(len(preds))]
				args := make([]int, p.Arity)
				for j := range args {
					args[j] = r.IntN(live[k].Size())
				}
				v := logic.Kleene(r.IntN(3))
				live[k].Set(p, v, args...)
				shadow[k].Set(p, v, args...)
			}
			for j := range live {
				if !tvl.Equal(live[j], shadow[j]) {
					t.Fatalf("case %d, step %d: structure %d is\n%s\nbut its independent copy is\n%s", i, step, j, live[j], shadow[j])
				}
			}
		}
	}
}

// TestNewSizedIsRepeatedAdd checks that NewSized gives what as many
// AddIndividual calls give, whether or not a binary predicate was named
// as written, and that writing one that was not leaves other structures'
// tables of zeros alone.
func TestNewSizedIsRepeatedAdd(t *testing.T) {
	voc := tvl.NewVocabulary()
	x := voc.MustAdd("x", 1)
	next := voc.MustAdd("next", 2)
	other := voc.MustAdd("other", 2)
	for _, n := range []int{0, 1, 63, 64, 65, 130} {
		want := tvl.New(voc)
		for range n {
			want.AddIndividual()
		}
		a, b := tvl.NewSized(voc, n, next), tvl.NewSized(voc, n)
		if !tvl.Equal(a, want) || !tvl.Equal(b, want) {
			t.Fatalf("n=%d: NewSized differs from %d AddIndividual calls", n, n)
		}
		if n == 0 {
			continue
		}
		for _, s := range []*tvl.Structure{a, b, want} {
			s.Set(x, logic.True, 0)
			s.Set(next, logic.Unknown, 0, n-1)
			s.Set(other, logic.True, n-1, 0)
		}
		if !tvl.Equal(a, want) || !tvl.Equal(b, want) {
			t.Fatalf("n=%d: after writes, NewSized's structure differs", n)
		}
		if c := tvl.NewSized(voc, n); c.Get(other, n-1, 0) != logic.False || c.Get(next, 0, n-1) != logic.False {
			t.Fatalf("n=%d: a write reached another structure's table of zeros", n)
		}
		if s := a.AddIndividual(); a.Get(next, 0, n-1) != logic.Unknown || a.Get(next, s, s) != logic.False {
			t.Fatalf("n=%d: growing NewSized's structure lost a value", n)
		}
	}
}

// TableBytes counts two planes per unary and binary predicate and
// saturates instead of overflowing.
func TestTableBytes(t *testing.T) {
	voc := tvl.NewVocabulary()
	voc.MustAdd("b", 0)
	voc.MustAdd("x", 1) // with sm: two unary predicates
	voc.MustAdd("n", 2)
	voc.MustAdd("r", 3) // sparse: not counted
	for _, c := range []struct {
		n    int
		want uint64
	}{{0, 0}, {1, 2 * 8 * (2 + 1)}, {64, 2 * 8 * (2 + 64)}, {65, 2 * 8 * 2 * (2 + 65)}, {400000, 2 * 8 * 6250 * (2 + 400000)}} {
		if got := tvl.TableBytes(voc, c.n); got != c.want {
			t.Errorf("TableBytes(%d) = %d, want %d", c.n, got, c.want)
		}
	}
	if got := tvl.TableBytes(voc, 1<<62); got != math.MaxUint64 {
		t.Errorf("TableBytes(2^62) = %d, want saturation", got)
	}
}
