package logic_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tvla-go/tvla/internal/testgen"
	"github.com/tvla-go/tvla/logic"
)

// Rewrite with nothing replaced rebuilds the same formula, and a
// replacement of every atom reaches each atom once, under every
// connective, quantifier and TC, and nothing else.
func TestRewriteReachesEveryAtom(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 27))
	for i := 0; i < 2000; i++ {
		f := testgen.Formula(r, 5)
		same := logic.Rewrite(f, func(logic.Formula) (logic.Formula, bool) { return nil, false })
		if logic.String(same) != logic.String(f) {
			t.Fatalf("Rewrite changed %s into %s", logic.String(f), logic.String(same))
		}
		atoms := 0
		logic.Walk(f, func(g logic.Formula) bool {
			if _, ok := g.(*logic.Atom); ok {
				atoms++
			}
			return true
		})
		renamed := logic.Rewrite(f, func(g logic.Formula) (logic.Formula, bool) {
			if a, ok := g.(*logic.Atom); ok {
				return &logic.Atom{Pred: "R_" + a.Pred, Args: a.Args}, true
			}
			return nil, false
		})
		seen := 0
		logic.Walk(renamed, func(g logic.Formula) bool {
			if a, ok := g.(*logic.Atom); ok {
				if !strings.HasPrefix(a.Pred, "R_") {
					t.Fatalf("%s: atom %s not rewritten", logic.String(f), a.Pred)
				}
				seen++
			}
			return true
		})
		if seen != atoms {
			t.Fatalf("%s: %d atoms rewritten, want %d", logic.String(f), seen, atoms)
		}
		if logic.String(logic.RenamePreds(f, func(p string) string { return p })) != logic.String(f) {
			t.Fatalf("RenamePreds with the identity changed %s", logic.String(f))
		}
	}
}
