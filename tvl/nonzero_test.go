package tvl_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/tvla-go/tvla/internal/testgen"
	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/tvl"
)

// randomConjunction is a conjunction of random atoms, equalities and
// formulas over testgen.Vars: the shape of a precondition, which the
// loop nest of ForEachNonZero draws its candidates from.
func randomConjunction(r *rand.Rand) logic.Formula {
	v := func() logic.Var { return testgen.Vars[r.IntN(len(testgen.Vars))] }
	var f logic.Formula = logic.NewAtom("x", v())
	for range 1 + r.IntN(4) {
		var g logic.Formula
		switch r.IntN(5) {
		case 0:
			g = logic.NewAtom("n", v(), v())
		case 1:
			g = logic.NewAtom([]string{"y", "z"}[r.IntN(2)], v())
		case 2:
			g = &logic.Equal{Left: v(), Right: v()}
		case 3:
			g = logic.NewNot(logic.NewAtom("m", v(), v()))
		default:
			g = testgen.Formula(r, 2)
		}
		f = &logic.Binary{Op: logic.And, Left: f, Right: g}
	}
	return f
}

// TestForEachNonZeroIsForEachWithoutZeros checks, on random conjunctions
// and structures, that ForEachNonZero visits exactly the assignments
// ForEach visits with a value other than 0, in the same (lexicographic)
// order and with the same values, whatever the order of the free
// variables (a nest bound in another order sorts its assignments), and
// that AnyNonZero agrees.
func TestForEachNonZeroIsForEachWithoutZeros(t *testing.T) {
	r := rand.New(rand.NewPCG(22, 7))
	voc := testgen.Vocabulary()
	orders := [][]logic.Var{{"v1", "v2", "v3"}, {"v3", "v1", "v2"}, {"v2", "v3", "v1"}}
	for i := range 400 {
		f := randomConjunction(r)
		s := testgen.Structure(r, voc, 1+r.IntN(6), r.IntN(4) == 0)
		free := orders[i%len(orders)]
		c, err := tvl.Compile(f, voc, free)
		if err != nil {
			t.Fatal(err)
		}
		var want, got []string
		c.Bind(s).ForEach(func(asg []int, v logic.Kleene) bool {
			if v != logic.False {
				want = append(want, fmt.Sprint(asg, v))
			}
			return true
		})
		b := c.Bind(s)
		b.ForEachNonZero(func(asg []int, v logic.Kleene) bool {
			got = append(got, fmt.Sprint(asg, v))
			return true
		})
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%s over %v on\n%s\nForEachNonZero %v\nForEach         %v", f, free, s, got, want)
		}
		if b.AnyNonZero() != (len(want) > 0) {
			t.Fatalf("%s: AnyNonZero is %v with %d assignments not 0", f, b.AnyNonZero(), len(want))
		}
	}
}

// TestForEachNonZeroStops checks that visit's false ends the walk.
func TestForEachNonZeroStops(t *testing.T) {
	voc := testgen.Vocabulary()
	s := testgen.Structure(rand.New(rand.NewPCG(1, 2)), voc, 5, true)
	for u := range 5 {
		s.Set(voc.Lookup("x"), logic.True, u)
	}
	for _, free := range [][]logic.Var{{"v1", "v2"}, {"v2", "v1"}} {
		c, err := tvl.Compile(logic.NewAtom("x", "v1"), voc, free)
		if err != nil {
			t.Fatal(err)
		}
		calls := 0
		c.Bind(s).ForEachNonZero(func([]int, logic.Kleene) bool {
			calls++
			return calls < 3
		})
		if calls != 3 {
			t.Errorf("free %v: %d calls after a stop at the third", free, calls)
		}
	}
}
