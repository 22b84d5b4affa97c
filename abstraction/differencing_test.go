package abstraction

import (
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/predicates"
	"github.com/tvla-go/tvla/tvl"
	"github.com/tvla-go/tvla/tvp"
)

// randomList builds a random two-valued heap for the team's list
// vocabulary: n nodes, a functional acyclic nxt (a node's successor has a
// higher number), each pointer variable on some node or NULL, and every
// instrumentation predicate set from its definition — a concrete state
// the programs can be in.
func randomList(r *rand.Rand, voc *predicates.Vocabulary, n int) *tvl.Structure {
	s := tvl.New(voc.Tvl())
	for i := 0; i < n; i++ {
		s.AddIndividual()
	}
	nxt := voc.Lookup("nxt").Pred
	for u := 0; u < n; u++ {
		if w := u + 1 + r.IntN(n-u); w < n && r.IntN(4) > 0 {
			s.Set(nxt, logic.True, u, w)
		}
	}
	for _, p := range voc.Declared() {
		if p.Kind == predicates.Core && p.Arity == 1 && n > 0 && r.IntN(3) > 0 {
			s.Set(p.Pred, logic.True, r.IntN(n))
		}
	}
	setInstrumentation(s, voc)
	return s
}

func setInstrumentation(s *tvl.Structure, voc *predicates.Vocabulary) {
	for _, p := range voc.DependencyOrder() {
		c, err := tvl.Compile(p.Def, voc.Tvl(), p.Params)
		if err != nil {
			panic(err)
		}
		b := c.Bind(s)
		for t := range tvl.Tuples(s.Size(), p.Arity) {
			s.Set(p.Pred, b.Eval(t...), t...)
		}
	}
}

// Finite differencing is exact on concrete structures: after any action
// of the team's list programs (with the hand-written instrumentation
// updates left out, so that every one is derived), each instrumentation
// predicate has exactly the value its definition gives on the updated
// structure.
func TestDerivedUpdatesAreExactOnConcreteStructures(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 2003))
	cfg := tvp.LoadConfig{Defines: map[string]string{"DERIVE_UPDATES": "1"}}
	checked := 0
	for _, name := range []string{"reverse", "create", "insert", "delete", "append", "merge"} {
		prog, _, err := tvp.LoadProgram(filepath.Join("..", "programs", "sll", name+".tvp"), cfg)
		if err != nil {
			t.Fatal(err)
		}
		voc := prog.Vocabulary
		for _, ma := range prog.Actions {
			if ma.Retain != nil || ma.Clone {
				// Differencing assumes, as TVLA does, that removed
				// individuals do not count for the others.
				continue
			}
			act, err := CompileAction(voc, ma, ActionOptions{Differencing: true})
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < 150; i++ {
				s := randomList(r, voc, r.IntN(6))
				s.Freeze()
				for _, b := range act.PreconditionBindings(s, nil) {
					post, _ := act.Update(s, b, nil)
					want := post.Clone()
					setInstrumentation(want, voc)
					for _, p := range voc.Declared() {
						if p.Kind != predicates.Instrumentation {
							continue
						}
						for tu := range tvl.Tuples(post.Size(), p.Arity) {
							if got, w := post.Get(p.Pred, tu...), want.Get(p.Pred, tu...); got != w {
								t.Fatalf("%s: after %s, %s%v = %v but its definition gives %v\nbefore:\n%s\nafter:\n%s",
									name, ma.Title, p.Name, tu, got, w, s, post)
							}
						}
					}
					checked++
				}
			}
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d cases checked", checked)
	}
	t.Logf("%d action applications checked", checked)
}
