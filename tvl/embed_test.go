package tvl_test

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/tvla-go/tvla/internal/testgen"
	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/tvl"
)

// figure43 is the abstract configuration of the thesis' Figure 4.3: the
// x-node and a summary node standing for the rest of the list.
func figure43(voc *tvl.Vocabulary) *tvl.Structure {
	s := tvl.New(voc)
	a, b := s.AddIndividual(), s.AddIndividual()
	s.Set(voc.Lookup("node"), logic.True, a)
	s.Set(voc.Lookup("node"), logic.True, b)
	s.Set(voc.Lookup("x"), logic.True, a)
	s.SetSummary(b, true)
	next := voc.Lookup("next")
	s.Set(next, logic.Unknown, a, b)
	s.Set(next, logic.Unknown, b, b)
	return s
}

// The examples of §4.1.2: the 3-list of Figure 4.2 embeds into Figure 4.3
// by {u1 -> u{1}, u2, u3 -> u{2,3}}; a 1-node list does not (no
// surjection), nor does a list whose last node points back to the
// x-node.
func TestEmbeddingThesisExamples(t *testing.T) {
	voc := listVocabulary()
	abs := figure43(voc)
	three := list(voc, 3, [][2]int{{0, 1}, {1, 2}})
	f, out := tvl.Embedding(three, abs, 0)
	if out != tvl.Embeds || !reflect.DeepEqual(f, []int{0, 1, 1}) {
		t.Fatalf("3-list: %v %v, want [0 1 1] Embeds", f, out)
	}
	// Any list of two or more nodes, connected or not.
	for _, c := range []*tvl.Structure{
		list(voc, 2, [][2]int{{0, 1}}),
		list(voc, 4, [][2]int{{0, 1}, {1, 2}, {2, 3}}),
		list(voc, 4, [][2]int{{0, 2}, {3, 3}}),
	} {
		if _, out := tvl.Embedding(c, abs, 0); out != tvl.Embeds {
			t.Errorf("does not embed:\n%s", c)
		}
	}
	for name, c := range map[string]*tvl.Structure{
		"one node":      list(voc, 1, nil),
		"back to x":     list(voc, 3, [][2]int{{0, 1}, {1, 2}, {2, 0}}),
		"x points to x": list(voc, 2, [][2]int{{0, 0}}),
	} {
		if f, out := tvl.Embedding(c, abs, 0); out != tvl.NoEmbedding {
			t.Errorf("%s: embeds by %v", name, f)
		}
	}
	// A non-summary individual takes exactly one: without sm on the
	// second node, only 2-lists embed.
	tight := abs.Clone()
	tight.SetSummary(1, false)
	if _, out := tvl.Embedding(three, tight, 0); out != tvl.NoEmbedding {
		t.Error("two individuals went to one non-summary individual")
	}
	// Every structure embeds into the one-individual structure with every
	// value 1/2 (§4.1.2's second example).
	top := tvl.New(voc)
	u := top.AddIndividual()
	top.SetSummary(u, true)
	top.Set(voc.Lookup("node"), logic.Unknown, u)
	top.Set(voc.Lookup("x"), logic.Unknown, u)
	top.Set(voc.Lookup("next"), logic.Unknown, u, u)
	if f, out := tvl.Embedding(list(voc, 3, [][2]int{{2, 0}}), top, 0); out != tvl.Embeds || !reflect.DeepEqual(f, []int{0, 0, 0}) {
		t.Errorf("into the top structure: %v %v", f, out)
	}
	// The empty structure embeds only into the empty one.
	if _, out := tvl.Embedding(tvl.New(voc), tvl.New(voc), 0); out != tvl.Embeds {
		t.Error("empty into empty")
	}
	if _, out := tvl.Embedding(tvl.New(voc), abs, 0); out != tvl.NoEmbedding {
		t.Error("empty into non-empty")
	}
}

// bruteEmbeds tries every map: the oracle for small structures.
func bruteEmbeds(c, a *tvl.Structure) bool {
	return bruteMin(c, a) == 0
}

// bruteMin is the fewest mismatches over every map, counted as Closest
// counts them.
func bruteMin(c, a *tvl.Structure) int {
	best := -1
	testgen.Assignments(c.Size(), a.Size(), func(f []int) {
		_, ms := closestUnder(c, a, f)
		if best < 0 || ms < best {
			best = ms
		}
	})
	if c.Size() > 0 && a.Size() == 0 {
		_, ms := tvl.Closest(c, a, 0)
		return len(ms)
	}
	if c.Size() == 0 {
		_, ms := tvl.Closest(c, a, 0)
		return len(ms)
	}
	return best
}

