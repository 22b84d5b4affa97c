package tvl_test

import (
	"fmt"
	"testing"

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
