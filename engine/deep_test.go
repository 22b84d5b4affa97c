package engine

import (
	"context"
	"fmt"
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
				if join == JoinIndependent && depth > 1000 {
					// Coerce's compile of the relativized rule, whose
					// 3,000 existential variables become 3,000 loop
					// levels, is still quadratic in them (about 6 s).
					continue
				}
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