// closestUnder counts the mismatches of one map by the definition.
func closestUnder(c, a *tvl.Structure, f []int) ([]int, int) {
	voc := c.Vocabulary()
	leq := func(x, y logic.Kleene) bool { return x == y || y == logic.Unknown }
	k := 0
	for _, p := range voc.Preds() {
		testgen.Assignments(p.Arity, c.Size(), func(args []int) {
			img := make([]int, len(args))
			for i, u := range args {
				img[i] = f[u]
			}
			if !leq(c.Get(p, args...), a.Get(p, img...)) {
				k++
			}
		})
	}
	hit := make([]int, a.Size())
	for _, w := range f {
		hit[w]++
	}
	for w, h := range hit {
		switch {
		case h == 0:
			k++
		case h > 1 && !a.IsSummary(w):
			k += h - 1
		}
	}
	return f, k
}

// Embedding agrees with trying every map, on random small structures: a
// random structure against random merges of it (which it embeds into),
// the same merges with one value changed, and unrelated structures. Closest
// finds the minimum number of mismatches.
func TestEmbeddingAgreesWithBruteForce(t *testing.T) {
	voc := testgen.Vocabulary()
	r := rand.New(rand.NewPCG(10, 4))
	embeds, fails := 0, 0
	for i := 0; i < 400; i++ {
		n := r.IntN(5)
		c := testgen.Structure(r, voc, n, i%2 == 0)
		var a *tvl.Structure
		switch i % 3 {
		case 0:
			a = testgen.Structure(r, voc, r.IntN(4), false)
		default:
			k := 1 + r.IntN(max(n, 1))
			if n == 0 {
				k = 0
			}
			classOf := make([]int, n)
			for u := range classOf {
				classOf[u] = u % max(k, 1)
			}
			r.Shuffle(len(classOf), func(x, y int) { classOf[x], classOf[y] = classOf[y], classOf[x] })
			a = tvl.Merge(c, classOf, k)
			if i%3 == 2 && k > 0 {
				// Change one definite value.
				p := voc.Preds()[1+r.IntN(len(voc.Preds())-1)]
				args := make([]int, p.Arity)
				for j := range args {
					args[j] = r.IntN(k)
				}
				if v := a.Get(p, args...); v != logic.Unknown {
					a.Set(p, 2-v, args...)
				}
			}
		}
		want := bruteEmbeds(c, a)
		f, out := tvl.Embedding(c, a, 0)
		if (out == tvl.Embeds) != want {
			t.Fatalf("case %d: Embedding says %v, brute force %v\nc:\n%s\na:\n%s", i, out, want, c, a)
		}
		if out == tvl.Embeds {
			embeds++
			if _, k := closestUnder(c, a, f); k != 0 {
				t.Fatalf("case %d: the map %v has %d mismatches", i, f, k)
			}
		} else {
			fails++
		}
		cf, ms := tvl.Closest(c, a, 0)
		if min := bruteMin(c, a); len(ms) != min {
			t.Fatalf("case %d: Closest found %d mismatches (%v), the minimum is %d\nc:\n%s\na:\n%s", i, len(ms), ms, min, c, a)
		}
		if c.Size() > 0 && a.Size() > 0 {
			if _, k := closestUnder(c, a, cf); k != len(ms) {
				t.Fatalf("case %d: Closest's map has %d mismatches, it lists %d", i, k, len(ms))
			}
		}
	}
	if embeds < 50 || fails < 50 {
		t.Errorf("too few of one kind: %d embed, %d do not", embeds, fails)
	}
}

// Canonical abstraction is an embedding: every structure embeds into its
// blur. Checked on larger random two-valued structures (up to 9
// individuals), where trying every map would be too slow.
func TestEveryStructureEmbedsIntoItsMerge(t *testing.T) {
	voc := testgen.Vocabulary()
	r := rand.New(rand.NewPCG(3, 9))
	for i := 0; i < 200; i++ {
		n := 1 + r.IntN(9)
		c := testgen.Structure(r, voc, n, true)
		// Group by the values of x and y, as Blur with those two would.
		classOf := make([]int, n)
		ids := map[[2]logic.Kleene]int{}
		for u := 0; u < n; u++ {
			key := [2]logic.Kleene{c.Get(voc.Lookup("x"), u), c.Get(voc.Lookup("y"), u)}
			if _, ok := ids[key]; !ok {
				ids[key] = len(ids)
			}
			classOf[u] = ids[key]
		}
		a := tvl.Merge(c, classOf, len(ids))
		f, out := tvl.Embedding(c, a, 0)
		if out != tvl.Embeds {
			t.Fatalf("case %d: does not embed into its merge\n%s\n%s", i, c, a)
		}
		if _, k := closestUnder(c, a, f); k != 0 {
			t.Fatalf("case %d: the map has %d mismatches", i, k)
		}
	}
}

