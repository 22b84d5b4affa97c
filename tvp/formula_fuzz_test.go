package tvp

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/tvla-go/tvla/internal/testgen"
	"github.com/tvla-go/tvla/logic"
)

// FuzzParseFormula checks that no text makes the formula parser panic,
// that every error is an *Error at a valid position, and that a formula
// that parses prints to text that parses back to the same tree, with the
// free variables FreeVars and FreeVarsMemo agree on and NNF and Simplify
// can take.
func FuzzParseFormula(f *testing.F) {
	r := rand.New(rand.NewPCG(11, 13))
	for i := 0; i < 40; i++ {
		f.Add(logic.String(testgen.Formula(r, 4)))
	}
	for _, s := range []string{
		"E(v0) (E(v1) (x(v0)))",
		"A(v) !x(v) | E(w) n(v, w) & t[n](w, v)",
		"TC(a, b)(s, t) n(s, t)",
		"(x(v) ? 1 : 1/2) <-> y(v) - > z(v)",
		"n*(v, w) & n+(w, v) & v != w",
		"E(v0) (" + strings.Repeat("!(", 50) + "x(v0)" + strings.Repeat(")", 50),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		g, err := ParseFormula("fuzz.tvp", text)
		if err != nil {
			e, ok := err.(*Error)
			if !ok {
				t.Fatalf("error %v is a %T, not an *Error", err, err)
			}
			if e.Pos.File != "fuzz.tvp" || e.Pos.Line < 1 || e.Pos.Col < 1 {
				t.Fatalf("error at an invalid position: %q (%+v)", e.Error(), e.Pos)
			}
			return
		}
		printed := logic.String(g)
		h, err := ParseFormula("printed", printed)
		if err != nil {
			t.Fatalf("%q parses, but its printing %q does not: %v", text, printed, err)
		}
		if !logic.EqualFormulas(g, h) {
			t.Fatalf("%q prints as %q, which reads back as %q", text, printed, logic.String(h))
		}
		var memo logic.FreeVarsMemo
		if got, want := memo.Of(g), logic.FreeVars(g); !reflect.DeepEqual(got, want) && len(got)+len(want) > 0 {
			t.Fatalf("free variables of %q: memo %v, FreeVars %v", text, got, want)
		}
		logic.NNF(g)
		logic.Simplify(g)
	})
}
