package abstraction

import (
	"math/rand/v2"
	"testing"

	"github.com/tvla-go/tvla/internal/testgen"
	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/model"
	"github.com/tvla-go/tvla/predicates"
	"github.com/tvla-go/tvla/tvl"
)

// sharedFormula is a random update formula for x(v) whose quantified
// subformulas of v recur: connectives over x, y, z of v and a few
// quantified formulas drawn from a small pool.
func sharedFormula(r *rand.Rand, pool []logic.Formula, depth int) logic.Formula {
	return randomFormula(r, depth, func() logic.Formula {
		switch r.IntN(5) {
		case 0:
			return &logic.Const{Value: logic.Kleene(r.IntN(3))}
		case 1, 2:
			return pool[r.IntN(len(pool))]
		default:
			return logic.NewAtom([]string{"x", "y", "z"}[r.IntN(3)], "v")
		}
	})
}

// An update whose quantified subformulas are shared (shared.go) writes
// what the tuple-at-a-time update of the same formula writes, on random
// three-valued structures; the subformulas of the whole batch are
// compiled once each, as one action's are.
func TestSharedUpdatesAgreeWithTuples(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 2026))
	voc := predicates.New()
	for _, p := range []string{"x", "y", "z"} {
		if _, err := voc.Declare(p, predicates.Core, []logic.Var{"v"}, predicates.Properties{}, nil, "test"); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := voc.Declare("e", predicates.Core, []logic.Var{"v1", "v2"}, predicates.Properties{}, nil, "test"); err != nil {
		t.Fatal(err)
	}
	e := func(a, b logic.Var) logic.Formula { return logic.NewAtom("e", a, b) }
	pool := []logic.Formula{
		logic.NewExists(logic.NewAnd(e("v", "u"), logic.NewAtom("y", "u")), "u"),
		logic.NewForall(logic.NewOr(logic.NewNot(e("u", "v")), logic.NewAtom("z", "u")), "u"),
		logic.NewExists(logic.NewAnd(e("u", "w"), logic.NewAnd(e("v", "u"), logic.NewAtom("x", "w"))), "u", "w"),
	}
	x := voc.Lookup("x").Pred
	c := &actionCompiler{voc: voc, sharedText: map[string]int{}, a: &Action{src: &model.Action{}}}
	shared, plainOnly := 0, 0
	for i := 0; i < 3000; i++ {
		f := sharedFormula(r, pool, 4)
		if r.IntN(2) == 0 {
			f = &logic.If{Cond: logic.NewAtom("x", "v"), Then: logic.NewNot(f), Else: sharedFormula(r, pool, 3)}
		}
		where := (&coverAnalysis{voc: voc.Tvl(), pred: x, args: []logic.Var{"v"}}).changes(f)
		g, replaced, err := c.share(f, "v")
		if err != nil {
			t.Fatal(err)
		}
		k, err := tvl.Compile(f, voc.Tvl(), []logic.Var{"v"})
		if err != nil {
			t.Fatal(err)
		}
		plain := &Action{src: &model.Action{}, updates: []compiledUpdate{{pred: x, eval: k, where: where}}}
		word := compileWordUpdate(voc.Tvl(), x, []logic.Var{"v"}, g, nil, where)
		if !replaced || word == nil {
			plainOnly++
			continue
		}
		shared++
		fast := &Action{src: &model.Action{}, shared: c.a.shared}
		fc := &actionCompiler{a: fast}
		fast.updates = []compiledUpdate{{pred: x, where: where, word: word, coverID: fc.wordCover(word, where)}}
		n := 1 + r.IntN(6)
		if i%5 == 0 {
			n = 60 + r.IntN(80)
		}
		s := testgen.Structure(r, voc.Tvl(), n, false)
		p1, c1, _ := plain.UpdateFrom(s, nil, nil)
		p2, c2, _ := fast.UpdateFrom(s, nil, Bindings{})
		if len(c1) != len(c2) || !tvl.Equal(p1, p2) {
			t.Fatalf("update x(v) = %s on %d individuals: shared (%s) and tuple updates differ", logic.String(f), n, logic.String(g))
		}
	}
	if shared < 1500 || len(c.a.shared) != len(pool) {
		t.Errorf("%d updates shared (%d not), %d shared subformulas compiled; want at least 1500, and %d", shared, plainOnly, len(c.a.shared), len(pool))
	}
}