// A step budget turns a long search into Undecided instead of a wrong
// answer.
func TestEmbeddingStepBudget(t *testing.T) {
	voc := listVocabulary()
	abs := figure43(voc)
	c := list(voc, 8, [][2]int{{0, 1}, {1, 2}, {2, 0}})
	if _, out := tvl.Embedding(c, abs, 0); out != tvl.NoEmbedding {
		t.Fatalf("unbounded: %v", out)
	}
	// Several summary targets make the search branch.
	wide := tvl.New(voc)
	for i := 0; i < 4; i++ {
		u := wide.AddIndividual()
		wide.SetSummary(u, true)
		wide.Set(voc.Lookup("node"), logic.Unknown, u)
	}
	wide.Set(voc.Lookup("x"), logic.Unknown, 0)
	long := list(voc, 10, nil)
	long.Set(voc.Lookup("x"), logic.False, 0)
	if _, out := tvl.Embedding(long, wide, 3); out != tvl.Undecided {
		t.Errorf("with 3 steps: %v, want Undecided", out)
	}
	if _, out := tvl.Embedding(long, wide, 0); out != tvl.Embeds {
		t.Errorf("without a budget: %v, want Embeds", out)
	}
}

func TestMismatchText(t *testing.T) {
	voc := listVocabulary()
	abs := figure43(voc)
	c := list(voc, 3, [][2]int{{0, 1}, {1, 2}, {2, 0}})
	f, ms := tvl.Closest(c, abs, 0)
	if !reflect.DeepEqual(f, []int{0, 1, 1}) || len(ms) != 1 {
		t.Fatalf("map %v, mismatches %v", f, ms)
	}
	if got, want := ms[0].String(), "next(u2, u0) is 1 in the concrete structure, but next(u1, u0) is 0 in the abstract one"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	_, ms = tvl.Closest(list(voc, 1, nil), abs, 0)
	if len(ms) != 1 || ms[0].String() != "abstract u1 receives no individual" {
		t.Errorf("one node: %v", ms)
	}
}

// CopyPred shares a frozen structure's table until the copy writes it.
func TestCopyPred(t *testing.T) {
	voc := listVocabulary()
	next := voc.Lookup("next")
	a := list(voc, 3, [][2]int{{0, 1}, {1, 2}})
	a.Freeze()
	b := list(voc, 3, nil)
	b.CopyPred(next, a)
	if b.Get(next, 0, 1) != logic.True || b.Get(next, 1, 2) != logic.True {
		t.Fatalf("not copied:\n%s", b)
	}
	b.Set(next, logic.False, 0, 1)
	if a.Get(next, 0, 1) != logic.True {
		t.Error("writing the copy changed the original")
	}
	// From a writable structure the table is copied at once.
	c := list(voc, 3, [][2]int{{2, 0}})
	d := list(voc, 3, nil)
	d.CopyPred(next, c)
	c.Set(next, logic.False, 2, 0)
	if d.Get(next, 2, 0) != logic.True {
		t.Error("writing the original changed the copy")
	}
}

// Merge gives each tuple of groups exactly the join of its members'
// values (1 only if all are 1, 0 only if all are 0), and marks groups of
// two or more summary: checked against that definition on random
// three-valued structures and random groupings.
func TestMergeJoinsEachGroup(t *testing.T) {
	voc := testgen.Vocabulary()
	r := rand.New(rand.NewPCG(11, 70))
	for i := 0; i < 300; i++ {
		n := 1 + r.IntN(9)
		c := testgen.Structure(r, voc, n, i%3 == 0)
		k := 1 + r.IntN(n)
		classOf := make([]int, n)
		for u := range classOf {
			classOf[u] = u % k // every group non-empty
		}
		r.Shuffle(n, func(a, b int) { classOf[a], classOf[b] = classOf[b], classOf[a] })
		m := tvl.Merge(c, classOf, k)
		for _, p := range voc.Preds() {
			testgen.Assignments(p.Arity, k, func(group []int) {
				var want logic.Kleene
				first := true
				testgen.Assignments(p.Arity, n, func(member []int) {
					for x, u := range member {
						if classOf[u] != group[x] {
							return
						}
					}
					v := c.Get(p, member...)
					if first {
						want, first = v, false
					} else if v != want {
						want = logic.Unknown
					}
				})
				if p == voc.Summary() {
					size := 0
					for _, j := range classOf {
						if j == group[0] {
							size++
						}
					}
					if size > 1 {
						want = logic.Unknown
					}
				}
				if got := m.Get(p, group...); got != want {
					t.Fatalf("case %d: %s%v is %v, the join of its members is %v\n%s\nclasses %v", i, p.Name, group, got, want, c, classOf)
				}
			})
		}
	}
}

