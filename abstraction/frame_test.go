package abstraction

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tvla-go/tvla/internal/testgen"
	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/tvl"
)

// A cover is sound: on random three-valued structures, at every tuple it
// leaves out, the update formula gives back the predicate's value. The
// formulas are random, alone and in the shapes updates take (p & G,
// p | G, p ? T : E), over the tuple's variables and an extra variable v3
// that stands for a precondition variable (tried with every value).
func TestCoverLeavesOutOnlyUnchangedTuples(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 1994))
	voc := testgen.Vocabulary()
	updates := []struct {
		pred string
		args []logic.Var
	}{{"b", nil}, {"x", []logic.Var{"v1"}}, {"n", []logic.Var{"v1", "v2"}}, {"m", []logic.Var{"v2", "v1"}}}
	narrowed, checked := 0, 0
	for i := 0; i < 3000; i++ {
		up := updates[r.IntN(len(updates))]
		p := voc.Lookup(up.pred)
		self := logic.NewAtom(up.pred, up.args...)
		g := func() logic.Formula { return testgen.Formula(r, 3) }
		var f logic.Formula
		switch r.IntN(5) {
		case 0:
			f = logic.NewAnd(self, g())
		case 1:
			f = &logic.Binary{Op: logic.And, Left: g(), Right: self}
		case 2:
			f = logic.NewOr(self, g())
		case 3:
			f = &logic.If{Cond: self, Then: g(), Else: g()}
		default:
			f = g()
		}
		cv := (&coverAnalysis{voc: voc, pred: p, args: up.args}).changes(f)
		vars := append(slices.Clone(up.args), "v1", "v2", "v3")
		vars = dedupe(vars)
		c, err := tvl.Compile(f, voc, vars)
		if err != nil {
			t.Fatalf("%s: %v", logic.String(f), err)
		}
		s := testgen.Structure(r, voc, 1+r.IntN(4), false)
		sparsen(r, s)
		n, k := s.Size(), p.Arity
		var visited [][]int
		cv.tuples(s, k, func(tu []int) { visited = append(visited, slices.Clone(tu)) })
		if !slices.IsSortedFunc(visited, slices.Compare) || len(slices.CompactFunc(slices.Clone(visited), slices.Equal)) != len(visited) {
			t.Fatalf("%s: tuples %v not in order or repeated", logic.String(f), visited)
		}
		if !cv.all && len(visited) < pow(n, k) {
			narrowed++
		}
		b := c.Bind(s)
		testgen.Assignments(len(vars), n, func(asg []int) {
			tu := asg[:k]
			if slices.ContainsFunc(visited, func(v []int) bool { return slices.Equal(v, tu) }) {
				return
			}
			checked++
			if got, want := b.Eval(asg...), s.Get(p, tu...); got != want {
				t.Fatalf("%s = %s at %v (assignment %v) is %v, the predicate is %v, but the cover left it out",
					up.pred, logic.String(f), tu, asg, got, want)
			}
		})
	}
	if narrowed < 500 || checked < 5000 {
		t.Errorf("too few cases exercised a narrowed cover: %d formulas, %d left-out tuples", narrowed, checked)
	}
}

// sparsen zeroes most tuples of some predicates, as in real heaps, so
// that covers leave tuples out.
func sparsen(r *rand.Rand, s *tvl.Structure) {
	for _, p := range s.Vocabulary().Preds() {
		if p == s.Vocabulary().Summary() || r.IntN(3) == 0 {
			continue
		}
		for t := range tvl.Tuples(s.Size(), p.Arity) {
			if r.IntN(4) > 0 {
				s.Set(p, logic.False, t...)
			}
		}
	}
}

func dedupe(vs []logic.Var) []logic.Var {
	var out []logic.Var
	for _, v := range vs {
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

func pow(n, k int) int {
	r := 1
	for range k {
		r *= n
	}
	return r
}
