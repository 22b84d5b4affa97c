package logic_test

import (
	"math/rand/v2"
	"testing"

	"github.com/tvla-go/tvla/internal/testgen"
	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/tvl"
)

// PropagateUnits keeps a formula's value on every two-valued structure,
// and on a three-valued one gives a value at least as precise: where the
// formula is 0 or 1 the propagated one is the same (random formulas of
// every connective, conditionals included, over random structures).
func TestPropagateUnitsKeepsTheValue(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 2026))
	voc := testgen.Vocabulary()
	sharper := 0
	for i := 0; i < 3000; i++ {
		f := testgen.Formula(r, 4)
		if i%3 != 0 {
			// A literal repeated under a conditional or a conjunction,
			// the cases propagation is for.
			var lit logic.Formula = logic.NewAtom([]string{"x", "y", "z"}[r.IntN(3)], testgen.Vars[r.IntN(2)])
			if r.IntN(2) == 0 {
				lit = logic.NewNot(lit)
			}
			withLit := func() logic.Formula {
				if r.IntN(2) == 0 {
					return logic.NewOr(lit, testgen.Formula(r, 2))
				}
				return logic.NewAnd(logic.NewNot(lit), testgen.Formula(r, 2))
			}
			if r.IntN(2) == 0 {
				f = &logic.If{Cond: lit, Then: withLit(), Else: withLit()}
			} else {
				f = logic.NewAnd(lit, f, withLit())
			}
		}
		g := logic.PropagateUnits(f)
		kf, err := tvl.Compile(f, voc, testgen.Vars)
		if err != nil {
			t.Fatal(err)
		}
		kg, err := tvl.Compile(g, voc, testgen.Vars)
		if err != nil {
			t.Fatalf("%s: %v", logic.String(g), err)
		}
		n := 1 + r.IntN(3)
		s := testgen.Structure(r, voc, n, i%2 == 0)
		bf, bg := kf.Bind(s), kg.Bind(s)
		for a := 0; a < n; a++ {
			for b := 0; b < n; b++ {
				for c := 0; c < n; c++ {
					vf, vg := bf.Eval(a, b, c), bg.Eval(a, b, c)
					switch {
					case vf == vg:
					case i%2 == 0:
						t.Fatalf("%s on a two-valued structure: %v, propagated %s: %v", logic.String(f), vf, logic.String(g), vg)
					case vf != logic.Unknown:
						t.Fatalf("%s: %v, propagated %s: %v", logic.String(f), vf, logic.String(g), vg)
					default:
						sharper++
					}
				}
			}
		}
	}
	if sharper == 0 {
		t.Error("propagation never sharpened a 1/2: the test does not reach the case it is for")
	}
}
