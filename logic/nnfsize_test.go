package logic_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tvla-go/tvla/internal/testgen"
	"github.com/tvla-go/tvla/logic"
)

func nodes(f logic.Formula) int {
	n := 0
	logic.Walk(f, func(logic.Formula) bool { n++; return true })
	return n
}

// NNFSize counts the normal form's nodes within a factor of two (a
// negation of the original becomes at most one at a leaf), on random
// formulas with <-> among their connectives.
func TestNNFSizeBoundsTheNormalForm(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 7))
	for i := 0; i < 2000; i++ {
		f := testgen.Formula(r, 5)
		got, want := logic.NNFSize(f, 1<<30), nodes(logic.NNF(f))
		if want > 2*got || got > 2*want+2 {
			t.Fatalf("NNFSize(%s) = %d, its NNF has %d nodes", logic.String(f), got, want)
		}
	}
}

// Nested <-> double the normal form at every level: NNFSize stops
// counting past its limit, after a walk linear in the formula, however
// deep the nesting.
func TestNNFSizeStopsAtTheLimit(t *testing.T) {
	var f logic.Formula = &logic.Atom{Pred: "x", Args: []logic.Var{"v"}}
	for i := 0; i < 10000; i++ {
		f = &logic.Binary{Op: logic.Iff, Left: &logic.Atom{Pred: "x", Args: []logic.Var{"v"}}, Right: f}
	}
	if n := logic.NNFSize(f, 100000); n <= 100000 {
		t.Fatalf("NNFSize of 10,000 nested <-> = %d", n)
	}
	small := &logic.Binary{Op: logic.Iff, Left: &logic.Atom{Pred: "x"}, Right: &logic.Atom{Pred: "y"}}
	if n := logic.NNFSize(small, 100000); n > 10 || !strings.Contains(logic.String(logic.NNF(small)), "x") {
		t.Errorf("NNFSize(x <-> y) = %d", n)
	}
}
