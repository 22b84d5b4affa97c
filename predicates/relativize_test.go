package predicates_test

import (
	"testing"

	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/predicates"
	"github.com/tvla-go/tvla/tvp"
)

// Each variable of a relativized constraint is guarded in its body; the
// body as written stays as Plain, which is what the constraint reads.
func TestRelativizeConstraints(t *testing.T) {
	prog, err := tvp.ParseProgram("t.tvp", tvp.NewPlainSource("t.tvp", "%p x(v) unique\n%%\n%%\n"))
	if err != nil {
		t.Fatal(err)
	}
	cons := predicates.Constraints(prog.Vocabulary)
	rel := predicates.Relativize(cons, predicates.InacName)
	if len(rel) != len(cons) {
		t.Fatalf("%d constraints, want %d", len(rel), len(cons))
	}
	for i, c := range rel {
		if !logic.EqualFormulas(c.Plain, cons[i].Body) || !logic.EqualFormulas(c.Head, cons[i].Head) {
			t.Errorf("%s: Plain or head changed", c)
		}
		for _, v := range c.Vars {
			guarded := false
			for _, g := range conjunctsOf(c.Body) {
				if a, ok := g.(*logic.Atom); ok && a.Pred == predicates.InacName && a.Args[0] == v {
					guarded = true
				}
			}
			if !guarded {
				t.Errorf("%s: %s not guarded", c, v)
			}
		}
	}
}

func conjunctsOf(f logic.Formula) []logic.Formula {
	if b, ok := f.(*logic.Binary); ok && b.Op == logic.And {
		return append(conjunctsOf(b.Left), conjunctsOf(b.Right)...)
	}
	return []logic.Formula{f}
}
