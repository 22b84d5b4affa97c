package tvl_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/tvla-go/tvla/internal/testgen"

	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/tvl"
)

// benchList is a list of n nodes, x at the head, with a 1/2 back edge so
// that closures see both planes. It is connected: every node is reached
// by a path of definite edges.
func benchList(n int) *tvl.Structure {
	voc := listVocabulary()
	edges := make([][2]int, 0, n)
	for i := 0; i+1 < n; i++ {
		edges = append(edges, [2]int{i, i + 1})
	}
	s := list(voc, n, edges)
	s.Set(voc.Lookup("next"), logic.Unknown, n-1, n/2)
	return s
}

// BenchmarkTransitiveClosure evaluates connectedness (a closed formula
// with next*) and a general TC over a formula body, each on a fresh
// binding so the closure is computed every time.
func BenchmarkTransitiveClosure(b *testing.B) {
	for _, n := range []int{8, 32, 128} {
		s := benchList(n)
		voc := s.Vocabulary()
		for name, text := range map[string]string{
			"star":    "A(v2) E(v1) x(v1) & next*(v1, v2)",
			"general": "A(v2) E(v1) x(v1) & (v1 == v2 | TC(v1, v2)(a, c) next(a, c) & node(c))",
		} {
			c := mustCompile(b, mustParse(b, text), voc)
			b.Run(fmt.Sprintf("%s/n=%d", name, n), func(b *testing.B) {
				for b.Loop() {
					if c.Eval(s) != logic.True {
						b.Fatal("unexpected value")
					}
				}
			})
		}
	}
}

// BenchmarkForEach visits every assignment of two free variables (n^2 of
// them), the loop Focus and action preconditions run.
func BenchmarkForEach(b *testing.B) {
	for _, n := range []int{8, 32, 128} {
		s := benchList(n)
		c := mustCompile(b, mustParse(b, "next(v1, v2) | x(v1)"), s.Vocabulary(), "v1", "v2")
		bound := c.Bind(s)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			for b.Loop() {
				count := 0
				bound.ForEach(func(_ []int, v logic.Kleene) bool {
					if v != logic.False {
						count++
					}
					return true
				})
				if count == 0 {
					b.Fatal("no assignment holds")
				}
			}
		})
	}
}

// BenchmarkClosestKary finds the closest map between random structures
// with a ternary predicate: the search compares every triple of each
// complete map.
func BenchmarkClosestKary(b *testing.B) {
	voc := testgen.Vocabulary()
	r := rand.New(rand.NewPCG(1, 2))
	c := testgen.Structure(r, voc, 6, true)
	a := testgen.Structure(r, voc, 3, false)
	for b.Loop() {
		tvl.Closest(c, a, 200)
	}
}

// BenchmarkKaryGet reads every triple of a ternary predicate.
func BenchmarkKaryGet(b *testing.B) {
	voc := testgen.Vocabulary()
	s := testgen.Structure(rand.New(rand.NewPCG(3, 4)), voc, 12, false)
	t := voc.Lookup("t")
	for b.Loop() {
		count := 0
		for u := range 12 {
			for v := range 12 {
				for w := range 12 {
					if s.Get(t, u, v, w) != logic.False {
						count++
					}
				}
			}
		}
		if count == 0 {
			b.Fatal("t is 0 everywhere")
		}
	}
}

// BenchmarkCloneWriteUnary is what a Focus split or an update does to a
// structure of a model with thousands of unary predicates (the tagged
// queue with its soft invariants has about 3,400): clone a frozen
// structure of 10 individuals and write a few unary values, two of them
// in the same block.
func BenchmarkCloneWriteUnary(b *testing.B) {
	for _, nu := range []int{40, 3400} {
		voc := tvl.NewVocabulary()
		for i := range nu {
			voc.MustAdd(fmt.Sprint("u", i), 1)
		}
		s := tvl.NewSized(voc, 10)
		preds := voc.OfArity(1)
		for i, p := range preds {
			s.Set(p, logic.Kleene(i%3), i%10)
		}
		s.Freeze()
		b.Run(fmt.Sprintf("unary=%d", nu), func(b *testing.B) {
			for b.Loop() {
				c := s.Clone()
				c.Set(preds[1], logic.True, 3)
				c.Set(preds[2], logic.False, 3)
				c.Set(preds[nu/2], logic.Unknown, 4)
				c.Set(preds[nu-1], logic.True, 5)
			}
		})
	}
}
