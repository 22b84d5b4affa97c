package tvl_test

import (
	"math/rand/v2"
	"testing"

	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/tvl"
)

// Closures shared through a ClosureCache give the values computed
// without it: on random structures, on their clones (which share the
// table), and after the table is written in place (the Bound reset, as
// Coerce does after a sharpening), where the cache must not answer with
// the closure of the old contents. Two formulas bound to one structure
// share a cache, as a Coercer's constraints do.
func TestClosureCacheGivesTheComputedClosures(t *testing.T) {
	voc := listVocabulary()
	next := voc.Lookup("next")
	plus, err := tvl.Compile(&logic.Closure{Pred: "next", From: "a", To: "b"}, voc, []logic.Var{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	star, err := tvl.Compile(&logic.Closure{Pred: "next", From: "a", To: "b", Reflexive: true}, voc, []logic.Var{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 23))
	var cc tvl.ClosureCache
	// check compares bp and bs (plus and star bound to s, sharing cc)
	// with fresh bindings that compute their own closures.
	check := func(s *tvl.Structure, bp, bs *tvl.Bound) {
		t.Helper()
		for i, pair := range []struct {
			b *tvl.Bound
			c *tvl.Compiled
		}{{bp, plus}, {bs, star}} {
			want := pair.c.Bind(s)
			for u := range s.Size() {
				for w := range s.Size() {
					if got, exp := pair.b.Eval(u, w), want.Eval(u, w); got != exp {
						t.Fatalf("closure %d at (%d, %d): %v with the cache, %v without", i, u, w, got, exp)
					}
				}
			}
		}
	}
	for range 200 {
		n := 1 + rng.IntN(9)
		s := tvl.New(voc)
		for range n {
			s.AddIndividual()
		}
		values := []logic.Kleene{logic.False, logic.Unknown, logic.True}
		for u := range n {
			for w := range n {
				if rng.IntN(3) == 0 {
					s.Set(next, values[rng.IntN(3)], u, w)
				}
			}
		}
		bp, bs := plus.Bind(s), star.Bind(s)
		bp.ShareClosures(&cc)
		bs.ShareClosures(&cc)
		check(s, bp, bs)
		c := s.Clone()
		bp.Rebind(c)
		bs.Rebind(c)
		check(c, bp, bs)
		// Written in place: the clone owns its copy now; then again.
		for range 2 {
			c.Set(next, values[rng.IntN(3)], rng.IntN(n), rng.IntN(n))
			bp.Reset()
			bs.Reset()
			check(c, bp, bs)
		}
	}
}
