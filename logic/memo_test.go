package logic_test

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/tvla-go/tvla/internal/testgen"
	"github.com/tvla-go/tvla/logic"
)

// TestFreeVarsMemoAgrees checks FreeVarsMemo against FreeVars on random
// formulas and on each of their subformulas, in one memo.
func TestFreeVarsMemoAgrees(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	var memo logic.FreeVarsMemo
	for i := 0; i < 5000; i++ {
		f := testgen.Formula(r, 6)
		logic.Walk(f, func(g logic.Formula) bool {
			if got, want := memo.Of(g), logic.FreeVars(g); !reflect.DeepEqual(got, want) && (len(got) != 0 || len(want) != 0) {
				t.Fatalf("memo.Of(%s) = %v, want %v", logic.String(g), got, want)
			}
			return true
		})
	}
}

// deepExists is E(v0) (E(v1) (... x(v0))), n quantifiers deep.
func deepExists(n int) logic.Formula {
	var f logic.Formula = logic.NewAtom("x", "v0")
	for i := n - 1; i >= 0; i-- {
		f = logic.NewExists(f, logic.Var("v"+itoa(i)))
	}
	return f
}

func itoa(i int) string {
	const digits = "0123456789"
	if i < 10 {
		return digits[i : i+1]
	}
	return itoa(i/10) + digits[i%10:i%10+1]
}

// TestFreeVarsLinearOnDeepNesting counts the nodes FreeVars, Rename and
// the memo visit on a formula nested 3,000 quantifiers deep: each node
// once (Rename's capture checks included), where they used to cost a copy
// of the enclosing quantifiers' variables per level.
func TestFreeVarsLinearOnDeepNesting(t *testing.T) {
	const depth = 3000
	f := deepExists(depth)
	nodes := int64(depth + 1)
	var n int64
	stop := logic.CountVisits(&n)
	defer stop()
	if got := logic.FreeVars(f); len(got) != 0 {
		t.Fatalf("FreeVars = %v", got)
	}
	if n != nodes {
		t.Errorf("FreeVars visited %d nodes, want %d", n, nodes)
	}
	n = 0
	var memo logic.FreeVarsMemo
	logic.Walk(f, func(g logic.Formula) bool { memo.Of(g); return true })
	if n != nodes {
		t.Errorf("the memo computed %d nodes, want %d", n, nodes)
	}
	// Renaming a free variable through every level, with capture
	// checks at each quantifier.
	n = 0
	h := logic.Rename(logic.NewAnd(deepExists(depth), logic.NewAtom("y", "w")), map[logic.Var]logic.Var{"w": "v1"})
	if n > 2*nodes+10 {
		t.Errorf("Rename visited %d nodes for a formula of %d", n, nodes+2)
	}
	if fv := logic.FreeVars(h); !reflect.DeepEqual(fv, []logic.Var{"v1"}) {
		t.Errorf("FreeVars(Rename) = %v", fv)
	}
}
