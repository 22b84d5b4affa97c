package abstraction

import (
	"math/rand/v2"
	"testing"

	"github.com/tvla-go/tvla/internal/testgen"
	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/predicates"
	"github.com/tvla-go/tvla/tvl"
)

// unaryFormula is a random formula over the variable v built from the
// unary predicates x, y, z, the nullary b, constants and every
// connective.
func unaryFormula(r *rand.Rand, depth int) logic.Formula {
	return randomFormula(r, depth, func() logic.Formula {
		switch r.IntN(6) {
		case 0:
			return &logic.Const{Value: logic.Kleene(r.IntN(3))}
		case 1:
			return logic.NewAtom("b")
		default:
			return logic.NewAtom([]string{"x", "y", "z"}[r.IntN(3)], "v")
		}
	})
}

// randomFormula is a random formula of every connective over the leaves
// leaf draws.
func randomFormula(r *rand.Rand, depth int, leaf func() logic.Formula) logic.Formula {
	if depth == 0 || r.IntN(3) == 0 {
		return leaf()
	}
	sub := func() logic.Formula { return randomFormula(r, depth-1, leaf) }
	switch r.IntN(4) {
	case 0:
		return logic.NewNot(sub())
	case 1:
		return &logic.If{Cond: sub(), Then: sub(), Else: sub()}
	default:
		return &logic.Binary{Op: logic.BinOp(r.IntN(4)), Left: sub(), Right: sub()}
	}
}

// A word-parallel constraint does what the assignment-at-a-time join
// does: the same structure afterwards, the same verdict and the same
// breach count, on random three-valued structures (a third of them of up
// to 150 individuals, so that words fill and overflow).
func TestWordConstraintsAgreeWithTheJoin(t *testing.T) {
	r := rand.New(rand.NewPCG(64, 2026))
	voc := tvl.NewVocabulary()
	voc.MustAdd("b", 0)
	for _, p := range []string{"x", "y", "z"} {
		voc.MustAdd(p, 1)
	}
	compiled, discards, sharpened, required3, emptyDisjunct := 0, 0, 0, 0, 0
	for i := 0; i < 6000; i++ {
		var head logic.Formula
		switch r.IntN(3) {
		case 0:
			head = &logic.Const{Value: logic.False}
		case 1:
			head = logic.NewAtom([]string{"x", "y", "z"}[r.IntN(3)], "v")
		default:
			head = logic.NewNot(logic.NewAtom([]string{"x", "y", "z"}[r.IntN(3)], "v"))
		}
		body := unaryFormula(r, 3)
		switch i % 10 {
		case 0:
			// Three required predicates: one more than the Coercer's
			// guards, read from the arena.
			all := logic.NewAnd(logic.NewAtom("x", "v"), logic.NewAnd(logic.NewAtom("y", "v"), logic.NewAtom("z", "v")))
			body = logic.NewAnd(all, body)
		case 1:
			// A disjunct that is 1: an empty conjunction in the arena.
			body = &logic.Binary{Op: logic.Or, Left: body, Right: &logic.Binary{Op: logic.And, Left: &logic.Const{Value: logic.True}, Right: &logic.Const{Value: logic.True}}}
		}
		src := predicates.Constraint{Body: body, Head: head, Vars: []logic.Var{"v"}, Origin: "test"}
		k, err := compileConstraint(voc, src)
		if err != nil {
			t.Fatal(err)
		}
		if k.word == nil {
			t.Fatalf("%s: no word-parallel form", src)
		}
		if len(k.word.required) >= 3 {
			required3++
		}
		for _, d := range k.word.disj {
			if len(d) == 0 {
				emptyDisjunct++
				break
			}
		}
		compiled++
		n := 1 + r.IntN(4)
		if i%3 == 0 {
			n = 1 + r.IntN(150)
		}
		s := testgen.Structure(r, voc, n, false)
		c := newCoercer(voc, []*constraint{k})
		a, b := s.Clone(), s.Clone()
		var ra, rb CoerceResult
		c.ones.reset(len(voc.Preds()))
		okA := c.apply(a, 0, k, make(touchSet, len(voc.Preds())), &ra, nil)
		word := k.word
		k.word = nil
		okB := c.apply(b, 0, k, make(touchSet, len(voc.Preds())), &rb, nil)
		k.word = word
		if okA != okB || ra.Breaches != rb.Breaches {
			t.Fatalf("%s on %d individuals: word-parallel %v with %d breaches, the join %v with %d", src, s.Size(), okA, ra.Breaches, okB, rb.Breaches)
		}
		if !okA {
			discards++
			continue
		}
		if !tvl.Equal(a, b) {
			t.Fatalf("%s: the two forms sharpen differently", src)
		}
		if ra.Breaches > 0 {
			sharpened++
		}
	}
	if discards < 100 || sharpened < 100 {
		t.Errorf("too few discards (%d) or sharpenings (%d) among %d constraints", discards, sharpened, compiled)
	}
	if required3 < 100 || emptyDisjunct < 100 {
		t.Errorf("too few constraints with three required predicates (%d) or an empty disjunct (%d)", required3, emptyDisjunct)
	}
}
