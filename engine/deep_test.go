package engine

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/tvla-go/tvla/internal/testload"
	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/tvl"
)

// deepProgram has a formula nested depth quantifiers deep,
// E(v0) (E(v1) (... x(v0))), as an instrumentation definition, a
// consistency rule, and an action's focus formula, precondition and
// update (issue 19: depth 1,000 took 16 s to load, 3,000 over 30 s).
// alternate alternates E and A.
func deepProgram(depth int, alternate bool) string {
	var b strings.Builder
	for i := 0; i < depth; i++ {
		q := "E"
		if alternate && i%2 == 1 {
			q = "A"
		}
		fmt.Fprintf(&b, "%s(v%d) (", q, i)
	}
	b.WriteString("x(v0)" + strings.Repeat(")", depth))
	f := b.String()
	return `%p x(v) unique
%p z()
%p w()
%i q() = ` + f + `
%r ` + f + ` ==> z()
%%
%action Act() {
  %f { ` + f + ` }
  %p ` + f + `
  { w() = ` + f + ` }
}
%%
L1 Act() L2
`
}

// TestDeepNestingLoadsInLinearTime loads and runs programs with formulas
// 1,000 and 3,000 quantifiers deep under every join mode, counting the
// formula nodes free-variable computations visit: a bounded number of
// times the program's size, where each level used to walk all the levels
// below it (and copy those above). The time bound is only a backstop.
func TestDeepNestingLoadsInLinearTime(t *testing.T) {
	for _, depth := range []int{1000, 3000} {
		for _, alternate := range []bool{false, true} {
			for _, join := range []string{JoinPartial, JoinIndependent, JoinConcrete} {
				t.Run(fmt.Sprintf("depth %d alternate %v join %s", depth, alternate, join), func(t *testing.T) {
					start := time.Now()
					var visits int64
					stop := logic.CountVisits(&visits)
					prog := testload.Text(t, deepProgram(depth, alternate))
					e, err := New(prog, Options{Join: join, Differencing: true})
					stop()
					if err != nil {
						t.Fatal(err)
					}
					// Six formulas of depth+1 nodes each, and the
					// constraints and updates derived from them.
					if limit := int64(200 * depth); visits > limit {
						t.Errorf("free-variable computations visited %d formula nodes, more than %d", visits, limit)
					}
					s := tvl.New(prog.Vocabulary.Tvl())
					u := s.AddIndividual()
					voc := s.Vocabulary()
					s.Set(voc.Lookup("x"), logic.True, u)
					s.Set(voc.Lookup("z"), logic.True)
					s.Set(voc.Lookup("q"), logic.True)
					res, err := e.Run(context.Background(), []*tvl.Structure{s})
					if err != nil {
						t.Fatal(err)
					}
					if n := res.Location("L2").Structures.Len(); n != 1 {
						t.Errorf("%d structures at L2, want 1", n)
					}
					// The visit count above is the linearity check; the clock
					// only catches a hang (the cubic algorithm took minutes),
					// with room for the race detector on a loaded machine.
					if d := time.Since(start); d > 60*time.Second {
						t.Errorf("took %v", d)
					}
					t.Logf("%d visits, %v", visits, time.Since(start))
				})
			}
		}
	}
}

// TestDeepNestingIndependentBuildsInLinearSpace builds the engine for
// --join ind, whose relativized formulas interleave the quantifiers of a
// nest with conjuncts, at depths 1,000 and 3,000, and compares what each
// build allocates: three times the depth must cost about three times as
// much, not nine. Compiling each conjunct of the relativized rule over
// all the loop's variables, and splitting each quantifier's body into
// disjuncts by walking every level below it, were quadratic: depth 3,000
// took 12.6 s and 1.6 GB, depth 10,000 over two minutes and 9.8 GB.
func TestDeepNestingIndependentBuildsInLinearSpace(t *testing.T) {
	alloc := func(depth int, alternate bool) uint64 {
		prog := testload.Text(t, deepProgram(depth, alternate))
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if _, err := New(prog, Options{Join: JoinIndependent, Differencing: true}); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	for _, alternate := range []bool{false, true} {
		small, large := alloc(1000, alternate), alloc(3000, alternate)
		t.Logf("alternate %v: engine build allocated %d bytes at depth 1,000, %d at 3,000", alternate, small, large)
		if large > 5*small {
			t.Errorf("alternate %v: depth 3,000 allocated %.1f times what depth 1,000 did, want at most 5 (linear is 3)", alternate, float64(large)/float64(small))
		}
	}
}
