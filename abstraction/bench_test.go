package abstraction_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/tvla-go/tvla/abstraction"
	"github.com/tvla-go/tvla/internal/testgen"
	"github.com/tvla-go/tvla/tvl"
)

// BenchmarkBlur abstracts random two-valued structures of 8, 32 and 128
// individuals (three unary and two binary predicates, as in list
// programs) over two unary abstraction predicates.
func BenchmarkBlur(b *testing.B) {
	voc := tvl.NewVocabulary()
	for _, p := range []string{"x", "y", "z"} {
		voc.MustAdd(p, 1)
	}
	voc.MustAdd("n", 2)
	voc.MustAdd("m", 2)
	abs := []*tvl.Pred{voc.Lookup("x"), voc.Lookup("y")}
	for _, n := range []int{8, 32, 128} {
		s := testgen.Structure(rand.New(rand.NewPCG(1, uint64(n))), voc, n, true)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			for b.Loop() {
				abstraction.Blur(s, abs)
			}
		})
	}
}
