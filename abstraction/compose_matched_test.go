package abstraction_test

import (
	"fmt"
	"testing"

	"github.com/tvla-go/tvla/abstraction"
	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/tvl"
	"github.com/tvla-go/tvla/tvp"
)

// ComposeMatched's matching is the composition's: one tuple per
// individual; every inside individual of every part in some tuple, a
// non-summary one in exactly one; the individual outside all parts
// (outside = 1) exactly where the tuple is all -1; and each individual
// carries the definite unary values of the part individuals it was made
// of. Checked on every pair of components of testdata/decompose's
// two-list inputs, cut by its four names.
func TestComposeMatchedTuples(t *testing.T) {
	voc, names, inputs, outside := twoLists(t)
	checked := 0
	for _, l := range inputs {
		for _, in := range l.Structures {
			comps := abstraction.Decompose(in.Structure, names, outside, abstraction.DecomposeOptions{})
			for i := range names {
				for j := i + 1; j < len(names); j++ {
					parts := []*tvl.Structure{comps[i], comps[j]}
					for _, c := range abstraction.ComposeMatched(parts, []abstraction.Component{names[i], names[j]}, outside, abstraction.DecomposeOptions{}) {
						checkMatching(t, c, parts, outside, voc)
						checked++
					}
				}
			}
		}
	}
	if checked < 20 {
		t.Fatalf("only %d compositions checked", checked)
	}
}

func checkMatching(t *testing.T, c abstraction.Composed, parts []*tvl.Structure, outside *tvl.Pred, voc *tvl.Vocabulary) {
	t.Helper()
	s := c.Structure
	if len(c.Tuples) != s.Size() {
		t.Fatalf("%d tuples for %d individuals", len(c.Tuples), s.Size())
	}
	for i, p := range parts {
		seen := make([]int, p.Size())
		for _, tu := range c.Tuples {
			if tu[i] >= 0 {
				seen[tu[i]]++
			}
		}
		for u := range p.Size() {
			inside := p.Get(outside, u) != logic.True
			summary := p.Get(voc.Summary(), u) != logic.False
			switch {
			case !inside && seen[u] > 0:
				t.Errorf("part %d's outside individual %d in a tuple", i, u)
			case inside && seen[u] == 0:
				t.Errorf("part %d's individual %d in no tuple", i, u)
			case inside && !summary && seen[u] > 1:
				t.Errorf("part %d's non-summary individual %d in %d tuples", i, u, seen[u])
			}
		}
	}
	for a, tu := range c.Tuples {
		all := true
		for i, u := range tu {
			if u < 0 {
				continue
			}
			all = false
			for _, p := range voc.OfArity(1) {
				if v := parts[i].Get(p, u); v != logic.Unknown && p != outside && p != voc.Summary() && s.Get(p, a) != v {
					t.Errorf("individual %d: %s is %v, part %d's individual %d has %v", a, p.Name, s.Get(p, a), i, u, v)
				}
			}
		}
		if (s.Get(outside, a) == logic.True) != all {
			t.Errorf("individual %d: outside %v, tuple %v", a, s.Get(outside, a), tu)
		}
	}
}

// A MembershipCache changes no composition: with one cache shared by
// every composition (as the decomposing engine's feasibility checks
// share one per iteration), each pair of components of the two-list
// inputs, revealed, composes to the same structures and matchings as
// without, in the same order, both ways round.
func TestMembershipCacheComposesTheSame(t *testing.T) {
	_, names, inputs, outside := twoLists(t)
	cache := abstraction.NewMembershipCache()
	compared := 0
	for _, l := range inputs {
		for _, in := range l.Structures {
			comps := abstraction.Decompose(in.Structure, names, outside, abstraction.DecomposeOptions{KeepBinary: true})
			revealed := make([]*tvl.Structure, len(comps))
			for i := range comps {
				revealed[i] = abstraction.Reveal(comps[i], names[i], outside)
			}
			for i := range names {
				for j := range names {
					if i == j {
						continue
					}
					parts := []*tvl.Structure{revealed[i], revealed[j]}
					ns := []abstraction.Component{names[i], names[j]}
					opts := abstraction.DecomposeOptions{KeepBinary: true}
					plain := abstraction.ComposeRevealed(parts, ns, outside, opts)
					cached := abstraction.ComposeRevealedWith(cache, parts, ns, outside, opts)
					if len(plain) != len(cached) {
						t.Fatalf("%s with %s: %d compositions with the cache, %d without", names[i].Name, names[j].Name, len(cached), len(plain))
					}
					for k := range plain {
						if _, same := tvl.Isomorphic(plain[k].Structure, cached[k].Structure); !same || fmt.Sprint(plain[k].Tuples) != fmt.Sprint(cached[k].Tuples) {
							t.Fatalf("%s with %s: composition %d differs with the cache", names[i].Name, names[j].Name, k)
						}
						compared++
					}
				}
			}
		}
	}
	if compared < 40 {
		t.Fatalf("only %d compositions compared", compared)
	}
}

// twoLists loads testdata/decompose's two-list program: its vocabulary,
// its four names compiled, its inputs and the outside predicate.
func twoLists(t testing.TB) (*tvl.Vocabulary, []abstraction.Component, []tvp.TVSLocation, *tvl.Pred) {
	t.Helper()
	const dir = "testdata/decompose/"
	prog, _, err := tvp.LoadProgram(dir+"twolists.tvp", tvp.LoadConfig{})
	if err != nil {
		t.Fatal(err)
	}
	voc := prog.Vocabulary.Tvl()
	var names []abstraction.Component
	for _, d := range prog.DecompNames {
		c, err := abstraction.NewComponent(d.Name, d.Marker.Pred, d.Formula, d.Var, voc)
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, c)
	}
	inputs, err := tvp.LoadTVS(dir+"twolists.tvs", voc, tvp.LoadConfig{})
	if err != nil {
		t.Fatal(err)
	}
	return voc, names, inputs, voc.Lookup("outside")
}

// BenchmarkComposeRevealedWith composes every ordered pair of the
// two-list inputs' revealed components with one cache, as the
// decomposing engine's feasibility checks do within an iteration.
func BenchmarkComposeRevealedWith(b *testing.B) {
	_, names, inputs, outside := twoLists(b)
	opts := abstraction.DecomposeOptions{KeepBinary: true}
	type pair struct {
		parts []*tvl.Structure
		names []abstraction.Component
	}
	var pairs []pair
	for _, l := range inputs {
		for _, in := range l.Structures {
			comps := abstraction.Decompose(in.Structure, names, outside, opts)
			for i := range names {
				for j := range names {
					if i != j {
						pairs = append(pairs, pair{
							[]*tvl.Structure{abstraction.Reveal(comps[i], names[i], outside), abstraction.Reveal(comps[j], names[j], outside)},
							[]abstraction.Component{names[i], names[j]}})
					}
				}
			}
		}
	}
	b.ResetTimer()
	for b.Loop() {
		cache := abstraction.NewMembershipCache()
		for _, p := range pairs {
			abstraction.ComposeRevealedWith(cache, p.parts, p.names, outside, opts)
		}
	}
}