// JoinPointwise makes exactly the values of a that are definite and
// differ from b's 1/2, and reports whether there were any; checked on
// random structures of every arity, some of 64 individuals or more.
func TestJoinPointwise(t *testing.T) {
	voc := testgen.Vocabulary()
	r := rand.New(rand.NewPCG(5, 17))
	grew := 0
	for i := 0; i < 200; i++ {
		n := 1 + r.IntN(6)
		if i%10 == 0 {
			n = 60 + r.IntN(10)
		}
		a := testgen.Structure(r, voc, n, i%2 == 0)
		b := a.Clone()
		for range r.IntN(4) {
			p := voc.Preds()[r.IntN(len(voc.Preds()))]
			args := make([]int, p.Arity)
			for x := range args {
				args[x] = r.IntN(n)
			}
			b.Set(p, logic.Kleene(r.IntN(3)), args...)
		}
		a.Freeze()
		b.Freeze()
		j, changed := tvl.JoinPointwise(a, b)
		differs := false
		for _, p := range voc.Preds() {
			if n >= 60 && p.Arity == 3 {
				continue // too many tuples to enumerate; the small cases cover it
			}
			testgen.Assignments(p.Arity, n, func(args []int) {
				x, y := a.Get(p, args...), b.Get(p, args...)
				want := x
				if x != y && x != logic.Unknown {
					want, differs = logic.Unknown, true
				}
				if got := j.Get(p, args...); got != want {
					t.Fatalf("case %d: %s%v = %v, want %v (a %v, b %v)", i, p.Name, args, got, want, x, y)
				}
			})
		}
		if n < 60 && changed != differs {
			t.Fatalf("case %d: changed = %v, want %v", i, changed, differs)
		}
		if changed {
			grew++
		}
	}
	if grew < 50 {
		t.Errorf("only %d of 200 joins grew", grew)
	}
}

// Merged structures share their tables of zeros; a write to one copies
// it first, so the others still read 0.
func TestMergeSharesZerosSafely(t *testing.T) {
	voc := testgen.Vocabulary()
	x, n := voc.Lookup("x"), voc.Lookup("n")
	s := tvl.New(voc)
	for range 3 {
		s.AddIndividual()
	}
	a := tvl.Merge(s, []int{0, 1, 1}, 2)
	b := tvl.Merge(s, []int{0, 0, 1}, 2)
	a.Set(x, logic.True, 1)
	a.Set(n, logic.Unknown, 0, 1)
	for _, c := range []*tvl.Structure{b, tvl.Merge(s, []int{0, 1, 0}, 2)} {
		for u := 0; u < 2; u++ {
			if c.Get(x, u) != logic.False || c.Get(n, 0, u) != logic.False {
				t.Fatalf("a write to one merge shows in another:\n%s", c)
			}
		}
	}
	if a.Get(x, 1) != logic.True || a.Get(n, 0, 1) != logic.Unknown {
		t.Fatalf("the write was lost:\n%s", a)
	}
}

// An individual that may not exist (ac at 1/2) needs no preimage; one that
// exists does.
func TestEmbeddingOptional(t *testing.T) {
	v := tvl.NewVocabulary()
	x, ac := v.MustAdd("x", 1), v.MustAdd("ac", 1)
	a := tvl.New(v)
	u, w := a.AddIndividual(), a.AddIndividual()
	a.Set(x, logic.True, u)
	a.Set(ac, logic.True, u)
	a.Set(ac, logic.Unknown, w)
	c := tvl.New(v)
	cu := c.AddIndividual()
	c.Set(x, logic.True, cu)
	c.Set(ac, logic.True, cu)
	if _, out := tvl.Embedding(c, a, 0); out != tvl.NoEmbedding {
		t.Errorf("Embedding: %v, want none (w is not hit)", out)
	}
	if _, out := tvl.EmbeddingOptional(c, a, 0, ac); out != tvl.Embeds {
		t.Errorf("EmbeddingOptional: %v, want an embedding", out)
	}
	a.Set(ac, logic.True, w)
	if _, out := tvl.EmbeddingOptional(c, a, 0, ac); out != tvl.NoEmbedding {
		t.Errorf("EmbeddingOptional with w existing: %v, want none", out)
	}
	if _, out := tvl.EmbeddingOptional(tvl.New(v), a, 0, ac); out != tvl.NoEmbedding {
		t.Errorf("the empty structure embeds where u exists")
	}
}
