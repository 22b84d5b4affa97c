package predicates_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tvla-go/tvla/predicates"
)

// softBenchModel is a collapsed thread model of locs locations in a
// cycle and preds thread predicates, each step setting one of them for
// the scheduled thread: with generated soft invariants it has 2·locs·preds
// definitions of the same shape, as a large .alg model has thousands.
func softBenchModel(locs, preds int) string {
	var b strings.Builder
	b.WriteString("%p tr_scheduled(v) unique\n")
	for l := range locs {
		fmt.Fprintf(&b, "%%p at[l%d](v) nonabs\n", l)
	}
	for p := range preds {
		fmt.Fprintf(&b, "%%p q%d(v) nonabs\n", p)
	}
	b.WriteString("%%\n")
	for l := range locs {
		next := (l + 1) % locs
		fmt.Fprintf(&b, "%%action step%d() {\n  %%t \"step%d()\"\n  {\n    at[l%d](v) = at[l%d](v) & !tr_scheduled(v)\n    at[l%d](v) = at[l%d](v) | tr_scheduled(v)\n    q%d(v) = q%d(v) | tr_scheduled(v)\n  }\n}\n",
			l, l, l, l, next, next, l%preds, l%preds)
	}
	b.WriteString("%%\n")
	for l := range locs {
		fmt.Fprintf(&b, "L%d step%d() L%d\n", l, l, (l+1)%locs)
	}
	return b.String()
}

// BenchmarkDeriveSoftInvariants derives every step's updates of a model
// with 1,600 generated soft invariants: finite differencing substitutes
// definitions into each derived formula, and a model's engine is built
// this way once per round.
func BenchmarkDeriveSoftInvariants(b *testing.B) {
	prog, err := loadSoft(b, softBenchModel(20, 40), &predicates.SoftConfig{})
	if err != nil {
		b.Fatal(err)
	}
	voc := prog.Vocabulary
	var inst []*predicates.Predicate
	for _, p := range voc.Declared() {
		if p.Kind == predicates.Instrumentation {
			inst = append(inst, p)
		}
	}
	if len(inst) < 1600 {
		b.Fatalf("%d instrumentation predicates, want at least 1,600", len(inst))
	}
	for b.Loop() {
		for _, a := range prog.Actions[:4] {
			var ups []predicates.Update
			for _, u := range a.Updates {
				ups = append(ups, predicates.Update{Pred: u.Pred, Args: u.Args, Formula: u.Formula})
			}
			d := predicates.NewDifferencer(voc, ups)
			for _, p := range inst {
				d.Derive(p)
			}
		}
	}
}
