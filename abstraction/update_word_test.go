package abstraction

import (
	"math/rand/v2"
	"testing"

	"github.com/tvla-go/tvla/internal/testgen"
	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/model"
	"github.com/tvla-go/tvla/tvl"
)

// updateFormula is a random update formula for x(v): unaryFormula's
// atoms, x(v) itself and atoms of the precondition variable t, in the
// shapes finite differencing gives (x ? !Δ⁻ : Δ⁺, x & G, x | G).
func updateFormula(r *rand.Rand) logic.Formula {
	g := func() logic.Formula {
		f := unaryFormula(r, 2)
		if r.IntN(2) == 0 {
			f = logic.NewAnd(f, logic.NewAtom([]string{"x", "y", "z"}[r.IntN(3)], "t"))
		}
		return f
	}
	x := logic.NewAtom("x", "v")
	switch r.IntN(4) {
	case 0:
		return &logic.If{Cond: x, Then: logic.NewNot(g()), Else: g()}
	case 1:
		return logic.NewAnd(x, g())
	case 2:
		return logic.NewOr(x, g())
	}
	return g()
}

// A word-parallel unary update writes what the tuple-at-a-time update
// writes, on random formulas, bindings and three-valued structures (a
// third of up to 150 individuals, so that words fill and overflow).
func TestWordUpdatesAgreeWithTuples(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 2026))
	voc := tvl.NewVocabulary()
	voc.MustAdd("b", 0)
	for _, p := range []string{"x", "y", "z"} {
		voc.MustAdd(p, 1)
	}
	x := voc.Lookup("x")
	args, pre := []logic.Var{"v"}, []logic.Var{"t"}
	compiled, changedSome := 0, 0
	for i := 0; i < 4000; i++ {
		f := updateFormula(r)
		where := (&coverAnalysis{voc: voc, pred: x, args: args}).changes(f)
		word := compileWordUpdate(voc, x, args, f, pre, where)
		if word == nil {
			continue
		}
		compiled++
		k, err := tvl.Compile(f, voc, []logic.Var{"v", "t"})
		if err != nil {
			t.Fatal(err)
		}
		u := compiledUpdate{pred: x, eval: k, fromBinding: []int{0}, where: where}
		plain := &Action{src: &model.Action{}, updates: []compiledUpdate{u}}
		u.word = word
		fast := &Action{src: &model.Action{}}
		u.coverID = (&actionCompiler{a: fast}).wordCover(word, where)
		fast.updates = []compiledUpdate{u}
		n := 1 + r.IntN(5)
		if i%3 == 0 {
			n = 1 + r.IntN(150)
		}
		s := testgen.Structure(r, voc, n, false)
		b := Binding{r.IntN(n)}
		p1, c1, _ := plain.UpdateFrom(s, b, nil)
		p2, c2, _ := fast.UpdateFrom(s, b, nil)
		if len(c1) != len(c2) || !tvl.Equal(p1, p2) {
			for u := 0; u < n; u++ {
				if p1.Get(x, u) != p2.Get(x, u) {
					t.Logf("u%d: pre %v plain %v word %v y %v", u, s.Get(x, u), p1.Get(x, u), p2.Get(x, u), s.Get(voc.Lookup("y"), u))
				}
			}
			t.Fatalf("update x(v) = %s on %d individuals: word-parallel and tuple updates differ (changed %v, %v)", logic.String(f), n, c2, c1)
		}
		if len(c1) > 0 {
			changedSome++
		}
	}
	if compiled < 3000 || changedSome < 1000 {
		t.Errorf("too few word-parallel updates (%d) or changes (%d)", compiled, changedSome)
	}
}
